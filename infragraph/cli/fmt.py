"""`infragraph fmt FILE...`: rewrite .igl files in canonical layout (`--check` only reports)."""

from __future__ import annotations

import sys

from ..errors import read_text
from ..output import write_text
from .common import add_quiet_argument


def register(sub) -> None:
    p = sub.add_parser("fmt", help="format .igl files canonically (idempotent)")
    p.add_argument("files", nargs="+", metavar="FILE", help=".igl files to format in place")
    p.add_argument("--check", action="store_true", help="do not write; exit 1 if a file would change")
    p.add_argument("--stdout", action="store_true", help="print the formatted text instead of writing")
    add_quiet_argument(p, "do not list the files reformatted (or, with --check, that would be); the exit code still says")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..lang.fmt import format_source

    changed = []
    for name in args.files:
        text = read_text(name, f"'{name}'")
        new = format_source(text, name)
        if args.stdout:
            sys.stdout.write(new)
        elif new != text:
            changed.append(name)
            if not args.check:
                write_text(name, new)
    for name in [] if args.quiet else changed:
        print(f"{name}: {'would reformat' if args.check else 'reformatted'}", file=sys.stderr)
    return 1 if args.check and changed else 0
