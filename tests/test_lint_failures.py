"""Lint sees the fabric as it stands after failures (annotations and --fail flags)."""

from __future__ import annotations

import json

from infragraph.cli import main


def test_lint_reports_what_a_cut_breaks(capsys):
    clos = "blueprints/fabrics/clos.igl"
    assert main(["lint", clos, "-D", "radix=4"]) == 0
    capsys.readouterr()
    assert main(["lint", clos, "-D", "radix=4", "--fail", "host.0.nic.0.port.0--leaf.0.port.0", "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    rules = {f["rule"] for f in report["findings"]}
    assert "IG004" in rules  # NPUs that cannot reach each other
    assert all(f["location"]["file"].endswith("clos.igl") for f in report["findings"])


def test_lint_degraded_uplinks_are_oversubscribed(capsys):
    assert main(["lint", "blueprints/fabrics/clos.igl", "-D", "radix=4", "--degrade", "spine.0:bandwidth=0.5"]) == 0
    out = capsys.readouterr().out
    assert "IG009" in out and "600 Gbit/s up" in out  # leaf: 2 x 400 down vs 400 + 200 up


def test_lint_bad_failure_target_is_an_input_error(capsys):
    assert main(["lint", "blueprints/fabrics/clos.igl", "-D", "radix=4", "--fail", "spine.5"]) == 2
    assert "--fail spine.5: error: no node named 'spine.5'" in capsys.readouterr().out
