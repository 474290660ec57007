"""Time the schedule validator on 1,024-rank schedules, old (exact bit masks, Python) beside new
(columns in the engine), and the binary schedule file's round trip (issue 22 target: validate a
1,024-NPU schedule in <= 2 s).

Run: python benchmarks/collectives_validate.py [RANKS]   (RANKS a square: the torus side^2)

Columns (CPU seconds of this process): read = the JSON document to a Schedule; old = the exact
validator on it (validate_exact); new = `validate` of the same Schedule (its conversion to columns
included); columns = the proof alone on the columns; file = write the .igsched file, then read it
back (every value checked) and prove it.
"""
from __future__ import annotations

import math
import os
import sys
import tempfile
import time

from infragraph.collectives.ring import ring_schedule as ring
from infragraph.collectives.schedule import read_schedule, validate, validate_exact
from infragraph.collectives.schedule_file import read_schedule_file, write_schedule_file
from infragraph.collectives.synthesize import synthesize
from infragraph.sources import load_graph


def cpu() -> float:
    return time.process_time()


def row(label: str, schedule, cols, read_s: float | None) -> None:
    t0 = cpu()
    validate_exact(schedule)
    t1 = cpu()
    validate(schedule)
    t2 = cpu()
    cols.prove()
    t3 = cpu()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "s.igsched")
        size = write_schedule_file(path, cols)
        t4 = cpu()
        read_schedule_file(path).prove()
        t5 = cpu()
    read = "-" if read_s is None else f"{read_s:.2f}"
    print(f"| {label} | {cols.transfers:,} | {read} | {t1 - t0:.2f} | {t2 - t1:.2f} | {t3 - t2:.3f} | "
          f"{t4 - t3:.2f} + {t5 - t4:.2f} ({size / 1e6:.1f} MB) |", flush=True)


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1024
    side = math.isqrt(n)
    print("| schedule | transfers | read JSON doc | old validate | new validate | columns proof | file write + read & prove |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for collective in ("all-gather", "all-reduce"):
        doc = ring(collective, n)
        t0 = cpu()
        schedule = read_schedule(doc)
        t1 = cpu()
        row(f"ring {collective}, {n:,} ranks", schedule, schedule.columns(), t1 - t0)
    g = load_graph("std.fabrics.torus", {"sizes": f"[{side},{side}]"})
    s = synthesize(g, "all-reduce", 1)
    row(f"synthesized all-reduce, torus [{side},{side}]", s.schedule(), s.cols, None)


if __name__ == "__main__":
    main()
