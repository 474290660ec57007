"""Time reading and validating a 1,024-rank ring schedule (issue 22 target: validate in <= 2 s).

Run: python benchmarks/collectives_validate.py [RANKS]
"""
from __future__ import annotations

import sys
import time

from infragraph.collectives.schedule import read_schedule, validate
from infragraph.collectives.ring import ring_schedule as ring


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1024
    for collective in ("all-gather", "all-reduce"):
        doc = ring(collective, n)
        t0 = time.process_time()
        schedule = read_schedule(doc)
        t1 = time.process_time()
        validate(schedule)
        t2 = time.process_time()
        moves = sum(len(step) for step in schedule.steps)
        print(f"{collective} {n} ranks, {moves} transfers: read {t1 - t0:.2f} s, validate {t2 - t1:.2f} s CPU")


if __name__ == "__main__":
    main()
