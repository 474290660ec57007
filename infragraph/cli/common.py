"""Helpers shared by CLI commands: source arguments, -D overrides, progress reporting."""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from contextlib import contextmanager

from ..errors import Diagnostic, InfraGraphError, Location, did_you_mean, error


def add_source_arguments(p: argparse.ArgumentParser) -> None:
    """FILE plus the .igl options every command that reads a source accepts."""
    p.add_argument("file", metavar="FILE", help="an .igl program or an InfraGraph YAML/JSON document")
    p.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME=VALUE",
                   help="override a parameter of an .igl program (repeatable)")
    p.add_argument("-I", dest="search_path", action="append", default=[], metavar="DIR",
                   help="add a directory to the .igl import search path (repeatable)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress messages")
    p.add_argument("--no-cache", action="store_true",
                   help="compile the .igl program even when the compile cache holds its graph "
                        "(also: INFRAGRAPH_NO_CACHE=1)")
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


def add_failure_arguments(p: argparse.ArgumentParser) -> None:
    """--fail, --fail-random/--seed and --degrade: failures applied on top of the document's own."""
    g = p.add_argument_group("failures (on top of the document's `failed`, `bandwidth_factor` and "
                             "`extra_latency_ns` annotations)")
    g.add_argument("--fail", action="append", default=[], metavar="EDGE|NODE|GLOB",
                   help="cut a node (spine.1.switch.0), a device copy (spine.1), a glob (spine.*) or an edge "
                        "(leaf.0.port.3--spine.1.port.0); repeatable")
    g.add_argument("--fail-random", type=float, metavar="FRACTION",
                   help="also cut this fraction of the cables (edges between device copies), drawn by --seed")
    g.add_argument("--seed", type=int, metavar="N", help="seed of --fail-random (default 0)")
    g.add_argument("--degrade", action="append", default=[], metavar="TARGET:bandwidth=F,latency=T",
                   help="slow a target down: bandwidth x F (0 < F <= 1), latency + T (e.g. 200ns); repeatable")


def failure_spec(args: argparse.Namespace):
    """The FailureSpec of the failure arguments (bad values are located errors)."""
    from ..graph.failures import FailureSpec, parse_degrade

    if args.seed is not None and args.fail_random is None:
        raise error("--seed only applies to --fail-random", "--seed")
    return FailureSpec(tuple(args.fail), args.fail_random, 0 if args.seed is None else args.seed,
                       tuple(parse_degrade(d) for d in args.degrade))


def failure_option(args: argparse.Namespace) -> str:
    """The option(s) that asked for the failures, for locating errors about them: --fail,
    --fail-random or both."""
    given = [o for o, v in (("--fail", args.fail), ("--fail-random", args.fail_random is not None)) if v]
    return "/".join(given) or "--fail"


@contextmanager
def about_failures(args: argparse.Namespace):
    """Locate the failure errors raised inside the block (located at "--fail" by the library) at the
    option the user actually gave: `--fail-random 1` names --fail-random."""
    option = failure_option(args)
    try:
        yield
    except InfraGraphError as e:
        if option == "--fail":
            raise
        raise InfraGraphError([Diagnostic(d.message, Location(path=option), d.hint, d.severity, d.notes)
                               if d.location.path == "--fail" and not d.location.file else d
                               for d in e.diagnostics]) from None


def defines(args: argparse.Namespace) -> dict[str, str]:
    out = {}
    for item in args.defines:
        name, eq, value = item.partition("=")
        if not eq or not name.strip():
            raise option_error("-D", f"bad -D '{item}'; expected NAME=VALUE, e.g. -D hosts=64")
        out[name.strip()] = value.strip()
    return out


class one_of:  # noqa: N801  (used like a function: type=one_of(...))
    """An argparse `type` accepting a name in `module.attribute` (an absolute module name, e.g.
    "infragraph.simulate"). Unlike `choices=`, which argparse lists on every `--help`, the module
    is imported only when the option is given, so registering a command stays cheap; the option's
    help text names the values (tests/cli/test_startup.py keeps the two in step)."""

    def __init__(self, module: str, attribute: str, what: str):
        self.module, self.attribute, self.__name__ = module, attribute, what

    def names(self) -> tuple[str, ...]:
        return tuple(getattr(importlib.import_module(self.module), self.attribute))

    def __call__(self, value: str) -> str:
        known = self.names()
        if value not in known:
            hint = did_you_mean(value, known)
            raise argparse.ArgumentTypeError(f"unknown {self.__name__} '{value}'; expected one of: "
                                             f"{', '.join(known)}" + (f" ({hint})" if hint else ""))
        return value


def option_error(option: str, message: str, hint: str | None = None) -> InfraGraphError:
    """An error in a command-line option's value, located at the option ("--chunks: error: …")."""
    return InfraGraphError(Diagnostic(message, Location(path=option), hint))


def at_least(value: int, option: str, minimum: int) -> int:
    """`value` when it is ≥ minimum; an option error otherwise (negative counts never reach the engine)."""
    if value < minimum:
        raise option_error(option, f"bad value {value}; expected a whole number ≥ {minimum}")
    return value


@contextmanager
def about_source(file: str):
    """Locate the unlocated errors raised inside the block at the source FILE (a graph-wide problem,
    such as too few NPUs for a bisection, belongs to the file the graph came from)."""
    try:
        yield
    except InfraGraphError as e:
        raise InfraGraphError([Diagnostic(d.message, Location(file), d.hint, d.severity, d.notes)
                               if str(d.location) == "<input>" else d for d in e.diagnostics]) from None


@contextmanager
def about_option(option: str):
    """Locate the unlocated errors raised inside the block at `option`."""
    try:
        yield
    except InfraGraphError as e:
        raise InfraGraphError([Diagnostic(d.message, Location(path=option), d.hint, d.severity, d.notes)
                               if str(d.location) == "<input>" else d for d in e.diagnostics]) from None


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
                      limits=limits(args), cache=not getattr(args, "no_cache", True))


__all__ = ["InfraGraphError", "Progress", "about_option", "about_source", "add_failure_arguments", "add_limit_arguments",
           "about_failures", "add_source_arguments", "at_least", "defines", "failure_spec", "limits", "load_graph_with_progress",
           "one_of", "option_error", "progress"]
