"""`infragraph sweep SPEC -o RESULTS`: run a design-space sweep (docs/sweep.md).

    infragraph sweep examples/sweeps/collective_scaling.yaml -o scaling     # local, every core
    infragraph sweep SPEC -o RESULTS --scheduler tcp://HOST:8786             # a Dask cluster
    infragraph sweep SPEC -o RESULTS --scheduler scheduler.json              # its scheduler file
    infragraph sweep SPEC -o RESULTS --scheduler slurm:jobqueue.yaml         # dask-jobqueue SLURM
    infragraph sweep SPEC --dry-run                                          # count the points

Writes RESULTS.parquet and RESULTS.csv: every point of the spec exactly once, with its result or its
error. A spec with a `workload` section replays an LLM training step at every point (its keys, such
as tp, pp, dp and micro_batch, vary like any axis; the ETs go to RESULTS.workloads). Run the same command again to resume: points already done are skipped (the earlier rows are
checked first; a corrupt journal is refused naming its line). One sweep at a time may write RESULTS
(RESULTS.lock). Exit code 1 when any point failed (its row says why).
"""

from __future__ import annotations

import argparse
import sys

from .common import add_quiet_argument


def register(sub) -> None:
    p = sub.add_parser("sweep", help="run many simulations over parameter axes into one table (Parquet + CSV)",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("spec", metavar="SPEC", help="the sweep specification (.yaml or .toml)")
    p.add_argument("-o", "--output", metavar="RESULTS", help="RESULTS.parquet and RESULTS.csv are written")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="run on Dask: tcp://HOST:PORT, a scheduler file (.json) or slurm:CONFIG.yaml "
                        "(default: a local process pool)")
    p.add_argument("--workers", type=int, metavar="N", help="local pool size (default: every core)")
    p.add_argument("--dry-run", action="store_true", help="check the spec and count the points; run nothing")
    add_quiet_argument(p, "no progress bar")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..errors import error

    if args.dry_run:
        return _dry_run(args.spec)
    if not args.output:
        raise error("give -o RESULTS (RESULTS.parquet and RESULTS.csv are written), or --dry-run")
    from ..sweep import sweep

    try:
        r = sweep(args.spec, args.output, scheduler=args.scheduler, workers=args.workers,
                  show_progress=False if args.quiet else None)
    except KeyboardInterrupt:
        print(f"interrupted: the points finished so far are in {args.output} (.parquet, .csv), the others "
              "are there with status not-run; run the same command again to resume", file=sys.stderr)
        return 130
    print(f"{r.points} points: {r.ran} run, {r.skipped} already done, {r.failed} failed, in {r.wall_s:.1f} s "
          f"({r.executor})", file=sys.stderr)
    for line in r.errors:
        print(f"  {line.splitlines()[0]}", file=sys.stderr)
    print(f"wrote {r.table} and {r.csv}", file=sys.stderr)
    return 1 if r.failed else 0


def _dry_run(spec_path: str) -> int:
    from ..sweep.points import expand
    from ..sweep.spec import read_spec

    spec = read_spec(spec_path)
    points = expand(spec)
    graphs = len({p.graph_key for p in points})
    print(f"{spec.name}: {len(points)} points over {graphs} distinct graph(s) of {spec.source.label}")
    for p in points[:3] + (["..."] if len(points) > 4 else []) + points[3:][-1:]:
        print("  ..." if p == "..." else f"  {p.index}: " + ", ".join(f"{k}={v}" for k, v in p.inputs.items()
                                                                       if k != "source"))
    return 0
