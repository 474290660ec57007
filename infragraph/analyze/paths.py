"""Diameter, path diversity and single points of failure, on the graph of cabled parts.

Inside a device copy the wiring is fixed, so these questions are asked of the *part graph*: one
node per internally connected piece of a device copy (a whole host, a switch; a switch whose ASIC
failed falls apart into its ports), one edge per pair of parts cabled together, weighted by the
number of parallel cables. Distances are in cable hops; an NPU's part is its host (or the NPU
itself when it is a device of its own).

- diameter: the largest cable-hop distance between two NPU parts. Parts cabled to exactly the same
  neighbours have the same distances, so one breadth-first search per such class suffices; beyond
  `MAX_SOURCES` classes a seeded sample is searched and the result is a stated lower bound.
- path diversity: for NPU pairs at each distance, the number of shortest cable paths (parallel
  cables counted), from up to `DIVERSITY_SOURCES` source classes.
- single points of failure: a part whose loss, or a single cable (not doubled by a parallel
  one) whose cut, leaves NPUs that can no longer reach each other (one depth-first search with
  low links: articulation points and bridges, with the NPUs on each side counted).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.sparse import coo_matrix, csr_matrix
from scipy.sparse.csgraph import connected_components, shortest_path

from ..graph.fqg import FQG
from ..graph.ranks import NPU_TYPE

MAX_SOURCES = 4096
DIVERSITY_SOURCES = 8


@dataclass
class Parts:
    first_node: np.ndarray  # a representative FQG node per part
    a: np.ndarray  # part edges (a < b), one per cabled pair
    b: np.ndarray
    cables: np.ndarray  # parallel cables per part edge
    npus: np.ndarray  # NPUs per part
    size: np.ndarray  # FQG nodes per part

    @property
    def n(self) -> int:
        return int(self.first_node.size)

    def adjacency(self) -> csr_matrix:
        rows = np.concatenate([self.a, self.b])
        cols = np.concatenate([self.b, self.a])
        data = np.concatenate([self.cables, self.cables]).astype(np.float64)
        return coo_matrix((data, (rows, cols)), shape=(self.n, self.n)).tocsr()


def parts(g: FQG) -> Parts:
    """The part graph of `g` (see the module docstring)."""
    s, d = g.edge_src, g.edge_dst
    inside = (g.node_instance[s] == g.node_instance[d]) & (g.node_copy[s] == g.node_copy[d])
    n = g.num_nodes
    internal = csr_matrix((np.ones(int(inside.sum())), (s[inside], d[inside])), shape=(n, n))
    count, label = connected_components(internal, directed=False)
    first = np.full(count, n, dtype=np.int64)
    np.minimum.at(first, label, np.arange(n))
    npu_type = g.type_names.index(NPU_TYPE) if NPU_TYPE in g.type_names else -1
    npus = np.bincount(label[g.node_type == npu_type], minlength=count)
    la, lb = label[s[~inside]], label[d[~inside]]
    lo, hi = np.minimum(la, lb), np.maximum(la, lb)
    keep = lo != hi
    pairs, mult = np.unique(np.stack([lo[keep], hi[keep]], axis=1), axis=0, return_counts=True)
    pairs = pairs.reshape(-1, 2)
    return Parts(first, pairs[:, 0], pairs[:, 1], mult, npus,
                 np.bincount(label, minlength=count))


def part_name(g: FQG, p: Parts, part: int) -> str:
    """A part as the user knows it: its device copy (`leaf.3`), or a node of it when the copy's
    wiring fell apart into several parts (`spine.1.port.2`)."""
    node = int(p.first_node[part])
    inst = g.instances[int(g.node_instance[node])]
    if p.size[part] == inst.nodes_per_copy:
        return f"{inst.name}.{int(g.node_copy[node])}"
    return g.node_name(node)


def _source_classes(p: Parts, adj: csr_matrix, seed: int = 0) -> tuple[np.ndarray, np.ndarray, bool]:
    """(one NPU part per class of identically cabled NPU parts, class size, all classes kept?)."""
    ends = np.flatnonzero(p.npus)
    keys: dict[tuple, int] = {}
    reps, sizes = [], []
    for e in ends.tolist():
        row = adj.indices[adj.indptr[e]:adj.indptr[e + 1]]
        key = tuple(np.sort(row).tolist()) or (-1 - e,)  # an unconnected part is its own class
        k = keys.get(key)
        if k is None:
            keys[key] = len(reps)
            reps.append(e)
            sizes.append(1)
        else:
            sizes[k] += 1
    reps_a, sizes_a = np.asarray(reps, dtype=np.int64), np.asarray(sizes, dtype=np.int64)
    if reps_a.size <= MAX_SOURCES:
        return reps_a, sizes_a, True
    pick = np.sort(np.random.default_rng(seed).choice(reps_a.size, MAX_SOURCES, replace=False))
    return reps_a[pick], sizes_a[pick], False


def _sweep_bounds(adj: csr_matrix, ends: np.ndarray) -> tuple[int, int, tuple[int, int]] | None:
    """(lower, upper, a farthest pair) on the NPU-part diameter from four searches, or None when
    some NPU parts cannot reach each other. Lower: a double sweep (the farthest NPU part from the
    farthest one). Upper: 2 x the eccentricity (towards NPU parts) of a central part — the middle
    of that longest path, or the best-connected part — since d(x, y) <= d(x, c) + d(c, y)."""
    d0 = shortest_path(adj, unweighted=True, indices=int(ends[0]))
    if np.isinf(d0[ends]).any():
        return None
    b = int(ends[np.argmax(d0[ends])])
    db, pred = shortest_path(adj, unweighted=True, indices=b, return_predecessors=True)
    c = int(ends[np.argmax(db[ends])])
    lower = int(db[c])
    mid = c
    for _ in range(lower // 2):
        mid = int(pred[mid])
    degree = np.diff(adj.indptr)
    dc = shortest_path(adj, unweighted=True, indices=[mid, int(np.argmax(degree))])[:, ends]
    return lower, 2 * int(dc.max(axis=1).min()), (b, c)


def diameter(p: Parts) -> dict:
    """Largest cable-hop distance between NPU parts; `exact` false when sources were sampled.
    When a double sweep's lower bound meets a central part's upper bound (a Clos: 6 = 2 x 3 from a
    core) four searches settle it; otherwise one search per class of identically cabled NPU parts."""
    adj = p.adjacency()
    ends = np.flatnonzero(p.npus)
    if ends.size >= 2:
        bounds = _sweep_bounds(adj, ends)
        if bounds is not None and bounds[0] == bounds[1]:
            return {"cable_hops": bounds[0], "exact": True, "sources_searched": 4, "disconnected": False,
                    "between": bounds[2]}
    reps, sizes, exact = _source_classes(p, adj)
    worst, pair, disconnected = 0, None, False
    for lo in range(0, reps.size, 256):
        dist = shortest_path(adj, unweighted=True, indices=reps[lo:lo + 256])[:, ends]
        if np.isinf(dist).any():
            disconnected = True
            dist = np.where(np.isinf(dist), -1, dist)
        i, j = np.unravel_index(int(np.argmax(dist)), dist.shape)
        if dist[i, j] > worst:
            worst, pair = int(dist[i, j]), (int(reps[lo + i]), int(ends[j]))
    if (sizes > 1).any() and worst < 2:
        worst = 2  # two NPU parts on the same switch
    return {"cable_hops": worst, "exact": exact, "sources_searched": int(reps.size),
            "disconnected": disconnected,
            "between": pair}


def path_diversity(p: Parts) -> list[dict]:
    """Per cable-hop distance: NPU part pairs seen and the min/max number of shortest paths."""
    adj = p.adjacency()
    reps, _, _ = _source_classes(p, adj)
    ends = np.flatnonzero(p.npus)
    a = np.concatenate([p.a, p.b])
    b = np.concatenate([p.b, p.a])
    m = np.concatenate([p.cables, p.cables]).astype(np.float64)
    stats: dict[int, list] = {}
    for src in reps[:DIVERSITY_SOURCES].tolist():
        dist = shortest_path(adj, unweighted=True, indices=[src])[0]
        sigma = np.zeros(p.n)
        sigma[src] = 1.0
        finite = dist[np.isfinite(dist)]
        for level in range(1, int(finite.max()) + 1 if finite.size else 0):
            step = (dist[a] == level - 1) & (dist[b] == level)
            np.add.at(sigma, b[step], sigma[a[step]] * m[step])
        for e in ends.tolist():
            if e == src or not np.isfinite(dist[e]):
                continue
            d = int(dist[e])
            s = stats.setdefault(d, [0, np.inf, 0.0])
            s[0] += 1
            s[1] = min(s[1], sigma[e])
            s[2] = max(s[2], sigma[e])
    return [{"cable_hops": d, "pairs_seen": s[0], "min_paths": int(s[1]), "max_paths": int(s[2])}
            for d, s in sorted(stats.items())]


def single_points(p: Parts, limit: int = 10) -> dict:
    """Parts and cables whose single failure splits the NPUs (articulation points and bridges of
    the part graph that have NPUs on two sides)."""
    adj = p.adjacency()
    n = p.n
    disc = np.full(n, -1, dtype=np.int64)
    low = np.zeros(n, dtype=np.int64)
    weight = p.npus.astype(np.int64).copy()  # NPUs in the DFS subtree
    comp_total = np.zeros(n, dtype=np.int64)
    cut_parts: dict[int, list[int]] = {}
    bridges: list[tuple[int, int, int]] = []  # (parent, child, NPUs below)
    timer = 0
    for root in range(n):
        if disc[root] >= 0:
            continue
        members = []
        disc[root] = low[root] = timer
        timer += 1
        stack = [(root, -1, adj.indptr[root])]
        members.append(root)
        while stack:
            v, parent, i = stack[-1]
            if i < adj.indptr[v + 1]:
                stack[-1] = (v, parent, i + 1)
                w = int(adj.indices[i])
                if disc[w] < 0:
                    disc[w] = low[w] = timer
                    timer += 1
                    members.append(w)
                    stack.append((w, v, adj.indptr[w]))
                elif w != parent:
                    low[v] = min(low[v], disc[w])
                continue
            stack.pop()
            if parent >= 0:
                low[parent] = min(low[parent], low[v])
                weight[parent] += weight[v]
                if low[v] >= disc[parent]:
                    cut_parts.setdefault(parent, []).append(int(weight[v]))
                if low[v] > disc[parent] and adj[v, parent] == 1:
                    bridges.append((parent, v, int(weight[v])))
        comp_total[members] = weight[root]
    spof_parts = []
    for v, below in cut_parts.items():
        rest = int(comp_total[v]) - int(p.npus[v]) - sum(below)  # above v (0 for a DFS root)
        sides = [x for x in below + [rest] if x > 0]
        if len(sides) >= 2:
            spof_parts.append((v, sides))
    spof_cables = [(a, b, below) for a, b, below in bridges if 0 < below < int(comp_total[a])]
    return {
        "parts": len(spof_parts),
        "cables": len(spof_cables),
        "part_examples": [{"part": v, "npus_cut_off": int(sum(sorted(s)[:-1]))} for v, s in spof_parts[:limit]],
        "cable_examples": [{"parts": [a, b], "npus_cut_off": int(min(below, comp_total[a] - below))}
                           for a, b, below in spof_cables[:limit]],
    }
