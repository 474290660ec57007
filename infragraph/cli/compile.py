"""`infragraph compile FILE -o OUT [--format json|graphml]`: source -> fully qualified graph."""

from __future__ import annotations

import sys

from ..graph.export import write_graphml, write_json
from .common import add_source_arguments, load_graph_with_progress, progress


def register(sub) -> None:
    p = sub.add_parser("compile", help="compile a source to the fully qualified graph (JSON or GraphML)")
    add_source_arguments(p)
    p.add_argument("-o", "--output", required=True, metavar="OUT", help="output file")
    p.add_argument("--format", choices=("json", "graphml"), help="output format (default: from OUT's suffix, else json)")
    p.set_defaults(func=run)


def run(args) -> int:
    g = load_graph_with_progress(args)
    fmt = args.format or ("graphml" if args.output.endswith(".graphml") else "json")
    with progress(args).phase(f"writing {fmt}"):
        (write_graphml if fmt == "graphml" else write_json)(g, args.output)
    if not args.quiet:
        print(f"{args.output}: {g.num_nodes:,} nodes, {g.num_edges:,} edges", file=sys.stderr)
    return 0
