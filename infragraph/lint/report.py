"""Human and machine output of a lint run: text for terminals, JSON (schemas/lint-report.schema.json).
SARIF lives in sarif.py."""

from __future__ import annotations

from ..errors import Diagnostic, found_line
from .docs import help_uri
from .engine import LintReport
from .rules import RULES
from .rules.registry import INPUT_RULE

REPORT_VERSION = 1


def rule_name(rule_id: str) -> str:
    return INPUT_RULE.name if rule_id == INPUT_RULE.id else RULES[rule_id].name


def to_text(report: LintReport) -> str:
    """One block per finding (location, severity, rule, message, caret, hint, nodes), then a summary."""
    blocks = []
    for f in report.findings:
        notes = (f"nodes: {', '.join(f.nodes)}",) if f.nodes else ()
        d = Diagnostic(f"{f.message} [{f.rule} {rule_name(f.rule)}]", f.location, f.hint, f.severity, notes,
                       found_line(f.location))
        blocks.append(d.render())
    for rule_id, n in sorted(report.omitted.items()):
        blocks.append(f"… {n} more {rule_id} {rule_name(rule_id)} finding(s) not shown "
                      f"(raise max-findings-per-rule to see them)")
    blocks.append(summary_line(report))
    return "\n".join(blocks)


def summary_line(report: LintReport) -> str:
    parts = [f"{report.count('error')} error(s)", f"{report.count('warning')} warning(s)"]
    if report.count("note"):
        parts.append(f"{report.count('note')} note(s)")
    if report.omitted:
        parts.append(f"{sum(report.omitted.values())} more not shown")
    if report.suppressed:
        parts.append(f"{report.suppressed} suppressed")
    tail = f"; {len(report.failed_files)} could not be loaded" if report.failed_files else ""
    return f"{', '.join(parts)} in {len(report.files)} file(s){tail}"


def to_json_dict(report: LintReport, docs_url: str | None = None) -> dict:
    return {
        "tool": "infragraph lint",
        "version": REPORT_VERSION,
        "files": list(report.files),
        "summary": {
            "errors": report.count("error"),
            "warnings": report.count("warning"),
            "notes": report.count("note"),
            "suppressed": report.suppressed,
            "omitted": dict(sorted(report.omitted.items())),
            "failed_files": list(report.failed_files),
            "exit_code": report.exit_code,
        },
        "findings": [
            {
                "rule": f.rule,
                "name": rule_name(f.rule),
                "severity": f.severity,
                "message": f.message,
                "location": {k: v for k, v in (("file", f.location.file), ("line", f.location.line),
                                               ("column", f.location.column), ("path", f.location.path))
                             if v is not None},
                "nodes": list(f.nodes),
                **({"hint": f.hint} if f.hint else {}),
                "help": help_uri(f.rule, docs_url),
            }
            for f in report.findings
        ],
    }
