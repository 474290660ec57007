"""Automatic aggregation of large views into a readable number of boxes, said in the picture.

The grouping follows the structure: Clos tiers are cut into racks (2 switch tiers) or pods
(3 or more) — the connected pieces left when the top tier is removed — and consecutive racks or
pods share a box until each tier has at most `per_tier` boxes; a mesh or torus is cut into
blocks of coordinates; a dragonfly into its groups; anything else by instance, in id order.
Every box says what it holds ("host ×2,048 · pods 0–1"), every line how many links it stands for,
and the view's notes state the aggregation, so nobody mistakes a box for a device.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import sparse
from scipy.sparse import csgraph

from .structure import Structure
from .style import count
from .views import View, merge_edges


@dataclass
class Aggregated:
    view: View
    structure: Structure
    xy: np.ndarray  # box centres: the centroid of their members' positions


def aggregate(v: View, s: Structure, xy: np.ndarray, max_boxes: int) -> Aggregated | None:
    """An aggregated version of `v` with about `max_boxes` boxes at most, or None if `v` fits."""
    if v.num_nodes <= max_boxes:
        return None
    if s.kind == "tiers":
        key, captions, note = _tiers(v, s, xy, max_boxes)
    elif s.kind == "grid" and len(s.shape) > 1:
        key, captions, note = _grid(v, s, max_boxes)
    elif s.kind == "dragonfly":
        key, captions, note = _dragonfly(v, s, max_boxes)
    else:
        key, captions, note = _by_block(v, max_boxes)
    agg = collapse(v, key, captions)
    agg.notes = v.notes + [note]
    tier = None
    if s.kind == "tiers":
        tier = np.zeros(agg.num_nodes, np.int64)
        tier[key] = s.tier
    kind = "tiers" if tier is not None else "placed"  # placed: draw boxes at their centroids
    xy_agg = np.stack([np.bincount(key, weights=xy[:, i]) / np.bincount(key) for i in (0, 1)], axis=1)
    return Aggregated(agg, Structure(kind, s.description, tier=tier), xy_agg)


def collapse(v: View, key: np.ndarray, captions: list[str]) -> View:
    """Merge the boxes of `v` with equal `key` (0..k-1) into one box each; labels say what they hold."""
    k = int(key.max()) + 1
    size = np.bincount(key, weights=v.size, minlength=k).astype(np.int64)
    first = np.full(k, -1, np.int64)
    first[key[::-1]] = np.arange(v.num_nodes)[::-1]
    # composition per box: how many of each block (instance) it holds
    pair = key.astype(np.int64) * (int(v.block.max()) + 1) + v.block
    uniq, per = np.unique(pair, return_counts=True)
    block_names = {}
    for i in np.unique(v.block, return_index=True)[1].tolist():
        block_names[int(v.block[i])] = v.label[i].rsplit(".", 1)[0] if "." in v.label[i] else v.label[i]
    comp: list[list[str]] = [[] for _ in range(k)]
    nb = int(v.block.max()) + 1
    for p, c in zip(uniq.tolist(), per.tolist()):
        comp[p // nb].append(f"{block_names[p % nb]} ×{count(c)}")
    labels = [v.label[int(first[i])] if size[i] == 1 and v.size[int(first[i])] == 1
              else " · ".join(comp[i]) + (f"\n{captions[i]}" if captions[i] else "") for i in range(k)]
    marks = () if v.failed is None else (v.failed, v.degraded, v.rated)
    loads = () if v.util_sum is None else (v.util_sum, v.used)
    src, dst, cnt, bw, util, *merged = merge_edges(v.src, v.dst, v.count, v.bandwidth, v.utilization, key,
                                                   marks + loads)
    marked, load = merged[:len(marks)], merged[len(marks):]
    devices = [v.device[int(first[i])] if len(comp[i]) == 1 else "" for i in range(k)]
    return View(
        title=v.title + " (aggregated)", kinds=v.kinds, kind=v.kind[first], block=np.arange(k, dtype=np.int32),
        host=np.bincount(key, weights=v.host, minlength=k) > 0, size=size, label=labels,
        name=[f"box {i}: " + " · ".join(comp[i]) + (f" ({captions[i]})" if captions[i] else "") for i in range(k)],
        device=devices, src=src, dst=dst, count=cnt, bandwidth=bw, utilization=util,
        failed=marked[0] if marked else None, degraded=marked[1] if marked else None,
        rated=marked[2] if marked else None, util_sum=load[0] if load else None, used=load[1] if load else None,
    )


def _ranges(values: list[int]) -> str:
    return f"{values[0]}" if values[0] == values[-1] else f"{values[0]}–{values[-1]}"


def _span(names: list[str]) -> str:
    """A short caption for consecutive boxes: 'core.4' … 'core.7' -> '4–7' (the box's first line
    already says 'core ×4'; a long caption would overlap its neighbours), else 'first … last'."""
    if len(names) < 2:
        return ""
    heads = {n.rpartition(".")[0] for n in names}
    tails = [n.rpartition(".")[2] for n in names]
    if len(heads) == 1 and all(x.isdigit() for x in tails):
        return f"{tails[0]}–{tails[-1]}"
    return f"{names[0]} … {names[-1]}"


def _tiers(v: View, s: Structure, xy: np.ndarray, max_boxes: int) -> tuple[np.ndarray, list[str], str]:
    tier, top = s.tier, int(s.tier.max())
    per_tier = max(2, min(16, max_boxes // (top + 1)))
    below = tier < top
    keep = below[v.src] & below[v.dst]
    n = v.num_nodes
    graph = sparse.csr_matrix((np.ones(keep.sum()), (v.src[keep], v.dst[keep])), shape=(n, n))
    _, piece = csgraph.connected_components(graph, directed=False)
    leaves = np.bincount(piece[tier == 1], minlength=piece.max() + 1)  # tier-1 switches per piece
    unit = {1: "group", 2: "SU" if leaves.max() > 1 else "rack"}.get(top, "pod")  # as structure.units names them
    # pieces in left-to-right order
    pieces = np.unique(piece[below])
    left = np.full(piece.max() + 1, np.inf)
    np.minimum.at(left, piece[below], xy[below, 0])
    order = pieces[np.argsort(left[pieces], kind="stable")]
    rank = np.empty(piece.max() + 1, np.int64)
    rank[order] = np.arange(order.size)
    per_box = math.ceil(order.size / per_tier)
    chunk = rank[piece] // per_box
    n_chunks = math.ceil(order.size / per_box)
    key = np.where(below, chunk * (top + 1) + tier, -1)
    captions = {}
    for c in range(n_chunks):
        lo, hi = c * per_box, min((c + 1) * per_box, order.size) - 1
        for t in range(top):
            captions[c * (top + 1) + t] = f"{unit}s {lo}–{hi}" if hi > lo else f"{unit} {lo}"
    tops = np.flatnonzero(~below)
    tops = tops[np.argsort(xy[tops, 0], kind="stable")]
    per_top = math.ceil(tops.size / per_tier)
    base = n_chunks * (top + 1)
    key[tops] = base + np.arange(tops.size) // per_top
    for j in range(math.ceil(tops.size / per_top)):
        captions[base + j] = _span([v.label[i] for i in tops[j * per_top:(j + 1) * per_top]])
    key, captions_list = _compact(key, captions)
    note = (f"aggregated: {count(order.size)} {unit}s in {n_chunks} boxes per tier"
            + (f" ({per_box} {unit}s each)" if per_box > 1 else "")
            + f"; {count(tops.size)} top-tier switches in {math.ceil(tops.size / per_top)} boxes")
    return key, captions_list, note


def _grid(v: View, s: Structure, max_boxes: int) -> tuple[np.ndarray, list[str], str]:
    shape = s.shape
    f = 2
    while math.prod(math.ceil(d / f) for d in shape) > max_boxes:
        f += 1
    cells = tuple(math.ceil(d / f) for d in shape)
    ids = np.arange(s.core.size)
    cell = np.zeros(s.core.size, np.int64)
    stride, cstride = 1, 1
    coords = []
    for d, c in zip(shape, cells):
        x = (ids // stride) % d
        coords.append(x)
        cell += (x // f) * cstride
        stride *= d
        cstride *= c
    key = np.full(v.num_nodes, -1, np.int64)
    key[s.core] = cell
    hang = s.anchor >= 0
    pos = np.full(v.num_nodes, -1, np.int64)
    pos[s.core] = np.arange(s.core.size)
    key[hang] = cell[pos[s.anchor[hang]]]
    key[key < 0] = cell.max() + 1  # anything loose shares one box
    captions = {}
    axes = "xyzw"
    for c in range(int(cell.max()) + 1):
        rest, parts = c, []
        for i, n_c in enumerate(cells):
            k = rest % n_c
            rest //= n_c
            parts.append(f"{axes[i]} {_ranges([k * f, min((k + 1) * f, shape[i]) - 1])}")
        captions[c] = ", ".join(parts)
    captions[int(cell.max()) + 1] = "not on the grid"
    key, caps = _compact(key, captions)
    dims = "×".join(map(str, shape))
    return key, caps, f"aggregated: the {dims} {'torus' if s.wrap else 'mesh'} in blocks of {f} per dimension ({'×'.join(map(str, cells))} boxes)"


def _dragonfly(v: View, s: Structure, max_boxes: int) -> tuple[np.ndarray, list[str], str]:
    g = int(s.group.max()) + 1
    per_box = math.ceil(g / max_boxes)
    key = np.where(s.group >= 0, s.group // per_box, math.ceil(g / per_box))
    captions = {i: (f"group {i * per_box}" if per_box == 1 else f"groups {_ranges([i * per_box, min((i + 1) * per_box, g) - 1])}")
                for i in range(math.ceil(g / per_box))}
    captions[math.ceil(g / per_box)] = "outside the groups"
    key, caps = _compact(key, captions)
    return key, caps, f"aggregated: {g} dragonfly groups" + (f", {per_box} per box" if per_box > 1 else ", one box each")


def _by_block(v: View, max_boxes: int) -> tuple[np.ndarray, list[str], str]:
    blocks, inverse, sizes = np.unique(v.block, return_inverse=True, return_counts=True)
    per = max(1, max_boxes // max(blocks.size, 1))
    chunk = np.maximum(1, np.ceil(sizes / per)).astype(np.int64)  # members per box, per block
    index_in_block = np.zeros(v.num_nodes, np.int64)
    order = np.argsort(inverse, kind="stable")
    starts = np.searchsorted(inverse[order], np.arange(blocks.size))
    index_in_block[order] = np.arange(v.num_nodes) - starts[inverse[order]]
    offsets = np.concatenate([[0], np.cumsum(np.ceil(sizes / chunk).astype(np.int64))])
    key = offsets[inverse] + index_in_block // chunk[inverse]
    captions = {}
    for i in range(v.num_nodes):
        k = int(key[i])
        captions.setdefault(k, [v.label[i], v.label[i]])[1] = v.label[i]
    caps = {k: (f"{a} … {b}" if a != b else a) for k, (a, b) in captions.items()}
    key, caps_list = _compact(key, caps)
    return key, caps_list, f"aggregated by instance in id order: {count(v.num_nodes)} boxes drawn as {int(key.max()) + 1}"


def _compact(key: np.ndarray, captions: dict[int, str]) -> tuple[np.ndarray, list[str]]:
    """Renumber keys 0..k-1 (dropping unused ones) and order the captions to match."""
    used, new = np.unique(key, return_inverse=True)
    return new.astype(np.int64), [captions.get(int(u), "") for u in used]
