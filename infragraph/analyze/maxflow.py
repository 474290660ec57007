"""Exact max-flow between two NPU sets, fast enough to repeat under a thousand failure draws.

A fabric graph is mostly chains and bundles: NPU - PCIe switch - NIC - port - cable - port - switch
ASIC. The NPUs of each side are merged into the source and the sink (they are joined to them by
unlimited arcs, so no finite cut separates them), then three reductions shrink the graph without
changing any max-flow value between the terminals (undirected, full-duplex links: each direction
carries up to the link's bandwidth):

- a dead end (a non-terminal node with one neighbour) carries nothing: dropped;
- two edges in series through a non-terminal node of degree 2 carry min(c1, c2);
- parallel edges between the same two nodes carry c1 + c2.

The reductions are done once, on the structure, recording each reduced edge's capacity as a
min/sum expression over the original edges. Because the rules hold for any non-negative
capacities, a failure (capacity 0) or degradation is applied by re-evaluating the expressions
(a few numpy reductions) rather than by reducing again; the small core left (switch ASICs, the
source and the sink) goes to scipy's Dinic max-flow. Tests compare it with networkx on the full
graph.

Capacities are integers for scipy: Gbit/s times a scale chosen so the largest possible flow fits
in 31 bits; when every capacity is a whole number at that scale the result is exact, otherwise
each capacity is rounded down and `resolution_gbps` says by how much at most per link.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components, maximum_flow

_MIN, _SUM = 0, 1
INT_LIMIT = 2**31 - 1


@dataclass
class _Level:
    kind: int  # _MIN or _SUM
    out: np.ndarray  # expression ids written by this level
    starts: np.ndarray  # reduceat offsets into children
    children: np.ndarray  # expression ids read

    @property
    def ends(self) -> np.ndarray:
        return np.append(self.starts[1:], self.children.size)


class ReducedNetwork:
    """The series-parallel reduction of one graph for one source/sink pair, reusable across
    capacity vectors (failures only lower capacities; the structure never changes)."""

    def __init__(self, num_nodes: int, src: np.ndarray, dst: np.ndarray, sources: np.ndarray, sinks: np.ndarray):
        n = num_nodes
        self.source, self.sink = n, n + 1
        self.num_edges = int(src.size)
        terminal = np.zeros(n + 2, bool)
        terminal[[n, n + 1]] = True
        # The sources are joined to the source by unlimited arcs, so they *are* the source for any
        # cut (no finite cut separates them): merge them into it, and the sinks into the sink.
        # Edges among the sources then become self-loops and drop out.
        merge = np.arange(n + 2, dtype=np.int64)
        merge[sources] = n
        merge[sinks] = n + 1
        u, v = merge[np.asarray(src, dtype=np.int64)], merge[np.asarray(dst, dtype=np.int64)]
        expr = np.arange(u.size, dtype=np.int64)
        self.num_leaves = int(u.size)
        self.levels: list[_Level] = []
        self._next = self.num_leaves
        while True:
            before = u.size
            u, v, expr = self._parallel(u, v, expr)
            u, v, expr = self._dead_ends(u, v, expr, terminal, n + 2)
            u, v, expr = self._series(u, v, expr, terminal, n + 2)
            if u.size == before and not self._changed:
                break
        nodes, inv = np.unique(np.concatenate([u, v, [n, n + 1]]), return_inverse=True)
        self.core_nodes = nodes
        self.cu, self.cv = inv[:u.size], inv[u.size:2 * u.size]
        self.core_source, self.core_sink = int(inv[-2]), int(inv[-1])
        self.core_expr = expr
        self.num_exprs = self._next
        # CSR of both arc directions, built once: only its data changes per evaluation
        rows = np.concatenate([self.cu, self.cv])
        cols = np.concatenate([self.cv, self.cu])
        order = np.lexsort((cols, rows))
        self._rows, self._cols, self._order = rows[order], cols[order], order
        m = nodes.size
        self._indptr = np.searchsorted(self._rows, np.arange(m + 1)).astype(np.int32)
        self._graph = csr_matrix((np.zeros(rows.size, np.int32), self._cols.astype(np.int32), self._indptr), shape=(m, m))
        # each expression feeds at most one operation: its parent, for incremental re-evaluation
        self._parent = np.full(self.num_exprs, -1, dtype=np.int64)
        for lv in self.levels:
            self._parent[lv.children] = np.repeat(lv.out, np.diff(np.append(lv.starts, lv.children.size)))

    # --- reductions (each appends one level of expressions) ------------------------------------
    def _emit(self, kind: int, groups_children: list[np.ndarray] | tuple[np.ndarray, np.ndarray]) -> np.ndarray:
        children, starts = groups_children
        out = np.arange(self._next, self._next + starts.size, dtype=np.int64)
        self._next += starts.size
        self.levels.append(_Level(kind, out, starts, children))
        return out

    def _parallel(self, u, v, expr):
        self._changed = False
        if u.size == 0:
            return u, v, expr
        lo, hi = np.minimum(u, v), np.maximum(u, v)
        keep = lo != hi  # self-loops carry nothing between distinct terminals
        lo, hi, expr = lo[keep], hi[keep], expr[keep]
        order = np.lexsort((hi, lo))
        lo, hi, expr = lo[order], hi[order], expr[order]
        first = np.ones(lo.size, bool)
        first[1:] = (lo[1:] != lo[:-1]) | (hi[1:] != hi[:-1])
        starts = np.flatnonzero(first)
        sizes = np.diff(np.append(starts, lo.size))
        multi = sizes > 1
        if multi.any():
            self._changed = True
            merged = expr[starts].copy()
            group_of = np.cumsum(first) - 1
            in_multi = multi[group_of]
            child = expr[in_multi]
            mstarts = np.flatnonzero(first[in_multi])
            merged[multi] = self._emit(_SUM, (child, mstarts))
            expr = merged
        else:
            expr = expr[starts]
        return lo[starts], hi[starts], expr

    def _dead_ends(self, u, v, expr, terminal, n):
        while u.size:
            deg = np.bincount(u, minlength=n) + np.bincount(v, minlength=n)
            dead = (deg == 1) & ~terminal
            drop = dead[u] | dead[v]
            if not drop.any():
                break
            self._changed = True
            u, v, expr = u[~drop], v[~drop], expr[~drop]
        return u, v, expr

    def _series(self, u, v, expr, terminal, n):
        if u.size == 0:
            return u, v, expr
        deg = np.bincount(u, minlength=n) + np.bincount(v, minlength=n)
        cand = (deg == 2) & ~terminal
        # an independent set: a candidate is taken unless a smaller-numbered neighbour is a candidate
        blocked = np.zeros(n, bool)
        cu, cv = cand[u], cand[v]
        np.logical_or.at(blocked, u[cu & cv & (v < u)], True)
        np.logical_or.at(blocked, v[cu & cv & (u < v)], True)
        take = cand & ~blocked
        hit_u, hit_v = take[u], take[v]
        touched = hit_u | hit_v
        if not touched.any():
            return u, v, expr
        self._changed = True
        # each taken node w has exactly two edges: pair them up by w
        ends_w = np.concatenate([u[hit_u], v[hit_v]])
        other = np.concatenate([v[hit_u], u[hit_v]])
        ex = np.concatenate([expr[hit_u], expr[hit_v]])
        order = np.argsort(ends_w, kind="stable")
        ends_w, other, ex = ends_w[order], other[order], ex[order]
        a, b = other[0::2], other[1::2]
        new = self._emit(_MIN, (ex, np.arange(0, ex.size, 2)))
        rest = ~touched
        return (np.concatenate([u[rest], a]), np.concatenate([v[rest], b]), np.concatenate([expr[rest], new]))

    # --- evaluation ---------------------------------------------------------------------------
    def values(self, edge_capacity: np.ndarray) -> np.ndarray:
        """Every expression's value for one vector of original-edge capacities (Gbit/s; inf allowed)."""
        values = np.empty(self.num_exprs)
        values[:self.num_edges] = edge_capacity
        for lv in self.levels:
            values[lv.out] = (np.minimum if lv.kind == _MIN else np.add).reduceat(values[lv.children], lv.starts)
        return values

    def core_capacities(self, edge_capacity: np.ndarray) -> np.ndarray:
        """Capacities of the core edges for one vector of original-edge capacities."""
        return self.values(edge_capacity)[self.core_expr]

    def max_flow(self, edge_capacity: np.ndarray) -> "FlowValue":
        """Max-flow value (Gbit/s) from the sources to the sinks for these edge capacities
        (inf = unlimited; an all-unlimited path between the two sides makes the flow infinite)."""
        return self.core_flow(self.core_capacities(edge_capacity))

    def core_flow(self, cap: np.ndarray) -> "FlowValue":
        """Max-flow value for capacities of the core edges."""
        if self._unlimited_path(cap):
            return FlowValue(math.inf, 0.0, True)
        ints, scale, exact = self._integers(cap)
        return FlowValue(self._flow(np.concatenate([ints, ints])[self._order]) / scale,
                         0.0 if exact else 1.0 / scale, exact)

    def _unlimited_path(self, cap: np.ndarray) -> bool:
        unlimited = ~np.isfinite(cap)
        if not unlimited.any():
            return False
        m = self.core_nodes.size
        joined = csr_matrix((np.ones(int(unlimited.sum())), (self.cu[unlimited], self.cv[unlimited])), shape=(m, m))
        _, label = connected_components(joined, directed=False)
        return bool(label[self.core_source] == label[self.core_sink])

    def _integers(self, cap: np.ndarray) -> tuple[np.ndarray, float, bool]:
        """Core capacities as integers: (values, scale per Gbit/s, exact?). Unlimited edges get a
        bound above any flow that crosses a limited cut."""
        finite = np.isfinite(cap)
        bound = float(cap[finite].sum()) + 1.0
        scale, exact = _scale(cap[finite], bound)
        return np.floor(np.minimum(cap, bound) * scale + (1e-6 if exact else 0.0)).astype(np.int64), scale, exact

    def _flow(self, data: np.ndarray) -> float:
        self._graph.data = data.astype(np.int32, copy=False)
        return float(maximum_flow(self._graph, self.core_source, self.core_sink, method="dinic").flow_value)


