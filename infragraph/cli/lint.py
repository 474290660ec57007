"""`infragraph lint FILE... [--format text|json|sarif] [--select IDS] [--ignore IDS]
[--max-oversubscription R] [--for TRANSLATOR]`: rule-based checks for CI.

Exit codes: 0 clean (warnings allowed), 1 error-severity findings, 2 usage or input errors
(a file that cannot be loaded, an unknown rule id, a bad configuration file)."""

from __future__ import annotations

import json
import sys

from ..errors import InfraGraphError
from ..output import check_output, write_text
from .common import add_failure_arguments, add_limit_arguments, add_quiet_argument, defines, failure_spec, limits, one_of


def register(sub) -> None:
    p = sub.add_parser("lint", help="check sources for miswiring and suspicious structure (text, JSON or SARIF)",
                       description=__doc__)
    p.add_argument("files", nargs="+", metavar="FILE", help=".igl programs, InfraGraph YAML/JSON documents or FQG JSON")
    p.add_argument("--format", choices=("text", "json", "sarif"), default="text")
    p.add_argument("-o", "--output", metavar="OUT", help="write the report here instead of standard output")
    p.add_argument("--select", action="append", metavar="IDS", help="run only these rules (comma-separated; repeatable)")
    p.add_argument("--ignore", action="append", default=[], metavar="IDS", help="skip these rules (comma-separated)")
    p.add_argument("--max-oversubscription", type=float, metavar="R",
                   help="maximum down/up bandwidth ratio per switch (IG009; default: the document's, else 1)")
    p.add_argument("--for", dest="target", metavar="TRANSLATOR",
                   type=one_of("infragraph.lint.rules.targets", "TARGETS", "translator"),
                   help="also report what this translator (ns3, htsim or astra-analytical) would refuse (IG013)")
    p.add_argument("--config", metavar="TOML", help="configuration file (default: .infragraph-lint.toml or "
                   "[tool.infragraph.lint] in pyproject.toml, searched upwards from the working directory)")
    p.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME=VALUE",
                   help="override a parameter of .igl programs (repeatable)")
    p.add_argument("-I", dest="search_path", action="append", default=[], metavar="DIR",
                   help="add a directory to the .igl import search path (repeatable)")
    add_quiet_argument(p, "print nothing when the files are clean (findings and load errors are still printed)")
    add_failure_arguments(p)
    add_limit_arguments(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from ..lint.config import discover_config, load_config_file
    from ..lint.engine import lint_files
    from ..lint.report import to_json_dict, to_text
    from ..lint.rules.registry import INPUT_RULE
    from ..lint.sarif import to_sarif

    try:
        if args.output:
            check_output(args.output, option="-o")
        config = load_config_file(args.config) if args.config else discover_config()
        config = config.with_overrides(args.select, args.ignore, args.max_oversubscription, args.target)
        report = lint_files(args.files, config, defines(args), args.search_path or None, failure_spec(args),
                            limits(args))
    except InfraGraphError as e:
        print(str(e), file=sys.stderr)
        return 2
    if args.format == "json":
        text = json.dumps(to_json_dict(report, config.docs_url), indent=2)
    elif args.format == "sarif":
        text = json.dumps(to_sarif(report, config.docs_url), indent=2)
    elif args.quiet and not report.findings:
        text = None  # -q: a clean run prints nothing (the exit code says it)
    else:
        text = to_text(report)
    if text is None:
        pass
    elif args.output:
        try:
            write_text(args.output, text + "\n", "-o")
        except InfraGraphError as e:
            print(str(e), file=sys.stderr)
            return 2
    else:
        print(text)
    if report.failed_files:  # exit 2 always says why on stderr too, whatever the format on stdout
        print(f"infragraph lint: {len(report.failed_files)} file(s) could not be loaded: "
              f"{', '.join(report.failed_files)}", file=sys.stderr)
        for f in report.findings:
            if f.location.file in report.failed_files and f.rule == INPUT_RULE.id:
                print(f"  {f.location}: {f.message}", file=sys.stderr)
    return report.exit_code
