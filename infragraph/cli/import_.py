"""`infragraph import FILE --from astra-analytical|ns3 -o OUT.yaml`: a backend config -> InfraGraph document."""

from __future__ import annotations

import sys

from ..output import check_output
from .common import one_of


def register(sub) -> None:
    p = sub.add_parser("import", help="turn an ASTRA-sim analytical YAML or an ns-3 topology into a document")
    p.add_argument("file", metavar="FILE", help="the backend configuration to import")
    p.add_argument("--from", dest="source", required=True, metavar="FORMAT",
                   type=one_of("infragraph.translators.importers", "IMPORTERS", "format"),
                   help="format of FILE: astra-analytical or ns3")
    p.add_argument("-o", "--output", required=True, metavar="OUT", help="the document to write (.yaml or .json)")
    p.add_argument("-q", "--quiet", action="store_true")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..document import io
    from ..translators.importers import import_file

    check_output(args.output, (".yaml", ".yml", ".json"), "-o")
    doc = import_file(args.source, args.file)
    io.dump(doc, args.output)
    if not args.quiet:
        print(f"{args.output}: {len(doc.instances)} instance blocks, {len(doc.edges)} edge records", file=sys.stderr)
    return 0
