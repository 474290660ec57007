"""`infragraph plot RESULTS.json [...] -o OUT.png`: sweep results, time and bus bandwidth vs size."""

from __future__ import annotations

import sys


def register(sub) -> None:
    p = sub.add_parser("plot", help="plot sweep results (time and bus bandwidth against size, log axes)")
    p.add_argument("results", nargs="+", metavar="RESULTS.json", help="`infragraph simulate --json` outputs (one line per topology/algorithm)")
    p.add_argument("-o", "--output", required=True, metavar="OUT", help="OUT.png, OUT.svg or OUT.pdf")
    p.add_argument("--title", help="figure title")
    p.add_argument("-q", "--quiet", action="store_true")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..visualizer import plot_sweep

    series = plot_sweep(args.results, args.output, args.title)
    if not args.quiet:
        print(f"{args.output}: {len(series)} series", file=sys.stderr)
    return 0
