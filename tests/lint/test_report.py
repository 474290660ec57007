"""Output formats: SARIF validated against the official SARIF 2.1.0 schema (vendored, see
tests/data/SARIF-SCHEMA-SOURCE.md), JSON against schemas/lint-report.schema.json, and text."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urlparse

import jsonschema
import pytest

from infragraph.lint.config import LintConfig
from infragraph.lint.docs import sections
from infragraph.lint.engine import lint_files
from infragraph.lint.report import to_json_dict, to_text
from infragraph.lint.rules import RULES
from infragraph.lint.sarif import to_sarif
from infragraph.schemas import validator

DATA = Path(__file__).resolve().parents[1] / "data"
LINT = DATA / "lint"
MIXED = [LINT / "IG011_duplicate_edge.yaml", LINT / "IG001_port_cabled_twice.fqg.json",
         LINT / "IG004_npu_unreachable.yaml", DATA / "lint" / "missing.yaml"]


@pytest.fixture(scope="module")
def report():
    return lint_files([str(p) for p in MIXED], LintConfig())


@pytest.fixture(scope="module")
def sarif_validator():
    schema = json.loads((DATA / "sarif-schema-2.1.0.json").read_text())
    jsonschema.Draft4Validator.check_schema(schema)
    return jsonschema.Draft4Validator(schema)


def test_sarif_is_valid_and_located(report, sarif_validator):
    log = to_sarif(report, root=Path(__file__).resolve().parents[2])
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in sarif_validator.iter_errors(log)]
    assert errors == []
    run = log["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == ["IG000", *RULES]
    for r in rules:
        if "helpUri" in r:  # absolute (the docs on the repository's host, or docs-url), never file://
            assert urlparse(r["helpUri"]).scheme == "https" and r["helpUri"].endswith("#" + r["id"].lower())
        assert r["help"]["markdown"] and r["defaultConfiguration"]["level"] in ("error", "warning", "note")
    by_rule = {res["ruleId"]: res for res in run["results"]}
    assert set(by_rule) == {"IG000", "IG001", "IG004", "IG011"}
    for res in run["results"]:
        assert rules[res["ruleIndex"]]["id"] == res["ruleId"]
    dup = by_rule["IG011"]["locations"][0]
    assert dup["physicalLocation"]["artifactLocation"] == {
        "uri": "tests/data/lint/IG011_duplicate_edge.yaml", "uriBaseId": "%SRCROOT%"}
    assert dup["physicalLocation"]["region"] == {"startLine": 10, "startColumn": 5}
    assert dup["logicalLocations"][0]["fullyQualifiedName"] == "devices[0].edges[1]"
    assert by_rule["IG001"]["level"] == "error" and "Fix: a port takes one cable" in by_rule["IG001"]["message"]["text"]
    assert by_rule["IG001"]["properties"]["nodes"][0] == "sw.0.port.0"
    assert run["invocations"][0] == {"executionSuccessful": False, "exitCode": 2}


def test_sarif_of_a_clean_run_is_valid(sarif_validator):
    log = to_sarif(lint_files([str(LINT / "clean.yaml")], LintConfig()))
    assert list(sarif_validator.iter_errors(log)) == []
    assert log["runs"][0]["results"] == [] and log["runs"][0]["invocations"][0]["exitCode"] == 0


def test_json_report_matches_its_schema(report):
    data = to_json_dict(report)
    assert list(validator("lint-report").iter_errors(data)) == []
    assert data["summary"]["exit_code"] == 2 and data["summary"]["failed_files"] == [str(MIXED[-1])]
    f = next(x for x in data["findings"] if x["rule"] == "IG004")
    assert f["location"] == {"file": str(MIXED[2]), "line": 16, "column": 13, "path": "instances[0]"}
    assert f["name"] == "npu-unreachable" and f["severity"] == "error" and f["help"].endswith("#ig004")


def test_json_schema_rejects_a_malformed_report(report):
    data = to_json_dict(report)
    data["findings"][0]["severity"] = "fatal"
    assert list(validator("lint-report").iter_errors(data))


def test_text_report(report):
    text = to_text(report)
    assert f"{MIXED[0]}:10:5: devices[0].edges[1]: warning: " in text
    assert "[IG011 duplicate-edge]" in text and "hint: delete the repeated edge" in text
    assert "nodes: host.0.xpu.0, host.0.nic.0" in text
    assert "  - {ep1: {component: xpu}" in text  # the source line, with a caret under it
    assert text.rstrip().endswith("in 4 file(s); 1 could not be loaded")


def test_every_rule_is_documented():
    docs = sections()
    for rule in RULES.values():
        assert rule.id in docs and "**Severity:** " + rule.severity in docs[rule.id], rule.id
        assert "**Fix:**" in docs[rule.id]


def test_help_links_point_at_the_repository_docs_never_a_local_file(report, monkeypatch):
    from infragraph.lint import docs

    monkeypatch.setattr(docs, "repository_docs", lambda: None)
    assert docs.help_uri("IG004") == "docs/lint.md#ig004"
    assert docs.absolute_help_uri("IG004") is None
    driver = to_sarif(report)["runs"][0]["tool"]["driver"]
    rules = driver["rules"]
    assert "file:" not in json.dumps(driver) and "informationUri" not in driver
    assert all("helpUri" not in r for r in rules) and all(r["help"]["markdown"] for r in rules)
    assert docs.absolute_help_uri("IG004", "https://example.org/x/lint.md") == "https://example.org/x/lint.md#ig004"
    monkeypatch.setattr(docs, "repository_docs", lambda: "https://github.com/o/r/blob/HEAD/docs/lint.md")
    assert to_sarif(report)["runs"][0]["tool"]["driver"]["rules"][1]["helpUri"].startswith("https://github.com/o/r/")


@pytest.mark.parametrize("remote, want", [
    ("git@github.com:acme/infragraph.git", "https://github.com/acme/infragraph/blob/HEAD/docs/lint.md"),
    ("https://gitlab.com/acme/infragraph.git", "https://gitlab.com/acme/infragraph/blob/HEAD/docs/lint.md"),
    ("/srv/git/infragraph", None),
])
def test_repository_docs_from_the_origin_remote(monkeypatch, tmp_path, remote, want):
    import subprocess

    from infragraph.lint import docs

    (tmp_path / ".git").mkdir()  # a checkout, whether or not this copy of the tests is one (an export is not)
    monkeypatch.setattr(docs, "DOCS", tmp_path / "docs")
    monkeypatch.setattr(subprocess, "run", lambda *a, **k: subprocess.CompletedProcess(a, 0, stdout=remote + "\n"))
    docs.repository_docs.cache_clear()
    try:
        assert docs.repository_docs() == want
    finally:
        docs.repository_docs.cache_clear()
