"""`infragraph lint` end to end: exit codes 0/1/2, output formats, usage errors without
tracebacks, and IG013 through the translators' own checks."""

from __future__ import annotations

import json
import subprocess
import sys
import types
from pathlib import Path

import pytest

from infragraph.cli import main
from infragraph.errors import Diagnostic, Location
from infragraph.lint.rules import targets
from tests.helpers import run_cli

DATA = Path(__file__).resolve().parents[1] / "data" / "lint"
ROOT = Path(__file__).resolve().parents[2]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    return run_cli(capsys, "lint", *argv)


@pytest.fixture(autouse=True)
def _no_user_config(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # configuration is discovered from the working directory


def test_exit_codes(capsys):
    assert run(capsys, str(DATA / "clean.yaml"))[0] == 0
    assert run(capsys, str(DATA / "IG005_link_missing_physical.yaml"))[0] == 0  # warnings only
    code, out, _ = run(capsys, str(DATA / "IG004_npu_unreachable.yaml"))
    assert code == 1 and "IG004" in out
    code, out, _ = run(capsys, str(DATA / "clean.yaml"), str(DATA / "nope.yaml"))
    assert code == 2 and "nope.yaml" in out and "IG000" in out


def test_usage_errors_exit_2_without_traceback(capsys):
    code, _, err = run(capsys, "--select", "IG999", str(DATA / "clean.yaml"))
    assert code == 2 and "unknown rule id 'IG999'" in err and "Traceback" not in err
    code, _, err = run(capsys, "--max-oversubscription", "-1", str(DATA / "clean.yaml"))
    assert code == 2 and "must be positive" in err
    with pytest.raises(SystemExit) as info:  # argparse: unknown format
        main(["lint", "--format", "xml", str(DATA / "clean.yaml")])
    assert info.value.code == 2


def test_select_ignore_and_oversubscription_flags(capsys):
    broken = str(DATA / "IG009_oversubscription.yaml")
    assert "IG009" in run(capsys, broken)[1]
    assert "IG009" not in run(capsys, "--ignore", "IG009", broken)[1]
    assert "IG009" not in run(capsys, "--select", "IG001,IG004", broken)[1]
    assert "IG009" not in run(capsys, "--max-oversubscription", "4", broken)[1]


def test_config_file_in_working_directory_applies(capsys, tmp_path):
    (tmp_path / ".infragraph-lint.toml").write_text('severity = {IG005 = "error"}\n')
    code, out, _ = run(capsys, str(DATA / "IG005_link_missing_physical.yaml"))
    assert code == 1 and "error: link 'host.pcie' has no latency" in out


def test_json_and_sarif_to_file(capsys, tmp_path):
    out_json = tmp_path / "r.json"
    code, _, _ = run(capsys, "--format", "json", "-o", str(out_json), str(DATA / "IG001_port_cabled_twice.fqg.json"))
    data = json.loads(out_json.read_text())
    assert code == 1 and data["findings"][0]["rule"] == "IG001" and data["summary"]["exit_code"] == 1
    code, out, _ = run(capsys, "--format", "sarif", str(DATA / "IG010_unused_definition.yaml"))
    log = json.loads(out)
    assert code == 0 and log["version"] == "2.1.0" and log["runs"][0]["results"][0]["ruleId"] == "IG010"


def test_module_entry_point_prints_no_traceback_for_bad_input(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\ndevices: [oops\n")
    proc = subprocess.run([sys.executable, "-m", "infragraph", "lint", str(bad)], capture_output=True,
                          text=True, cwd=ROOT)
    assert proc.returncode == 2 and "invalid YAML" in proc.stdout and "Traceback" not in proc.stderr + proc.stdout


class _FakeTranslator:
    """Refuses any graph with more than 4 nodes, naming an edge record like the real ones do."""

    def check(self, g, options=None):
        if g.num_nodes > 4:
            return [Diagnostic("needs at most 4 nodes", Location(path="edges[1]"), "split the fabric"),
                    Diagnostic("just a remark", Location(), severity="warning")]
        return []


def test_for_runs_the_translators_check(capsys, monkeypatch):
    fake = types.ModuleType("infragraph.translators")
    fake.get = lambda name: _FakeTranslator()
    monkeypatch.setitem(sys.modules, "infragraph.translators", fake)
    targets.load_translator.cache_clear()
    try:
        code, out, _ = run(capsys, "--for", "ns3", "--format", "json", str(DATA / "clean.yaml"))
    finally:
        targets.load_translator.cache_clear()
    [f] = json.loads(out)["findings"]
    assert code == 1 and f["rule"] == "IG013" and f["message"] == "ns3 translator: needs at most 4 nodes"
    assert f["location"] == {"file": str(DATA / "clean.yaml"), "line": 22, "column": 3, "path": "edges[1]"}
    assert f["hint"] == "split the fabric"


def test_for_without_the_translator_is_a_usage_error(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "infragraph.translators", None)  # import fails
    targets.load_translator.cache_clear()
    try:
        code, _, err = run(capsys, "--for", "htsim", str(DATA / "clean.yaml"))
    finally:
        targets.load_translator.cache_clear()
    assert code == 2 and "--for htsim" in err and "not installed" in err


def test_for_with_the_real_translators(capsys):
    """Whatever the real translator decides about a one-switch fabric, lint reports exactly its
    check's errors (no more, no fewer) as IG013."""
    pytest.importorskip("infragraph.translators")
    from infragraph.lint.engine import load_source
    from infragraph.translators import get

    g, _, _ = load_source(str(DATA / "clean.yaml"))
    expected = [d.message for d in get("ns3").check(g) if d.severity == "error"]
    code, out, _ = run(capsys, "--for", "ns3", "--format", "json", str(DATA / "clean.yaml"))
    got = [f["message"] for f in json.loads(out)["findings"] if f["rule"] == "IG013"]
    assert got == [f"ns3 translator: {m}" for m in expected] and code == (1 if expected else 0)


def test_pre_commit_hook_definition():
    import re

    import yaml

    [hook] = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    assert hook["id"] == "infragraph-lint" and hook["entry"] == "infragraph lint" and hook["language"] == "python"
    files, exclude = re.compile(hook["files"]), re.compile(hook["exclude"])
    for name in ("blueprints/fabrics/ring.igl", "fabrics/prod.yaml", "g.fqg.json"):
        assert files.search(name) and not exclude.search(name)
    assert exclude.search(".pre-commit-config.yaml") and exclude.search(".github/workflows/x.yml")
