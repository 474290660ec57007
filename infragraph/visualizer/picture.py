"""Static pictures (SVG, PNG, PDF) of a Scene through Graphviz.

The layout program follows the structure: `dot` with one rank per tier for a Clos (hosts at the
bottom, crossing reduction for free); `neato -n2` at the computed positions for a mesh, torus,
dragonfly or an aggregation of them (a grid must look like a grid); `neato`/`sfdp` for the rest.
The DOT text comes from a Jinja2 template (templates/picture.dot.j2).
"""

from __future__ import annotations

import math
from pathlib import Path

import jinja2
import numpy as np

from ..output import write_bytes
from . import graphviz
from .scene import Scene
from .style import count, gbps, heat, kind_colours, width_legend, widths

FORMATS = ("svg", "png", "pdf")
POINTS_PER_UNIT = 50.0
MAX_LINE_LABELS = 150

_env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(Path(__file__).parent / "templates")),
                          autoescape=False, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
_env.filters["dq"] = lambda s: str(s).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def engine(scene: Scene) -> str:
    v, s, _ = scene.drawn
    if s.kind == "tiers":
        return "dot"
    if s.kind in ("grid", "dragonfly", "placed"):
        return "neato"  # with -n2: positions are given
    if v.cluster is not None and v.num_nodes <= 600:
        return "dot"
    return "sfdp" if v.num_nodes > 300 else "neato"


def dot_text(scene: Scene) -> str:
    """The DOT source of the picture of `scene`."""
    v, s, xy = scene.drawn
    colours = kind_colours(v.kinds)
    prog = engine(scene)
    fixed = prog == "neato" and s.kind != "free"
    satellites = s.anchor is not None and int((s.anchor >= 0).sum()) > 40
    nodes = []
    for i in range(v.num_nodes):
        kind = v.kinds[int(v.kind[i])]
        small = bool(satellites and s.anchor[i] >= 0)
        tip = f"{v.name[i] if v.name else v.label[i]} ({kind})"
        if v.size[i] > 1:
            tip += f", {count(int(v.size[i]))} devices"
        nodes.append({
            "id": v.name[i] if v.name else v.label[i], "label": v.label[i], "colour": colours[kind],
            "tooltip": tip, "small": small,
            "pos": f"{xy[i, 0] * POINTS_PER_UNIT:.1f},{-xy[i, 1] * POINTS_PER_UNIT:.1f}!" if fixed else None,
            "wide": None,
        })
    ids = [n["id"] for n in nodes]
    w = widths(v.bandwidth)
    has_heat = bool((~np.isnan(v.utilization)).any())
    label_lines = v.num_edges <= MAX_LINE_LABELS
    spacing = _grid_step(xy, v, s.anchor) if fixed else 0.0
    edges = []
    for j in range(v.num_edges):
        a, b = int(v.src[j]), int(v.dst[j])
        c, bw, u = int(v.count[j]), float(v.bandwidth[j]), float(v.utilization[j])
        tip = f"{ids[a]} — {ids[b]}: {count(c)} link{'s' if c > 1 else ''}, {gbps(bw)}"
        if not math.isnan(u):
            tip += f", utilization {u:.0%}"
        long = fixed and s.kind == "grid" and np.hypot(*(xy[a] - xy[b])) > 1.6 * spacing
        edge = {
            "a": ids[a], "b": ids[b], "width": w[j], "tooltip": tip, "dashed": long,
            "pos": _line_pos(xy[a], xy[b], spacing if long else 0.0) if fixed else None,
            "colour": heat(u) if not math.isnan(u) else ("#c0c4cc" if has_heat else "#6b7280"),
            "label": f"×{count(c)}\n{gbps(bw)}" if c > 1 and label_lines else "",
        }
        edges.append(_failure_style(edge, c, 0 if v.failed is None else int(v.failed[j]),
                                    0 if v.degraded is None else int(v.degraded[j]), label_lines))
    ranks = []
    if s.kind == "tiers":
        for t in range(int(s.tier.max()) + 1):
            ranks.append([ids[i] for i in np.flatnonzero(s.tier == t)])
    clusters = []
    if v.cluster is not None and prog == "dot":
        for c in np.unique(v.cluster):
            members = np.flatnonzero(v.cluster == c)
            clusters.append({"label": v.cluster_label[int(c)], "ids": [ids[i] for i in members]})
    notes = list(v.notes)
    if any(n["small"] for n in nodes):
        notes.append("small dots: components attached to the box they surround (colour = type; hover for names)")
    if any(e["dashed"] for e in edges):
        notes.append("dashed arcs: links to boxes that are not grid neighbours (wraparound; other planes)")
    if not label_lines and (v.count > 1).any():
        notes.append(f"{count(v.num_edges)} lines: ×N labels omitted (hover a line for its links and bandwidth)")
    graph_attrs = {"rankdir": "BT", "ranksep": "1.0", "nodesep": "0.25"} if prog == "dot" else {}
    if prog == "sfdp":
        graph_attrs.update({"overlap": "prism", "splines": "false"})
    elif prog == "neato" and not fixed:
        graph_attrs.update({"overlap": "false", "splines": "false"})
    width_note = width_legend(v.bandwidth)
    legend_pos = None
    if fixed:
        legend_pos = f"{(np.nanmax(xy[:, 0]) + 4) * POINTS_PER_UNIT:.1f},{-np.nanmin(xy[:, 1]) * POINTS_PER_UNIT:.1f}!"
    return _env.get_template("picture.dot.j2").render(
        title=v.title, caption="\n".join([v.title] + notes), graph_attrs=graph_attrs, nodes=nodes, edges=edges,
        ranks=ranks, clusters=clusters, legend_pos=legend_pos,
        legend_kinds=[(k, colours[k]) for k in v.kinds], width_note=width_note,
        merged_note="×N: N parallel links merged into one line, with their total bandwidth" if (v.count > 1).any() else "",
        heat=[(p, heat(p / 100)) for p in (0, 25, 50, 75, 100)] if has_heat else None,
        failures=_failure_legend(v),
    )


