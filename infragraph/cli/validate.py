"""`infragraph validate FILE`: every check of loading and expansion, nothing written."""

from __future__ import annotations

from .common import add_source_arguments, load_graph_with_progress


def register(sub) -> None:
    p = sub.add_parser("validate", help="check a source: schema, references, slices, cabling")
    add_source_arguments(p)
    p.set_defaults(func=run)


def run(args) -> int:
    g = load_graph_with_progress(args)
    print(f"{args.file}: valid ({g.num_nodes:,} nodes, {g.num_edges:,} edges)")
    return 0
