"""`infragraph plot`: sweep results as two log-log panels (time and bus bandwidth against size),
one line per topology/collective/algorithm, with matplotlib (headless Agg backend)."""

from __future__ import annotations

from pathlib import Path

from ..output import check_output, open_output
from .results import sweep_records

SUFFIXES = (".png", ".svg", ".pdf")


def _size(b: float, _pos=None) -> str:
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if b >= scale:
            return f"{b / scale:g} {unit}"
    return f"{b:g} B"


def plot_sweep(paths: list[str], output: str, title: str | None = None) -> list[str]:
    """Plot the results in `paths` to `output`; returns the series names drawn."""
    check_output(output, SUFFIXES)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter

    recs = sweep_records(paths)
    series: dict[str, list[dict]] = {}
    for r in recs:
        series.setdefault(r["series"], []).append(r)
    fig, (ax_t, ax_b) = plt.subplots(1, 2, figsize=(12, 4.8), constrained_layout=True)
    for name, rs in series.items():
        rs.sort(key=lambda r: r["size_bytes"])
        sizes = [r["size_bytes"] for r in rs]
        ax_t.plot(sizes, [r["time_ns"] / 1e3 for r in rs], marker="o", ms=3, label=name)
        ax_b.plot(sizes, [r["busbw"] for r in rs], marker="o", ms=3, label=name)
    for ax, ylabel in ((ax_t, "collective time (µs)"), (ax_b, "bus bandwidth (GB/s)")):
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.xaxis.set_major_formatter(FuncFormatter(_size))
        ax.set_xlabel("size per NPU")
        ax.set_ylabel(ylabel)
        ax.grid(True, which="both", alpha=0.3)
    ax_b.legend(fontsize=8, loc="best")
    fig.suptitle(title or "collective sweep")
    try:
        with open_output(output, binary=True) as fh:
            fig.savefig(fh, format=Path(output).suffix.lstrip(".").lower() or "png", dpi=120)
    finally:
        plt.close(fig)
    return list(series)
