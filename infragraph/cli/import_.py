"""`infragraph import FILE --from astra-analytical|ns3 -o OUT.yaml`: a backend config -> InfraGraph document."""

from __future__ import annotations

import sys

from ..document import io
from ..errors import InfraGraphError, Diagnostic, Location
from ..translators.importers import IMPORTERS, import_file


def register(sub) -> None:
    p = sub.add_parser("import", help="turn an ASTRA-sim analytical YAML or an ns-3 topology into a document")
    p.add_argument("file", metavar="FILE", help="the backend configuration to import")
    p.add_argument("--from", dest="source", required=True, choices=IMPORTERS, help="format of FILE")
    p.add_argument("-o", "--output", required=True, metavar="OUT", help="the document to write (.yaml or .json)")
    p.add_argument("-q", "--quiet", action="store_true")
    p.set_defaults(func=run)


def run(args) -> int:
    doc = import_file(args.source, args.file)
    try:
        io.dump(doc, args.output)
    except OSError as e:
        raise InfraGraphError(Diagnostic(f"cannot write: {e.strerror}", Location(args.output))) from None
    if not args.quiet:
        print(f"{args.output}: {len(doc.instances)} instance blocks, {len(doc.edges)} edge records", file=sys.stderr)
    return 0
