"""`infragraph analyze FILE [--random-failures K --trials N] [--json OUT] [--plot OUT.png]`:
bisection bandwidth (max-flow), diameter, path diversity, single points of failure, and the worst
bisection after K random cable failures over N seeds — of the fabric with its failures applied."""

from __future__ import annotations

import json

from ..errors import error
from .common import add_failure_arguments, add_source_arguments, failure_spec, load_graph_with_progress, progress


def register(sub) -> None:
    p = sub.add_parser("analyze", help="bisection bandwidth, diameter, path diversity, single points of failure, "
                                       "random-failure trials", description=__doc__)
    add_source_arguments(p)
    p.add_argument("--random-failures", type=int, default=0, metavar="K",
                   help="cables to cut at random in each trial (default 0: no trials)")
    p.add_argument("--trials", type=int, default=100, metavar="N", help="random trials, one seed each (default 100)")
    p.add_argument("--first-seed", type=int, default=0, metavar="S", help="seed of the first trial (default 0)")
    p.add_argument("--workers", type=int, metavar="P", help="processes for the trials (default: up to 2)")
    p.add_argument("--json", metavar="OUT", help="write the report as JSON")
    p.add_argument("--plot", metavar="OUT.png", help="draw the report (PNG, SVG or PDF by the suffix)")
    add_failure_arguments(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from ..analyze import analyze, format_report, plot_report
    from ..graph.failures import check_seed, with_failures

    spec = failure_spec(args)
    if args.random_failures < 0:
        raise error(f"--random-failures must be >= 0, got {args.random_failures}", "--random-failures")
    if args.random_failures and args.trials < 1:
        raise error(f"--trials must be at least 1, got {args.trials}", "--trials")
    check_seed(args.first_seed)
    if args.workers is not None and args.workers < 1:
        raise error(f"--workers must be at least 1, got {args.workers}", "--workers")
    g = load_graph_with_progress(args)
    failed, f = with_failures(g, spec)
    with progress(args).phase("analyzing"):
        report = analyze(failed, f, g, args.random_failures, args.trials if args.random_failures else 0,
                         args.first_seed, args.workers)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(report, fh, indent=1)
    if args.plot:
        plot_report(report, args.plot)
    print(format_report(report))
    return 0
