"""Independent structural checks for blueprint graphs, computed from the FQG arrays alone.

The blueprint tests compare what a compiled blueprint *is* against what closed-form formulas say
it must be. These helpers therefore never read the blueprint's own bookkeeping (its parameters or
the names it chose) except where a formula needs an identity: which device copies are hosts,
switches or NPUs. Everything else — which copies a cable joins, distances, cuts, coordinates — is
recomputed from `edge_src`/`edge_dst` and `node_owner`, so a miswired blueprint fails even if it
produces the right number of records.

Vocabulary: a *copy* is one top-level device copy (`leaf.3`); a *cable* is an edge whose two ends
have different owners (the innermost device copies holding them), i.e. not internal wiring.
"""

from __future__ import annotations

from collections import Counter
from math import prod

import numpy as np
from scipy.sparse import coo_matrix, csr_matrix
from scipy.sparse.csgraph import connected_components, maximum_flow, shortest_path

from infragraph.graph.fqg import FQG

# ------------------------------------------------------------------------------ basic facts ----


def type_counts(g: FQG) -> Counter:
    """Nodes per `type` (xpu, port, switch, ...)."""
    return Counter(np.array(g.type_names, dtype=object)[g.node_type].tolist())


def copies_per_instance(g: FQG) -> dict[str, int]:
    """How many copies each instance has, e.g. {"leaf": 32, "spine": 16}."""
    return {i.name: i.count for i in g.instances}


def nodes_in(g: FQG, instance: str, type_name: str | None = None) -> np.ndarray:
    """Node ids of one instance (optionally only one type), ascending."""
    idx = [i for i, x in enumerate(g.instances) if x.name == instance]
    assert idx, f"no instance '{instance}' (have {[x.name for x in g.instances]})"
    mask = g.node_instance == idx[0]
    if type_name is not None:
        mask &= g.node_type == (g.type_names.index(type_name) if type_name in g.type_names else -1)
    return np.flatnonzero(mask)


def copy_ids(g: FQG) -> np.ndarray:
    """Per node, the id of its top-level device copy (instances in order, copies within)."""
    base = np.cumsum([0] + [i.count for i in g.instances])[:-1]
    return (base[g.node_instance] + g.node_copy).astype(np.int64)


def copy_base(g: FQG, instance: str) -> int:
    """Copy id of `instance`'s copy 0 (see `copy_ids`)."""
    n = 0
    for x in g.instances:
        if x.name == instance:
            return n
        n += x.count
    raise AssertionError(f"no instance '{instance}'")


def num_copies(g: FQG) -> int:
    return sum(i.count for i in g.instances)


def cable_mask(g: FQG) -> np.ndarray:
    """True for edges between different device copies (cables), False for internal wiring."""
    return g.node_owner[g.edge_src] != g.node_owner[g.edge_dst]


def external_mask(g: FQG) -> np.ndarray:
    """True for edges between different top-level device copies (a nested NIC's host-side link
    is a cable by owner, but stays inside its host copy)."""
    c = copy_ids(g)
    return c[g.edge_src] != c[g.edge_dst]


def cables_between(g: FQG, a: str, b: str) -> int:
    """Number of cables with one end in instance `a` and the other in instance `b`."""
    names = np.array([x.name for x in g.instances], dtype=object)
    s, d = names[g.node_instance[g.edge_src]], names[g.node_instance[g.edge_dst]]
    m = cable_mask(g) & (((s == a) & (d == b)) | ((s == b) & (d == a)))
    return int(m.sum())


# --------------------------------------------------------------------------------- hygiene ----


def assert_no_self_loops(g: FQG) -> None:
    loops = np.flatnonzero(g.edge_src == g.edge_dst)
    assert loops.size == 0, f"self-loops at {[g.node_name(int(g.edge_src[e])) for e in loops[:5]]}"


