"""`infragraph info FILE [--json]`: node and edge counts by type, link classes, bandwidth totals."""

from __future__ import annotations

import json

from .common import add_source_arguments, load_graph_with_progress


def register(sub) -> None:
    p = sub.add_parser("info", help="counts of nodes and edges by type, link classes, bandwidth totals")
    add_source_arguments(p)
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..graph.summary import format_summary, summary

    s = summary(load_graph_with_progress(args))
    print(json.dumps(s, indent=2) if args.json else format_summary(s))
    return 0
