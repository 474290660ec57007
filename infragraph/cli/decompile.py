"""`infragraph decompile DOC [-o OUT.igl]`: a public-format document -> readable .igl."""

from __future__ import annotations

import sys
from pathlib import Path


def register(sub) -> None:
    p = sub.add_parser("decompile", help="turn an InfraGraph YAML/JSON document into .igl source")
    p.add_argument("file", metavar="DOC", help="an InfraGraph document (.yaml, .yml or .json)")
    p.add_argument("-o", "--output", metavar="OUT", help="write here instead of stdout")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..document import io
    from ..lang.decompile import decompile
    from ..lang.fmt import format_source

    text, unsupported = decompile(io.load(args.file))
    text = format_source(text, args.output or "<decompiled>")
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    for item in unsupported:
        print(f"{args.file}: warning: {item} (kept as a comment)", file=sys.stderr)
    return 0
