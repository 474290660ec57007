"""Time running a schedule in the engine (issue 22): next to the built-in ring, and before/after
the engine took schedules as typed columns instead of Python lists.

Run:
    python benchmarks/collectives_run.py ring [RANKS ...]      (default 256 1024; a ring fabric, 256 MiB)
        the textbook ring written as a schedule next to --algorithm ring: simulated times (equal)
        and CPU seconds, with and without the proof.
    python benchmarks/collectives_run.py handoff --old DIR [--case RANKS:COLLECTIVE:json|igsched[:DIMS]] ...
        `--algorithm schedule:FILE` as the CLI runs it (read, prove, run), in a fresh process per
        case, on a ring fabric of RANKS NPUs, or with DIMS (e.g. 128x128) on that torus, the
        RANKS-rank schedule run on every dimension; with this checkout and with DIR (an older checkout with its engine built in place,
        e.g. `git archive d9e7a72 | tar x` and the release engine copied to
        infragraph/_simengine.abi3.so): CPU seconds per phase, peak RSS, and a digest of the
        whole result (every field but wall time), which must be equal.
    python benchmarks/collectives_run.py columns RANKS
        this checkout only: a ring all-gather of RANKS ranks written to a .igsched file, read,
        proven and turned into the engine's byte columns (engine_arrays), without running it.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIZE = 1 << 28


def ring_columns(collective: str, n: int):
    """ring.ring_schedule(collective, n) as columns, built with numpy (16 million transfers at
    4,096 ranks would be 16 million dicts)."""
    from infragraph.collectives.columns import ScheduleColumns, index_dtype

    kinds = ([True] if collective in ("reduce-scatter", "all-reduce") else []) + \
            ([False] if collective in ("all-gather", "all-reduce") else [])
    width = index_dtype(n, n)
    r = np.arange(n, dtype=np.int32)
    s = np.arange(n - 1, dtype=np.int32)[:, None]
    src = np.tile(r.astype(width), len(kinds) * (n - 1))
    dst = np.tile(((r + 1) % n).astype(width), len(kinds) * (n - 1))
    chunk = np.concatenate([((r[None, :] - s - (1 if red else 0)) % n).astype(width).ravel() for red in kinds])
    reduce = np.repeat(np.array(kinds), (n - 1) * n)
    steps = len(kinds) * (n - 1)
    return ScheduleColumns(collective, n, 1, np.arange(steps + 1, dtype=np.uint64) * n, src, dst, chunk, reduce)


def _peak_mb() -> float:
    """This process's peak RSS (VmHWM: getrusage's ru_maxrss would carry the parent's peak over
    fork and exec) in MB (2^20 B)."""
    with open("/proc/self/status") as fh:
        return next(int(line.split()[1]) for line in fh if line.startswith("VmHWM:")) / 1024


def child(path: str, ranks: int, model: str, dims: tuple[int, ...] = ()) -> None:
    """One case in this process (the checkout on sys.path): what the CLI does for --algorithm
    schedule:FILE (cli.simulate._schedule reads and proves it), then the engine run: flat on a
    ring of `ranks` NPUs, or with `dims` on that torus, the schedule on every dimension."""
    from infragraph.cli.simulate import _schedule
    from infragraph.simulate import SimulationOptions, prepare, simulate
    from tests import simgraphs

    p = prepare(simgraphs.torus(dims) if dims else simgraphs.ring(ranks))
    base = _peak_mb()
    t0 = time.process_time()
    schedule = _schedule(path)
    t1 = time.process_time()
    read_mb = _peak_mb()
    per_dim = dict(dims=dims, algorithm=("schedule",) * len(dims), schedules=(schedule,) * len(dims)) if dims else \
        dict(algorithm=("schedule",), schedules=(schedule,))
    r = simulate(p, SimulationOptions(collective=schedule.collective, model=model, size_bytes=SIZE, **per_dim))
    t2 = time.process_time()
    same = {k: v for k, v in r.items() if k not in ("wall_time_s", "events_per_second")}
    print(json.dumps({"read_prove_s": t1 - t0, "run_s": t2 - t1, "base_mb": base, "after_read_mb": read_mb,
                      "peak_mb": _peak_mb(), "time_ns": r["collective_time_ns"], "events": r["events"],
                      "digest": hashlib.sha256(json.dumps(same, sort_keys=True).encode()).hexdigest()[:16]}))


def handoff(old: str, cases: list[tuple[int, str, bool, str]], model: str) -> None:
    from infragraph.collectives.ring import ring_schedule
    from infragraph.collectives.schedule import read_schedule_columns
    from infragraph.collectives.schedule_file import write_schedule_file

    small = ring_columns("all-reduce", 8)
    ref = read_schedule_columns(ring_schedule("all-reduce", 8))
    assert all(np.array_equal(getattr(small, k), getattr(ref, k)) for k in ("step_ptr", "src", "dst", "chunk", "reduce"))
    print(f"model {model}, {SIZE} B per NPU, a ring fabric; CPU s of one process per run, peak RSS MB "
          "(graph prepared first: 'base')")
    with tempfile.TemporaryDirectory() as tmp:
        for ranks, collective, as_json, dims in cases:
            cols = ring_columns(collective, ranks)
            path = os.path.join(tmp, f"ring{ranks}.{'json' if as_json else 'igsched'}")
            if as_json:
                with open(path, "w") as fh:
                    json.dump(ring_schedule(collective, ranks), fh, separators=(",", ":"))
            else:
                write_schedule_file(path, cols)
            mb = os.path.getsize(path) / 1e6
            digests = set()
            for label, tree in (("before", old), ("after", ROOT)):
                env = {**os.environ, "PYTHONPATH": tree}
                out = subprocess.run([sys.executable, os.path.abspath(__file__), "child", path, str(ranks), model, dims],
                                     cwd=tree, env=env, capture_output=True, text=True, check=True)
                r = json.loads(out.stdout.strip().splitlines()[-1])
                digests.add(r["digest"])
                where = f" on every dimension of a {dims} torus" if dims else ""
                print(f"{ranks} ranks {collective}{where} ({cols.transfers:,} transfers), {os.path.basename(path)} ({mb:.1f} MB), "
                      f"{label}: read+prove {r['read_prove_s']:.2f} s, run {r['run_s']:.2f} s; RSS base "
                      f"{r['base_mb']:.0f}, after read {r['after_read_mb']:.0f}, peak {r['peak_mb']:.0f} MB; "
                      f"{r['time_ns']:.2f} ns, {r['events']:,} events, digest {r['digest']}")
            print("  results " + ("identical" if len(digests) == 1 else "DIFFERENT"))


def columns_only(ranks: int) -> None:
    from infragraph.collectives.formats import load_any
    from infragraph.collectives.schedule import validate
    from infragraph.collectives.schedule_file import write_schedule_file

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "ring.igsched")
        cols = ring_columns("all-gather", ranks)
        write_schedule_file(path, cols)
        transfers = cols.transfers
        del cols
        base = _peak_mb()
        t0 = time.process_time()
        schedule = load_any(path, columns=True)
        validate(schedule)
        t1 = time.process_time()
        arrays = schedule.engine_arrays()
        t2 = time.process_time()
        print(f"{ranks} ranks all-gather, {transfers:,} transfers ({os.path.getsize(path) / 1e9:.2f} GB): read + prove "
              f"{t1 - t0:.2f} s, engine columns {t2 - t1:.3f} s ({sum(len(arrays[k]) for k in (3, 4, 5, 6, 8)) / transfers:.1f} B "
              f"per transfer, shared with the file's buffers: {arrays[4] is schedule.src.base}); "
              f"peak RSS {base:.0f} MB before, {_peak_mb():.0f} MB after")


def ring_vs_schedule(sizes: list[int]) -> None:
    from infragraph.collectives.ring import ring_schedule
    from infragraph.collectives.run import simulate_schedule
    from infragraph.collectives.schedule import read_schedule
    from infragraph.simulate import SimulationOptions, prepare, simulate
    from tests import simgraphs

    for n in sizes or [256, 1024]:
        p = prepare(simgraphs.ring(n))
        schedule = read_schedule(ring_schedule("all-reduce", n))
        for model in ("unaware", "fair"):
            opts = SimulationOptions(model=model)
            t0 = time.process_time()
            ring = simulate(p, SimulationOptions(algorithm=("ring",), model=model, size_bytes=SIZE))
            t1 = time.process_time()
            ours = simulate_schedule(p, schedule, SIZE, opts)
            t2 = time.process_time()
            simulate_schedule(p, schedule, SIZE, opts, check=False)
            t3 = time.process_time()
            same = "same" if ours["collective_time_ns"] == ring["collective_time_ns"] else "DIFFERENT"
            print(f"{n} ranks, {model}: {ours['collective_time_ns'] / 1e6:.3f} ms ({same} as ring); CPU ring "
                  f"{t1 - t0:.2f} s, schedule {t2 - t1:.2f} s, schedule without the proof {t3 - t2:.2f} s")


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "child":
        sys.path.insert(0, os.getcwd())
        child(sys.argv[2], int(sys.argv[3]), sys.argv[4], tuple(int(k) for k in sys.argv[5].split("x") if k))
        return
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="what", required=True)
    r = sub.add_parser("ring")
    r.add_argument("ranks", nargs="*", type=int)
    h = sub.add_parser("handoff")
    h.add_argument("--old", required=True, help="an older checkout with its engine built in place")
    h.add_argument("--model", default="unaware")
    h.add_argument("--case", action="append", default=[],
                   help="RANKS:COLLECTIVE:json|igsched[:DIMS] (default 1024:all-reduce:json and 1024:all-reduce:igsched)")
    c = sub.add_parser("columns")
    c.add_argument("ranks", type=int)
    args = ap.parse_args()
    if args.what == "ring":
        ring_vs_schedule(args.ranks)
    elif args.what == "columns":
        columns_only(args.ranks)
    else:
        cases = [(int(a), b, f == "json", dims[0] if dims else "") for a, b, f, *dims in
                 (c.split(":") for c in args.case or ["1024:all-reduce:json", "1024:all-reduce:igsched"])]
        handoff(args.old, cases, args.model)


if __name__ == "__main__":
    main()
