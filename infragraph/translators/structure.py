"""Structure detection shared by every translator: what the backends see in a graph.

Backends know NPUs, switches and links between them; an InfraGraph has GPUs, NICs, ports, PCIe
links and switch ASICs with port arrays. This module reduces an FQG to that view once:

1. `npu_order(g)` (from infragraph.graph.ranks, shared with the simulator): the NPUs (nodes of type ``xpu``) in rank order — by the ``rank`` annotation when
   present (it must be a permutation of 0..N-1), else by name with numeric segments compared as
   numbers (``host.10`` after ``host.9``).
2. `fabric(g)`: the *fabric graph*. Vertices are NPUs (ids 0..N-1 in rank order), switches (nodes of
   type ``switch``) and *hubs*. Every other node (nic, port, cpu, memory, custom) is *transit*: the
   transit nodes joined by device-internal edges form clusters; a cluster touching exactly one NPU or
   switch of its device copy is folded into it (a GPU's NIC and port, a switch's ports), so a cable
   from a GPU's port becomes one NPU-to-fabric link whose bandwidth is the minimum along the
   internal path and whose latency is the sum. A cluster touching several (a NIC shared by 4 GPUs)
   or none (a patch panel) cannot be folded and becomes a hub: a forwarding vertex. Device-internal
   edges are those produced by a device's `edges` (not the infrastructure's); an internal link with
   no bandwidth is taken as unconstrained and with no latency as 0 ns.
   The work is done once per device on the first copy and broadcast with numpy, so a 660k-node Clos
   costs a fraction of a second.
3. `detect_product(fab)`: RI/FC/SW dimensions over the NPUs in rank order (ASTRA-sim's addressing,
   dimension 0 varying fastest), per-dimension bandwidth and latency, or the reasons it is not one.
4. `clos_tiers(fab)`: switch tiers of a folded Clos (tier 0 touches NPUs).
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components, dijkstra

from ..errors import Diagnostic, InfraGraphError, Location
from ..graph.fqg import FQG
from ..graph.ranks import NPU_TYPE, npu_order
from ..importers.astra_analytical import FC, RING, SW  # ASTRA-sim's dimension kinds

SWITCH_TYPE = "switch"
NPU, SWITCH, HUB = 0, 1, 2


# --- fabric graph ---------------------------------------------------------------------------------

@dataclass
class Fabric:
    """The graph as backends see it: NPUs first (rank order), then switches and hubs.

    Edge arrays are parallel (`src`, `dst`, `bw_gbps`, `lat_ns`, `origin` = the FQG edge the link
    came from, for locating problems); parallel links are kept, orientation is the FQG's.
    """

    g: FQG
    num_npus: int
    vertex_node: np.ndarray  # FQG node representing each vertex
    vertex_kind: np.ndarray  # NPU / SWITCH / HUB
    src: np.ndarray
    dst: np.ndarray
    bw_gbps: np.ndarray
    lat_ns: np.ndarray
    origin: np.ndarray
    collapsed_links: int = 0  # links whose device-internal path was folded in
    notes: list[str] = field(default_factory=list)

    @property
    def num_vertices(self) -> int:
        return int(self.vertex_node.size)

    @property
    def num_edges(self) -> int:
        return int(self.src.size)

    def name(self, v: int) -> str:
        return self.g.node_name(int(self.vertex_node[v]))

    def edge_where(self, e: int) -> str:
        """The document record a fabric link came from (for located messages)."""
        return self.g.edge_records[int(self.g.edge_origin[int(self.origin[e])])]

    def components(self, keep: np.ndarray) -> np.ndarray:
        """Connected-component label per vertex over the links `keep` selects (a mask over edges);
        a vertex no kept link touches is a component of its own."""
        V = self.num_vertices
        adj = coo_matrix((np.ones(int(keep.sum())), (self.src[keep], self.dst[keep])), shape=(V, V))
        return connected_components(adj, directed=False)[1]


@dataclass
class _DeviceFold:
    """How one device copy folds (local node ids 0..npc-1), computed once per device."""

    rep: np.ndarray  # local representative (fabric node or first node of a hub cluster), -1 dropped
    is_hub: np.ndarray  # per local node: member of a hub cluster
    path_bw: np.ndarray  # bottleneck bandwidth from the representative (inf for none)
    path_lat: np.ndarray  # latency from the representative
    keep: np.ndarray  # indices (into the device's internal edge list) kept as fabric links


def _fold_device(kind: np.ndarray, src: np.ndarray, dst: np.ndarray, bw: np.ndarray, lat: np.ndarray) -> _DeviceFold:
    n = kind.size
    transit = kind == -1
    tt = transit[src] & transit[dst]
    adj = coo_matrix((np.ones(int(tt.sum())), (src[tt], dst[tt])), shape=(n, n))
    _, label = connected_components(adj, directed=False)
    # fabric neighbours of each transit cluster
    touching: dict[int, set[int]] = {}
    nbrs: dict[int, list[tuple[int, float, float]]] = {i: [] for i in range(n)}
    for s, d, b, l in zip(src.tolist(), dst.tolist(), bw.tolist(), lat.tolist()):
        nbrs[s].append((d, b, l))
        nbrs[d].append((s, b, l))
        for a, z in ((s, d), (d, s)):
            if transit[a] and not transit[z]:
                touching.setdefault(int(label[a]), set()).add(z)
    rep = np.arange(n)
    rep[transit] = -1
    is_hub = np.zeros(n, dtype=bool)
    path_bw = np.full(n, np.inf)
    path_lat = np.zeros(n)
    clusters: dict[int, list[int]] = {}
    for t in np.flatnonzero(transit).tolist():
        clusters.setdefault(int(label[t]), []).append(t)
    for lab, members in clusters.items():
        owners = touching.get(lab, set())
        if len(owners) == 1:
            owner = next(iter(owners))
            # Dijkstra by latency (ties: wider path) from the owner through this cluster only
            best: dict[int, tuple[float, float]] = {owner: (0.0, np.inf)}
            heap = [(0.0, -np.inf, owner)]
            while heap:
                l0, nb0, v = heapq.heappop(heap)
                if (l0, -nb0) != best.get(v, (None, None)) and v != owner:
                    continue
                for w, b, l in nbrs[v]:
                    if not transit[w] or label[w] != lab:
                        continue
                    cand = (l0 + l, min(-nb0, b))
                    old = best.get(w)
                    if old is None or cand[0] < old[0] or (cand[0] == old[0] and cand[1] > old[1]):
                        best[w] = cand
                        heapq.heappush(heap, (cand[0], -cand[1], w))
            for m in members:
                rep[m] = owner
                path_lat[m], path_bw[m] = best.get(m, (0.0, np.inf))
        else:
            rep[members] = members[0]
            is_hub[members] = True
    # internal links kept as fabric links: between two fabric nodes, or a fabric node and a hub
    rs, rd = rep[src], rep[dst]
    keep = np.flatnonzero((rs >= 0) & (rd >= 0) & (rs != rd))
    return _DeviceFold(rep, is_hub, path_bw, path_lat, keep)


def fabric(g: FQG) -> Fabric:
    """Fold device internals into NPU-to-fabric links (see the module docstring)."""
    order = npu_order(g)
    n_npus = int(order.size)
    npu_t = g.type_names.index(NPU_TYPE)
    sw_t = g.type_names.index(SWITCH_TYPE) if SWITCH_TYPE in g.type_names else -2
    kind_all = np.full(g.num_nodes, -1, dtype=np.int8)
    kind_all[g.node_type == npu_t] = NPU
    kind_all[g.node_type == sw_t] = SWITCH

    bw = g.edge_bandwidth_gbps()
    lat = g.edge_latency_ns()
    internal_record = np.array([r.startswith("devices[") for r in g.edge_records], dtype=bool)
    internal = internal_record[g.edge_origin] if g.num_edges else np.zeros(0, dtype=bool)

    rep = np.full(g.num_nodes, -1, dtype=np.int64)
    hub = np.zeros(g.num_nodes, dtype=bool)
    path_bw = np.full(g.num_nodes, np.inf)
    path_lat = np.zeros(g.num_nodes)
    kept_edges: list[np.ndarray] = []
    folds: dict[str, _DeviceFold] = {}
    int_idx = np.flatnonzero(internal)
    int_src = g.edge_src[int_idx]
    for inst in g.instances:
        npc, first = inst.nodes_per_copy, inst.first_node
        if inst.count == 0 or npc == 0:
            continue
        in_copy0 = (int_src >= first) & (int_src < first + npc)
        e0 = int_idx[in_copy0]  # internal edges of the first copy (identical in every copy)
        if inst.device not in folds:
            ls = (g.edge_src[e0] - first).astype(np.int64)
            ld = (g.edge_dst[e0] - first).astype(np.int64)
            ib = np.where(np.isnan(bw[e0]), np.inf, bw[e0])
            il = np.where(np.isnan(lat[e0]), 0.0, lat[e0])
            folds[inst.device] = _fold_device(kind_all[first:first + npc], ls, ld, ib, il)
        fold = folds[inst.device]
        offs = first + np.arange(inst.count, dtype=np.int64)[:, None] * npc
        block = slice(first, first + inst.count * npc)
        local_rep = np.where(fold.rep >= 0, fold.rep, -1)
        rep[block] = np.where(local_rep[None, :] >= 0, offs + local_rep[None, :], -1).ravel()
        hub[block] = np.tile(fold.is_hub, inst.count)
        path_bw[block] = np.tile(fold.path_bw, inst.count)
        path_lat[block] = np.tile(fold.path_lat, inst.count)
        if fold.keep.size:
            # internal edges of every copy, in copy order: those whose src lies in this instance block
            sel = int_idx[(int_src >= first) & (int_src < first + inst.count * npc)]
            per_copy = e0.size
            kept = sel.reshape(inst.count, per_copy)[:, fold.keep].ravel() if per_copy else sel[:0]
            kept_edges.append(kept)

    external = np.flatnonzero(~internal)
    kept = np.concatenate(kept_edges) if kept_edges else np.zeros(0, dtype=np.int64)
    e_all = np.concatenate([external, kept]).astype(np.int64)
    e_all.sort(kind="stable")
    s_node, d_node = g.edge_src[e_all].astype(np.int64), g.edge_dst[e_all].astype(np.int64)
    ebw = np.where(np.isnan(bw[e_all]), np.nan, bw[e_all])
    e_bw = np.fmin(np.fmin(path_bw[s_node], ebw), path_bw[d_node])
    e_bw = np.where(np.isnan(ebw), np.nan, e_bw)  # an unrated cable stays unrated
    e_lat = path_lat[s_node] + lat[e_all] + path_lat[d_node]
    u, v = rep[s_node], rep[d_node]
    ok = (u >= 0) & (v >= 0) & (u != v)
    e_all, u, v, e_bw, e_lat = e_all[ok], u[ok], v[ok], e_bw[ok], e_lat[ok]
    collapsed = int(np.count_nonzero(((rep[s_node] != s_node) | (rep[d_node] != d_node))[ok]))

    # vertices: NPUs in rank order, then switches and (connected) hubs in node order
    used = np.zeros(g.num_nodes, dtype=bool)
    used[u] = True
    used[v] = True
    others = np.flatnonzero(((kind_all == SWITCH) | (hub & used & (rep == np.arange(g.num_nodes)))))
    vertex_node = np.concatenate([order, others]).astype(np.int64)
    vid = np.full(g.num_nodes, -1, dtype=np.int64)
    vid[vertex_node] = np.arange(vertex_node.size)
    vertex_kind = np.concatenate([np.full(n_npus, NPU), np.where(kind_all[others] == SWITCH, SWITCH, HUB)]).astype(np.int8)
    fab = Fabric(g, n_npus, vertex_node, vertex_kind, vid[u], vid[v], e_bw, e_lat, e_all, collapsed)
    n_hubs = int(np.count_nonzero(vertex_kind == HUB))
    if n_hubs:
        fab.notes.append(f"{n_hubs:,} device-internal component group(s) are shared by several NPUs or switches "
                         f"(e.g. '{fab.name(int(np.flatnonzero(vertex_kind == HUB)[0]))}'); each is kept as a "
                         f"forwarding node (hub) rather than folded into one NPU's link")
    return fab


def rated_fabric(g: FQG, what: str) -> Fabric:
    """The fabric of `g` (`fabric`), refused with one located error per missing quantity when a
    link has no bandwidth or no latency: every packet- and flow-level backend (`what` names it)
    needs both on every link, and each translator's plan starts here, so they refuse alike."""
    fab = fabric(g)
    out = []
    for arr, attr, unit in ((fab.bw_gbps, "bandwidth", "gigabits_per_second"), (fab.lat_ns, "latency", "ns")):
        bad = np.flatnonzero(np.isnan(arr))
        if bad.size:
            e = int(bad[0])
            link = fab.g.links[int(fab.g.edge_link[int(fab.origin[e])])].qualified_name
            out.append(Diagnostic(
                f"{bad.size:,} link(s) have no {attr}, e.g. '{fab.name(int(fab.src[e]))}' - '{fab.name(int(fab.dst[e]))}' "
                f"(link '{link}'); {what} needs a {attr} on every link",
                Location(path=fab.edge_where(e)), f"give link '{link}' a physical.{attr} ({unit})"))
    if out:
        raise InfraGraphError(out)
    return fab


