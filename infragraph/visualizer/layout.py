"""Positions for a view, from its recognised structure (units: about one box apart).

Tiers: one row per tier, hosts at the bottom, each row in index order and spread to a common
width. Grid: routers on their
mesh/torus coordinates, a third dimension as planes side by side. Dragonfly: groups around a
circle. Boxes that hang off a core box (hosts, compute units, memory channels) sit on a small
ring around it. Free structures come from Graphviz (`sfdp`) when it is installed and the view is
small, else a square grid in id order, so the page never waits on a layout of 100k nodes.
"""

from __future__ import annotations

import math

import numpy as np

from . import graphviz
from .structure import Structure
from .views import View


def positions(v: View, s: Structure) -> np.ndarray:
    """(n, 2) coordinates of the boxes of `v`; y grows downwards (screen order)."""
    if s.kind == "tiers":
        return _tiers(v, s.tier)
    if s.kind == "grid":
        return _satellites(v, s.anchor, _grid(v.num_nodes, s.core, s.shape), 1.0)
    if s.kind == "dragonfly":
        return _satellites(v, s.anchor, _dragonfly(v.num_nodes, s.core, s.group), 0.9)
    return _free(v)


def _tiers(v: View, tier: np.ndarray) -> np.ndarray:
    """Rows bottom-up, hosts at the bottom; every row in index order (leaf.0, leaf.1, … left to
    right, as a designer numbers them), spread to a common width. Hosts of one rack or scalable
    unit are consecutive in any Clos numbered the usual way, so they sit under their switches."""
    xy = np.zeros((v.num_nodes, 2))
    top = int(tier.max())
    width = max(np.bincount(tier).max(), 1)
    gap = max(2.0, width / 8)
    for t in range(top + 1):
        order = np.flatnonzero(tier == t)
        step = width / len(order)
        xy[order, 0] = (np.arange(len(order)) + 0.5) * step
        xy[order, 1] = (top - t) * gap
    return xy


def _grid(n: int, core: np.ndarray, shape: tuple[int, ...], spacing: float = 2.5) -> np.ndarray:
    xy = np.full((n, 2), np.nan)
    ids = np.arange(core.size)
    if len(shape) == 1:  # a ring: a circle
        ang = 2 * math.pi * ids / core.size
        r = spacing * core.size / (2 * math.pi)
        xy[core] = np.stack([r * np.cos(ang), r * np.sin(ang)], axis=1)
        return xy
    x = ids % shape[0]
    y = (ids // shape[0]) % shape[1]
    z = ids // (shape[0] * shape[1]) if len(shape) > 2 else np.zeros_like(ids)
    planes_per_row = math.ceil(math.sqrt(shape[2])) if len(shape) > 2 else 1
    px, py = z % planes_per_row, z // planes_per_row
    xy[core, 0] = (x + px * (shape[0] + 1)) * spacing
    xy[core, 1] = (y + py * (shape[1] + 1)) * spacing
    return xy


def _dragonfly(n: int, core: np.ndarray, group: np.ndarray) -> np.ndarray:
    xy = np.full((n, 2), np.nan)
    g = int(group[core].max()) + 1
    a = core.size // g
    inner = max(1.6, a * 1.4 / math.pi)  # routers of a group on a small circle
    big = max(g * (2 * inner + 3) / (2 * math.pi), 6.0)
    for k in range(g):
        members = core[group[core] == k]
        cx, cy = big * math.cos(2 * math.pi * k / g), big * math.sin(2 * math.pi * k / g)
        ang = 2 * math.pi * np.arange(members.size) / members.size + 2 * math.pi * k / g
        xy[members, 0] = cx + inner * np.cos(ang)
        xy[members, 1] = cy + inner * np.sin(ang)
    return xy


def _satellites(v: View, anchor: np.ndarray, xy: np.ndarray, radius: float) -> np.ndarray:
    """Place boxes hanging off a core box on a ring of `radius` around it (a bit closer when few)."""
    placed = ~np.isnan(xy[:, 0])
    hang = np.flatnonzero((anchor >= 0) & ~placed)
    if hang.size:
        order = hang[np.argsort(anchor[hang], kind="stable")]
        a = anchor[order]
        first = np.searchsorted(a, a, side="left")
        rank = np.arange(order.size) - first
        total = np.bincount(a, minlength=v.num_nodes)[a]
        ang = 2 * math.pi * (rank + 0.5) / total - math.pi / 2
        r = radius * np.where(total > 8, 1.0, 0.8)
        xy[order, 0] = xy[a, 0] + r * np.cos(ang)
        xy[order, 1] = xy[a, 1] + r * np.sin(ang)
    loose = np.flatnonzero(np.isnan(xy[:, 0]))
    if loose.size:  # not attached to anything: a row below everything
        bottom = np.nanmax(xy[:, 1]) if (~np.isnan(xy[:, 1])).any() else 0.0
        xy[loose, 0] = np.arange(loose.size) * 1.5
        xy[loose, 1] = bottom + 3
    return xy


def _free(v: View) -> np.ndarray:
    """Boxes with one line (ports, a NIC's port) go on a ring around the box they hang from, in
    index order (port.0, port.1, … clockwise); the rest come from Graphviz (boxes kept apart),
    else a square grid in id order."""
    hub = _leaf_hubs(v)
    rest = np.flatnonzero(hub < 0)
    xy = np.full((v.num_nodes, 2), np.nan)
    keep = (hub[v.src] < 0) & (hub[v.dst] < 0)
    index = np.full(v.num_nodes, -1)
    index[rest] = np.arange(rest.size)
    sub = None
    if rest.size <= 3000 and graphviz.available("sfdp"):
        sub = graphviz.plain_positions(rest.size, index[v.src[keep]], index[v.dst[keep]],
                                       "sfdp" if rest.size > 200 else "neato")
    if sub is None:
        side = math.ceil(math.sqrt(max(rest.size, 1)))
        ids = np.arange(rest.size)
        sub = np.stack([(ids % side) * 2.0, (ids // side) * 2.0], axis=1).astype(float)
    xy[rest] = sub
    return _satellites(v, hub, xy, 1.0) if (hub >= 0).any() else xy


def _leaf_hubs(v: View) -> np.ndarray:
    """Per box, the box it hangs from when it has exactly one line and its neighbour has more
    (-1 otherwise): the spokes of a star, placed by `_satellites` rather than by a force layout."""
    degree = np.bincount(np.concatenate([v.src, v.dst]), minlength=v.num_nodes)
    hub = np.full(v.num_nodes, -1)
    for a, b in ((v.src, v.dst), (v.dst, v.src)):
        leaf = (degree[a] == 1) & (degree[b] > 1)
        hub[a[leaf]] = b[leaf]
    return hub
