"""Plain warnings on a simulation result: numbers the user should not believe without a caveat.

- `over-capacity`: a directed link above 100 % utilization. The congestion-unaware models
  (`unaware`, `astra`) let messages share a link without slowing each other, so their time is
  optimistic wherever demand exceeds capacity; a contention-aware model never exceeds 100 %.
- `over-injection`: a bus bandwidth above what an NPU can inject. NCCL defines bus bandwidth so
  that it compares with the hardware's peak: every member of an all-reduce must send (and receive)
  2(n-1)/n of the buffer, of a reduce-scatter, all-gather or all-to-all (n-1)/n, so busbw can
  never exceed the rate at which one NPU can move bytes into the rest of its group. That rate is
  the maximum flow from the NPU to the other members over the graph's link bandwidths (for a GPU
  behind one 400 Gb/s NIC: 50 GB/s, the NIC's line rate, unless local peers offer more).
- `unspecified-bandwidth`: links without a bandwidth, simulated as free wiring.

Each warning is `{"code": ..., "message": ...}`; the CLI prints them before the numbers.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ..graph import FQG

OVER = 1.0 + 1e-9  # utilization above this is above capacity (float noise allowed)
UNAWARE_MODELS = ("unaware", "astra")
# Bytes each member must move, in units of the collective's busbw definition, hold for these; for
# broadcast, reduce and point-to-point only the root moves the whole buffer.
ROOTED = ("broadcast", "reduce", "point-to-point")
_MBPS = 1000.0  # max-flow capacities are int32 (scipy): Mbit/s
_FREE = 1 << 28  # Mbit/s (268 Tbit/s): a link with no stated bandwidth (free wiring), and the cap on any flow


def injection_gbps(g: FQG, npu: int, peers: np.ndarray) -> float:
    """Maximum flow in Gbit/s from node `npu` to the nodes `peers` over the graph (links carry their
    bandwidth in each direction). Infinite when a free (unrated) path joins them.

    Solved first on the nodes within a few hops of `npu` (FIRST_RADIUS, doubling): a flow there is
    a flow of the whole graph, and it is the whole graph's maximum when the minimum cut it finds
    stays inside (every node on the NPU's side of the cut has all its neighbours in the ball, so
    the cut is one of the whole graph with the same capacity). On a million-GPU Clos the NPU's
    own links are that cut, a few thousand nodes away from the rest of the six million."""
    bw = np.asarray(g.edge_bandwidth_gbps(), dtype=np.float64)
    cap = np.where(np.isnan(bw), _FREE, np.minimum(np.floor(bw * _MBPS), _FREE))
    src, dst = np.asarray(g.edge_src, dtype=np.int32), np.asarray(g.edge_dst, dtype=np.int32)
    peers = np.asarray(peers, dtype=np.int64)
    hops = np.full(g.num_nodes, -1, dtype=np.int32)  # hops from npu (-1: not reached yet)
    hops[npu], reached, radius = 0, 0, FIRST_RADIUS
    while True:
        reached = _widen(hops, src, dst, reached, radius)
        if reached < radius:  # the ball is the NPU's whole component
            return _max_flow(hops >= 0, npu, src, dst, cap, peers, hops, None)
        flow = _max_flow(hops >= 0, npu, src, dst, cap, peers, hops, radius)
        if flow is not None:
            return flow
        radius *= 2


FIRST_RADIUS = 4  # hops: a GPU, its server's switch chips and PCIe tree, the GPUs beside it


def _widen(hops: np.ndarray, src: np.ndarray, dst: np.ndarray, reached: int, radius: int) -> int:
    """Breadth-first from the nodes at `reached` hops up to `radius` hops, filling `hops`; the
    farthest level reached (below `radius` when the component ends first)."""
    while reached < radius:
        a, b = hops[src] == reached, hops[dst] == reached
        nxt = np.concatenate([dst[a], src[b]])
        nxt = nxt[hops[nxt] < 0]
        if not nxt.size:
            return reached
        reached += 1
        hops[nxt] = reached
    return reached


def _max_flow(inside: np.ndarray, npu: int, src: np.ndarray, dst: np.ndarray, cap: np.ndarray, peers: np.ndarray,
              hops: np.ndarray, radius: int | None) -> float | None:
    """The maximum flow from `npu` to `peers` over the edges with both ends `inside`, in Gbit/s;
    with a `radius`, None unless the minimum cut lies within `radius - 1` hops (then it is the
    whole graph's)."""
    from scipy.sparse import coo_matrix  # here, not at the top: a workload replay never needs scipy (start-up)
    from scipy.sparse.csgraph import breadth_first_order, maximum_flow

    nodes = np.flatnonzero(inside)
    local = np.full(inside.size, -1, dtype=np.int64)
    local[nodes] = np.arange(nodes.size)
    keep = inside[src] & inside[dst]
    a, b, c = local[src[keep]], local[dst[keep]], cap[keep]
    p = local[peers[inside[peers]]]
    n = nodes.size
    sink, source = n, n + 1  # the source feeds the NPU at most _FREE, so no sum can overflow int32
    rows = np.concatenate([a, b, p, [source]])
    cols = np.concatenate([b, a, np.full(p.size, sink), [local[npu]]])
    caps = np.concatenate([c, c, np.full(p.size, _FREE), [_FREE]])
    m = coo_matrix((caps, (rows, cols)), shape=(n + 2, n + 2)).tocsr()
    m.sum_duplicates()  # parallel links add up
    m.data = np.minimum(m.data, _FREE).astype(np.int32)
    result = maximum_flow(m, source, sink)
    if result.flow_value >= _FREE:
        return float("inf")  # a free path: no cut of rated links bounds it (the ball's flow is a real one)
    if radius is not None:
        residual = (m - result.flow).tocsr()
        residual.data = (residual.data > 0).astype(np.int8)
        residual.eliminate_zeros()
        cut_side = breadth_first_order(residual, source, return_predecessors=False)
        cut_side = cut_side[cut_side < n]
        if (hops[nodes[cut_side]] >= radius).any():
            return None
    return result.flow_value / _MBPS


def injection_bound_gbps(g: FQG, npu_nodes: np.ndarray, collective: str, groups: list[list[int]],
                         root: int) -> tuple[float, int]:
    """(Gbit/s, rank): the smallest injection rate among the NPUs checked, and which rank it was.

    Checked: the root of the first group for rooted collectives, else the first group's member
    with the least link bandwidth at the node and its first member (each one bounds busbw)."""
    group = groups[0]
    if collective in ROOTED:
        candidates = [group[root]] if 0 <= root < len(group) else [group[0]]
    else:
        nodes = npu_nodes[group]
        bw = np.nan_to_num(np.asarray(g.edge_bandwidth_gbps(), dtype=np.float64), nan=np.inf)
        at_node = np.bincount(g.edge_src, weights=bw, minlength=g.num_nodes) + \
            np.bincount(g.edge_dst, weights=bw, minlength=g.num_nodes)
        candidates = list(dict.fromkeys([group[int(np.argmin(at_node[nodes]))], group[0]]))
    best = (float("inf"), candidates[0])
    members = np.asarray(group, dtype=np.int64)
    for rank in candidates:
        peers = npu_nodes[members[members != rank]]
        best = min(best, (injection_gbps(g, int(npu_nodes[rank]), peers), rank))
    return best


def warnings(result: dict[str, Any], util: np.ndarray, link_name: Callable[[int], str],
             injection: tuple[float, int], npu_name: str) -> list[dict[str, str]]:
    """The warnings for one result (see the module docstring). `util` is per directed link,
    `link_name(i)` names directed link i (only the busiest is named)."""
    out = []
    over = np.flatnonzero(util > OVER)
    if over.size:
        worst = int(over[np.argmax(util[over])])
        if result["model"] in UNAWARE_MODELS:
            why = (f"the '{result['model']}' model lets messages share a link without slowing each other, "
                   "so demand above capacity is not charged and the time is optimistic; "
                   "use --model aware or fair for a contention-aware answer")
        else:
            why = "a contention-aware model should never exceed 100 %; please report this graph and options"
        out.append({"code": "over-capacity",
                    "message": f"{over.size} directed link(s) above 100 % utilization (busiest "
                               f"{link_name(worst)} at {util[worst] * 100:.1f} %): {why}"})
    inj_gbps, rank = injection
    busbw = result["bus_bandwidth_gb_per_s"]
    if np.isfinite(inj_gbps) and busbw * 8 > inj_gbps * OVER:
        out.append({"code": "over-injection",
                    "message": f"bus bandwidth {busbw:.3f} GB/s exceeds what NPU rank {rank} ({npu_name}) can "
                               f"inject: {inj_gbps / 8:.3f} GB/s ({inj_gbps:g} Gbit/s, the maximum flow from it "
                               "to the rest of its group); no real system reaches this"
                               + (f" — the '{result['model']}' model ignores contention"
                                  if result["model"] in UNAWARE_MODELS else "")})
    if result.get("unspecified_bandwidth_edges"):
        out.append({"code": "unspecified-bandwidth",
                    "message": f"{result['unspecified_bandwidth_edges']} link(s) state no bandwidth and were "
                               "simulated as free wiring (no serialization time)"})
    return out