# --- multi-dimensional product detection ---------------------------------------------------------

# A dimension of directly linked NPUs while detect_product is still finding dimensions: whether it is a
# Ring or a FullyConnected is decided once all of them are known, so messages raised before that (a
# broken product, e.g. a torus with a failed link) show it as linked(n).
LINKED = "linked"
SHORT_KIND = {RING: "RI", FC: "FC", SW: "SW", LINKED: "linked"}


@dataclass
class Dimension:
    kind: str  # Ring | FullyConnected | Switch (ASTRA-sim's spelling)
    size: int
    stride: int
    bw_gbps: float
    lat_ns: float  # per hop
    exact: bool = True
    note: str = ""


@dataclass
class Product:
    dims: list[Dimension]
    notes: list[str] = field(default_factory=list)
    order: np.ndarray | None = None  # NPU vertex per rank when the model renumbers NPUs (None: fabric order)

    @property
    def exact(self) -> bool:
        return all(d.exact for d in self.dims)

    def shape(self) -> str:
        return "_".join(f"{SHORT_KIND[d.kind]}({d.size})" for d in self.dims)


class NotAProduct(Exception):
    """Why the NPUs do not form an RI/FC/SW product in this rank order (message for the user)."""

    def __init__(self, message: str, where: str | None = None, hint: str | None = None):
        super().__init__(message)
        self.where, self.hint = where, hint

    def diagnostic(self) -> Diagnostic:
        return Diagnostic(str(self), Location(path=self.where), self.hint)


