"""Time running a ring schedule in the engine next to the built-in ring (same answer, issue 22).

Run: python benchmarks/collectives_run.py [RANKS ...]   (default 256 1024; a ring fabric, 256 MiB)
Prints the simulated times (equal) and the CPU seconds of each run, with and without the proof.
"""
from __future__ import annotations

import sys
import time

from infragraph.collectives.ring import ring_schedule
from infragraph.collectives.run import simulate_schedule
from infragraph.collectives.schedule import read_schedule
from infragraph.simulate import SimulationOptions, prepare, simulate
from tests import simgraphs


def main() -> None:
    for n in [int(a) for a in sys.argv[1:]] or [256, 1024]:
        p = prepare(simgraphs.ring(n))
        schedule = read_schedule(ring_schedule("all-reduce", n))
        for model in ("unaware", "fair"):
            opts = SimulationOptions(model=model)
            t0 = time.process_time()
            ring = simulate(p, SimulationOptions(algorithm=("ring",), model=model, size_bytes=1 << 28))
            t1 = time.process_time()
            ours = simulate_schedule(p, schedule, 1 << 28, opts)
            t2 = time.process_time()
            simulate_schedule(p, schedule, 1 << 28, opts, check=False)
            t3 = time.process_time()
            same = "same" if ours["collective_time_ns"] == ring["collective_time_ns"] else "DIFFERENT"
            print(f"{n} ranks, {model}: {ours['collective_time_ns'] / 1e6:.3f} ms ({same} as ring); CPU ring "
                  f"{t1 - t0:.2f} s, schedule {t2 - t1:.2f} s, schedule without the proof {t3 - t2:.2f} s")


if __name__ == "__main__":
    main()
