"""Recognise the shape of a view so it can be drawn the way people draw it.

Clos / fat tree: tiers counted by hop distance from the hosts (every line joins adjacent tiers).
Mesh / torus: the boxes of one block (instance or component) joined among themselves form a
k-ary n-cube in id order (dimension 1 fastest), checked edge for edge against each candidate shape;
graph annotations `topology` (mesh|torus) and `shape` ("4x4x4") name it directly.
Dragonfly: a block's lines split into local ones (ends share neighbours) and global ones; local
lines form equal cliques (the groups). Everything else hangs off its nearest core box ("anchor").
Detection only returns what it verified; otherwise the view is drawn with a free layout.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import sparse
from scipy.sparse import csgraph

from .views import View


@dataclass
class Structure:
    """What was recognised. `kind`: tiers | grid | dragonfly | free. `tier` per box (tiers);
    `core` box ids in id order with `shape`/`wrap` (grid) or `group` per box (dragonfly, -1 for
    boxes outside every group); `anchor` per box: the core box it hangs from (-1: none, or core)."""

    kind: str
    description: str
    tier: np.ndarray | None = None
    core: np.ndarray | None = None
    shape: tuple[int, ...] | None = None
    wrap: bool = False
    group: np.ndarray | None = None
    anchor: np.ndarray | None = None


def adjacency(v: View) -> sparse.csr_matrix:
    n = v.num_nodes
    data = np.ones(2 * v.num_edges, dtype=np.int32)
    return sparse.csr_matrix((data, (np.concatenate([v.src, v.dst]), np.concatenate([v.dst, v.src]))), shape=(n, n))


def detect(v: View, hints: dict | None = None) -> Structure:
    """The recognised structure of `v` (hints: graph annotations such as topology/shape)."""
    if v.num_nodes == 0:
        return Structure("free", "empty")
    adj = adjacency(v)
    return _tiers(v, adj) or _grid(v, adj, hints or {}) or _dragonfly(v, adj) or Structure("free", "no regular structure recognised")


def _bfs_levels(adj: sparse.csr_matrix, sources: np.ndarray) -> np.ndarray:
    level = np.full(adj.shape[0], -1, np.int64)
    level[sources] = 0
    frontier = np.zeros(adj.shape[0], bool)
    frontier[sources] = True
    d = 0
    while frontier.any():
        d += 1
        reach = (adj.T @ frontier.astype(np.int32)) > 0
        frontier = reach & (level < 0)
        level[frontier] = d
    return level


def _tiers(v: View, adj: sparse.csr_matrix) -> Structure | None:
    hosts = np.flatnonzero(v.host)
    if hosts.size == 0 or hosts.size == v.num_nodes or v.num_edges == 0:
        return None
    tier = _bfs_levels(adj, hosts)
    if (tier < 0).any() or np.any(np.abs(tier[v.src] - tier[v.dst]) != 1):
        return None
    levels = int(tier.max())
    what = "Clos" if levels > 1 else "single switch tier"
    return Structure("tiers", f"{levels}-tier {what}" if levels > 1 else what, tier=tier,
                     anchor=np.full(v.num_nodes, -1))


def _core(v: View) -> np.ndarray:
    """Boxes of the block with the most boxes joined to boxes of the same block."""
    same = v.block[v.src] == v.block[v.dst]
    if not same.any():
        return np.zeros(0, np.int64)
    ends = np.unique(np.concatenate([v.src[same], v.dst[same]]))
    blocks, counts = np.unique(v.block[ends], return_counts=True)
    return ends[v.block[ends] == blocks[np.argmax(counts)]]


def _anchors(v: View, core: np.ndarray) -> np.ndarray:
    """Per box, the core box it hangs from: a neighbour's anchor, spread a few hops out."""
    anchor = np.full(v.num_nodes, -1, np.int64)
    anchor[core] = core
    for _ in range(4):
        for a, b in ((v.src, v.dst), (v.dst, v.src)):
            take = (anchor[a] < 0) & (anchor[b] >= 0)
            anchor[a[take]] = anchor[b[take]]
    anchor[core] = -1
    return anchor