def _networks(fab: Fabric) -> tuple[list[np.ndarray], np.ndarray]:
    """Switch networks: connected components of the non-NPU vertices that NPUs attach to.
    Returns (NPU members per network, sorted, one entry per attaching link; network per edge or -1)."""
    N, V = fab.num_npus, fab.num_vertices
    s, d = fab.src, fab.dst
    label = fab.components((s >= N) & (d >= N))
    attach = (s < N) != (d < N)
    npu_end = np.where(s < N, s, d)[attach]
    raw = label[np.where(s < N, d, s)[attach]]
    uniq, inv = np.unique(raw, return_inverse=True)
    order = np.argsort(inv, kind="stable")
    splits = np.cumsum(np.bincount(inv, minlength=uniq.size))[:-1]
    members = [np.sort(m) for m in np.split(npu_end[order], splits)] if uniq.size else []
    net_of_label = np.full(V, -1)
    net_of_label[uniq] = np.arange(uniq.size)
    far_end = np.where(s >= N, s, d)
    edge_net = np.where(far_end >= N, net_of_label[label[far_end]], -1)
    return members, edge_net


def detect_product(fab: Fabric, approximate: bool = False, kind_hint: list[str] | None = None) -> Product:
    """RI/FC/SW dimensions over the NPUs in rank order; raises NotAProduct with the reason.

    The dimension holding NPUs 0 and s (s = product of the sizes found so far) is found first — in a
    product they are neighbours — and its size is read from the graph (the switch network's members,
    or the chain s, 2s, … of direct links); then every link is checked to join NPUs that differ in
    exactly one coordinate, each dimension uniform in kind, size, bandwidth and latency.
    With `approximate`, a multi-switch network is modelled as one switch (latency = half the
    largest NPU-to-NPU latency through it) and non-uniform links by their slowest; each is noted.
    `kind_hint` (e.g. from the importer's graph annotation) names the kind of dimensions the graph
    cannot tell apart (2- and 3-NPU rings are also cliques).
    """
    N = fab.num_npus
    if N < 2:
        raise NotAProduct(f"the graph has {N} NPU; ASTRA-sim needs at least 2 NPUs per dimension")
    s_, d_ = fab.src, fab.dst
    direct = (s_ < N) & (d_ < N)
    da, db = np.minimum(s_[direct], d_[direct]), np.maximum(s_[direct], d_[direct])
    dkey = da * N + db
    pair_keys = np.unique(dkey)
    pairs = set(pair_keys.tolist()) if pair_keys.size < 5_000_000 else None
    members, edge_net = _networks(fab)
    net_of_0 = {i for i, m in enumerate(members) if m.size and m[0] == 0}

    def has_direct(a: int, b: int) -> bool:
        a, b = min(a, b), max(a, b)
        return (a * N + b) in pairs if pairs is not None else bool(np.isin(a * N + b, pair_keys))

    dims: list[Dimension] = []
    stride = 1
    chain = ""  # where the last linked dimension's chain of NPUs stopped, for the next message

    def so_far() -> str:
        return (Product(dims).shape() or "nothing") + (f" ({chain})" if chain else "")

    while stride < N:
        d = len(dims)
        net = next((i for i in net_of_0 if np.searchsorted(members[i], stride) < members[i].size
                    and members[i][np.searchsorted(members[i], stride)] == stride), None)
        if net is not None:
            m = np.unique(members[net])
            n = int(m.size)
            expect = np.arange(n) * stride
            if not np.array_equal(m, expect):
                raise NotAProduct(
                    f"dimension {d}: the switch network of NPU 0 ('{fab.name(0)}') connects NPUs "
                    f"{_fmt_ids(m)}, not the block {_fmt_ids(expect[: min(n, 6)])}… of a product "
                    f"in this rank order", hint="check the rank annotation (dimension 0 varies fastest)")
            kind = SW
        elif has_direct(0, stride):
            n = 2
            while n * stride < N and has_direct((n - 1) * stride, n * stride):
                n += 1
            kind = LINKED
            last = (n - 1) * stride
            chain = "" if n * stride >= N else (
                f"the chain of directly linked NPUs {_fmt_ids(np.arange(n) * stride)[1:-1]} ends at NPU {last} "
                f"('{fab.name(last)}'), which has no link to NPU {n * stride} ('{fab.name(n * stride)}')")
        else:
            raise NotAProduct(
                f"dimension {d}: NPU 0 ('{fab.name(0)}') and NPU {stride} ('{fab.name(stride)}') share no link "
                f"or switch, but in an RI/FC/SW product in this rank order they are neighbours "
                f"(found so far: {so_far()})",
                hint="annotate `rank` so that dimension 0 varies fastest, or translate with --approximate")
        if (N // stride) % n:
            raise NotAProduct(f"dimension {d} has {n} NPUs" + (f" ({chain})" if kind == LINKED and chain else "")
                              + f"; {n} does not divide the {N // stride} NPUs"
                              + (f" left after {Product(dims).shape()}" if dims else ""))
        dims.append(Dimension(kind, n, stride, math.nan, math.nan))
        stride *= n

    sizes = np.array([x.size for x in dims])
    strides = np.array([x.stride for x in dims])
    notes: list[str] = []

    def coords(ids: np.ndarray) -> np.ndarray:
        return (ids[:, None] // strides[None, :]) % sizes[None, :]

    # direct links: exactly one coordinate differs, in a direct dimension
    if da.size:
        diff = coords(da) != coords(db)
        ndiff = diff.sum(axis=1)
        bad = np.flatnonzero(ndiff != 1)
        if bad.size:
            e = int(np.flatnonzero(direct)[bad[0]])
            raise NotAProduct(f"link '{fab.name(int(s_[e]))}' - '{fab.name(int(d_[e]))}' joins NPUs "
                              f"{int(da[bad[0]])} and {int(db[bad[0]])}, which differ in {int(ndiff[bad[0]])} "
                              f"coordinates of {so_far()}; a product's links stay within one dimension",
                              fab.edge_where(e))
        edge_dim = np.argmax(diff, axis=1)
    direct_idx = np.flatnonzero(direct)
    for i, dim in enumerate(dims):
        if dim.kind == SW:
            continue
        sel = direct_idx[edge_dim == i]
        keys = dkey[edge_dim == i]
        uk, mult = np.unique(keys, return_counts=True)
        n, blocks = dim.size, N // dim.size
        a, b = uk // N, uk % N
        delta = np.abs(coords(a)[:, i] - coords(b)[:, i])
        is_ring_pairs = bool(np.all((delta == 1) | (delta == n - 1)))
        if uk.size == blocks * n * (n - 1) // 2:
            kind = FC
        elif n > 3 and uk.size == blocks * n and is_ring_pairs:
            kind = RING
        else:
            want = f"{blocks * n} ring links or {blocks * n * (n - 1) // 2} clique links"
            reason = (f"dimension {i} ({n} NPUs per block, stride {dim.stride}) has {uk.size} distinct NPU pairs "
                      f"linked; expected {want} (a mesh without wrap-around, or a partial clique, is neither)")
            ids = np.arange(N)
            c = coords(ids)[:, i]
            nxt = ids + ((c + 1) % n - c) * dim.stride
            gap = np.flatnonzero(~np.isin(np.minimum(ids, nxt) * N + np.maximum(ids, nxt), uk))
            if gap.size:  # name a missing ring link (a failed cable of a torus, the wrap-around of a mesh)
                a, b = int(gap[0]), int(nxt[gap[0]])
                reason += (f"; e.g. NPU {a} ('{fab.name(a)}') and its ring neighbour NPU {b} ('{fab.name(b)}') "
                           f"are not linked")
            if not approximate:
                raise NotAProduct(reason, fab.edge_where(int(sel[0])), "translate with --approximate to model it as a ring")
            kind, dim.exact, dim.note = RING, False, reason + "; approximated as a Ring"
        m0 = int(mult.min())
        if n <= 3:  # a 2- or 3-NPU ring is also a clique: the hint decides, else Ring (RI notation)
            hint = kind_hint[i] if kind_hint and i < len(kind_hint) else None
            kind = hint if hint in (RING, FC) else RING
            if hint is None and not (n == 2 and m0 == 2):
                notes.append(f"dimension {i}: {n} directly linked NPUs form both a ring and a clique; "
                             f"reported as {kind}")
        dim.kind = kind
        par = m0 if not (kind == RING and n == 2) else max(1, m0 // 2)
        if not np.all(mult == mult[0]):
            msg = f"dimension {i}: NPU pairs are joined by {int(mult.min())} to {int(mult.max())} parallel links"
            if not approximate:
                raise NotAProduct(msg, fab.edge_where(int(sel[0])), "translate with --approximate to use the minimum")
            dim.exact, dim.note = False, msg + "; the minimum is used"
        _uniform(fab, dim, i, sel, par, approximate)

    # switch networks: each is one block of one switch dimension
    for i, dim in enumerate(dims):
        if dim.kind == SW:
            _switch_dim(fab, dims, i, members, edge_net, coords, approximate)
    covered = sum(N // x.size for x in dims if x.kind == SW)
    if len(members) != covered:
        spare = len(members) - covered
        raise NotAProduct(f"{spare} switch network(s) are not a dimension of {Product(dims).shape()}: "
                          f"each switch dimension needs {'/'.join(str(N // x.size) for x in dims if x.kind == SW) or 'no'} networks",
                          hint="switch networks must each connect one block of NPUs differing in one coordinate")
    return Product(dims, notes + [f"APPROXIMATION: {x.note}" for x in dims if x.note])


def _fmt_ids(ids: np.ndarray) -> str:
    ids = ids.tolist()
    return "[" + ", ".join(map(str, ids[:6])) + (", …" if len(ids) > 6 else "") + "]"


def _uniform(fab: Fabric, dim: Dimension, i: int, sel: np.ndarray, parallel: int, approximate: bool) -> None:
    """Set the dimension's bandwidth (x parallel links) and latency, requiring them uniform."""
    bw, lat = fab.bw_gbps[sel], fab.lat_ns[sel]
    for arr, what, unit in ((bw, "bandwidth", "Gbit/s"), (lat, "latency", "ns")):
        if arr.size and not np.allclose(arr, arr[0], rtol=1e-9, atol=0):
            e = int(sel[np.argmax(np.abs(arr - arr[0]))])
            msg = (f"dimension {i}: links have {what} from {float(np.min(arr)):g} to {float(np.max(arr)):g} {unit} "
                   f"(e.g. '{fab.name(int(fab.src[e]))}' - '{fab.name(int(fab.dst[e]))}'); ASTRA-sim has one "
                   f"{what} per dimension")
            if not approximate:
                raise NotAProduct(msg, fab.edge_where(e), "translate with --approximate to use the slowest")
            dim.exact = False
            dim.note = (dim.note + "; " if dim.note else "") + msg + "; the slowest is used"
    dim.bw_gbps = float(np.min(bw)) * parallel if bw.size else math.nan
    dim.lat_ns = float(np.max(lat)) if lat.size else math.nan


def _switch_dim(fab: Fabric, dims: list[Dimension], i: int, members: list[np.ndarray],
                edge_net: np.ndarray, coords, approximate: bool) -> None:
    N = fab.num_npus
    dim = dims[i]
    mine = []
    for k, m in enumerate(members):
        u = np.unique(m)
        c = coords(u)
        varying = np.flatnonzero((c != c[0]).any(axis=0))
        if varying.size == 1 and varying[0] == i:
            if u.size != dim.size:
                raise NotAProduct(f"dimension {i}: a switch network connects {u.size} NPUs ({_fmt_ids(u)}), "
                                  f"the dimension has {dim.size}")
            mine.append(k)
        elif varying.size != 1:
            raise NotAProduct(f"a switch network connects NPUs {_fmt_ids(u)} ('{fab.name(int(u[0]))}', …) that differ "
                              f"in {varying.size} coordinates of {Product(dims).shape()}; each network must serve "
                              f"one dimension", hint="check the rank annotation or the wiring")
    if len(mine) != N // dim.size:
        raise NotAProduct(f"dimension {i} ({SW}({dim.size})) needs {N // dim.size} switch networks, found {len(mine)}")
    mine_set = np.zeros(len(members), dtype=bool)
    mine_set[mine] = True
    in_dim = (edge_net >= 0) & mine_set[np.maximum(edge_net, 0)]
    attach = in_dim & ((fab.src < N) | (fab.dst < N))
    sel = np.flatnonzero(attach)
    # parallel attachments per NPU
    npu_end = np.where(fab.src[sel] < N, fab.src[sel], fab.dst[sel])
    per_npu = np.bincount(npu_end, minlength=N)
    vals = np.unique(per_npu[per_npu > 0])
    if vals.size != 1:
        msg = f"dimension {i}: NPUs have {int(vals.min())} to {int(vals.max())} links into their switch network"
        if not approximate:
            raise NotAProduct(msg, hint="translate with --approximate to use the minimum")
        dim.exact, dim.note = False, msg + "; the minimum is used"
    parallel = int(vals.min())
    switches = np.unique(np.concatenate([fab.src[in_dim], fab.dst[in_dim]]))
    switches = switches[switches >= N]
    if switches.size == len(mine):  # one switch per network: an exact star
        _uniform(fab, dim, i, sel, parallel, approximate)
        return
    # a multi-switch network (a Clos inside one dimension)
    where = fab.name(int(switches[0]))
    reason = (f"dimension {i}: each switch network has {switches.size // max(1, len(mine))} switches on average "
              f"(e.g. the one with '{where}'); ASTRA-sim's Switch is one switch (2 hops)")
    if not approximate:
        raise NotAProduct(reason, hint="translate with --approximate to model each network as one switch")
    _uniform(fab, dim, i, sel, parallel, True)
    k = mine[0]
    first = int(members[k][0])
    V = fab.num_vertices
    sub = in_dim
    w = coo_matrix((fab.lat_ns[sub] + 1e-9, (fab.src[sub], fab.dst[sub])), shape=(V, V)).tocsr()
    dist = dijkstra(w, directed=False, indices=first)
    far = float(np.max(dist[np.unique(members[k])]))
    dim.lat_ns = far / 2.0
    dim.exact = False
    dim.note = (dim.note + "; " if dim.note else "") + (
        f"{reason}; modelled as one switch with {dim.lat_ns:g} ns per hop (half the largest NPU-to-NPU latency "
        f"{far:g} ns from '{fab.name(first)}')")


# --- Clos tiers ----------------------------------------------------------------------------------

def switch_tiers(fab: Fabric, sources: np.ndarray | None = None, keep: np.ndarray | None = None) -> np.ndarray:
    """Tier per vertex: the sources (vertex indices; default the NPUs) -1, the others by BFS distance
    from them over the links `keep` selects (default all; tier 0 touches a source); -2 where not
    reachable."""
    V = fab.num_vertices
    frontier = np.arange(fab.num_npus) if sources is None else sources
    keep = np.ones(fab.num_edges, dtype=bool) if keep is None else keep
    tier = np.full(V, -2, dtype=np.int64)
    tier[frontier] = -1
    adj = coo_matrix((np.ones(int(keep.sum())), (fab.src[keep], fab.dst[keep])), shape=(V, V)).tocsr()
    adj = adj + adj.T
    t = 0
    while frontier.size:
        nxt = np.unique(adj[frontier].indices)
        nxt = nxt[tier[nxt] == -2]
        tier[nxt] = t
        frontier = nxt
        t += 1
    return tier


# --- servers as hosts -----------------------------------------------------------------------------

class NotSplittable(Exception):
    """Why a server cannot be cut into one host per GPU-NIC pair (message for the user), and what
    would make it one (hint)."""

    def __init__(self, message: str, hint: str = ""):
        super().__init__(message)
        self.hint = hint


def _renumber(fab: Fabric, keep: np.ndarray, src: np.ndarray, dst: np.ndarray, bw: np.ndarray, lat: np.ndarray,
              origin: np.ndarray, notes: list[str]) -> Fabric:
    """A fabric on the kept vertices (NPUs stay 0..N-1) with the given edges (in old vertex ids)."""
    new_id = np.full(fab.num_vertices, -1, dtype=np.int64)
    new_id[keep] = np.arange(int(keep.sum()))
    return Fabric(fab.g, fab.num_npus, fab.vertex_node[keep], fab.vertex_kind[keep], new_id[src], new_id[dst],
                  bw, lat, origin, fab.collapsed_links, notes)


def scale_up_switches(fab: Fabric) -> np.ndarray:
    """Per vertex: a switch inside a server (an NVSwitch-style scale-up domain), i.e. a switch whose
    links are all device-internal and all to NPUs."""
    N, V = fab.num_npus, fab.num_vertices
    internal = np.array([r.startswith("devices[") for r in fab.g.edge_records], dtype=bool)
    edge_internal = internal[fab.g.edge_origin[fab.origin]]
    external_at = np.zeros(V, dtype=bool)
    non_npu_nbr = np.zeros(V, dtype=bool)
    for a, b in ((fab.src, fab.dst), (fab.dst, fab.src)):
        np.logical_or.at(external_at, a, ~edge_internal)
        np.logical_or.at(non_npu_nbr, a, b >= N)
    linked = np.bincount(np.concatenate([fab.src, fab.dst]), minlength=V) > 0
    return (fab.vertex_kind == SWITCH) & ~external_at & ~non_npu_nbr & linked


def _check_pairs(fab: Fabric, hub: int, npus: np.ndarray, cables: int) -> None:
    """NotSplittable naming what keeps a shared complex from being one host per GPU-NIC pair: one
    link per GPU into it and as many cables out of it as GPUs."""
    where = f"'{fab.name(hub)}' (a device-internal group shared by several NPUs)"
    gpus = np.unique(npus).size
    if gpus != npus.size:
        raise NotSplittable(f"{where} has {npus.size} links to {gpus} NPU(s): an NPU with several links into it has "
                            f"no one-link equivalent")
    if cables == 0:
        raise NotSplittable(f"{where} links to {gpus} NPU(s) and to no cable to a switch: a CPU or PCIe complex wired to GPUs but "
                            f"not to their NICs (e.g. `cpu -- gpu` links) is a path between GPUs outside the fabric",
                            "leave the links between CPUs and GPUs out of the server for HTSim, or translate with "
                            "--to ns3 (it keeps such a complex as a forwarding node) or --to astra-analytical "
                            "--approximate")
    if cables < gpus:
        raise NotSplittable(f"{where} joins {gpus} NPU(s) to {cables} cable(s): the GPUs share NICs, and one host "
                            f"per GPU-NIC pair needs a NIC per GPU",
                            "give every GPU its own NIC (e.g. -D nics_per_host=8 -D 'host_device=dgx.dgx()'), or "
                            "translate with --to ns3 (any topology) or --to astra-analytical --approximate")
    if cables > gpus:
        raise NotSplittable(f"{where} joins {gpus} NPU(s) to {cables} cable(s): more NIC cables than GPUs, and one "
                            f"host per GPU-NIC pair has one cable per GPU",
                            "cable one NIC port per GPU, or translate with --to ns3 (any topology)")


def host_per_gpu_nic_pair(fab: Fabric) -> Fabric:
    """The fabric as host-per-NIC backends (HTSim) see a server: every NPU a host with one cable.

    A hub (a server's shared PCIe/CPU complex, structure.fabric) joined to k NPUs, one link each, and
    with k cables to switches becomes k hosts: the i-th NPU in rank order takes the i-th cable in the
    order of the hub-side node (NIC 0, NIC 1, ...: GPU i with NIC i, as on a DGX-like server), over a
    link with the smaller bandwidth and the summed latency of the NPU's link into the hub and the
    cable (the path inside the hub, PCIe switch to NIC, is not counted). Switches inside a server
    (an NVSwitch-style scale-up domain: only device-internal links, only to NPUs) are dropped — a
    host-per-NIC model has no intra-server network, so GPUs of one server talk over the fabric.
    Raises NotSplittable with the reason when a hub is shaped otherwise."""
    N = fab.num_npus
    kind = fab.vertex_kind
    if not np.any(kind == HUB):
        return fab
    g = fab.g
    scale_up = scale_up_switches(fab)
    drop_edge = scale_up[fab.src] | scale_up[fab.dst]
    notes = list(fab.notes)
    if scale_up.any():
        notes.append(f"APPROXIMATION: {int(scale_up.sum())} switch(es) inside servers (a scale-up domain, e.g. "
                     f"'{fab.name(int(np.flatnonzero(scale_up)[0]))}') are not modelled: each GPU is a host with one "
                     f"NIC, so GPUs of one server communicate over the fabric")
    hub_edge = ((kind[fab.src] == HUB) | (kind[fab.dst] == HUB)) & ~drop_edge
    hub_end = np.where(kind[fab.src] == HUB, fab.src, fab.dst)
    far_end = np.where(kind[fab.src] == HUB, fab.dst, fab.src)
    new_src, new_dst, new_bw, new_lat, new_origin = [], [], [], [], []
    for h in np.flatnonzero(kind == HUB).tolist():
        mine = np.flatnonzero(hub_edge & (hub_end == h))
        far = far_end[mine]
        to_npu, to_switch = mine[far < N], mine[kind[far] == SWITCH]
        if to_npu.size + to_switch.size != mine.size:
            raise NotSplittable(f"'{fab.name(h)}' (shared by several NPUs) also links to another shared device; "
                                f"only a server whose NPUs share it and whose NICs are cabled to switches is split",
                                "translate with --to ns3 (any topology) or --to astra-analytical --approximate")
        npus = far_end[to_npu]
        _check_pairs(fab, h, npus, to_switch.size)
        npu_order = to_npu[np.argsort(npus, kind="stable")]
        s_node, d_node = g.edge_src[fab.origin[to_switch]], g.edge_dst[fab.origin[to_switch]]
        hub_node = int(fab.vertex_node[h])
        inst = g.instances[int(g.node_instance[hub_node])]
        lo = inst.first_node + int(g.node_copy[hub_node]) * inst.nodes_per_copy
        hub_side = np.where((s_node >= lo) & (s_node < lo + inst.nodes_per_copy), s_node, d_node)
        cable_order = to_switch[np.lexsort((fab.origin[to_switch], hub_side))]
        new_src.append(far_end[npu_order])
        new_dst.append(far_end[cable_order])
        new_bw.append(np.fmin(fab.bw_gbps[npu_order], fab.bw_gbps[cable_order]))
        new_lat.append(fab.lat_ns[npu_order] + fab.lat_ns[cable_order])
        new_origin.append(fab.origin[cable_order])
    keep_edge = ~hub_edge & ~drop_edge
    keep = ~scale_up & (kind != HUB)
    split = int(np.count_nonzero(kind == HUB))
    notes = [n for n in notes if "shared by several NPUs" not in n]
    notes.append(f"APPROXIMATION: {split} server(s) with NICs shared through a PCIe/CPU complex (e.g. "
                 f"'{fab.name(int(np.flatnonzero(kind == HUB)[0]))}') are split into one host per GPU-NIC pair (GPU i "
                 f"with NIC i); each host's link has the smaller bandwidth and the summed latency of GPU-to-complex "
                 f"and the NIC's cable; the path inside the complex is not counted")
    return _renumber(fab, keep, np.concatenate([fab.src[keep_edge], *new_src]),
                     np.concatenate([fab.dst[keep_edge], *new_dst]), np.concatenate([fab.bw_gbps[keep_edge], *new_bw]),
                     np.concatenate([fab.lat_ns[keep_edge], *new_lat]),
                     np.concatenate([fab.origin[keep_edge], *new_origin]), notes)
