"""Colours, line widths and number formats shared by the Graphviz pictures and the HTML page,
so the two outputs of one fabric read the same way."""

from __future__ import annotations

import math

import numpy as np

from ..units import format_bandwidth

# Colour per component type (colour-blind-safe Tableau 10 order); unknown types take the rest.
TYPE_COLOURS = {
    "xpu": "#f28e2b", "cpu": "#e15759", "switch": "#4e79a7", "router": "#76b7b2", "nic": "#59a14f",
    "memory": "#edc948", "port": "#bab0ac", "device": "#9c755f",
}
SPARE = ["#b07aa1", "#ff9da7", "#9c755f", "#86bcb6", "#d4a6c8", "#8cd17d"]
# Rail colours (ColorBrewer Dark2 then Set1): lines, so they need not avoid the box colours.
RAIL_COLOURS = ("#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d", "#666666",
                "#e41a1c", "#377eb8", "#4daf4a", "#984ea3", "#ff7f00", "#a65628", "#f781bf", "#999999")
HEAT = ((0.0, (44, 160, 44)), (0.5, (255, 200, 0)), (1.0, (214, 39, 40)))  # green, amber, red
MIN_WIDTH, MAX_WIDTH = 1.0, 6.0


def kind_colours(kinds: list[str]) -> dict[str, str]:
    out, spare = {}, iter(SPARE * 4)
    for k in kinds:
        out[k] = TYPE_COLOURS.get(k) or next(spare)
    return out


def widths(bandwidth: np.ndarray) -> np.ndarray:
    """Line width per line: log scale of total bandwidth between MIN_WIDTH and MAX_WIDTH."""
    bw = np.where(bandwidth > 0, bandwidth, np.nan)
    if np.isnan(bw).all():
        return np.full(bandwidth.shape, MIN_WIDTH)
    lo, hi = np.nanmin(bw), np.nanmax(bw)
    if hi <= lo:
        return np.full(bandwidth.shape, 2.0)
    w = MIN_WIDTH + (MAX_WIDTH - MIN_WIDTH) * (np.log(bw) - math.log(lo)) / (math.log(hi) - math.log(lo))
    return np.where(np.isnan(w), MIN_WIDTH, w)


def width_legend(bandwidth: np.ndarray) -> str:
    """What line width means in this picture: a log scale from the thinnest to the thickest line,
    or, when every line carries the same bandwidth, that one value (width then says nothing)."""
    bw = bandwidth[bandwidth > 0]
    if not bw.size:
        return "no bandwidth stated"
    lo, hi = float(bw.min()), float(bw.max())
    if hi <= lo:
        return f"every line {gbps(lo)} per direction"
    return f"bandwidth per direction, log scale: thin {gbps(lo)} … thick {gbps(hi)}"


def heat(u: float) -> str:
    """Hex colour for a utilization in [0, 1] (clipped): green → amber → red."""
    u = min(max(float(u), 0.0), 1.0)
    for (x0, c0), (x1, c1) in zip(HEAT, HEAT[1:]):
        if u <= x1:
            t = (u - x0) / (x1 - x0)
            return "#" + "".join(f"{round(a + (b - a) * t):02x}" for a, b in zip(c0, c1))
    return "#d62728"


def gbps(x: float) -> str:
    """400 Gbit/s, 3.2 Tbit/s, 1.6 Pbit/s (units.format_bandwidth to 3 significant digits)."""
    if not x or math.isnan(x):
        return "? Gbit/s"
    return format_bandwidth(x, 3)


def count(n: int) -> str:
    return f"{n:,}"
