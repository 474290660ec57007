"""`infragraph plot RESULTS [...] -o OUT.png`: plot simulation or sweep results (docs/sweep.md).

    infragraph plot a.json b.json -o sweep.png                 # simulate --json results: time, busbw vs size
    infragraph plot scaling.parquet -o time.png                 # a sweep table: time vs size, a line per design
    infragraph plot scaling.parquet -o busbw.png --y busbw --facet collective
    infragraph plot libra.parquet -o heat.png --kind heatmap --heatmap p1,p2 --y time
    infragraph plot scaling.parquet -o speedup.png --kind speedup --speedup topology=torus/switch
"""

from __future__ import annotations

import argparse
import sys


def register(sub) -> None:
    p = sub.add_parser("plot", help="plot simulation results or a sweep table (lines, heat maps, speedup)",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("results", nargs="+", metavar="RESULTS",
                   help="`infragraph simulate --json` outputs, or one `infragraph sweep` table (.parquet/.csv)")
    p.add_argument("-o", "--output", required=True, metavar="OUT", help="OUT.png, OUT.svg or OUT.pdf")
    p.add_argument("--title", help="figure title")
    table = p.add_argument_group("sweep tables")
    table.add_argument("--kind", default="lines", choices=("lines", "heatmap", "speedup"))
    table.add_argument("--x", default="size_bytes", help="input column on the x axis (default size_bytes)")
    table.add_argument("--y", default="time",
                       help="metric: time, busbw, algbw, utilization or any column (default time)")
    table.add_argument("--series", help="comma-separated columns, one line per combination "
                                        "(default: the other inputs that vary)")
    table.add_argument("--facet", help="one panel per value of this column (default: collective, when it varies)")
    table.add_argument("--heatmap", metavar="X,Y", help="the two inputs of a heat map")
    table.add_argument("--speedup", metavar="COLUMN=A/B", help="time of B / time of A, e.g. topology=torus/switch")
    table.add_argument("--where", action="append", default=[], metavar="COLUMN=VALUE",
                       help="plot only these rows (repeatable)")
    p.add_argument("-q", "--quiet", action="store_true")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..errors import error
    from ..visualizer import plot_sweep, plot_table
    from ..visualizer.table import is_table

    tables = [r for r in args.results if is_table(r)]
    if tables:
        if len(args.results) > 1:
            raise error("give one sweep table (.parquet/.csv) at a time; simulate results (.json) can be several")
        heatmap = None
        if args.heatmap:
            parts = [c.strip() for c in args.heatmap.split(",")]
            if len(parts) != 2 or not all(parts):
                raise error(f"bad --heatmap '{args.heatmap}'; expected two columns X,Y")
            heatmap = (parts[0], parts[1])
        what = plot_table(tables[0], args.output, args.kind, args.x, args.y,
                          [c.strip() for c in args.series.split(",")] if args.series else None, args.facet,
                          heatmap, args.speedup, args.where, args.title)
    else:
        what = f"{len(plot_sweep(args.results, args.output, args.title))} series"
    if not args.quiet:
        print(f"{args.output}: {what}", file=sys.stderr)
    return 0
