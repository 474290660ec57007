"""`infragraph translate FILE --to BACKEND -o DIR [--approximate] [--set KEY=VALUE]`: graph -> backend bundle."""

from __future__ import annotations

import sys

from ..errors import Diagnostic, InfraGraphError, Location
from ..output import check_output_dir
from ..units import UnitError, parse_size_bytes
from .common import (add_failure_arguments, add_source_arguments, failure_spec, load_graph_with_progress, one_of,
                     option_error, progress)

# The translators (numpy, Jinja2) are imported when the command runs; these mirror
# translators.chakra_et's defaults (tests/cli/test_startup.py checks the help names every value).
DEFAULT_COLLECTIVE, DEFAULT_SIZE = "all-reduce", "1MiB"


def register(sub) -> None:
    p = sub.add_parser("translate", help="write ready-to-run ASTRA-sim analytical, ns-3, HTSim or engine inputs")
    add_source_arguments(p)
    p.add_argument("--to", required=True, type=one_of("infragraph.translators", "NAMES", "backend"), metavar="BACKEND",
                   help="target backend: astra-analytical, ns3, htsim or simengine")
    p.add_argument("-o", "--output", required=True, metavar="DIR", help="output directory for the bundle")
    p.add_argument("--approximate", action="store_true",
                   help="model a graph the backend cannot express exactly as closely as possible (printed)")
    p.add_argument("--collective", default=DEFAULT_COLLECTIVE, metavar="NAME",
                   type=one_of("infragraph.translators.chakra_et", "COLLECTIVES", "collective"),
                   help=f"the collective of the Chakra workload written into ASTRA-sim bundles (one .et per NPU) "
                        f"and of the engine bundle's run.sh: all-reduce, all-gather, all-to-all or reduce-scatter "
                        f"(default {DEFAULT_COLLECTIVE})")
    p.add_argument("--size", default=DEFAULT_SIZE,
                   help=f"bytes per NPU of that collective (all-gather: each NPU's shard), e.g. 1GiB "
                        f"(default {DEFAULT_SIZE})")
    p.add_argument("--no-workload", action="store_true",
                   help="write no Chakra files (one per NPU: 262,144 for a 262,144-NPU fabric); run.sh then needs "
                        "WORKLOAD=<prefix of your own .et files>")
    p.add_argument("--set", dest="settings", action="append", default=[], metavar="KEY=VALUE",
                   help="override a backend setting (repeatable; the bundle README lists them)")
    add_failure_arguments(p)
    p.set_defaults(func=run)


def parse_settings(items: list[str]) -> dict[str, str]:
    out = {}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise option_error("--set", f"bad --set '{item}'; expected KEY=VALUE, e.g. --set preferred-dataset-splits=8")
        out[key.strip()] = value.strip()
    return out


def workload(collective: str, size: str, files: bool = True):
    from ..translators.chakra_et import Workload

    try:
        nbytes = parse_size_bytes(size)
    except UnitError as e:
        raise option_error("--size", f"bad --size '{size}': {e}",
                           "a whole number of bytes with a unit, e.g. 1MiB, 64KB, 4096") from None
    if not 1 <= nbytes <= 2 ** 63 - 1:
        raise option_error("--size", f"collective size {nbytes} bytes is out of range; expected a whole number of "
                           f"bytes from 1 to {2 ** 63 - 1} (int64, what the Chakra traces hold)",
                           "e.g. --size 1MiB")
    return Workload(collective, nbytes, files)


def run(args) -> int:
    from ..translators import Options, get
    from ..translators.failures import translate_with_failures

    translator = get(args.to)
    options = Options(args.approximate, parse_settings(args.settings), workload(args.collective, args.size,
                                                                                      not args.no_workload))
    check_output_dir(args.output, "-o")
    spec = failure_spec(args)
    g = load_graph_with_progress(args)
    with progress(args).phase(f"translating for {args.to}"):
        try:
            bundle = translate_with_failures(translator, g, options, spec)
        except InfraGraphError as e:  # name the input file on refusals located only by document path
            raise InfraGraphError([Diagnostic(d.message, Location(d.location.file or args.file, d.location.line,
                                                                  d.location.column, d.location.path),
                                              d.hint, d.severity, d.notes, d.source_line)
                                   for d in e.diagnostics]) from None
    with progress(args).phase("writing"):
        written = translator.write(bundle, args.output)
    if not args.quiet:  # -q: no notes either; they are in the bundle's README
        for note in bundle.notes:
            print(f"note: {note}", file=sys.stderr)
        print(f"{args.output}: {len(written)} files for {args.to} ({len(bundle.rank_order):,} NPUs; "
              f"rank order in ranks.txt or the README)", file=sys.stderr)
    return 0
