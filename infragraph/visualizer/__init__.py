"""The visualizer: Graphviz pictures and a self-contained interactive page of a fabric.

`visualize(g, output, level, device, results)` writes SVG/PNG/PDF (through Graphviz) or HTML
(no Graphviz needed) by the output's suffix; `plot_sweep` draws sweep results with matplotlib.
Module map: views (levels as quotients of the FQG) → structure (Clos/grid/dragonfly) → layout →
aggregate → scene; picture (Graphviz) and page (HTML) draw a scene; results reads engine output.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import numpy as np

from ..errors import Diagnostic, error
from ..graph.failures import FailureSpec, apply_failures, marked, resolve_failures
from ..graph.fqg import FQG
from .plot import plot_sweep, plot_table
from .scene import LEVELS, Scene, prepare

OUTPUTS = ("svg", "png", "pdf", "html")


def visualize(g: FQG, output: str, level: str = "fabric", device: str | None = None,
              results: str | None = None, failures: FailureSpec = FailureSpec(),
              warn: Callable[[Diagnostic], None] | None = None) -> Scene | None:
    """Write a picture (svg/png/pdf) or the interactive page (html) of `g` to `output`.

    results: an engine result JSON; its per-link utilization colours the lines (a result simulated
    with failures refers to the failed graph's links, mapped back here) and its per-tier load
    (utilization percentiles per link tier) goes into the caption. failures: drawn on top of
    the graph's own failure annotations — failed links red, degraded ones orange. `warn` hears when
    the result holds only some links (simulate --links N). Returns the scene
    drawn (pictures) so callers can report what was drawn."""
    fmt = Path(output).suffix.lstrip(".").lower()
    if fmt not in OUTPUTS:
        raise error(f"cannot write '{output}': the output's suffix must be one of .{', .'.join(OUTPUTS)}")
    if level not in LEVELS:
        raise error(f"unknown level '{level}'; expected one of: {', '.join(LEVELS)}")
    if level == "device" and not device:
        raise error("--level device needs the device to show, e.g. --level device leaf.0 (or a device name)")
    f = resolve_failures(g, failures)
    util, notes = None, []
    if results:
        from .results import link_utilization, tier_notes

        _same_failures(results, f)
        notes = tier_notes(results)
        if f.any():
            util = np.full(g.num_edges, np.nan)
            util[~f.failed_edge] = link_utilization(apply_failures(g, f), results, warn)
        else:
            util = link_utilization(g, results, warn)
    if f.any():
        g = marked(g, f)
    if fmt == "html":
        from .page import write_page

        write_page(g, output, util, device if level == "device" else None, notes)
        return None
    from .picture import write_picture

    scene = prepare(g, level, device, util)
    scene.drawn[0].notes.extend(notes)
    write_picture(scene, output, fmt)
    return scene


def _same_failures(results: str, f) -> None:
    """Results name links by the ids of the graph they were simulated on: with failures, the failed
    graph's. Refuse results simulated with a different number of cut links than asked for here."""
    from .results import read_json

    data = read_json(results)
    first = data[0] if isinstance(data, list) and data else data
    recorded = first.get("failures", {}).get("failed_edges", 0) if isinstance(first, dict) else 0
    here = int(f.failed_edge.sum())
    if recorded != here:
        raise error(f"the results were simulated with {recorded} failed link(s), this picture has {here}: "
                    "their link numbers do not match", "--results",
                    "give visualize the same --fail/--fail-random/--degrade options as simulate")


__all__ = ["LEVELS", "OUTPUTS", "Scene", "plot_sweep", "plot_table", "prepare", "visualize"]
