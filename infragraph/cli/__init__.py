"""The `infragraph` command line: a thin layer over library functions.

Each command lives in its own module under infragraph/cli/ and defines `register(subparsers)`,
which adds its parser and sets `func` to a handler returning an exit code. Exit codes: 0 success,
1 invalid input (located message on stderr), 2 usage error, 3 internal error. No traceback reaches
the user for bad input; an unexpected internal error is reported as such, with a request to file a
bug (INFRAGRAPH_TRACEBACK=1 shows its traceback).

Start-up is kept short (`infragraph --help` and every command's parser in well under 0.15 s): a
command module imports only the standard library and light infragraph modules at the top; numpy,
the engine, YAML, jsonschema, the parser and matplotlib are imported inside the command's `run`.
tests/cli/test_startup.py holds every command to this.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from .. import __version__
from ..errors import InfraGraphError

INTERNAL_ERROR = 3
COMMANDS = ("compile", "validate", "info", "lint", "check", "fmt", "decompile", "simulate", "analyze", "visualize", "plot", "sweep", "translate", "import_", "blueprints", "workload", "schedule", "synthesize")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or of `command` alone (the command line names it: the other
    commands' parsers need not be built; that was 30 ms of a run's start-up)."""
    parser = argparse.ArgumentParser(
        prog="infragraph",
        description="Compile, check, visualize, translate and simulate InfraGraph cluster topologies.",
    )
    parser.add_argument("--version", action="version", version=f"infragraph {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMANDS:
        if command is None or name.rstrip("_") == command:
            importlib.import_module(f"{__name__}.{name}").register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else argv
    named = words[0] if words and words[0] in {c.rstrip("_") for c in COMMANDS} else None
    parser = build_parser(named)
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
    except Exception as e:  # a bug, not bad input: say so plainly; the traceback only on request
        if os.environ.get("INFRAGRAPH_TRACEBACK"):
            raise
        print(f"infragraph: internal error: {type(e).__name__}: {e}\n  this is a bug in infragraph, not a "
              f"problem with your input; please report it with the command line "
              f"(INFRAGRAPH_TRACEBACK=1 shows the traceback)", file=sys.stderr)
        return INTERNAL_ERROR