def port_cable_counts(g: FQG) -> np.ndarray:
    """Per `port` node (in id order), how many cables end on it."""
    if "port" not in g.type_names:
        return np.zeros(0, dtype=np.int64)
    m = cable_mask(g)
    ends = np.concatenate([g.edge_src[m], g.edge_dst[m]])
    counts = np.bincount(ends, minlength=g.num_nodes)
    return counts[g.nodes_of_type("port")]


def assert_ports_cabled_at_most_once(g: FQG) -> None:
    counts = port_cable_counts(g)
    bad = np.flatnonzero(counts > 1)
    ports = g.nodes_of_type("port")
    assert bad.size == 0, f"ports cabled twice: {[g.node_name(int(ports[i])) for i in bad[:5]]}"


def assert_no_duplicate_cables(g: FQG) -> None:
    """No two cables join the same pair of nodes (parallel cables would be a wiring slip here)."""
    m = cable_mask(g)
    a, b = g.edge_src[m].astype(np.int64), g.edge_dst[m].astype(np.int64)
    keys = np.minimum(a, b) * g.num_nodes + np.maximum(a, b)
    assert np.unique(keys).size == keys.size, "two cables join the same pair of nodes"


def assert_connected(g: FQG, nodes: np.ndarray) -> None:
    """Every node in `nodes` reaches every other (one connected component holds them all)."""
    n = g.num_nodes
    adj = coo_matrix((np.ones(g.num_edges, dtype=np.int8), (g.edge_src, g.edge_dst)), shape=(n, n)).tocsr()
    _, labels = connected_components(adj, directed=False)
    parts = np.unique(labels[nodes])
    assert parts.size <= 1, f"{parts.size} separate groups among {len(nodes)} nodes"


def assert_hygiene(g: FQG, npus: np.ndarray | None = None) -> None:
    """The invariants every blueprint must satisfy: no self-loops, a port takes one cable, no
    duplicated cable, every NPU (default: every xpu) reaches every other."""
    assert_no_self_loops(g)
    assert_ports_cabled_at_most_once(g)
    assert_no_duplicate_cables(g)
    assert_connected(g, g.nodes_of_type("xpu") if npus is None else npus)


# --------------------------------------------------------------------- the copy-level graph ----


def copy_graph(g: FQG, weight: str = "count") -> csr_matrix:
    """Symmetric adjacency between device copies: entry (u, v) = number of cables (or total
    Gbit/s with weight="bandwidth") between copies u and v. Internal wiring disappears."""
    c = copy_ids(g)
    m = external_mask(g)
    u, v = c[g.edge_src[m]], c[g.edge_dst[m]]
    if weight == "bandwidth":
        w = g.edge_bandwidth_gbps()[m]
        assert not np.isnan(w).any(), "every cable needs a bandwidth"
    else:
        w = np.ones(u.size)
    n = num_copies(g)
    return coo_matrix((np.concatenate([w, w]), (np.concatenate([u, v]), np.concatenate([v, u]))),
                      shape=(n, n)).tocsr()


def copy_pairs(g: FQG) -> np.ndarray:
    """(k, 2) array of (copy, copy) per cable between copies, smaller id first."""
    c = copy_ids(g)
    m = external_mask(g)
    u, v = c[g.edge_src[m]], c[g.edge_dst[m]]
    return np.stack([np.minimum(u, v), np.maximum(u, v)], axis=1)


def hop_distances(g: FQG, copies: np.ndarray | None = None) -> np.ndarray:
    """All-pairs cable-hop distances between the given copies (default: all), walking through any
    copy. Unreachable pairs are inf."""
    adj = copy_graph(g)
    adj.data[:] = 1
    if copies is None:
        copies = np.arange(adj.shape[0])
    d = shortest_path(adj, unweighted=True, directed=False, indices=copies)
    return d[:, copies]


