"""Helpers shared by CLI commands: source arguments, -D overrides, progress reporting."""

from __future__ import annotations

import argparse
import sys
import time
from contextlib import contextmanager

from ..errors import InfraGraphError, error


def add_source_arguments(p: argparse.ArgumentParser) -> None:
    """FILE plus the .igl options every command that reads a source accepts."""
    p.add_argument("file", metavar="FILE", help="an .igl program or an InfraGraph YAML/JSON document")
    p.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME=VALUE",
                   help="override a parameter of an .igl program (repeatable)")
    p.add_argument("-I", dest="search_path", action="append", default=[], metavar="DIR",
                   help="add a directory to the .igl import search path (repeatable)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress messages")


def defines(args: argparse.Namespace) -> dict[str, str]:
    out = {}
    for item in args.defines:
        name, eq, value = item.partition("=")
        if not eq or not name.strip():
            raise error(f"bad -D '{item}'; expected NAME=VALUE, e.g. -D hosts=64")
        out[name.strip()] = value.strip()
    return out


class Progress:
    """Phase messages on stderr ("expanding… 0.42 s") when stderr is a terminal, so long runs show
    what they are doing; silent in pipes and CI unless forced."""

    def __init__(self, enabled: bool | None = None):
        self.enabled = sys.stderr.isatty() if enabled is None else enabled

    @contextmanager
    def phase(self, what: str):
        start = time.perf_counter()
        if self.enabled:
            print(f"{what}…", end="", file=sys.stderr, flush=True)
        try:
            yield
        finally:
            if self.enabled:
                print(f" {time.perf_counter() - start:.2f} s", file=sys.stderr, flush=True)


def progress(args: argparse.Namespace) -> Progress:
    return Progress(False if getattr(args, "quiet", False) else None)


def load_graph_with_progress(args: argparse.Namespace):
    """Load (and expand) the FILE argument, reporting the phases."""
    from ..sources import load_graph

    return load_graph(args.file, defines(args), args.search_path or None, phase=progress(args).phase)


__all__ = ["InfraGraphError", "Progress", "add_source_arguments", "defines", "load_graph_with_progress", "progress"]
