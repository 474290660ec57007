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
    p.add_argument("--emit", choices=("graph", "document"), default="graph",
                   help="graph: the fully qualified graph (default); document: the InfraGraph document "
                        "(YAML, or JSON for a .json OUT) that an .igl program compiles to")
    p.set_defaults(func=run)


def run(args) -> int:
    if args.emit == "document":
        return _emit_document(args)
    g = load_graph_with_progress(args)
    fmt = args.format or ("graphml" if args.output.endswith(".graphml") else "json")
    with progress(args).phase(f"writing {fmt}"):
        (write_graphml if fmt == "graphml" else write_json)(g, args.output)
    if not args.quiet:
        print(f"{args.output}: {g.num_nodes:,} nodes, {g.num_edges:,} edges", file=sys.stderr)
    return 0


def _emit_document(args) -> int:
    """Write the InfraGraph document (checked by expanding it, so an invalid one is never written)."""
    from ..document import io
    from ..graph import expand
    from ..sources import load_document, require_instances
    from .common import defines, limits

    doc = load_document(args.file, defines(args), args.search_path or None)
    require_instances(doc, args.file)
    expand(doc, limits(args))
    io.dump(doc, args.output)
    if not args.quiet:
        print(f"{args.output}: document with {len(doc.devices)} devices, {len(doc.instances)} instances, "
              f"{len(doc.edges)} edge records", file=sys.stderr)
    return 0
