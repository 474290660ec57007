"""One prepared picture: the chosen level of a graph, its structure, positions and aggregation.

Both outputs (Graphviz picture, HTML page) draw a `Scene`, so they agree on what is shown:
the same boxes, the same aggregation and the same notes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..graph.fqg import FQG
from .aggregate import Aggregated, aggregate
from .layout import positions
from .structure import Structure, detect
from .style import count
from .views import View, device_view, fabric_view, full_view

LEVELS = ("fabric", "device", "full")
FULL_LIMIT = 3000  # components; beyond this the full level is unreadable as one picture


@dataclass
class Scene:
    view: View  # the detailed view
    structure: Structure
    xy: np.ndarray
    shown: Aggregated | None  # the aggregated view drawn instead of `view` when it is large

    @property
    def drawn(self) -> tuple[View, Structure, np.ndarray]:
        """What a static picture draws: the aggregated view if there is one."""
        if self.shown is not None:
            return self.shown.view, self.shown.structure, self.shown.xy
        return self.view, self.structure, self.xy


def build_view(g: FQG, level: str = "fabric", device: str | None = None,
               utilization: np.ndarray | None = None) -> View:
    """The view of one level of detail (device needs the device/instance name)."""
    if level == "device":
        return device_view(g, device or "", utilization)
    if level == "full":
        if g.num_nodes > FULL_LIMIT:
            v = fabric_view(g, utilization)
            v.notes.append(f"the full level has {count(g.num_nodes)} components, too many for one picture: "
                           f"drawn at fabric level (use --level device NAME for the inside of a device)")
            return v
        return full_view(g, utilization)
    return fabric_view(g, utilization)


def prepare(g: FQG, level: str = "fabric", device: str | None = None, utilization: np.ndarray | None = None,
            max_boxes: int | None = None) -> Scene:
    """Build, recognise, lay out and (if larger than max_boxes) aggregate one level of `g`.

    max_boxes defaults to 120 for the fabric (a readable picture) and 2,000 inside a device or
    for the full level, where most boxes are small dots around the box they belong to."""
    if max_boxes is None:
        max_boxes = 120 if level == "fabric" else 2000
    v = build_view(g, level, device, utilization)
    s = detect(v, dict(g.graph_annotations))
    v.notes.insert(0, f"{s.description}; {count(v.num_nodes)} boxes, {count(int(v.count.sum()))} links")
    xy = positions(v, s)
    return Scene(v, s, xy, aggregate(v, s, xy, max_boxes))
