"""The NPU-to-NPU links a synthesized schedule may use, read off the fully qualified graph.

Why: a schedule moves chunks between ranks, but the fabric is NPUs, ports, NICs and switches.
A *logical link* u -> v is one way for NPU u to reach NPU v without passing through a third NPU:
a path from one of u's own edges through non-NPU nodes (ports, switches, NICs, PCIe) to v. Each
logical link records the directed physical links it occupies, so two logical links that share a
switch port (u -> v and u -> w through one switch) contend for that port instead of each getting
its full bandwidth: switches are modelled by their ports, not as free all-to-all wiring.

Timing of one chunk of B bytes on logical link l (the synthesizer's model, the alpha-beta model
TACOS uses, with the serialization and the wire latency separated):
- every directed physical link of the path is busy for ``8 B / bw(l)`` ns, where bw(l) is the
  narrowest link of the path in Gbit/s (cut-through: the path runs at its bottleneck);
- the chunk arrives at v ``latency(l) + 8 B / bw(l)`` ns after it starts (latency summed over the
  path), so a link can start its next chunk before the previous one has landed.

Routes: one logical link per (NPU, first edge, reachable NPU), found breadth-first from that edge
through non-NPU nodes, fewest hops (the first such path found when several tie: no ECMP spread).
Parallel physical links (multi-rail, NVLink lanes) therefore become parallel logical links.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import error
from ..graph import FQG
from ..simulate.run import DEFAULT_NO_TRANSIT

MAX_LOGICAL_LINKS = 20_000_000


@dataclass(frozen=True)
class LogicalLinks:
    """Logical links as parallel arrays; directed physical link ids are 2e (edge e src->dst) and 2e+1."""

    npus: int
    src: np.ndarray  # rank per logical link
    dst: np.ndarray  # rank per logical link
    bandwidth_gbps: np.ndarray  # bottleneck of the path
    latency_ns: np.ndarray  # summed over the path
    resource_ptr: np.ndarray  # CSR: directed physical links of link l are resources[ptr[l]:ptr[l+1]]
    resources: np.ndarray
    ingress_gbps: np.ndarray  # per rank: summed bandwidth of the distinct last hops of links into it
    egress_gbps: np.ndarray  # per rank: summed bandwidth of the distinct first hops of links out of it

    @property
    def count(self) -> int:
        return int(self.src.size)

    def path(self, l: int) -> np.ndarray:
        return self.resources[self.resource_ptr[l]:self.resource_ptr[l + 1]]

    def subset(self, keep: np.ndarray) -> "LogicalLinks":
        """The links `keep` (indices); the port bandwidths (for the bounds) stay those of all links."""
        lengths = np.diff(self.resource_ptr)[keep]
        ptr = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
        starts = self.resource_ptr[keep]
        idx = (np.repeat(starts - ptr[:-1], lengths) + np.arange(int(ptr[-1]))) if keep.size else np.zeros(0, np.int64)
        return LogicalLinks(self.npus, self.src[keep], self.dst[keep], self.bandwidth_gbps[keep], self.latency_ns[keep],
                            ptr, self.resources[idx], self.ingress_gbps, self.egress_gbps)

    def without_slow_detours(self, ratio: float = 1.5) -> "LogicalLinks":
        """Drop a link when the same two NPUs have one at least `ratio` times faster (a GPU pair
        joined by NVLink and by PCIe: the greedy matching would give the PCIe path chunks that then
        land late, 5.39 ms instead of 4.77 ms for a DGX's all-reduce)."""
        if self.count == 0:
            return self
        pair = self.src * self.npus + self.dst
        best = np.zeros(self.count)
        order = np.argsort(pair, kind="stable")
        uniq, first = np.unique(pair[order], return_index=True)
        fastest = np.maximum.reduceat(self.bandwidth_gbps[order], first)
        best[order] = np.repeat(fastest, np.diff(np.append(first, order.size)))
        keep = np.flatnonzero(self.bandwidth_gbps * ratio > best)
        return self if keep.size == self.count else self.subset(keep)

    def reversed(self) -> "LogicalLinks":
        """Every link run backwards: v -> u over the same path's opposite directions (links are full
        duplex, so the same bandwidth and latency). Reduce-scatter uses these."""
        flipped = self.resources ^ 1
        return LogicalLinks(self.npus, self.dst, self.src, self.bandwidth_gbps, self.latency_ns, self.resource_ptr,
                            flipped, self.egress_gbps, self.ingress_gbps)


def path_names(g: FQG, links: LogicalLinks, ids: np.ndarray) -> list[tuple[str, ...]]:
    """For each logical link in `ids`, the names of the nodes it passes between its two NPUs, in
    order from source to destination: what a schedule's `paths` name (schedule.py), so that the
    engine sends a transfer over the logical link the synthesizer gave it."""
    src, dst = np.asarray(g.edge_src), np.asarray(g.edge_dst)
    out = []
    for l in np.asarray(ids).tolist():
        forward = links.path(l)[::-1]  # stored from the destination's end (see _emit)
        to = np.where(forward & 1, src[forward >> 1], dst[forward >> 1])
        out.append(tuple(g.node_name(int(v)) for v in to[:-1]))
    return out


def logical_links(g: FQG, npu_nodes: np.ndarray) -> LogicalLinks:
    """The logical links of `g` between the NPUs `npu_nodes` (node id per rank), failures applied
    by the caller. Edges without a stated bandwidth are refused: the synthesizer needs link speeds."""
    bw = np.asarray(g.edge_bandwidth_gbps(), dtype=np.float64)
    lat = np.nan_to_num(np.asarray(g.edge_latency_ns(), dtype=np.float64), nan=0.0)
    if np.isnan(bw).any():
        e = int(np.flatnonzero(np.isnan(bw))[0])
        raise error(f"link '{g.node_name(int(g.edge_src[e]))}' -- '{g.node_name(int(g.edge_dst[e]))}' states no "
                    f"bandwidth ({int(np.isnan(bw).sum())} such edges); the synthesizer needs every link's speed",
                    hint="give links `physical: {bandwidth: ...}`")
    n_nodes = g.num_nodes
    src, dst = np.asarray(g.edge_src, dtype=np.int64), np.asarray(g.edge_dst, dtype=np.int64)
    # Directed adjacency: from node a, directed link id d goes to node b.
    heads = np.concatenate([src, dst])
    tails = np.concatenate([dst, src])
    dirs = np.concatenate([2 * np.arange(src.size), 2 * np.arange(src.size) + 1])
    order = np.argsort(heads, kind="stable")
    starts = np.searchsorted(heads[order], np.arange(n_nodes + 1)).tolist()
    nbr = tails[order].tolist()
    did = dirs[order].tolist()
    dbw = np.repeat(bw, 2)  # per directed link id: 2e and 2e+1 share edge e's bandwidth
    dlat = np.repeat(lat, 2)
    rank_of = np.full(n_nodes, -1, dtype=np.int64)
    rank_of[npu_nodes] = np.arange(npu_nodes.size)
    rank_list = rank_of.tolist()
    blocked = np.zeros(n_nodes, dtype=bool)
    type_names = list(g.type_names)
    for t in DEFAULT_NO_TRANSIT:  # a chunk passes no memory node between NPUs, as simulate routes
        if t in type_names:
            blocked |= np.asarray(g.node_type) == type_names.index(t)
    blocked_list = blocked.tolist()
    dbw_l, dlat_l = dbw.tolist(), dlat.tolist()

    out_src: list[int] = []
    out_dst: list[int] = []
    out_bw: list[float] = []
    out_lat: list[float] = []
    ptr = [0]
    res: list[int] = []
    for r, u in enumerate(npu_nodes.tolist()):
        for k in range(starts[u], starts[u + 1]):
            first, d0 = nbr[k], did[k]
            if first == u:
                continue
            # Breadth-first from `first` through non-NPU nodes; parent pointers give the path.
            parent = {first: (-1, d0)}
            frontier = [first]
            while frontier:
                nxt = []
                for a in frontier:
                    ra = rank_list[a]
                    if ra >= 0:
                        if ra != r:
                            _emit(a, ra, r, parent, dbw_l, dlat_l, out_src, out_dst, out_bw, out_lat, ptr, res)
                        continue  # never through another NPU
                    if blocked_list[a]:
                        continue
                    for j in range(starts[a], starts[a + 1]):
                        b = nbr[j]
                        if b not in parent and b != u:
                            parent[b] = (a, did[j])
                            nxt.append(b)
                frontier = nxt
            if len(out_src) > MAX_LOGICAL_LINKS:
                raise error(f"more than {MAX_LOGICAL_LINKS:,} NPU-to-NPU paths through switches; the synthesizer "
                            "models every pair that a switch joins and this fabric has too many")
    n = int(npu_nodes.size)
    ptr_a, res_a = np.asarray(ptr, dtype=np.int64), np.asarray(res, dtype=np.int64)
    src_a, dst_a = np.asarray(out_src, dtype=np.int64), np.asarray(out_dst, dtype=np.int64)
    return LogicalLinks(
        npus=n, src=np.asarray(out_src, dtype=np.int64), dst=np.asarray(out_dst, dtype=np.int64),
        bandwidth_gbps=np.asarray(out_bw), latency_ns=np.asarray(out_lat),
        resource_ptr=ptr_a, resources=res_a,
        ingress_gbps=_hop_bandwidth(dst_a, res_a[ptr_a[:-1]] if src_a.size else res_a, dbw, n),
        egress_gbps=_hop_bandwidth(src_a, res_a[ptr_a[1:] - 1] if src_a.size else res_a, dbw, n))


def _hop_bandwidth(rank: np.ndarray, hop: np.ndarray, dbw: np.ndarray, n: int) -> np.ndarray:
    """Per rank, the summed bandwidth of the distinct directed links `hop` that its links use there."""
    pairs = np.unique(np.stack([rank, hop]), axis=1) if rank.size else np.zeros((2, 0), dtype=np.int64)
    return np.bincount(pairs[0], weights=dbw[pairs[1]], minlength=n).astype(np.float64)


def _emit(node: int, rank: int, src_rank: int, parent: dict, dbw: list, dlat: list, out_src: list,
          out_dst: list, out_bw: list, out_lat: list, ptr: list, res: list) -> None:
    """Append the logical link ending at `node` (walk the parent pointers back to the source NPU)."""
    path = []
    a = node
    while a != -1:
        prev, d = parent[a]
        path.append(d)
        a = prev
    out_src.append(src_rank)
    out_dst.append(rank)
    out_bw.append(min(dbw[d] for d in path))
    out_lat.append(sum(dlat[d] for d in path))
    res.extend(path)
    ptr.append(len(res))
