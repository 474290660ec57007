"""`infragraph compile FILE -o OUT [--format json|graphml]`: source -> fully qualified graph."""

from __future__ import annotations

import sys
from pathlib import Path

from ..output import check_output
from .common import add_source_arguments, load_graph_with_progress, progress

GRAPH_SUFFIXES = {".json": "json", ".graphml": "graphml"}


def register(sub) -> None:
    p = sub.add_parser("compile", help="compile a source to the fully qualified graph (JSON or GraphML)")
    add_source_arguments(p)
    p.add_argument("-o", "--output", required=True, metavar="OUT", help="output file")
    p.add_argument("--format", choices=("json", "graphml"),
                   help="output format (default: from OUT's suffix, .json or .graphml; required for any other suffix)")
    p.add_argument("--emit", choices=("graph", "document"), default="graph",
                   help="graph: the fully qualified graph (default); document: the InfraGraph document "
                        "(YAML, or JSON for a .json OUT) that an .igl program compiles to")
    p.set_defaults(func=run)


def run(args) -> int:
    if args.emit == "document":
        return _emit_document(args)
    # Refuse a bad OUT before compiling: a suffix that names no graph format is a mistake, not JSON.
    check_output(args.output, None if args.format else tuple(GRAPH_SUFFIXES), "-o",
                 "name the file .json or .graphml, or choose the format with --format")
    fmt = args.format or GRAPH_SUFFIXES.get(Path(args.output).suffix.lower(), "json")  # /dev/stdout: JSON
    g = load_graph_with_progress(args)
    with progress(args).phase(f"writing {fmt}"):
        from ..graph.export import write_graphml, write_json

        (write_graphml if fmt == "graphml" else write_json)(g, args.output)
    if not args.quiet:
        print(f"{args.output}: {g.num_nodes:,} nodes, {g.num_edges:,} edges", file=sys.stderr)
    return 0


def _emit_document(args) -> int:
    """Write the InfraGraph document (checked by expanding it, so an invalid one is never written)."""
    from ..document import io
    from ..graph import expand
    from ..sources import DOCUMENT_SUFFIXES, load_document, require_instances
    from .common import defines, limits

    if args.format:
        from ..errors import error

        raise error("--format chooses the graph format; with --emit document the suffix of OUT chooses "
                    "YAML (.yaml/.yml) or JSON (.json)", path="--format")
    check_output(args.output, DOCUMENT_SUFFIXES, "-o")
    doc = load_document(args.file, defines(args), args.search_path or None)
    require_instances(doc, args.file)
    expand(doc, limits(args))
    io.dump(doc, args.output)
    if not args.quiet:
        print(f"{args.output}: document with {len(doc.devices)} devices, {len(doc.instances)} instances, "
              f"{len(doc.edges)} edge records", file=sys.stderr)
    return 0
