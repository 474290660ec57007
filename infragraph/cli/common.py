"""Helpers shared by CLI commands: source arguments, -D overrides, progress reporting."""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from contextlib import contextmanager
from dataclasses import replace

from ..errors import Diagnostic, InfraGraphError, Location, did_you_mean, error


def add_source_arguments(p: argparse.ArgumentParser, optional_file: bool = False) -> None:
    """FILE plus the .igl options every command that reads a source accepts. `optional_file` lets
    `--json FILE` (an older spelling, see add_json_argument) parse; the command then calls
    json_and_file."""
    p.add_argument("file", metavar="FILE", nargs="?" if optional_file else None,
                   help="an .igl program or an InfraGraph YAML/JSON document")
    p.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME=VALUE",
                   help="override a parameter of an .igl program (repeatable)")
    p.add_argument("-I", dest="search_path", action="append", default=[], metavar="DIR",
                   help="add a directory to the .igl import search path (repeatable)")
    add_quiet_argument(p)
    p.add_argument("--no-cache", action="store_true",
                   help="compile the .igl program even when the compile cache holds its graph "
                        "(also: INFRAGRAPH_NO_CACHE=1)")
    add_limit_arguments(p)


def add_quiet_argument(p: argparse.ArgumentParser, what: str = "no progress messages, notes or success messages") -> None:
    """`-q/--quiet`, one spelling on every command (README: it silences progress, notes and success
    messages; errors and warnings still print). `what` says what it silences on this command."""
    p.add_argument("-q", "--quiet", action="store_true", help=what)


JSON_RULE = "OUT: write it there; '-' or no OUT: print it on standard output instead of the text report"


def add_json_argument(p: argparse.ArgumentParser, what: str) -> None:
    """`--json [OUT]`, the same in every command (info, simulate, analyze, workload): JSON to the
    file OUT and the text report on standard output; `--json` alone or `--json -`: the JSON on
    standard output instead of the text."""
    p.add_argument("--json", nargs="?", const="-", metavar="OUT", help=f"{what} as JSON ({JSON_RULE})")


def json_and_file(args: argparse.Namespace, parser_name: str) -> None:
    """`info --json FILE` (when --json was a flag) parses as --json=FILE with no FILE: take it back as
    the source and print the JSON."""
    if args.file is None:
        if args.json not in (None, "-"):
            args.file, args.json = args.json, "-"
        else:
            raise option_error("FILE", f"{parser_name} needs a source: an .igl program, a document or a blueprint "
                                       "name such as std.fabrics.clos")


def emit(args: argparse.Namespace, data, text: str | None) -> None:
    """The command's result: `text` on standard output, and `data` as JSON where --json says
    (add_json_argument); `--json -` prints the JSON instead of the text.

    The JSON is compact (no indentation, no spaces after separators): it is for programs (jq
    pretty-prints it for people), and only without indentation does the json module use its C
    encoder: a workload replay's 30,000 records took 0.4 s with indent=1, 0.09 s compact."""
    import json

    from ..output import write_text

    if args.json == "-":
        print(json.dumps(data, separators=(",", ":")))
        return
    if args.json:
        write_text(args.json, json.dumps(data, separators=(",", ":")) + "\n", "--json")
    if text is not None:
        print(text)


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
                   help="cut a node (spine.1.asic.0), a device copy (spine.1), a glob (spine.*) or an edge "
                        "(leaf.0.port.4--spine.0.port.0), names as in std.fabrics.clos; repeatable")
    g.add_argument("--fail-random", type=random_cut, metavar="K|F",
                   help="also cut random cables (edges between device copies), drawn by --seed: K cables (a whole "
                        "number), or the fraction F of them (0.05 or 5%%)")
    g.add_argument("--seed", type=int, metavar="N", help="seed of --fail-random (default 0)")
    g.add_argument("--degrade", action="append", default=[], metavar="TARGET:bandwidth=F,latency=T",
                   help="slow a target down: bandwidth x F (0 < F <= 1), latency + T (e.g. 200ns); repeatable")


def random_cut(text: str) -> int | float:
    """How many random cables to cut, written the same in --fail-random and analyze --random-failures:
    a whole number K is that many cables (int); a number with a decimal point or exponent, in (0, 1],
    or a percentage (5%) is that fraction of the cables (float)."""
    t = text.strip().replace("_", "")
    try:
        if t.endswith("%"):
            value: int | float = float(t[:-1]) / 100.0
        elif t.isdigit():
            return int(t)
        elif t.startswith("-") and t[1:].isdigit():
            raise argparse.ArgumentTypeError(f"a number of cables must be 0 or more, got '{text}'")
        else:
            value = float(t)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected K (a whole number of cables) or a fraction F such as 0.05 or "
                                         f"5%, got '{text}'") from None
    if not 0.0 < value <= 1.0:  # NaN fails too
        raise argparse.ArgumentTypeError(f"a fraction of the cables must be in (0, 1] (0% < F <= 100%), got '{text}'")
    return value


def failure_spec(args: argparse.Namespace):
    """The FailureSpec of the failure arguments (bad values are located errors)."""
    from ..graph.failures import FailureSpec, parse_degrade

    if args.seed is not None and args.fail_random is None:
        raise error("--seed only applies to --fail-random", "--seed")
    count = args.fail_random if isinstance(args.fail_random, int) else None
    fraction = args.fail_random if isinstance(args.fail_random, float) else None
    return FailureSpec(tuple(args.fail), fraction, 0 if args.seed is None else args.seed,
                       tuple(parse_degrade(d) for d in args.degrade), fail_random_count=count)


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


@contextmanager
def about_simulation_options(args):
    """Errors that SimulationOptions' checks locate at a field ('chunks') located at the command
    line's option instead ('--chunks'), when `args` has that option: the CLI user never typed the
    field's name. Fields without an option (member_start_ns) keep theirs."""
    from ..simulate.run import SimulationOptions
    from ..simulate.spellings import cli_option

    given = set(vars(args))
    options = {f: o for f in SimulationOptions.__dataclass_fields__
               if (o := cli_option(f))[2:].replace("-", "_") in given}
    try:
        yield
    except InfraGraphError as e:
        raise InfraGraphError([replace(d, location=replace(d.location, path=options[d.location.path]))
                               if d.location.file is None and d.location.path in options else d
                               for d in e.diagnostics]) from None


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


__all__ = ["InfraGraphError", "Progress", "about_option", "about_source", "add_json_argument", "add_quiet_argument", "emit",
           "json_and_file", "add_failure_arguments", "add_limit_arguments",
           "about_failures", "add_source_arguments", "at_least", "defines", "failure_spec", "limits", "load_graph_with_progress",
           "one_of", "option_error", "progress"]
