"""The interactive page: one self-contained HTML file (inline data, script and style; no network).

The page carries the fabric (every device copy, positioned by the same structure-aware layout as
the pictures), its aggregated boxes when it is large (drawn while zoomed out), and the inside of
each distinct device for drill-down. The viewer script (templates/viewer.js, hand-written, no
library) draws on a canvas and culls to the visible area, so 100k boxes stay interactive.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import jinja2
import numpy as np
from scipy.spatial import cKDTree

from ..document.model import Value
from ..graph.fqg import FQG
from ..output import write_text
from .scene import Scene, prepare
from .structure import units
from .style import RAIL_COLOURS, kind_colours, widths
from .views import View, device_copy_nodes

DEVICE_LIMIT = 5000  # components: larger devices are not offered for drill-down
AGG_BOXES = 150  # boxes shown while zoomed out on a large fabric
DETAIL_LIMIT = 2000  # boxes drawn individually at most (prepare aggregates beyond)
# Fabrics with more boxes or lines than this get an aggregated zoomed-out layer: drawn one by one
# at full view, 448 boxes and 3,072 lines of a 1,024-GPU Clos are a grey block.
ZOOMED_OUT_BOXES, ZOOMED_OUT_LINES = 300, 1500

_TEMPLATES = Path(__file__).parent / "templates"
_env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(_TEMPLATES)), autoescape=False)


def _round(a: np.ndarray) -> list[float]:
    return np.round(np.nan_to_num(a), 2).tolist()


def _unit(xy: np.ndarray) -> float:
    """Typical distance between a box and its nearest neighbour (the zoom level where boxes show)."""
    if len(xy) < 2:
        return 1.0
    d, _ = cKDTree(xy).query(xy, k=2)
    near = d[:, 1]
    return float(np.median(near[near > 0])) if (near > 0).any() else 1.0


def _layer(v: View, xy: np.ndarray, kinds: list[str], *, labels: bool, small: np.ndarray | None = None) -> dict:
    remap = np.array([kinds.index(k) for k in v.kinds], dtype=np.int64)
    util = v.utilization
    out = {
        "x": _round(xy[:, 0]), "y": _round(xy[:, 1]), "kind": remap[v.kind].tolist(),
        "block": v.block.tolist(), "size": v.size.tolist(),
        "src": v.src.tolist(), "dst": v.dst.tolist(), "count": v.count.tolist(),
        "bw": np.round(v.bandwidth, 3).tolist(), "width": np.round(widths(v.bandwidth), 2).tolist(),
        "util": [None if math.isnan(u) else round(float(u), 4) for u in util] if (~np.isnan(util)).any() else None,
        "unit": _unit(xy),
    }
    if v.failed is not None:
        out["failed"], out["degraded"] = v.failed.tolist(), v.degraded.tolist()
        out["rated"] = np.round(v.rated, 3).tolist()
    if out["util"] is not None and v.util_sum is not None:  # per bundle: mean utilization, links that carried traffic
        out["umean"] = np.round(v.util_sum / np.maximum(v.count, 1), 4).tolist()
        out["used"] = v.used.tolist()
    if v.rail is not None:
        out["rail"] = v.rail.tolist()
        out["rail_names"] = list(v.rail_names)
    if labels:
        out["label"] = list(v.label)
    if small is not None and small.any():
        out["small"] = small.astype(int).tolist()
    return out


def _satellites(scene: Scene) -> np.ndarray | None:
    a = scene.structure.anchor
    return (a >= 0) if a is not None else None


def page_data(g: FQG, utilization: np.ndarray | None = None, start_device: str | None = None,
              notes: list[str] | None = None) -> dict:
    """Everything the viewer needs, as plain JSON-able data; `notes` are added to the fabric's."""
    fabric = prepare(g, "fabric", utilization=utilization, max_boxes=DETAIL_LIMIT)
    agg = None
    v = fabric.view
    if v.num_nodes > ZOOMED_OUT_BOXES or v.num_edges > ZOOMED_OUT_LINES or fabric.shown is not None:
        agg = prepare_aggregate(fabric)
    devices: dict[str, Scene] = {}
    for inst in g.instances:
        if inst.device not in devices and inst.nodes_per_copy <= DEVICE_LIMIT:
            devices[inst.device] = prepare(g, "device", f"{inst.name}.0", utilization)
    kinds: list[str] = []
    for v in [fabric.view] + [s.view for s in devices.values()]:
        kinds += [k for k in v.kinds if k not in kinds]
    colours = kind_colours(kinds)
    starts = np.cumsum([0] + [i.count for i in g.instances]).tolist()
    data = {
        "title": g.name, "notes": fabric.view.notes + list(notes or []), "kinds": kinds,
        "colours": [colours[k] for k in kinds], "rail_colours": list(RAIL_COLOURS),
        "instances": [{"name": i.name, "device": i.device, "count": i.count, "first": starts[k],
                       "first_node": i.first_node, "per_copy": i.nodes_per_copy}
                      for k, i in enumerate(g.instances)],
        "annotations": copy_annotations(g),
        "fabric": _layer(fabric.view, fabric.xy, kinds, labels=False, small=_satellites(fabric)),
        "units": [{"label": u.label, "box": _round(np.concatenate([fabric.xy[u.members].min(axis=0) - 0.5,
                                                                    fabric.xy[u.members].max(axis=0) + 0.5]))}
                  for u in units(fabric.view, fabric.structure, fabric.xy)],
        "agg": None, "devices": {}, "start": _start(g, start_device),
    }
    if agg is not None:
        data["agg"] = _layer(agg.view, agg.xy, kinds, labels=True)
        data["notes"] = data["notes"] + agg.view.notes[-1:] + ["zoom in to see individual devices"]
    for name, s in devices.items():
        layer = _layer(s.view, s.xy, kinds, labels=True, small=_satellites(s))
        layer["attrs"] = [{k: v for k, v in a.items() if k in SHARED_ATTRIBUTES}
                          for a in (s.view.attrs or [{}] * s.view.num_nodes)]
        layer["notes"] = s.view.notes
        data["devices"][name] = layer
    return data


