"""`infragraph check FILE`: report errors only (parse, elaborate, reference checks, expansion)."""

from __future__ import annotations

import sys

from .common import add_source_arguments, defines, limits


def register(sub) -> None:
    p = sub.add_parser("check", help="check an .igl program or a document for errors (no output file)")
    add_source_arguments(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from ..graph import expand
    from ..sources import load_document, require_instances

    doc = load_document(args.file, defines(args), args.search_path or None)
    require_instances(doc, args.file)
    g = expand(doc, limits(args))
    if not args.quiet:
        print(f"{args.file}: ok ({g.num_nodes:,} nodes, {g.num_edges:,} edges)", file=sys.stderr)
    return 0