class Trials:
    """Many max-flows of one network, each with a few edges' capacities lowered (failures).

    The expressions are evaluated once for the base capacities; a trial re-evaluates only the
    ancestors of the edges it changes (O(k x depth), not O(graph)), patches those core edges'
    integer capacities and runs the max-flow, then restores the base values. Lowering capacities
    keeps the base's integer scale valid, so a trial is exact whenever the base is."""

    def __init__(self, net: ReducedNetwork, edge_capacity: np.ndarray):
        self.net = net
        self.values = net.values(edge_capacity)
        cap = self.values[net.core_expr]
        self.unlimited = net._unlimited_path(cap)
        ints, self.scale, self.exact = net._integers(cap)
        self.bound = float(cap[np.isfinite(cap)].sum()) + 1.0
        self.data = np.concatenate([ints, ints])[net._order].astype(np.int32)
        where = np.empty(net._order.size, dtype=np.int64)
        where[net._order] = np.arange(net._order.size)
        k = net.core_expr.size
        self.slot = (where[:k], where[k:])  # positions of each core edge's two arcs in the CSR data
        self.core_of = np.full(net.num_exprs, -1, dtype=np.int64)
        self.core_of[net.core_expr] = np.arange(k)
        self.base = FlowValue(net._flow(self.data) / self.scale, 0.0 if self.exact else 1.0 / self.scale, self.exact) \
            if not self.unlimited else FlowValue(math.inf, 0.0, True)

    def run(self, edges: np.ndarray, capacity: float = 0.0) -> "FlowValue":
        """The max-flow with `edges` (original edge ids) set to `capacity` (<= their base)."""
        net, values = self.net, self.values
        touched = [np.asarray(edges)]
        saved = [values[edges].copy()]
        values[edges] = capacity
        dirty = net._parent[edges]
        for lv in net.levels:
            mine = dirty[(dirty >= lv.out[0]) & (dirty <= lv.out[-1])] if lv.out.size else dirty[:0]
            if mine.size == 0:
                continue
            mine = np.unique(mine)
            local = mine - lv.out[0]
            lo, hi = lv.starts[local], lv.ends[local]
            sizes = hi - lo
            offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]])
            idx = np.repeat(lo - offsets, sizes) + np.arange(int(sizes.sum()))
            touched.append(mine)
            saved.append(values[mine].copy())
            values[mine] = (np.minimum if lv.kind == _MIN else np.add).reduceat(values[lv.children[idx]], offsets)
            up = net._parent[mine]
            dirty = np.concatenate([dirty, up[up >= 0]])
        changed = np.concatenate(touched)
        core = np.unique(self.core_of[changed])
        core = core[core >= 0]
        if self.unlimited:
            result = net.core_flow(values[net.core_expr])
        else:
            ints = np.floor(np.minimum(values[net.core_expr[core]], self.bound) * self.scale
                            + (1e-6 if self.exact else 0.0)).astype(np.int32)
            data = self.data.copy()
            data[self.slot[0][core]] = ints
            data[self.slot[1][core]] = ints
            result = FlowValue(net._flow(data) / self.scale, 0.0 if self.exact else 1.0 / self.scale, self.exact)
        for idx, old in zip(reversed(touched), reversed(saved)):
            values[idx] = old
        return result


@dataclass(frozen=True)
class FlowValue:
    gbps: float
    resolution_gbps: float  # per core link, when capacities had to be rounded down
    exact: bool


def _scale(finite: np.ndarray, bound: float) -> tuple[float, bool]:
    """The integer scale for capacities: the finest of 1000, 8, 1 per Gbit/s that keeps the bound
    below 2^31 and makes every capacity whole; else the largest scale that fits (rounding down)."""
    for s in (1000.0, 8.0, 1.0):
        if bound * s < INT_LIMIT and np.all(np.abs(finite * s - np.round(finite * s)) < 1e-6):
            return s, True
    return INT_LIMIT / (bound * 1.000001), False
