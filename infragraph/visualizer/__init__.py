"""The visualizer: Graphviz pictures and a self-contained interactive page of a fabric.

`visualize(g, output, level, device, results)` writes SVG/PNG/PDF (through Graphviz) or HTML
(no Graphviz needed) by the output's suffix; `plot_sweep` draws sweep results with matplotlib.
Module map: views (levels as quotients of the FQG) → structure (Clos/grid/dragonfly) → layout →
aggregate → scene; picture (Graphviz) and page (HTML) draw a scene; results reads engine output.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from ..errors import Diagnostic, error
from ..graph.fqg import FQG
from .plot import plot_sweep, plot_table
from .scene import LEVELS, Scene, prepare

OUTPUTS = ("svg", "png", "pdf", "html")


def visualize(g: FQG, output: str, level: str = "fabric", device: str | None = None,
              results: str | None = None, warn: Callable[[Diagnostic], None] | None = None) -> Scene | None:
    """Write a picture (svg/png/pdf) or the interactive page (html) of `g` to `output`.

    results: an engine result JSON; its per-link utilization colours the lines (`warn` hears when
    the result holds only some links). Returns the scene
    drawn (pictures) so callers can report what was drawn."""
    fmt = Path(output).suffix.lstrip(".").lower()
    if fmt not in OUTPUTS:
        raise error(f"cannot write '{output}': the output's suffix must be one of .{', .'.join(OUTPUTS)}")
    if level not in LEVELS:
        raise error(f"unknown level '{level}'; expected one of: {', '.join(LEVELS)}")
    if level == "device" and not device:
        raise error("--level device needs the device to show, e.g. --level device leaf.0 (or a device name)")
    util = None
    if results:
        from .results import link_utilization

        util = link_utilization(g, results, warn)
    if fmt == "html":
        from .page import write_page

        write_page(g, output, util, device if level == "device" else None)
        return None
    from .picture import write_picture

    scene = prepare(g, level, device, util)
    write_picture(scene, output, fmt)
    return scene


__all__ = ["LEVELS", "OUTPUTS", "Scene", "plot_sweep", "plot_table", "prepare", "visualize"]
