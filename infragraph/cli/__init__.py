"""The `infragraph` command line: a thin layer over library functions.

Each command lives in its own module under infragraph/cli/ and defines `register(subparsers)`,
which adds its parser and sets `func` to a handler returning an exit code. Exit codes: 0 success,
1 invalid input (located message on stderr), 2 usage error. No traceback reaches the user for
bad input; an unexpected internal error is reported as such, with a request to file a bug.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from ..errors import InfraGraphError

COMMANDS = ("compile", "validate", "info", "lint", "check", "fmt", "decompile", "simulate", "analyze", "visualize", "plot", "sweep", "translate", "import_", "blueprints")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="infragraph",
        description="Compile, check, visualize, translate and simulate InfraGraph cluster topologies.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMANDS:
        importlib.import_module(f"{__name__}.{name}").register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)  # exits with 2 on usage errors
    try:
        return int(args.func(args) or 0)
    except InfraGraphError as e:
        print(str(e), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0

