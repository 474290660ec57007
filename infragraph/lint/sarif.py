"""SARIF 2.1.0 output for GitHub code scanning and other SARIF viewers.

What GitHub needs and gets here: `version`/`$schema`, one run whose `tool.driver.rules` carry id,
name, short and full descriptions, `help` (the rule's section of docs/lint.md, so the alert page
explains the rule) and `defaultConfiguration.level`; results with `ruleId`/`ruleIndex`, `level`,
`message.text` and a physical location whose artifact URI is relative to the source root
(`%SRCROOT%`, the working directory, i.e. the repository checkout in CI) and whose region gives
line and column. A finding known only by document path (e.g. in a very large FQG JSON file) is
placed on line 1 with the path as a logical location. `partialFingerprints` keep alerts stable
when unrelated lines move.
"""

from __future__ import annotations

import hashlib
from importlib import metadata
from pathlib import Path

from .docs import absolute_help_uri, sections
from .engine import LintReport
from .model import Finding, Rule
from .rules import RULES
from .rules.registry import INPUT_RULE

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SRCROOT = "%SRCROOT%"


def _version() -> str:
    try:
        return metadata.version("infragraph-toolchain")
    except metadata.PackageNotFoundError:
        return "0"


def _first_paragraph(markdown: str) -> str:
    """The first prose paragraph of a rule's docs (skipping the '**Severity:**' line)."""
    paras = [p.strip() for p in markdown.split("\n\n")]
    return next((" ".join(p.split()) for p in paras if p and not p.startswith("**")), "")


def _rule_descriptor(rule: Rule, docs_url: str | None) -> dict:
    doc = sections().get(rule.id, rule.summary)
    out = {
        "id": rule.id,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": _first_paragraph(doc) or rule.summary},
        "helpUri": absolute_help_uri(rule.id, docs_url),
        "help": {"text": doc, "markdown": doc},
        "defaultConfiguration": {"level": rule.severity},
    }
    return {k: v for k, v in out.items() if v is not None}  # the help text is inline either way


def _artifact(file: str, root: Path) -> dict:
    path = Path(file).resolve()
    try:
        return {"uri": path.relative_to(root).as_posix(), "uriBaseId": SRCROOT}
    except ValueError:
        return {"uri": path.as_uri()}


def _result(f: Finding, index: dict[str, int], root: Path) -> dict:
    loc = f.location
    region = {"startLine": loc.line or 1}
    if loc.line and loc.column:
        region["startColumn"] = loc.column
    location: dict = {}
    if loc.file:
        location["physicalLocation"] = {"artifactLocation": _artifact(loc.file, root), "region": region}
    if loc.path:
        location["logicalLocations"] = [{"fullyQualifiedName": loc.path, "kind": "member"}]
    text = f.message + (f". Fix: {f.hint}" if f.hint else "")
    key = "|".join((f.rule, Path(loc.file).name if loc.file else "", loc.path or "", f.message))
    out = {
        "ruleId": f.rule,
        "ruleIndex": index[f.rule],
        "level": f.severity,
        "message": {"text": text},
        "locations": [location] if location else [],
        "partialFingerprints": {"infragraphFinding/v1": hashlib.sha256(key.encode()).hexdigest()[:32]},
    }
    if f.nodes:
        out["properties"] = {"nodes": list(f.nodes)}
    return out


def to_sarif(report: LintReport, docs_url: str | None = None, root: str | Path = ".") -> dict:
    """The SARIF log of a lint run; `root` is the directory artifact URIs are relative to."""
    root = Path(root).resolve()
    rules = [INPUT_RULE, *RULES.values()]
    index = {r.id: i for i, r in enumerate(rules)}
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "infragraph-lint",
                "version": _version(),
                **({"informationUri": info.rstrip("#")} if (info := absolute_help_uri("", docs_url)) else {}),
                "rules": [_rule_descriptor(r, docs_url) for r in rules],
            }},
            "originalUriBaseIds": {SRCROOT: {"uri": root.as_uri() + "/"}},
            "invocations": [{
                "executionSuccessful": report.exit_code != 2,
                "exitCode": report.exit_code,
            }],
            "results": [_result(f, index, root) for f in report.findings],
        }],
    }