def _factorisations(n: int, max_dims: int = 3) -> list[tuple[int, ...]]:
    out = [(n,)]
    for a in range(2, n):
        if n % a == 0:
            out.append((a, n // a))
            if max_dims > 2:
                out += [(a, b, n // a // b) for b in range(2, n // a) if (n // a) % b == 0]
    return out


def _cube_edges(shape: tuple[int, ...], wrap: bool) -> np.ndarray:
    """Sorted keys lo*n+hi of the k-ary n-cube (wrap: torus) on ids with dimension 1 fastest."""
    n = int(np.prod(shape))
    ids = np.arange(n)
    keys, stride = [], 1
    for size in shape:
        coord = (ids // stride) % size
        inner = coord < size - 1
        keys.append(np.stack([ids[inner], ids[inner] + stride]))
        if wrap and size > 2:
            last = coord == size - 1
            keys.append(np.stack([ids[last] - (size - 1) * stride, ids[last]]))
        stride *= size
    pairs = np.concatenate(keys, axis=1)
    lo, hi = pairs.min(axis=0), pairs.max(axis=0)
    return np.unique(lo.astype(np.int64) * n + hi)


def parse_shape(text: str) -> tuple[int, ...] | None:
    parts = str(text).lower().replace("×", "x").split("x")
    return tuple(int(p) for p in parts) if all(p.strip().isdigit() for p in parts) else None


def _grid(v: View, adj: sparse.csr_matrix, hints: dict) -> Structure | None:
    core = _core(v)
    n = core.size
    if n < 4:
        return None
    pos = np.full(v.num_nodes, -1, np.int64)
    pos[core] = np.arange(n)
    inside = (pos[v.src] >= 0) & (pos[v.dst] >= 0)
    a, b = pos[v.src[inside]], pos[v.dst[inside]]
    actual = np.unique(np.minimum(a, b) * n + np.maximum(a, b))
    topo = str(hints.get("topology", "")).lower()
    hinted = parse_shape(hints["shape"]) if "shape" in hints else None
    shapes = [hinted] if hinted and int(np.prod(hinted)) == n else _factorisations(n)
    wraps = [topo == "torus"] if topo in ("torus", "mesh") else [True, False]
    for shape in shapes:
        for wrap in wraps:
            if len(shape) == 1 and not wrap:
                continue
            expected = _cube_edges(shape, wrap)
            if expected.size == actual.size and np.array_equal(expected, actual):
                name = "ring" if len(shape) == 1 else ("torus" if wrap else "mesh")
                dims = "×".join(map(str, shape))
                return Structure("grid", f"{dims} {name}" if len(shape) > 1 else f"ring of {n}", core=core,
                                 shape=shape, wrap=wrap, anchor=_anchors(v, core))
    return None


def _dragonfly(v: View, adj: sparse.csr_matrix) -> Structure | None:
    core = _core(v)
    if core.size < 9:
        return None
    sub = adj[core][:, core]
    sub.data[:] = 1
    common = (sub @ sub).multiply(sub).tocoo()  # common neighbours of each joined pair
    rows, cols = sub.nonzero()
    cn = np.asarray(sparse.csr_matrix(common)[rows, cols]).ravel()
    # Inside a group of a routers the ends of a local line share the other a-2; a global line's
    # ends share at most a few (triangles through third groups), so the top count marks local lines.
    if cn.size == 0 or cn.max() < 1:
        return None
    local = cn >= cn.max()
    n_groups, label = csgraph.connected_components(
        sparse.csr_matrix((np.ones(local.sum()), (rows[local], cols[local])), shape=sub.shape), directed=False)
    sizes = np.bincount(label)
    if n_groups < 3 or sizes.min() != sizes.max() or sizes[0] < 3:
        return None
    a = int(sizes[0])
    if local.sum() // 2 != n_groups * a * (a - 1) // 2 or local.all():
        return None  # groups must be cliques, and there must be global links between them
    group = np.full(v.num_nodes, -1, np.int64)
    group[core] = label
    anchor = _anchors(v, core)
    group[anchor >= 0] = group[anchor[anchor >= 0]]
    return Structure("dragonfly", f"dragonfly: {n_groups} groups of {a} routers", core=core, group=group,
                     anchor=anchor)


@dataclass
class Unit:
    """A rack (one switch and its hosts), scalable unit (several switches sharing their hosts) or pod
    (three or more tiers): what is left joined when a Clos loses its top tier."""

    unit: str  # "rack" | "SU" | "pod"
    label: str  # "SU 0: host.0–31"
    members: np.ndarray  # box ids


def units(v: View, s: Structure, xy: np.ndarray) -> list[Unit]:
    """The units of a Clos of two switch tiers or more, left to right; none when there is one, or
    when units interleave in index order (separate planes: every host is in all of them), since an
    outline would then cover other units' boxes."""
    if s.kind != "tiers" or int(s.tier.max()) < 2:
        return []
    top = int(s.tier.max())
    below = s.tier < top
    keep = below[v.src] & below[v.dst]
    n = v.num_nodes
    _, piece = csgraph.connected_components(
        sparse.csr_matrix((np.ones(int(keep.sum())), (v.src[keep], v.dst[keep])), shape=(n, n)), directed=False)
    pieces = np.unique(piece[below])
    if pieces.size < 2:
        return []
    ordered = sorted(pieces.tolist(), key=lambda q: xy[(piece == q) & below, 0].min())
    spans = [(xy[(piece == q) & below, 0].min(), xy[(piece == q) & below, 0].max()) for q in ordered]
    if any(a[1] >= b[0] for a, b in zip(spans, spans[1:])):
        return []
    out = []
    for k, p in enumerate(ordered):
        members = np.flatnonzero((piece == p) & below)
        unit = "pod" if top > 2 else ("SU" if np.count_nonzero(s.tier[members] == 1) > 1 else "rack")
        hosts = members[s.tier[members] == 0]
        span = f"{v.label[hosts[0]]}–{v.label[hosts[-1]].rsplit('.', 1)[-1]}" if hosts.size > 1 else v.label[hosts[0]]
        out.append(Unit(unit, f"{unit} {k}: {span}", members))
    return out
