"""Static pictures (SVG, PNG, PDF) of a Scene through Graphviz.

The layout program follows the structure: `neato -n2` at the computed positions for a Clos (one
row per tier, hosts at the bottom, every row in index order; racks, scalable units or pods outlined
and rails in their own colours), a mesh, torus, dragonfly or an aggregation of them (a grid must
look like a grid); `neato`/`sfdp` for the rest. A line of several links (a bundle) states its mean
and max utilization and how many of its links carried traffic; a failed line its rated bandwidth.
The DOT text comes from a Jinja2 template (templates/picture.dot.j2).
"""

from __future__ import annotations

import math
from pathlib import Path

import jinja2
import numpy as np

from ..output import write_bytes
from . import graphviz
from .layout import positions
from .scene import Scene
from .structure import units
from .style import RAIL_COLOURS, count, gbps, heat, kind_colours, width_legend, widths

POINTS_PER_UNIT = 50.0
MAX_LINE_LABELS = 150

_env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(Path(__file__).parent / "templates")),
                          autoescape=False, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
_env.filters["dq"] = lambda s: str(s).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def engine(scene: Scene) -> str:
    v, s, _ = scene.drawn
    if s.kind in ("tiers", "grid", "dragonfly", "placed"):
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
    has_heat = bool((~np.isnan(v.utilization)).any())
    label_lines = v.num_edges <= MAX_LINE_LABELS
    wide_labels = label_lines and bool(((v.count > 1) & (has_heat or v.failed is not None)).any())
    step = _tier_spacing(v, wide_labels) if s.kind == "tiers" else 0.0
    if s.kind == "tiers":
        if scene.shown is not None:  # aggregated boxes: their own rows (centroids spread 1,000 hosts wide)
            xy = positions(v, s)
        xy = xy * np.array([step / POINTS_PER_UNIT, 1.0])
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
    rails = v.rail is not None and not has_heat
    crowded = _crowded(v, s)
    spacing = _grid_step(xy, v, s.anchor) if fixed and s.kind != "tiers" else 0.0
    edges = []
    for j in range(v.num_edges):
        a, b = int(v.src[j]), int(v.dst[j])
        c, bw, u = int(v.count[j]), float(v.bandwidth[j]), float(v.utilization[j])
        failed = 0 if v.failed is None else int(v.failed[j])
        rated = bw if v.rated is None else float(v.rated[j])
        tip = (f"{ids[a]} — {ids[b]}: {count(c)} link{'s' if c > 1 else ''}, "
               + (f"{gbps(rated)} rated, failed" if failed and failed == c else gbps(bw)))
        labelled = label_lines and not crowded[j]
        label = f"×{count(c)}\n{gbps(bw)}" if c > 1 and labelled else ""
        if not math.isnan(u):
            tip += f", utilization {_load_text(v, j)}"
            if c > 1 and labelled:
                label = f"×{count(c)} {gbps(bw)}\n{_load_text(v, j, short=True)}"
        rail = int(v.rail[j]) if rails else -1
        if rail >= 0:
            tip += f"; rail {rail} ({v.rail_names[rail]})"
        long = fixed and s.kind == "grid" and np.hypot(*(xy[a] - xy[b])) > 1.6 * spacing
        edge = {
            "a": ids[a], "b": ids[b], "width": w[j], "tooltip": tip, "dashed": long,
            "pos": _line_pos(xy[a], xy[b], spacing if long else 0.0) if fixed else None,
            "colour": heat(u) if not math.isnan(u) else (RAIL_COLOURS[rail % len(RAIL_COLOURS)] if rail >= 0
                                                       else ("#c0c4cc" if has_heat else "#6b7280")),
            "label": label,
        }
        edge = _failure_style(edge, c, failed,
                              0 if v.degraded is None else int(v.degraded[j]), labelled, rated)
        edge["lp"] = _label_pos(xy[a], xy[b], edge["label"]) if s.kind == "tiers" and edge["label"] else None
        edges.append(edge)
    ranks = []
    if s.kind == "tiers" and not fixed:
        for t in range(int(s.tier.max()) + 1):
            ranks.append([ids[i] for i in np.flatnonzero(s.tier == t)])
    clusters = []
    if v.cluster is not None and prog == "dot":
        for c in np.unique(v.cluster):
            members = np.flatnonzero(v.cluster == c)
            clusters.append({"label": v.cluster_label[int(c)], "ids": [ids[i] for i in members]})
    notes = list(v.notes)
    outlines = _unit_outlines(v, s, xy, step) if s.kind == "tiers" and scene.shown is None else []
    if outlines:
        notes.append(f"outlined: {len(outlines)} {outlines[0]['unit']}s (what the top tier joins: hosts and the "
                     f"switches below it)")
    if rails and v.rail_names:
        notes.append(f"line colour: rail (the host component a cable leaves from: {v.rail_names[0]} = rail 0, …); a "
                     f"switch whose host links are all one rail passes its colour up")
    if has_heat and (v.count > 1).any():
        notes.append("line colour: its busiest link; a line of several links is labelled mean / max utilization and "
                     "how many of its links carried traffic" + ("" if label_lines else " (hover it, in SVG)"))
    if any(n["small"] for n in nodes):
        notes.append("small dots: components attached to the box they surround (colour = type; hover for names)")
    if any(e["dashed"] for e in edges):
        notes.append("dashed arcs: links to boxes that are not grid neighbours (wraparound; other planes)")
    if not label_lines and (v.count > 1).any():
        notes.append(f"{count(v.num_edges)} lines: ×N labels omitted (hover a line for its links and bandwidth)")
    elif label_lines and (crowded & (v.count > 1)).any():
        notes.append("×N labels omitted where more than 4 lines leave a box upwards (hover a line, in SVG)")
    graph_attrs = {"rankdir": "BT", "ranksep": "1.0", "nodesep": "0.25"} if prog == "dot" else {}
    if prog == "sfdp":
        graph_attrs.update({"overlap": "prism", "splines": "false"})
    elif prog == "neato" and not fixed:
        graph_attrs.update({"overlap": "false", "splines": "false"})
    width_note = width_legend(v.bandwidth)
    legend_pos = None
    if fixed:
        legend_pos = f"{(np.nanmax(xy[:, 0]) + 4) * POINTS_PER_UNIT:.1f},{-np.nanmin(xy[:, 1]) * POINTS_PER_UNIT:.1f}!"
    shown_rails = sorted(set(v.rail[v.rail >= 0].tolist())) if rails else []
    return _env.get_template("picture.dot.j2").render(
        title=v.title, caption="\n".join([v.title] + notes), graph_attrs=graph_attrs, nodes=nodes, edges=edges,
        ranks=ranks, clusters=clusters, legend_pos=legend_pos, outlines=outlines,
        legend_kinds=[(k, colours[k]) for k in v.kinds], width_note=width_note,
        merged_note="×N: N parallel links merged into one line, with their total bandwidth" if (v.count > 1).any() else "",
        heat=[(p, heat(p / 100)) for p in (0, 25, 50, 75, 100)] if has_heat else None,
        load_label=has_heat and label_lines and bool((v.count > 1).any()),
        rails=[(f"rail {r} ({v.rail_names[r]})", RAIL_COLOURS[r % len(RAIL_COLOURS)]) for r in shown_rails[:16]],
        more_rails=len(shown_rails) - 16 if len(shown_rails) > 16 else 0,
        failures=_failure_legend(v),
    )


