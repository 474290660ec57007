"""`infragraph decompile DOC [-o OUT.igl]`: a public-format document -> readable .igl."""

from __future__ import annotations

import sys
from pathlib import Path

from ..errors import Diagnostic, InfraGraphError, Location
from ..output import check_output, write_text
from .common import add_quiet_argument



def register(sub) -> None:
    p = sub.add_parser("decompile", help="turn an InfraGraph YAML/JSON document into .igl source")
    p.add_argument("file", metavar="DOC", help="an InfraGraph document (.yaml, .yml or .json)")
    p.add_argument("-o", "--output", metavar="OUT", help="write here instead of stdout")
    add_quiet_argument(p, "no warnings about parts kept as comments (they are still in the output, marked)")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..sources import DOCUMENT_SUFFIXES

    if Path(args.file).suffix.lower() not in DOCUMENT_SUFFIXES:
        hint = ("it is already .igl source; `infragraph fmt` formats it, `infragraph compile --emit document` "
                "turns it into a document") if args.file.endswith(".igl") else None
        raise InfraGraphError(Diagnostic(
            f"decompile expects an InfraGraph document (.yaml, .yml or .json), not '{Path(args.file).suffix or args.file}'",
            Location(args.file), hint))
    if args.output:
        check_output(args.output, (".igl",), "-o")
    from ..document import io
    from ..lang.decompile import decompile
    from ..lang.fmt import format_source

    doc = io.load(args.file)
    try:
        text, unsupported = decompile(doc)
    except InfraGraphError as e:
        raise e.relocated(doc.source) from None
    text = format_source(text, args.output or "<decompiled>")
    if args.output:
        write_text(args.output, text)
    else:
        sys.stdout.write(text)
    for item in [] if args.quiet else unsupported:
        print(f"{args.file}: warning: {item} (kept as a comment)", file=sys.stderr)
    return 0