def induced_diameter(g: FQG, copies: np.ndarray) -> int:
    """Diameter of the copy graph restricted to `copies` (paths may only use those copies)."""
    adj = copy_graph(g)[copies][:, copies]
    adj.data[:] = 1
    d = shortest_path(adj, unweighted=True, directed=False)
    assert np.isfinite(d).all(), "the induced graph is disconnected"
    return int(d.max())


# ------------------------------------------------------------------------ torus/mesh/cube ----


def coords(index: np.ndarray | int, sizes: list[int]) -> np.ndarray:
    """Mixed-radix coordinates, dimension 0 fastest: i = x0 + n0*x1 + n0*n1*x2 + ..."""
    index = np.asarray(index)
    out, rest = [], index
    for n in sizes:
        out.append(rest % n)
        rest = rest // n
    return np.stack(out, axis=-1)


def grid_link_count(sizes: list[int], wrap: bool) -> int:
    """Links of a k-ary n-cube: per dimension N/k lines of k-1 links (mesh), k links (torus with
    k > 2) or 1 link (k = 2: the two wraparound links would be parallel, so there is one)."""
    n = prod(sizes)
    total = 0
    for k in sizes:
        per_line = (k if k > 2 else k - 1) if wrap else k - 1
        total += n // k * per_line
    return total


