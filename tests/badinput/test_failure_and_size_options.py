"""Messages that name their option (issue 21 item 3): a failure that leaves no network or splits
the group is located at the option the user gave (--fail or --fail-random), and translate's
--size out of range is located at --size, never "<input>:"."""

from __future__ import annotations

import json
import re

import pytest

from infragraph.cli import build_parser, main
from tests.helpers import run_cli

CLOS = "std.fabrics.clos"


def run(capsys, *argv: str) -> tuple[int, str]:
    code, _, err = run_cli(capsys, *argv)
    return code, err


@pytest.mark.parametrize("size", ["0", "99999999999999999999999"])
def test_translate_size_out_of_range_names_size(capsys, tmp_path, size):
    code, err = run(capsys, "translate", CLOS, "--to", "astra-analytical", "--size", size, "-o", str(tmp_path / "b"))
    assert code == 1
    assert err.startswith("--size: error: collective size ") and "out of range" in err
    assert "9223372036854775807" in err
    assert not (tmp_path / "b").exists()


def test_fail_everything_names_fail(capsys):
    code, err = run(capsys, "simulate", CLOS, "--fail", "*")
    assert code == 1
    assert err.startswith("--fail: error: the failures cut all 320 links of graph 'clos'")
    assert "<input>" not in err


def test_fail_random_one_names_fail_random(capsys):
    code, err = run(capsys, "simulate", CLOS, "--fail-random", "100%")
    assert code == 1
    assert err.startswith("--fail-random: error: process group 0 is disconnected by the failures")


def test_fail_and_fail_random_name_both(capsys):
    code, err = run(capsys, "simulate", CLOS, "--fail", "spine.*", "--fail-random", "1.0")
    assert code == 1
    assert err.startswith("--fail/--fail-random: error: ")


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_lint_unknown_fail_target_says_why_on_stderr(capsys, fmt):
    code, err = run(capsys, "lint", CLOS, "--fail", "nosuch.0", "--format", fmt)
    assert code == 2  # lint's "a source could not be loaded" (docs/lint.md)
    assert "1 file(s) could not be loaded: std.fabrics.clos" in err
    assert "--fail nosuch.0: no node named 'nosuch.0'" in err


def test_fail_help_examples_name_nodes_of_std_clos(capsys):
    """The --fail help's examples are real: each cuts something in std.fabrics.clos (the edge one
    exactly one cable)."""
    help_text = " ".join(build_parser()._subparsers._group_actions[0].choices["simulate"].format_help().split())
    help_text = help_text.replace("-- ", "--")  # argparse wraps the edge example after its '--'
    examples = re.search(r"cut a node \((\S+)\), a device copy \((\S+)\), a glob \((\S+)\) or an edge \((\S+)\)",
                         help_text).groups()
    assert examples == ("spine.1.asic.0", "spine.1", "spine.*", "leaf.0.port.4--spine.0.port.0")
    failed = []
    for target in examples:
        assert main(["analyze", CLOS, "--fail", target, "--json"]) == 0, target
        failed.append(json.loads(capsys.readouterr().out)["failures"]["failed_edges"])
    assert failed == [8, 16, 64, 1]
