"""`infragraph plot RESULTS [...] -o OUT.png`: plot simulation or sweep results (docs/sweep.md).

    infragraph plot a.json b.json -o sweep.png                 # simulate --json results: time, busbw vs size
    infragraph plot scaling.parquet -o time.png                 # a sweep table: time vs size, a line per design
    infragraph plot scaling.parquet -o busbw.png --y busbw --facet collective
    infragraph plot libra.parquet -o heat.png --kind heatmap --heatmap p1,p2 --y time
    infragraph plot scaling.parquet -o speedup.png --kind speedup --speedup topology=torus/switch
    infragraph plot clos.parquet dragonfly.parquet -o families.png --spec scaling.yaml   # tables compared

Several tables (one spec run over several sources, or several specs) are drawn in one figure: the
`source` column, or the table's file name, becomes one more input that splits the lines. The title
is --title, else the spec's `name` (--spec SPEC), else what is plotted.
"""

from __future__ import annotations

import argparse
import sys

from .common import add_quiet_argument


def register(sub) -> None:
    p = sub.add_parser("plot", help="plot simulation results or a sweep table (lines, heat maps, speedup)",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("results", nargs="+", metavar="RESULTS",
                   help="`infragraph simulate --json` outputs, or `infragraph sweep` tables (.parquet/.csv)")
    p.add_argument("-o", "--output", required=True, metavar="OUT", help="OUT.png, OUT.svg or OUT.pdf")
    p.add_argument("--title", help="figure title (default: the --spec's name, else what is plotted)")
    p.add_argument("--spec", metavar="SPEC", help="the sweep spec the tables came from: its `name` is the title")
    table = p.add_argument_group("sweep tables")
    table.add_argument("--kind", default="lines", choices=("lines", "heatmap", "speedup"))
    table.add_argument("--x", default=None, help="input column on the x axis (default size_bytes; a workload "
                                                  "sweep's table, which has none: its first input that varies)")
    table.add_argument("--y", default="time",
                       help="metric: time (a workload sweep's: its step time), step, busbw, algbw, utilization or any "
                            "column (default time)")
    table.add_argument("--series", help="comma-separated columns, one line per combination "
                                        "(default: the other inputs that vary)")
    table.add_argument("--facet", help="one panel per value of this column (default: collective, when it varies)")
    table.add_argument("--heatmap", metavar="X,Y", help="the two inputs of a heat map")
    table.add_argument("--speedup", metavar="COLUMN=A/B", help="time of B / time of A, e.g. topology=torus/switch")
    table.add_argument("--where", action="append", default=[], metavar="COLUMN=VALUE",
                       help="plot only these rows (repeatable)")
    add_quiet_argument(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from ..errors import error
    from ..visualizer import plot_sweep, plot_table
    from ..visualizer.table import is_table

    tables = [r for r in args.results if is_table(r)]
    title = args.title or (_spec_name(args.spec) if args.spec else None)
    if tables:
        if len(tables) != len(args.results):
            raise error("give sweep tables (.parquet/.csv) or simulate results (.json), not both", "RESULTS")
        heatmap = None
        if args.heatmap:
            parts = [c.strip() for c in args.heatmap.split(",")]
            if len(parts) != 2 or not all(parts):
                raise error(f"bad --heatmap '{args.heatmap}'; expected two columns X,Y")
            heatmap = (parts[0], parts[1])
        what = plot_table(tables, args.output, args.kind, args.x, args.y,
                          [c.strip() for c in args.series.split(",")] if args.series else None, args.facet,
                          heatmap, args.speedup, args.where, title)
    else:
        what = f"{len(plot_sweep(args.results, args.output, title))} series"
    if not args.quiet:
        print(f"{args.output}: {what}", file=sys.stderr)
    return 0


def _spec_name(path: str) -> str:
    """The `name` of a sweep spec (YAML, JSON or TOML), else its file name, as sweep itself names it."""
    from pathlib import Path

    from ..document.reader import parse_text
    from ..errors import read_text

    text = read_text(path, f"--spec '{path}'")
    if path.endswith(".toml"):
        from ..document import tomlio

        data = tomlio.loads(text, path)
    else:
        data = parse_text(text, path, "a sweep spec needs 'source' and 'axes'")
    name = data.get("name") if isinstance(data, dict) else None
    return str(name) if name else Path(path).stem
