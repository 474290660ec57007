"""Switch tiers and the bill of materials of a fabric, found from its wiring.

A *box* is one top-level instance copy (`leaf.3`, `host.0`): what is bought and racked. A *cable*
is an edge between two boxes; edges inside a box (PCIe, an ASIC's internal links, NVLink inside a
server) are not cables. Boxes that hold an NPU, or no switch at all, are tier 0 (hosts); every
other box is a switch box whose tier is its distance in cable hops from the nearest host box. For
a box, *down* cables go to a lower tier, *up* cables to a higher one and *side* cables stay in its
tier (torus links, a dragonfly's global links). Oversubscription is down / up bandwidth per box.

This is what a designer asks of `info` (switches per tier, ports used, up/down links and their
speeds, oversubscription) and what the lint capacity rule (IG009) rates; both use this module.
Every bandwidth is in Gbit/s per direction (each edge is full duplex).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cached_property

import numpy as np
from scipy.sparse import csr_matrix

from .fqg import FQG


def box_tiers(n_boxes: int, a: np.ndarray, b: np.ndarray, hosts: np.ndarray) -> np.ndarray:
    """Hop distance of every box from the nearest host box over box-to-box cables (-1 unreachable),
    by a multi-source breadth-first search done as sparse matrix-vector products."""
    # int64, not int8: the products count cables to the frontier, and 128 of them wrapped int8 to
    # -128 (256 to 0), so a switch cabling 128 host boxes was "tier -1, no host reaches".
    adj = csr_matrix((np.ones(a.size, dtype=np.int64), (a, b)), shape=(n_boxes, n_boxes))
    adj = (adj + adj.T).tocsr()
    tier = np.full(n_boxes, -1, dtype=np.int64)
    frontier = hosts.copy()
    tier[frontier] = 0
    level = 0
    while frontier.any():
        level += 1
        reached = (adj @ frontier.astype(np.int64)) > 0
        frontier = reached & (tier < 0)
        tier[frontier] = level
    return tier


def node_boxes(g: FQG) -> np.ndarray:
    """Per node, the number of its top-level instance copy (0 .. total copies - 1)."""
    first_copy = np.cumsum([0] + [i.count for i in g.instances])[:-1].astype(np.int64)
    return first_copy[g.node_instance] + g.node_copy if g.num_nodes else np.zeros(0, np.int64)


@dataclass
class Tiers:
    """The boxes of `g`, their tiers and the cables between them."""

    g: FQG

    @cached_property
    def box(self) -> np.ndarray:
        return node_boxes(self.g)

    @cached_property
    def num_boxes(self) -> int:
        return int(sum(i.count for i in self.g.instances))

    @cached_property
    def is_switch_box(self) -> np.ndarray:
        out = np.zeros(self.num_boxes, dtype=bool)
        out[self.box[self.g.type_mask("switch")]] = True
        out[self.box[self.g.type_mask("xpu")]] = False
        return out

    @cached_property
    def cables(self) -> np.ndarray:
        """Edge ids of the cables (edges between two boxes)."""
        g = self.g
        return np.flatnonzero(self.box[g.edge_src] != self.box[g.edge_dst]) if g.num_edges else np.zeros(0, np.int64)

    @cached_property
    def tier(self) -> np.ndarray:
        """Per box, its tier (0 = hosts; -1 = a switch box no cable path reaches from a host)."""
        a, b = self.box[self.g.edge_src[self.cables]], self.box[self.g.edge_dst[self.cables]]
        return box_tiers(self.num_boxes, a, b, ~self.is_switch_box)

    def instance_of_box(self) -> np.ndarray:
        """Per box, the index of its instance block."""
        return np.repeat(np.arange(len(self.g.instances)), [i.count for i in self.g.instances])


def _speeds(bw: np.ndarray) -> dict[float, int]:
    """Cables per bandwidth (Gbit/s; NaN for a link without one), fastest first."""
    counts = Counter(float(x) for x in bw)
    return dict(sorted(counts.items(), key=lambda kv: -kv[0] if kv[0] == kv[0] else 0.0))


def _by_speed(bw: np.ndarray) -> list[dict]:
    """[{bandwidth_gbps, count}] fastest first (bandwidth None for unrated links), for JSON."""
    return [{"bandwidth_gbps": None if s != s else s, "count": n} for s, n in _speeds(bw).items()]


def _spread(values: np.ndarray) -> list[float] | None:
    """[min, max] of `values` (None when empty), as plain floats."""
    return [float(values.min()), float(values.max())] if values.size else None


def tier_table(g: FQG) -> dict:
    """Per tier: boxes and their instance names, switches, ports used, down/up/side cables by speed,
    oversubscription (down/up bandwidth per box, min and max); and the bill of materials: switch
    boxes per tier, cables per tier pair and speed, transceivers per speed (two per cable)."""
    t = Tiers(g)
    bw_all = g.edge_bandwidth_gbps()
    cables = t.cables
    a, b = t.box[g.edge_src[cables]], t.box[g.edge_dst[cables]]
    bw = bw_all[cables]
    tier = t.tier
    ta, tb = tier[a], tier[b]
    lower, upper = np.where(ta <= tb, a, b), np.where(ta <= tb, b, a)
    tl, tu = np.minimum(ta, tb), np.maximum(ta, tb)
    step = tl != tu
    bwz = np.nan_to_num(bw)
    up = np.bincount(lower[step], weights=bwz[step], minlength=t.num_boxes)
    down = np.bincount(upper[step], weights=bwz[step], minlength=t.num_boxes)
    ends = np.bincount(np.concatenate([a, b]), minlength=t.num_boxes)
    is_port = g.type_mask("port")
    ports = np.bincount(t.box[is_port], minlength=t.num_boxes)
    cabled = np.zeros(g.num_nodes, dtype=bool)
    cabled[g.edge_src[cables]] = True
    cabled[g.edge_dst[cables]] = True
    ports_used = np.bincount(t.box[is_port & cabled], minlength=t.num_boxes)
    switches = np.bincount(t.box[g.type_mask("switch")], minlength=t.num_boxes)
    inst = t.instance_of_box()
    tiers = []
    for k in sorted(set(tier.tolist())):
        boxes = np.flatnonzero(tier == k)
        in_k = (tl == k) | (tu == k)
        rated = boxes[(up[boxes] > 0) & (down[boxes] > 0)]
        tiers.append({
            "tier": int(k),
            "role": "hosts" if k == 0 else ("unreached" if k < 0 else "switches"),
            "boxes": int(boxes.size),
            "instances": sorted({g.instances[i].name for i in inst[boxes].tolist()}),
            "switch_asics": int(switches[boxes].sum()),
            "cable_ends_per_box": _spread(ends[boxes]),
            "ports_per_box": _spread(ports[boxes]) if ports[boxes].any() else None,
            "ports_used_per_box": _spread(ports_used[boxes]) if ports[boxes].any() else None,
            "down_cables": _by_speed(bw[in_k & step & (tu == k)]),
            "up_cables": _by_speed(bw[in_k & step & (tl == k)]),
            "side_cables": _by_speed(bw[(tl == k) & (tu == k)]),
            "oversubscription": _spread(down[rated] / up[rated]),
        })
    pairs: dict[tuple[int, int], np.ndarray] = {}
    for lo, hi in sorted(set(zip(tl.tolist(), tu.tolist()))):
        pairs[(lo, hi)] = bw[(tl == lo) & (tu == hi)]
    transceivers = Counter()
    for speeds in pairs.values():
        for speed, n in _speeds(speeds).items():
            transceivers[speed] += 2 * n
    bom = {
        "switch_boxes": {str(x["tier"]): x["boxes"] for x in tiers if x["role"] != "hosts"},
        "cables": [{"tiers": [lo, hi], "bandwidth_gbps": None if s != s else s, "count": n}
                   for (lo, hi), speeds in pairs.items() for s, n in _speeds(speeds).items()],
        "transceivers": [{"bandwidth_gbps": None if s != s else s, "count": n}
                         for s, n in sorted(transceivers.items(), key=lambda kv: -kv[0] if kv[0] == kv[0] else 0)],
    }
    return {"tiers": tiers, "bill_of_materials": bom}