# Built-in attributes every copy of a device shares (the viewer shows type, instance and copy
# itself, and each copy's own annotations from `copy_annotations`).
SHARED_ATTRIBUTES = ("device", "component", "component_index", "parent_device")


def copy_annotations(g: FQG) -> dict[str, dict[str, Value]]:
    """{attribute: {node id: value}} of every node annotation (rank, tier, ...): the drill-down
    page shows the selected copy's own values, not those of copy 0 of the device."""
    return {attr: {str(n): v for n, v in values.items()} for attr, values in g.node_attrs.items()}


def _start(g: FQG, name: str | None) -> dict | None:
    """The device the page opens on (--level device NAME), as {device, prefix}."""
    if not name:
        return None
    nodes, prefix = device_copy_nodes(g, name)
    return {"device": g.instances[int(g.node_instance[nodes[0]])].device, "prefix": prefix}


def prepare_aggregate(fabric: Scene):
    """The zoomed-out layer of a large fabric: its aggregation at AGG_BOXES boxes."""
    from .aggregate import aggregate

    return aggregate(fabric.view, fabric.structure, fabric.xy, AGG_BOXES)


def write_page(g: FQG, output: str, utilization: np.ndarray | None = None, start_device: str | None = None,
               notes: list[str] | None = None) -> None:
    """Write the self-contained interactive page of `g` to `output` (`notes`: extra caption lines)."""
    data = page_data(g, utilization, start_device, notes)
    text = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    html = _env.get_template("page.html.j2").render(
        title=f"{g.name} — InfraGraph", data=text, script=(_TEMPLATES / "viewer.js").read_text(encoding="utf-8"),
        heat=data["fabric"]["util"] is not None, failures="failed" in data["fabric"],
        rails=[] if data["fabric"]["util"] is not None else
        [(f"rail {r} ({n})", RAIL_COLOURS[r % len(RAIL_COLOURS)]) for r, n in enumerate(data["fabric"].get("rail_names", []))],
    )
    write_text(output, html)