BOX_POINTS = 54.0  # a box's default width (0.75 inch)


def _tier_spacing(v, wide_labels: bool) -> float:
    """Points between neighbours in the widest tier: a box and its label, and a gap; wide enough
    for two lines' labels side by side when bundles carry a load or failure label."""
    longest = max((len(x.split("\n")[0]) for x in v.label), default=6)
    return max(BOX_POINTS, 6.0 * longest + 18.0, 125.0 if wide_labels else 0.0) + 18.0


def _load_text(v, j: int, short: bool = False) -> str:
    """'mean 40%, max 95%, 6/8 links carried traffic' for line j (one link: its utilization); short:
    '40/95% · 6/8' for a label (the legend spells it out)."""
    c, u = int(v.count[j]), float(v.utilization[j])
    if c == 1 or v.util_sum is None:
        return f"{u:.0%}"
    mean, used = float(v.util_sum[j]) / c, f"{count(int(v.used[j]))}/{count(c)}"
    if short:
        return f"{mean * 100:.0f}/{u:.0%} · {used}"
    return f"mean {mean:.0%}, max {u:.0%}, {used} links carried traffic"


def _unit_outlines(v, s, xy: np.ndarray, step: float) -> list[dict]:
    """Rectangles (points) around the racks, scalable units or pods of a Clos (structure.units), with
    their labels; `step`: points between neighbours in the widest tier."""
    out = []
    for u in units(v, s, xy):
        x0, x1 = xy[u.members, 0].min() * POINTS_PER_UNIT, xy[u.members, 0].max() * POINTS_PER_UNIT
        y0, y1 = xy[u.members, 1].min() * POINTS_PER_UNIT, xy[u.members, 1].max() * POINTS_PER_UNIT
        pad_x, pad_y = step * 0.45, BOX_POINTS * 0.5
        out.append({"unit": u.unit, "label": u.label, "pos": f"{(x0 + x1) / 2:.1f},{-(y0 + y1) / 2 - 8:.1f}!",
                    "width": f"{(x1 - x0 + 2 * pad_x) / 72:.2f}", "height": f"{(y1 - y0 + 2 * pad_y + 16) / 72:.2f}"})
    return out


