"""Derived per-node and per-edge arrays that several rules need, computed once and vectorised.

Vocabulary (shared with expansion):
- a *cable* is an edge whose two ends lie in different device copies (`node_owner` differs);
  edges inside one device copy (asic–port, xpu–nic) are internal wiring;
- a *box* is one copy of a top-level instance (`host.3`): hosts, switches, chassis;
- a *pair key* identifies an unordered node pair, so parallel edges share it.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from ..graph.fqg import FQG
from ..graph.tiers import Tiers


class GraphFacts:
    def __init__(self, g: FQG):
        self.g = g

    # --- edges ----------------------------------------------------------------------------------
    @cached_property
    def is_cable(self) -> np.ndarray:
        g = self.g
        return g.node_owner[g.edge_src] != g.node_owner[g.edge_dst]

    @cached_property
    def bandwidth(self) -> np.ndarray:
        """Per-edge Gbit/s, NaN when the link states none."""
        return self.g.edge_bandwidth_gbps()

    @cached_property
    def pair_key(self) -> np.ndarray:
        g = self.g
        lo = np.minimum(g.edge_src, g.edge_dst).astype(np.int64)
        hi = np.maximum(g.edge_src, g.edge_dst).astype(np.int64)
        return lo * max(g.num_nodes, 1) + hi

    @cached_property
    def parallel_groups(self) -> tuple[np.ndarray, np.ndarray]:
        """(edges, group): edge ids whose node pair carries more than one edge, sorted by pair, and
        a group number per listed edge. Empty arrays in a graph without parallel edges."""
        order = np.argsort(self.pair_key, kind="stable")
        keys = self.pair_key[order]
        if keys.size < 2:
            return np.zeros(0, np.int64), np.zeros(0, np.int64)
        same_as_next = keys[1:] == keys[:-1]
        in_group = np.zeros(keys.size, dtype=bool)
        in_group[1:] |= same_as_next
        in_group[:-1] |= same_as_next
        edges = order[in_group]
        k = keys[in_group]
        group = np.concatenate([[0], np.cumsum(k[1:] != k[:-1])]) if k.size else k
        return edges, group

    # --- nodes ----------------------------------------------------------------------------------
    def degree_of(self, mask: np.ndarray | None = None) -> np.ndarray:
        """Edges touching each node (a self-loop counts twice), over the edges in `mask`."""
        g = self.g
        src, dst = (g.edge_src, g.edge_dst) if mask is None else (g.edge_src[mask], g.edge_dst[mask])
        return (np.bincount(src, minlength=g.num_nodes) + np.bincount(dst, minlength=g.num_nodes))

    @cached_property
    def degree(self) -> np.ndarray:
        return self.degree_of()

    @cached_property
    def cable_degree(self) -> np.ndarray:
        return self.degree_of(self.is_cable)

    def of_type(self, type_name: str) -> np.ndarray:
        """Boolean node mask for a node type ('port', 'xpu', …); all False for an absent type."""
        return self.g.type_mask(type_name)

    @cached_property
    def tiers(self) -> Tiers:
        """The boxes, their tiers and the cables between them, as `info` reports them."""
        return Tiers(self.g)

    @property
    def box(self) -> np.ndarray:
        """Per node, the number of its top-level instance copy (0 .. num_boxes-1)."""
        return self.tiers.box

    @property
    def num_boxes(self) -> int:
        return self.tiers.num_boxes

    def box_name(self, box: int) -> str:
        """'host.3' for a box number."""
        for inst in self.g.instances:
            if box < inst.count:
                return f"{inst.name}.{box}"
            box -= inst.count
        raise IndexError(box)

    def names(self, nodes) -> list[str]:
        return [self.g.node_name(int(n)) for n in nodes]