CLEARANCE = 0.35  # grid steps between a bowed line and the centre of the first box it passes


def _line_pos(a: np.ndarray, b: np.ndarray, step: float) -> str:
    """The edge's Graphviz `pos` (a cubic Bézier from box centre to box centre, in points): straight,
    or, for a link that leaves the grid neighbourhood (`step` > 0, the grid step), bowed sideways
    so that it runs between rows or columns instead of through the boxes on its way. The control
    points sit h off the line, the curve 3t(1-t)h off at fraction t of its length L (in steps);
    h is chosen so that one step from either end the curve is CLEARANCE steps off the line.
    Bows point up, or left for vertical lines, so parallel wraparounds stack instead of crossing."""
    pa = np.array([a[0], -a[1]]) * POINTS_PER_UNIT
    pb = np.array([b[0], -b[1]]) * POINTS_PER_UNIT
    d = pb - pa
    length = max(float(np.hypot(*d)), 1e-9)
    off = np.zeros(2)
    if step > 0:
        normal = np.array([-d[1], d[0]]) / length
        if normal[1] < -1e-9 or (abs(normal[1]) <= 1e-9 and normal[0] > 0):
            normal = -normal
        steps = max(length / (step * POINTS_PER_UNIT), 1.5)
        off = normal * CLEARANCE * steps ** 2 / (3 * (steps - 1)) * step * POINTS_PER_UNIT
    points = [pa, pa + d / 3 + off, pa + 2 * d / 3 + off, pb]
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


def _failure_legend(v) -> list[tuple[str, str, str]]:
    """(colour, style, text) legend rows for failed and degraded lines present in the view."""
    rows = []
    if v.failed is not None and v.failed.any():
        rows.append((FAILED_COLOUR, "dashed", f"failed: {count(int(v.failed.sum()))} links (red dashed: all of a line's "
                                              "links; tinted red: some); widths show what survives"))
    if v.degraded is not None and v.degraded.any():
        rows.append((DEGRADED_COLOUR, "dotted", f"degraded: {count(int(v.degraded.sum()))} links (orange, dotted; "
                                                "bandwidth x factor, + latency)"))
    return rows


FAILED_COLOUR, DEGRADED_COLOUR = "#d62728", "#e67e00"


def _failure_style(edge: dict, links: int, failed: int, degraded: int, labels: bool) -> dict:
    """A line whose links all failed is red and dashed; one with some failed links is tinted towards
    red by the failed fraction; a line with degraded links is orange (dotted when all are); the
    tooltip and label say how many."""
    if failed:
        whole = failed == links
        edge.update(colour=FAILED_COLOUR if whole else _mix(edge["colour"], FAILED_COLOUR, 0.3 + 0.7 * failed / links),
                    style="dashed" if whole else "")
        edge["tooltip"] += f"; {count(failed)} of {count(links)} failed"
        if labels and failed < links:
            edge["label"] = (edge["label"] + "\n" if edge["label"] else "") + f"{count(failed)} failed"
        if failed == links:
            edge["width"] = 1.5
    elif degraded:
        edge.update(colour=DEGRADED_COLOUR, style="dotted" if degraded == links else "", width=max(edge["width"], 2.5))
        edge["tooltip"] += f"; {count(degraded)} of {count(links)} degraded"
        if labels and degraded < links:
            edge["label"] = (edge["label"] + "\n" if edge["label"] else "") + f"{count(degraded)} degraded"
    return edge


def _mix(a: str, b: str, t: float) -> str:
    """The colour a fraction `t` of the way from hex colour `a` to `b`."""
    ca, cb = (tuple(int(c[i:i + 2], 16) for i in (1, 3, 5)) for c in (a, b))
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(ca, cb))


def _grid_step(xy: np.ndarray, v, anchor: np.ndarray | None) -> float:
    """The shortest line between core boxes: the grid step (satellite spokes are not). Not the
    median: in a 4-ary torus as many lines wrap around (3 steps) as join neighbours."""
    core = np.ones(v.num_edges, bool) if anchor is None else (anchor[v.src] < 0) & (anchor[v.dst] < 0)
    if not core.any():
        return 1.0
    d = np.hypot(*(xy[v.src[core]] - xy[v.dst[core]]).T)
    return float(d[d > 0].min()) if (d > 0).any() else 1.0


def write_picture(scene: Scene, output: str, fmt: str | None = None) -> None:
    """Render `scene` to `output` (format from its suffix unless given)."""
    fmt = fmt or Path(output).suffix.lstrip(".").lower()
    prog = engine(scene)
    text = dot_text(scene)
    if prog == "neato" and scene.drawn[1].kind != "free":
        text = text.replace("graph [", "graph [splines=true, ", 1)  # draw the lines as given (pos)
        drawn = graphviz.run_fixed(text, fmt)
    else:
        drawn = graphviz.run(prog, text, fmt)
    write_bytes(output, drawn)