def _crowded(v, s) -> np.ndarray:
    """Per line, whether its label would crowd: in a Clos, more than 4 lines leave its lower box
    upwards (labels sit near the lower box, where they would pile up)."""
    if s.kind != "tiers":
        return np.zeros(v.num_edges, bool)
    lower = np.where(s.tier[v.src] < s.tier[v.dst], v.src, v.dst)
    return np.bincount(lower, minlength=v.num_nodes)[lower] > 4


def _label_pos(a: np.ndarray, b: np.ndarray, label: str) -> str:
    """Where a Clos line's label goes: 60 % of the way down, beside the line on the side it leans
    to, so the labels of one switch's fan of lines sit apart instead of on top of each other."""
    hi, lo = (a, b) if a[1] < b[1] else (b, a)  # y grows downwards: hi is the upper box
    x, y = (hi + 0.6 * (lo - hi)) * POINTS_PER_UNIT
    half = 2.9 * max((len(t) for t in label.split("\n")), default=0) + 6.0  # half the label's width, 9 pt text
    x += half if lo[0] >= hi[0] else -half
    return f"{x:.1f},{-y:.1f}"


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


def _failure_style(edge: dict, links: int, failed: int, degraded: int, labels: bool, rated: float) -> dict:
    """A line whose links all failed is red and dashed; one with some failed links is tinted towards
    red by the failed fraction; a line with degraded links is orange (dotted when all are); the
    tooltip and label say how many, and a failed line its rated bandwidth (it carries none)."""
    if failed:
        whole = failed == links
        edge.update(colour=FAILED_COLOUR if whole else _mix(edge["colour"], FAILED_COLOUR, 0.3 + 0.7 * failed / links),
                    style="dashed" if whole else "")
        if whole:
            edge["label"] = f"{'×' + count(links) + ' ' if links > 1 else ''}{gbps(rated)}\nfailed"
            edge["width"] = 1.5
        else:
            edge["tooltip"] += f"; {count(failed)} of {count(links)} failed ({gbps(rated)} rated)"
            if labels:
                edge["label"] = f"×{count(links)}, {count(failed)} failed\n{gbps(rated)} rated"
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
