"""`infragraph visualize FILE -o OUT.{svg,png,pdf,html} [--level fabric|device NAME|full] [--results R.json]`."""

from __future__ import annotations

import sys

from ..errors import error
from ..output import check_output
from .common import add_failure_arguments, add_source_arguments, failure_spec, load_graph_with_progress, progress


def register(sub) -> None:
    p = sub.add_parser("visualize", help="draw the fabric: a Graphviz picture (svg/png/pdf) or an interactive page (html)")
    add_source_arguments(p)
    p.add_argument("-o", "--output", required=True, metavar="OUT",
                   help="OUT.svg, OUT.png or OUT.pdf (Graphviz) or OUT.html (self-contained page)")
    p.add_argument("--level", nargs="+", default=["fabric"], metavar="LEVEL",
                   help="fabric (one box per device; default), device NAME (inside one device: a device, "
                        "instance or copy name such as leaf.3), or full (every component)")
    p.add_argument("--results", metavar="RESULTS.json", help="an `infragraph simulate --json` result: colour links by utilization")
    add_failure_arguments(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from ..visualizer import LEVELS, OUTPUTS, visualize

    level, *rest = args.level
    if level not in LEVELS or (level == "device") != bool(rest) or len(rest) > 1:
        raise error(f"bad --level {' '.join(args.level)}; expected 'fabric', 'full' or 'device NAME'")
    check_output(args.output, tuple(f".{s}" for s in OUTPUTS), "-o")
    spec = failure_spec(args)
    g = load_graph_with_progress(args)
    with progress(args).phase(f"drawing {args.output}"):
        scene = visualize(g, args.output, level, rest[0] if rest else None, args.results, spec,
                          lambda d: print(d.render(), file=sys.stderr))
    if not args.quiet:
        what = ""
        if scene is not None:
            v = scene.drawn[0]
            what = f": {v.num_nodes:,} boxes, {v.num_edges:,} lines ({scene.structure.description})"
        print(f"{args.output}{what}", file=sys.stderr)
    return 0