def grid_diameter(sizes: list[int], wrap: bool) -> int:
    return sum(k // 2 for k in sizes) if wrap else sum(k - 1 for k in sizes)


def check_grid(g: FQG, instance: str, sizes: list[int], wrap: bool) -> None:
    """`instance` copy i sits at coords(i); every cable joins two copies that differ by one step
    (mod k when wrapping) in exactly one dimension; link count and diameter match the formulas."""
    base = copy_base(g, instance)
    n = prod(sizes)
    pairs = copy_pairs(g)
    inside = (pairs >= base) & (pairs < base + n)
    pairs = pairs[inside.all(axis=1)] - base
    assert len(pairs) == grid_link_count(sizes, wrap), (len(pairs), grid_link_count(sizes, wrap))
    assert np.unique(pairs, axis=0).shape[0] == len(pairs), "parallel links between grid neighbours"
    ca, cb = coords(pairs[:, 0], sizes), coords(pairs[:, 1], sizes)
    diff = ca != cb
    assert (diff.sum(axis=1) == 1).all(), "a cable joins copies that differ in more than one dimension"
    d = np.argmax(diff, axis=1)
    k = np.array(sizes)[d]
    step = np.abs(ca[np.arange(len(d)), d] - cb[np.arange(len(d)), d])
    ok = (step == 1) | (wrap & (step == k - 1))
    assert ok.all(), "a cable skips over grid positions"
    copies = np.arange(base, base + n)
    assert induced_diameter(g, copies) == grid_diameter(sizes, wrap)
    degree = np.bincount(pairs.ravel(), minlength=n)
    interior = sum((2 if k > 2 else 1 if k == 2 else 0) for k in sizes)
    assert degree.max() == interior, (degree.max(), interior)


# ------------------------------------------------------------------------------- dragonfly ----


def check_dragonfly(g: FQG, router_instance: str, a: int, groups: int, h: int) -> dict:
    """Router copy r belongs to group r // a. Each group must be a full mesh (a(a-1)/2 local
    links, none doubled) and no router may use more than h global links. Returns the number of
    global links, the Counter of links per group pair, and the router-hop diameter (paths through
    routers only)."""
    base = copy_base(g, router_instance)
    n = a * groups
    pairs = copy_pairs(g)
    rr = pairs[((pairs >= base) & (pairs < base + n)).all(axis=1)] - base
    ga, gb = rr[:, 0] // a, rr[:, 1] // a
    local = rr[ga == gb]
    glob = rr[ga != gb]
    assert len(local) == groups * a * (a - 1) // 2, "groups are not full meshes"
    assert np.unique(local, axis=0).shape[0] == len(local), "a local link is doubled"
    per_router = np.bincount(glob.ravel(), minlength=n)
    assert per_router.max(initial=0) <= h, "a router has more than h global links"
    group_pairs = Counter(zip((glob[:, 0] // a).tolist(), (glob[:, 1] // a).tolist()))
    return {"global": len(glob), "pairs": group_pairs,
            "diameter": induced_diameter(g, np.arange(base, base + n))}


def hosts_per_switch(g: FQG, host_instance: str, switch_instance: str) -> np.ndarray:
    """For each host copy (in order), the switch copy index its cables land on; -1 if several."""
    hb, sb = copy_base(g, host_instance), copy_base(g, switch_instance)
    nh, ns = copies_per_instance(g)[host_instance], copies_per_instance(g)[switch_instance]
    out = np.full(nh, -2)
    for u, v in copy_pairs(g).tolist():
        for x, y in ((u, v), (v, u)):
            if hb <= x < hb + nh and sb <= y < sb + ns:
                out[x - hb] = y - sb if out[x - hb] in (-2, y - sb) else -1
    return out


# ------------------------------------------------------------------------------------ Clos ----


def max_flow_between(g: FQG, side_a: np.ndarray, side_b: np.ndarray) -> float:
    """Maximum flow in Gbit/s from copies `side_a` to copies `side_b` over the cables (each cable a
    full-duplex pipe of its bandwidth in each direction; switches forward without limit)."""
    adj = copy_graph(g, "bandwidth").tocoo()
    n = adj.shape[0]
    scale = 1
    while not np.allclose(adj.data * scale, np.round(adj.data * scale)):
        scale *= 10
    cap = np.round(adj.data * scale).astype(np.int64)
    big = int(cap.sum()) + 1
    src, dst = n, n + 1
    rows = np.concatenate([adj.row, np.full(len(side_a), src), side_b])
    cols = np.concatenate([adj.col, side_a, np.full(len(side_b), dst)])
    vals = np.concatenate([cap, np.full(len(side_a), big), np.full(len(side_b), big)])
    assert big < 2**31, "capacities overflow int32; use fewer hosts in this check"
    m = csr_matrix((vals.astype(np.int32), (rows, cols)), shape=(n + 2, n + 2))
    m.sum_duplicates()
    return maximum_flow(m, src, dst).flow_value / scale


def bisection_of_halves(g: FQG, host_instance: str, order: np.ndarray | None = None) -> float:
    """Max flow between the first and the second half of `host_instance`'s copies (in `order`,
    default copy order). For a folded Clos whose halves are whole pods this is its bisection."""
    base = copy_base(g, host_instance)
    n = copies_per_instance(g)[host_instance]
    idx = np.arange(n) if order is None else np.asarray(order)
    return max_flow_between(g, base + idx[: n // 2], base + idx[n // 2:])


# ------------------------------------------------------------------------ RI/FC/SW stacks ----


def stack_link_counts(shape: list[tuple[str, int]]) -> list[int]:
    """Per dimension: cables of a RI/FC/SW dimension over N NPUs (N/k groups of k NPUs each).
    RI(k): k links (1 for k = 2), FC(k): k(k-1)/2, SW(k): k NPU-switch cables."""
    n = prod(k for _, k in shape)
    per_group = {"RI": lambda k: k if k > 2 else 1, "FC": lambda k: k * (k - 1) // 2, "SW": lambda k: k}
    return [n // k * per_group[t](k) for t, k in shape]


def check_stack(g: FQG, shape: list[tuple[str, int]], npu_instance: str = "npu") -> None:
    """The multi-rail graph of an RI/FC/SW stack. The NPU with rank r (the `rank` annotation of
    its xpu) has coordinates coords(r) (dimension 1 fastest). Every NPU-NPU cable must join NPUs
    that differ in exactly one coordinate d, of an RI (neighbours mod k) or FC dimension; every
    switch joins exactly the k NPUs of one SW(k) line (all coordinates equal except d, which
    takes every value once). Per-dimension counts must match `stack_link_counts`."""
    sizes = [k for _, k in shape]
    n = prod(sizes)
    xpus = nodes_in(g, npu_instance, "xpu")
    assert len(xpus) == n, (len(xpus), n)
    ranks = g.node_annotation("rank")
    r = np.array([ranks.get(int(x), -1) for x in xpus])
    assert sorted(r.tolist()) == list(range(n)), "ranks are not 0..N-1"
    c = copy_ids(g)
    rank_of_copy = {int(c[x]): int(rank) for x, rank in zip(xpus, r)}
    pairs = copy_pairs(g)
    is_npu = np.vectorize(lambda x: x in rank_of_copy)(pairs) if len(pairs) else np.zeros((0, 2), bool)
    per_dim = [0] * len(shape)
    # NPU-NPU cables
    seen = set()
    for u, v in pairs[is_npu.all(axis=1)].tolist():
        ru, rv = rank_of_copy[u], rank_of_copy[v]
        cu, cv = coords(ru, sizes), coords(rv, sizes)
        diff = np.flatnonzero(cu != cv)
        assert len(diff) == 1, f"NPUs {ru} and {rv} differ in dims {diff.tolist()}"
        d = int(diff[0])
        kind, k = shape[d]
        assert kind in ("RI", "FC"), f"NPUs {ru}, {rv} cabled directly in {kind} dim {d}"
        if kind == "RI":
            assert (cu[d] - cv[d]) % k in (1, k - 1), f"ring dim {d}: {ru} and {rv} are not neighbours"
        key = (min(ru, rv), max(ru, rv))
        assert key not in seen, f"NPUs {key} cabled twice"
        seen.add(key)
        per_dim[d] += 1
    # switches: group the NPUs each non-NPU copy touches
    touches: dict[int, list[int]] = {}
    for u, v in pairs[is_npu.any(axis=1) & ~is_npu.all(axis=1)].tolist():
        npu, other = (u, v) if u in rank_of_copy else (v, u)
        touches.setdefault(other, []).append(rank_of_copy[npu])
    for sw, members in touches.items():
        cs = coords(np.array(members), sizes)
        varying = np.flatnonzero((cs != cs[0]).any(axis=0))
        assert len(varying) == 1, f"switch copy {sw} joins NPUs differing in dims {varying.tolist()}"
        d = int(varying[0])
        kind, k = shape[d]
        assert kind == "SW", f"a switch serves {kind} dimension {d}"
        assert sorted(cs[:, d].tolist()) == list(range(k)), f"switch copy {sw} does not hold one line of dim {d}"
        per_dim[d] += len(members)
    assert per_dim == stack_link_counts(shape), (per_dim, stack_link_counts(shape))


def parse_shape(text: str) -> list[tuple[str, int]]:
    """'RI(4)_FC(8)' -> [("RI", 4), ("FC", 8)]; Ring/FullyConnected/Switch spelled out too."""
    alias = {"Ring": "RI", "FullyConnected": "FC", "Switch": "SW"}
    out = []
    for part in text.split("_"):
        name, _, rest = part.partition("(")
        out.append((alias.get(name, name), int(rest.rstrip(")"))))
    return out


# --------------------------------------------------------------------------- compile helpers ----


def build(name: str, **params) -> FQG:
    """The FQG of a blueprint (through the public access layer, as a user would get it)."""
    from infragraph import blueprints

    return blueprints.graph(name, **params)


def rejection(name: str, **params) -> str:
    """The error text of a blueprint instantiation that must fail (AssertionError if it compiles)."""
    from infragraph import blueprints
    from infragraph.errors import InfraGraphError

    try:
        blueprints.graph(name, **params)
    except InfraGraphError as e:
        return str(e)
    raise AssertionError(f"{name}({params}) compiled, but it should have been rejected")
