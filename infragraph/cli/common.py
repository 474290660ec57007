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
    add_limit_arguments(p)


def add_limit_arguments(p: argparse.ArgumentParser) -> None:
    """--max-nodes/--max-edges: the size above which a source is refused before it is built."""
    from ..limits import DEFAULT_MAX_EDGES, DEFAULT_MAX_NODES

    p.add_argument("--max-nodes", type=_positive_int, default=DEFAULT_MAX_NODES, metavar="N",
                   help=f"refuse a graph of more than N nodes before building it (default {DEFAULT_MAX_NODES:,})")
    p.add_argument("--max-edges", type=_positive_int, default=DEFAULT_MAX_EDGES, metavar="N",
                   help=f"refuse a graph of more than N edges before building it (default {DEFAULT_MAX_EDGES:,})")


def _positive_int(text: str) -> int:
    try:
        n = int(text.replace("_", "").replace(",", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, got '{text}'") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, got '{text}'")
    return n


def limits(args: argparse.Namespace):
    """The size limits given on the command line (graph.size.Limits)."""
    from ..limits import Limits

    return Limits(args.max_nodes, args.max_edges)


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

    return load_graph(args.file, defines(args), args.search_path or None, phase=progress(args).phase,
                      limits=limits(args))


__all__ = ["InfraGraphError", "Progress", "add_limit_arguments", "add_source_arguments", "defines", "limits",
           "load_graph_with_progress", "progress"]
