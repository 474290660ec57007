"""`infragraph analyze FILE [--random-failures K|F --trials N] [--json [OUT]] [--plot OUT.png]`:
bisection bandwidth (max-flow), diameter, path diversity, single points of failure, and the worst
bisection after K random cable failures over N seeds — of the fabric with its failures applied."""

from __future__ import annotations

import os
import sys

from ..errors import error
from ..output import check_output
from .common import (about_source, add_failure_arguments, add_json_argument, add_source_arguments, emit, failure_spec,
                     load_graph_with_progress, progress, random_cut)

MAX_TRIALS = 1_000_000  # --trials above this is refused (one float per trial, plus the pool's bookkeeping)


def available_cpus() -> int:
    """The CPUs this process may run on (its affinity mask where the OS has one): the cap on --workers."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def register(sub) -> None:
    p = sub.add_parser("analyze", help="bisection bandwidth, diameter, path diversity, single points of failure, "
                                       "random-failure trials", description=__doc__)
    add_source_arguments(p)
    p.add_argument("--random-failures", type=random_cut, default=0, metavar="K|F",
                   help="cables to cut at random in each trial, written as for --fail-random: K cables, or the "
                        "fraction F of them (0.05 or 5%%) (default 0: no trials)")
    p.add_argument("--trials", type=int, default=100, metavar="N", help="random trials, one seed each (default 100)")
    p.add_argument("--first-seed", type=int, default=0, metavar="S", help="seed of the first trial (default 0)")
    p.add_argument("--workers", type=int, metavar="P", help="processes for the trials (default: up to 2)")
    add_json_argument(p, "the report")
    p.add_argument("--plot", metavar="OUT.png", help="draw the report (PNG, SVG or PDF by the suffix)")
    add_failure_arguments(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from ..analyze import analyze, format_report, plot_report
    from ..graph.failures import check_seed, with_failures

    spec = failure_spec(args)
    if args.random_failures and args.trials < 1:
        raise error(f"--trials must be at least 1, got {args.trials}", "--trials")
    check_seed(args.first_seed)
    if args.random_failures and args.trials > MAX_TRIALS:
        raise error(f"--trials {args.trials:,} is above the limit of {MAX_TRIALS:,} trials (each holds one result "
                    "in memory)", "--trials", "run several analyses with different --first-seed")
    if args.workers is not None and args.workers < 1:
        raise error(f"--workers must be at least 1, got {args.workers}", "--workers")
    if args.workers is not None and args.workers > (cores := available_cpus()):
        print(f"--workers: note: {args.workers:,} capped at {cores}, the CPUs this process may use", file=sys.stderr)
        args.workers = cores
    for path, option in ((args.json, "--json"), (args.plot, "--plot")):
        if path and path != "-":
            check_output(path, option=option)
    g = load_graph_with_progress(args)
    failed, f = with_failures(g, spec)
    if isinstance(args.random_failures, float):  # a fraction of the cables left after --fail/--fail-random
        from ..graph.failures import cables

        total = int(cables(failed).size)
        args.random_failures = round(args.random_failures * total)
        if args.random_failures < 1:
            raise error(f"--random-failures: that fraction of the {total:,} cables rounds to 0", "--random-failures",
                        f"give a fraction of at least {0.5 / max(total, 1):.3g}, or a number of cables")
    with progress(args).phase("analyzing"), about_source(args.file):
        report = analyze(failed, f, g, args.random_failures, args.trials if args.random_failures else 0,
                         args.first_seed, args.workers)
    if args.plot:
        plot_report(report, args.plot)
    emit(args, report, format_report(report))
    return 0
