"""The progress line of a long `infragraph simulate` run: simulated time, events/s, ETA.

The engine calls `SimProgress` about every 0.2 s of wall time (see `infragraph.simulate.simulate`).
On a terminal the line is redrawn in place; with `--progress` into a pipe or file, one line is
written per second instead, so logs stay readable. Ctrl-C stops the run with a partial result.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

from ..units import Quantity, format_quantity

HINT = "Ctrl-C: stop with a partial result"


def _duration(seconds: float) -> str:
    s = int(round(seconds))
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


def progress_line(report: dict[str, float]) -> str:
    """'12.5 ms simulated · 41 % · 8.2 M events/s · ETA 0:31' from one engine report."""
    wall, frac = report["wall_s"], report["fraction"]
    rate = report["events"] / wall if wall > 0 else 0.0
    eta = _duration(wall * (1 - frac) / frac) if frac > 0 else "?"
    sim = format_quantity(Quantity(report["sim_time_ns"] * 1e-9, (0, 1)))
    return f"{sim} simulated · {frac * 100:.0f} % · {rate / 1e6:.1f} M events/s · ETA {eta}"


class SimProgress:
    """A callable for `simulate(progress=...)` that draws the progress line on `stream`."""

    def __init__(self, stream: TextIO = sys.stderr, label: str = "simulating"):
        self.stream = stream
        self.label = label
        self.tty = stream.isatty()
        self.shown = False
        self.last_line = 0.0

    def __call__(self, report: dict[str, float]) -> None:
        text = f"{self.label}: {progress_line(report)}  ({HINT})"
        if self.tty:
            self.stream.write("\r\x1b[2K" + text)
        elif time.monotonic() - self.last_line >= 1.0:
            self.stream.write(text + "\n")
            self.last_line = time.monotonic()
        else:
            return
        self.stream.flush()
        self.shown = True

    def clear(self) -> None:
        """Put the phase label back in place of the line (terminal) once the run is over."""
        if self.tty and self.shown:
            self.stream.write(f"\r\x1b[2K{self.label}…")
            self.stream.flush()
        self.shown = False
