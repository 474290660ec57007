"""`infragraph translate FILE --to BACKEND -o DIR [--approximate] [--set KEY=VALUE]`: graph -> backend bundle."""

from __future__ import annotations

import sys

from ..errors import Diagnostic, InfraGraphError, Location, error
from ..output import check_output_dir
from .common import (add_failure_arguments, add_source_arguments, failure_spec, load_graph_with_progress, one_of,
                     progress)


def register(sub) -> None:
    p = sub.add_parser("translate", help="write ready-to-run ASTRA-sim analytical, ns-3, HTSim or engine inputs")
    add_source_arguments(p)
    p.add_argument("--to", required=True, type=one_of("infragraph.translators", "NAMES", "backend"), metavar="BACKEND",
                   help="target backend: astra-analytical, ns3, htsim or simengine")
    p.add_argument("-o", "--output", required=True, metavar="DIR", help="output directory for the bundle")
    p.add_argument("--approximate", action="store_true",
                   help="model a graph the backend cannot express exactly as closely as possible (printed)")
    p.add_argument("--set", dest="settings", action="append", default=[], metavar="KEY=VALUE",
                   help="override a backend setting (repeatable; the bundle README lists them)")
    add_failure_arguments(p)
    p.set_defaults(func=run)


def parse_settings(items: list[str]) -> dict[str, str]:
    out = {}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise error(f"bad --set '{item}'; expected KEY=VALUE, e.g. --set preferred-dataset-splits=8")
        out[key.strip()] = value.strip()
    return out


def run(args) -> int:
    from ..translators import Options, get
    from ..translators.failures import translate_with_failures

    translator = get(args.to)

    options = Options(args.approximate, parse_settings(args.settings))
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
    for note in bundle.notes:
        print(f"note: {note}", file=sys.stderr)
    if not args.quiet:
        print(f"{args.output}: {len(written)} files for {args.to} ({len(bundle.rank_order):,} NPUs; "
              f"rank order in ranks.txt or the README)", file=sys.stderr)
    return 0
