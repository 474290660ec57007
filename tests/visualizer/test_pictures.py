"""Pictures that must not mislead: wraparound lines bow around the boxes instead of running
through them, the width legend says when every line has the same bandwidth, and GPU servers that
contain a switch still make a Clos."""

from __future__ import annotations

import re

import numpy as np
import pytest

from infragraph.sources import load_graph
from infragraph.visualizer import prepare
from infragraph.visualizer.picture import POINTS_PER_UNIT, dot_text
from infragraph.visualizer.style import width_legend
from tests import vis_graphs as vg

POS = re.compile(r'"([^"]+)" -- "([^"]+)" \[[^\]]*?pos="([^"]+)"', re.S)


def _lines(text: str) -> dict[tuple[str, str], np.ndarray]:
    """(box, box) -> the 4 Bézier points (in points) of every line with a position."""
    return {(a, b): np.array([[float(c) for c in p.split(",")] for p in pos.split()]) for a, b, pos in POS.findall(text)}


def _box_centres(text: str) -> dict[str, np.ndarray]:
    return {m[0]: np.array([float(m[1]), float(m[2])])
            for m in re.findall(r'"([^"]+)" \[label="[^"]*"[^\]]*?pos="([-\d.]+),([-\d.]+)!"', text)}


def _curve(points: np.ndarray, n: int = 60) -> np.ndarray:
    t = np.linspace(0, 1, n)[:, None]
    p0, p1, p2, p3 = points
    return (1 - t) ** 3 * p0 + 3 * (1 - t) ** 2 * t * p1 + 3 * (1 - t) * t ** 2 * p2 + t ** 3 * p3


@pytest.mark.parametrize("dims", [(6, 6), (4, 8)])  # 3-D: planes side by side, see docs/visualizer.md
def test_torus_lines_never_cross_a_box_they_do_not_join(dims):
    scene = prepare(vg.torus(dims))
    text = dot_text(scene)
    lines, centres = _lines(text), _box_centres(text)
    assert len(lines) == scene.drawn[0].num_edges  # every line is placed, none left to Graphviz
    step = 2.5 * POINTS_PER_UNIT
    half_w, half_h = 0.2 * step, 0.12 * step  # a box is ~54 x 36 points; the grid step 125 points
    others = np.array(list(centres.values()))
    names = list(centres)
    bowed = 0
    for (a, b), pts in lines.items():
        curve = _curve(pts)[3:-3]  # leave the two boxes it joins
        if np.hypot(*(pts[3] - pts[0])) > 1.6 * step:
            bowed += 1
        for i, c in enumerate(others):
            if names[i] in (a, b):
                continue
            inside = (np.abs(curve[:, 0] - c[0]) < half_w) & (np.abs(curve[:, 1] - c[1]) < half_h)
            assert not inside.any(), f"{a} -- {b} passes through {names[i]}"
    assert bowed > 0
    assert "dashed arcs: links to boxes that are not grid neighbours" in text


def test_width_legend_with_one_bandwidth_says_so():
    assert width_legend(np.array([800.0, 800.0])) == "every line 800 Gbit/s per direction"
    assert width_legend(np.array([400.0, 3200.0])) == "bandwidth per direction, log scale: thin 400 Gbit/s … thick 3.2 Tbit/s"
    assert width_legend(np.array([0.0])) == "no bandwidth stated"
    assert "every line 800 Gbit/s" in dot_text(prepare(vg.torus((4, 4))))


@pytest.mark.parametrize("host", ["hosts.host(scaleup_switches=1)", "dgx.dgx()"])
def test_servers_holding_a_switch_make_a_clos(host):
    g = load_graph("std.fabrics.clos", {"radix": "8", "host_device": host, "nics_per_host": "4", "planes": "4"}
                   if host.startswith("dgx") else {"radix": "8", "host_device": host})
    scene = prepare(g)
    assert scene.structure.kind == "tiers" and scene.structure.description == "2-tier Clos"
