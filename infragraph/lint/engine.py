"""Running the rules: load each source, build the graph, run the enabled rules, apply severities
and inline suppressions, and collect one report for all files.

A source that cannot be loaded (bad YAML, schema violation, unknown name, a self-loop rejected
by expansion, …) is not linted; its located errors are reported as IG000 findings so that every
output format, SARIF included, shows them, and the exit code is 2.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from .. import blueprints
from ..document.model import Infrastructure
from ..errors import Diagnostic, InfraGraphError, Location
from ..graph import FQG, expand
from ..graph.export import is_fqg_file, read_fqg
from ..graph.failures import FailureSpec, with_failures
from ..limits import Limits
from ..sources import load_document, require_instances, require_nodes
from . import suppress
from .config import LintConfig
from .facts import GraphFacts
from .locate import DocumentLocator, FailedGraphLocator, FqgFileLocator, Locator
from .model import Finding, LintContext
from .rules.registry import INPUT_RULE
from .rules.targets import load_translator


@dataclass
class LintReport:
    files: list[str]
    findings: list[Finding] = field(default_factory=list)  # input errors (IG000) included
    omitted: dict[str, int] = field(default_factory=dict)  # findings beyond max-findings-per-rule
    suppressed: int = 0
    failed_files: list[str] = field(default_factory=list)  # files that could not be loaded
    error_rules: frozenset[str] = frozenset()  # rules at error severity in this run

    def count(self, severity: str) -> int:
        return sum(1 for f in self.findings if f.severity == severity)

    @property
    def exit_code(self) -> int:
        """0 clean (warnings and notes allowed), 1 error findings, 2 a source could not be loaded."""
        if self.failed_files:
            return 2
        errors = self.count("error") or any(n for r, n in self.omitted.items() if r in self.error_rules)
        return 1 if errors else 0


def load_source(path: str, defines: dict[str, str] | None = None,
                search_path: list[str] | None = None,
                limits: Limits | None = None) -> tuple[FQG, Infrastructure | None, Locator]:
    """The graph of one source file, its document (None for an FQG JSON file) and its locator.
    -D values apply to programs: .igl files and blueprint names (`std.fabrics.clos`)."""
    if Path(path).suffix == ".json" and is_fqg_file(path):
        g = read_fqg(path)
        require_nodes(g, path)
        return g, None, FqgFileLocator(path, g)
    program = Path(path).suffix == ".igl" or (blueprints.is_blueprint_name(path) and not Path(path).exists())
    if program:
        _require_language(path)
    doc = load_document(path, defines if program else None, search_path)
    require_instances(doc, path)
    g = expand(doc, limits)
    return g, doc, DocumentLocator(path, doc, g)


def _require_language(path: str) -> None:
    """A located error instead of an AttributeError when the language is not in this checkout."""
    try:
        from .. import lang
    except ImportError:
        lang = None
    if not callable(getattr(lang, "compile_file", None)):
        raise InfraGraphError(Diagnostic(
            "cannot compile .igl here: the InfraGraph language (infragraph.lang) is not available",
            Location(path)))


def lint_graph(g: FQG, doc: Infrastructure | None, locator: Locator, config: LintConfig,
               report: LintReport) -> None:
    """Run the enabled rules on one graph, adding kept findings and counts to `report`."""
    ctx = LintContext(g, GraphFacts(g), locator, doc, config.options())
    for rule in config.rules():
        severity = config.severity_of(rule)
        for finding in rule.check(ctx):
            finding = replace(finding, severity=severity)
            if suppress.is_suppressed(finding):
                report.suppressed += 1
            elif ctx.kept.get(finding.rule, 0) >= ctx.options.max_per_rule:
                ctx.omitted[finding.rule] = ctx.omitted.get(finding.rule, 0) + 1  # a rule that is not lazy
            else:
                ctx.kept[finding.rule] = ctx.kept.get(finding.rule, 0) + 1
                report.findings.append(finding)
    for rule_id, n in ctx.omitted.items():
        report.omitted[rule_id] = report.omitted.get(rule_id, 0) + n


def _input_errors(path: str, error: InfraGraphError) -> list[Finding]:
    out = []
    for d in error.diagnostics:
        loc = d.location if d.location.file else Location(path, d.location.line, d.location.column, d.location.path)
        message = d.message + "".join(f" ({note})" for note in d.notes)
        severity = "note" if d.severity == "note" else "error"  # "… N more error(s) not shown" is a note
        out.append(Finding(INPUT_RULE.id, message, loc, (), d.hint, severity))
    return out


def lint_files(paths: list[str], config: LintConfig, defines: dict[str, str] | None = None,
               search_path: list[str] | None = None, failures: FailureSpec = FailureSpec(),
               limits: Limits | None = None) -> LintReport:
    """Lint every file; raises InfraGraphError only for a usage problem (e.g. an unavailable
    `--for` translator), never for problems in the files themselves. Each graph is linted with its
    failures applied (its own annotations plus `failures`): the fabric as it stands after them."""
    if config.target:
        load_translator(config.target)  # fail before any work when the target cannot be checked
    suppress.clear_cache()
    enabled = config.rules()
    report = LintReport(list(paths), error_rules=frozenset(r.id for r in enabled if config.severity_of(r) == "error"))
    for path in paths:
        try:
            g, doc, locator = load_source(path, defines, search_path, limits)
            g, locator = _failed(g, locator, failures)
        except InfraGraphError as e:
            report.failed_files.append(path)
            report.findings.extend(_input_errors(path, e))
            continue
        lint_graph(g, doc, locator, config, report)
    report.findings.sort(key=_order)
    return report


def _failed(g: FQG, locator: Locator, spec: FailureSpec) -> tuple[FQG, Locator]:
    failed, f = with_failures(g, spec)
    if failed is g:
        return g, locator
    return failed, FailedGraphLocator(locator, g, np.flatnonzero(~f.failed_edge), failed)


def _order(f: Finding) -> tuple:
    loc = f.location
    return (loc.file or "", loc.line or 0, loc.column or 0, f.rule, f.message)
