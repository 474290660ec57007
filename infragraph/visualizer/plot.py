"""`infragraph plot`: sweep results with matplotlib (headless Agg backend), units on every axis.

Two kinds of input:
- `infragraph simulate --json` results (one size or a size sweep): `plot_sweep` draws two log-log
  panels, time and bus bandwidth against size, one line per topology/collective/algorithm.
- an `infragraph sweep` table (.parquet/.csv): `plot_table` draws one of
  `lines` (a metric against an input, one line per combination of the other inputs, one panel per
  `facet` value), `heatmap` (a metric over two inputs) or `speedup` (time of design B / time of
  design A, matched on every other input).

Units: sizes in bytes (ticks read 1 KiB, 1 MiB, ...), times in ns (ticks read 10 µs, 1 ms, ...),
bandwidths in GB/s with GB = 1e9 bytes, utilization in percent.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from ..errors import error
from ..output import check_output, open_output
from .results import sweep_records
from .table import SweepTable, label, read_tables

SUFFIXES = (".png", ".svg", ".pdf")
KINDS = ("lines", "heatmap", "speedup")
MAX_PANELS = 12


_SIZE_UNITS = (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10), ("B", 1))
_TIME_UNITS = (("s", 1e9), ("ms", 1e6), ("µs", 1e3), ("ns", 1))


def _with_unit(v: float, units, spec: str = "g") -> str:
    for unit, scale in units:
        if abs(v) >= scale or scale == 1:
            return f"{v / scale:{spec}} {unit}"
    return f"{v:{spec}}"


def _size(b: float, _pos=None) -> str:
    return _with_unit(b, _SIZE_UNITS)


def _time(ns: float, _pos=None) -> str:
    return _with_unit(ns, _TIME_UNITS)


def _percent(u: float, _pos=None) -> str:
    return f"{u * 100:g} %"


def _short(column: str, v: Any) -> str:
    """A value with its unit in about three significant digits (legends, panel titles, cells)."""
    if not isinstance(v, (int, float)) or isinstance(v, bool):
        return str(v)
    fmt = _axis(column)[1]
    if fmt is _size:
        return _with_unit(v, _SIZE_UNITS, ".3g")
    if fmt is _time:
        return _with_unit(v, _TIME_UNITS, ".3g")
    if fmt is _percent:
        return f"{v * 100:.3g} %"
    return f"{v:.4g}"


def _pyplot(output: str):
    check_output(output, SUFFIXES)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _axis(column: str) -> tuple[str, Any, bool]:
    """(label, tick formatter or None, log scale?) for a column, by its unit suffix."""
    named = {"size_bytes": "size per NPU", "time_ns": "collective time", "step_time_ns": "step time",
             "busbw_gb_per_s": "bus bandwidth (GB/s, GB = 1e9 B)",
             "algbw_gb_per_s": "algorithm bandwidth (GB/s, GB = 1e9 B)",
             "utilization_max": "busiest link utilization"}
    text = named.get(column, column)
    if column.endswith("_bytes"):
        return text, _size, True
    if column.endswith("_ns"):
        return text, _time, True
    if column.startswith("utilization"):
        return text, _percent, False
    if column.endswith("_gb_per_s"):
        return (text if text != column else f"{column} (GB/s)"), None, True
    return text, None, False


def _style(ax, column: str, which: str, values: list[float]) -> None:
    from matplotlib.ticker import FuncFormatter

    text, fmt, log = _axis(column)
    positive = [v for v in values if isinstance(v, (int, float)) and v > 0]
    axis = ax.xaxis if which == "x" else ax.yaxis
    if log and positive and max(positive) / min(positive) > 20:
        (ax.set_xscale if which == "x" else ax.set_yscale)("log", base=2 if column.endswith("_bytes") else 10)
    if fmt is not None:
        axis.set_major_formatter(FuncFormatter(fmt))
    elif values and all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        from matplotlib.ticker import MaxNLocator  # a degree (tp 2, 4) has no tick at 2.25

        axis.set_major_locator(MaxNLocator(integer=True))
    (ax.set_xlabel if which == "x" else ax.set_ylabel)(text)


def plot_sweep(paths: list[str], output: str, title: str | None = None) -> list[str]:
    """Plot the simulate results in `paths` to `output`; returns the series names drawn."""
    plt = _pyplot(output)
    recs = sweep_records(paths)
    series: dict[str, list[dict]] = {}
    for r in recs:
        series.setdefault(r["series"], []).append(r)
    fig, (ax_t, ax_b) = plt.subplots(1, 2, figsize=(12, 4.8), constrained_layout=True)
    for name, rs in series.items():
        rs.sort(key=lambda r: r["size_bytes"])
        sizes = [r["size_bytes"] for r in rs]
        ax_t.plot(sizes, [r["time_ns"] for r in rs], marker="o", ms=3, label=name)
        ax_b.plot(sizes, [r["busbw"] for r in rs], marker="o", ms=3, label=name)
    for ax, column in ((ax_t, "time_ns"), (ax_b, "busbw_gb_per_s")):
        _style(ax, "size_bytes", "x", [r["size_bytes"] for r in recs])
        _style(ax, column, "y", [r["time_ns" if column == "time_ns" else "busbw"] for r in recs])
        ax.grid(True, which="both", alpha=0.3)
    ax_b.legend(fontsize=8, loc="best")
    fig.suptitle(title or "collective sweep")
    _write(plt, fig, output)
    return list(series)


def plot_table(path: str | list[str], output: str, kind: str = "lines", x: str | None = None, y: str = "time",
               series: list[str] | None = None, facet: str | None = None, heatmap: tuple[str, str] | None = None,
               speedup: str | None = None, where: list[str] | None = None, title: str | None = None) -> str:
    """Plot the sweep table at `path` (or several tables, drawn together: read_tables) to `output`;
    returns a one-line description of the figure.

    lines: `y` against `x`, one line per combination of `series` (default: the other inputs that
    vary independently), one panel per value of `facet` (default: collective, when it varies).
    heatmap: `y` over the two inputs `heatmap`, one panel per combination of the other inputs.
    speedup: `speedup` = 'COLUMN=A/B': time(B) / time(A) against `x` (> 1: A is faster).
    `x` None: size_bytes, or where the table has none (a workload sweep's) its first varying input."""
    if kind not in KINDS:
        raise error(f"unknown plot kind '{kind}'; expected one of: {', '.join(KINDS)}")
    plt = _pyplot(output)
    t = read_tables([path] if isinstance(path, str) else list(path)).where(where or [])
    y = t.numeric(t.column(y, "metric"))
    if x is None:
        x = "size_bytes" if "size_bytes" in t.columns or kind == "heatmap" else next(iter(t.varying()), "size_bytes")
    x = x if kind == "heatmap" else t.column(x)  # a heat map's axes are --heatmap's
    if kind == "heatmap":
        if not heatmap:
            raise error("a heat map needs its two inputs: --heatmap X,Y")
        hx, hy = t.column(heatmap[0]), t.column(heatmap[1])
        for c in (hx, hy):
            if c not in t.inputs:
                raise error(f"a heat map's axes are inputs; '{c}' is a result column",
                            hint=f"inputs: {', '.join(t.inputs)}")
        return _heatmap(plt, t, hx, hy, y, output, title)
    if kind == "speedup":
        if not speedup:
            raise error("a speedup plot needs --speedup COLUMN=A/B, e.g. topology=torus/switch")
        return _speedup(plt, t, x, speedup, facet, output, title)
    return _lines(plt, t, x, y, series, facet, output, title)


def _panels(t: SweepTable, facet_columns: list[str]) -> dict[str, list[dict]]:
    panels: dict[str, list[dict]] = {}
    for r in t.rows:
        panels.setdefault(label(r, facet_columns, _short), []).append(r)
    if len(panels) > MAX_PANELS:
        raise error(f"{len(panels)} panels ({', '.join(facet_columns)}); at most {MAX_PANELS}",
                    hint="fix some inputs with --where COLUMN=VALUE")
    return panels


def _figure(plt, n: int):
    cols = min(n, 3)
    rows = math.ceil(n / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(5.2 * cols, 4.2 * rows), constrained_layout=True, squeeze=False)
    for ax in axes.flat[n:]:
        ax.set_visible(False)
    return fig, list(axes.flat[:n])


def _default_facet(t: SweepTable, x: str, facet: str | None) -> list[str]:
    if facet:
        return [t.column(facet)]
    return ["collective"] if "collective" in t.independent((x,)) else []


def _lines(plt, t: SweepTable, x: str, y: str, series: list[str] | None, facet: str | None, output: str,
           title: str | None) -> str:
    facets = _default_facet(t, x, facet)
    lines = [t.column(c) for c in series] if series else t.independent((x, *facets))
    panels = _panels(t, facets)
    look = _line_looks(t.rows, lines)
    fig, axes = _figure(plt, len(panels))
    for ax, (name, rows) in zip(axes, panels.items()):
        groups: dict[str, list[dict]] = {}
        for r in rows:
            groups.setdefault(label(r, lines, _short), []).append(r)
        for line_name, rs in groups.items():
            rs.sort(key=lambda r: r[x])
            ax.plot([r[x] for r in rs], [r[y] for r in rs], marker="o", ms=3, label=line_name or y,
                    **look(rs[0]))
        _style(ax, x, "x", [r[x] for r in rows])
        _style(ax, y, "y", [r[y] for r in rows])
        _panel(ax, name)
    _save(plt, fig, output, title or f"{_axis(y)[0]} against {_axis(x)[0]}", t)
    return f"{len(panels)} panel(s) of {_axis(y)[0]} against {_axis(x)[0]}"


def _line_looks(rows: list[dict], lines: list[str]):
    """Colour by the first series column and line style by the last when that has a few values
    (npus × topology reads as 5 colours × 2 styles, not 10 unrelated colours); else colour only."""
    styles = ("-", "--", ":", "-.")
    last = sorted({str(r.get(lines[-1])) for r in rows}) if len(lines) >= 2 else []
    if not 2 <= len(last) <= len(styles):
        return lambda r: {}
    firsts = list(dict.fromkeys(label(r, lines[:-1]) for r in rows))
    colours = [f"C{i % 10}" for i in range(len(firsts))]
    return lambda r: {"color": colours[firsts.index(label(r, lines[:-1]))],
                      "linestyle": styles[last.index(str(r.get(lines[-1])))]}


def _heatmap(plt, t: SweepTable, hx: str, hy: str, value: str, output: str, title: str | None) -> str:
    import numpy as np

    facets = t.independent((hx, hy))
    panels = _panels(t, facets)
    xs = sorted({r[hx] for r in t.rows})
    ys = sorted({r[hy] for r in t.rows})
    fig, axes = _figure(plt, len(panels))
    text, fmt, _log = _axis(value)
    for ax, (name, rows) in zip(axes, panels.items()):
        grid = np.full((len(ys), len(xs)), np.nan)
        for r in rows:
            grid[ys.index(r[hy]), xs.index(r[hx])] = r[value]
        image = ax.imshow(np.ma.masked_invalid(grid), origin="lower", aspect="auto", cmap="viridis")
        if len(xs) * len(ys) <= 225:
            finite = grid[np.isfinite(grid)]
            middle = (finite.min() + finite.max()) / 2 if finite.size else 0
            for (i, j), v in np.ndenumerate(grid):
                if np.isfinite(v):
                    ax.text(j, i, _short(value, v), ha="center", va="center", fontsize=7,
                            color="black" if v > middle else "white")
        ax.set_xticks(range(len(xs)), [_short(hx, v) for v in xs], rotation=45 if len(xs) > 6 else 0)
        ax.set_yticks(range(len(ys)), [_short(hy, v) for v in ys])
        ax.set_xlabel(_axis(hx)[0])
        ax.set_ylabel(_axis(hy)[0])
        ax.set_title(name, fontsize=10)
        bar = fig.colorbar(image, ax=ax)
        bar.set_label(text)
        if fmt is not None:
            from matplotlib.ticker import FuncFormatter

            bar.formatter = FuncFormatter(fmt)
            bar.update_ticks()
    _save(plt, fig, output, title or f"{text} over {hx} and {hy}", t)
    return f"{len(panels)} heat map(s) of {len(xs)}×{len(ys)}"


def _speedup(plt, t: SweepTable, x: str, spec: str, facet: str | None, output: str, title: str | None) -> str:
    column, eq, pair = spec.partition("=")
    a, slash, b = pair.partition("/")
    if not eq or not slash:
        raise error(f"bad --speedup '{spec}'; expected COLUMN=A/B, e.g. topology=torus/switch")
    column = t.column(column.strip())
    t.numeric(t.column("time"))
    a, b = a.strip(), b.strip()
    values = {str(r[column]) for r in t.rows}
    for v in (a, b):
        if v not in values:
            raise error(f"no row has {column}={v}; values: {', '.join(sorted(values))}")
    match = [c for c in t.independent((column,)) if c != column]
    design = {(str(r[column]), tuple(r[c] for c in match)): r for r in t.rows}
    pairs = [(ra, design.get((b, key))) for (name, key), ra in design.items() if name == a]
    pairs = [(ra, rb) for ra, rb in pairs if rb is not None]
    if not pairs:
        raise error(f"no point of {column}={a} has a matching point of {column}={b} (same {', '.join(match)})")
    facets = _default_facet(t, x, facet)
    lines = [c for c in match if c != x and c not in facets]
    panels: dict[str, dict[str, list[tuple[float, float]]]] = {}
    for ra, rb in pairs:
        panel = panels.setdefault(label(ra, facets, _short), {})
        panel.setdefault(label(ra, lines, _short), []).append((ra[x], rb["time_ns"] / ra["time_ns"]))
    if len(panels) > MAX_PANELS:
        raise error(f"{len(panels)} panels; at most {MAX_PANELS}", hint="fix some inputs with --where COLUMN=VALUE")
    fig, axes = _figure(plt, len(panels))
    for ax, (name, groups) in zip(axes, panels.items()):
        for line_name, pts in groups.items():
            pts.sort()
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", ms=3, label=line_name or "speedup")
        ax.axhline(1.0, color="grey", lw=0.8, ls="--")
        _style(ax, x, "x", [p[0] for g in groups.values() for p in g])
        ax.set_ylabel(f"speedup (time {b} / time {a})")
        _panel(ax, name)
    _save(plt, fig, output, title or f"speedup of {column}={a} over {column}={b}", t)
    return f"{len(pairs)} matched pair(s) in {len(panels)} panel(s)"


def _panel(ax, name: str) -> None:
    ax.grid(True, which="both", alpha=0.3)
    ax.set_title(name, fontsize=10)
    ax.legend(fontsize=7, loc="best")


def _save(plt, fig, output: str, title: str, t: SweepTable) -> None:
    """Title (noting failed points, which are not drawn), write, free the figure."""
    fig.suptitle(title + (f"  ({t.failed} failed point(s) not shown)" if t.failed else ""))
    _write(plt, fig, output)


def _write(plt, fig, output: str) -> None:
    """Write the figure whole or not at all (infragraph.output), then free it."""
    try:
        with open_output(output, binary=True) as fh:
            fig.savefig(fh, format=Path(output).suffix.lstrip(".").lower(), dpi=120)
    finally:
        plt.close(fig)
