"""Messages that name their option (issue 21 item 3): a failure that leaves no network or splits
the group is located at the option the user gave (--fail or --fail-random), and translate's
--size out of range is located at --size, never "<input>:"."""

from __future__ import annotations

import pytest

from infragraph.cli import main

CLOS = "std.fabrics.clos"


def run(capsys, *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    _, err = capsys.readouterr()
    assert "Traceback" not in err and "internal error" not in err
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
    code, err = run(capsys, "simulate", CLOS, "--fail-random", "1")
    assert code == 1
    assert err.startswith("--fail-random: error: process group 0 is disconnected by the failures")


def test_fail_and_fail_random_name_both(capsys):
    code, err = run(capsys, "simulate", CLOS, "--fail", "spine.*", "--fail-random", "1")
    assert code == 1
    assert err.startswith("--fail/--fail-random: error: ")


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_lint_unknown_fail_target_says_why_on_stderr(capsys, fmt):
    code, err = run(capsys, "lint", CLOS, "--fail", "nosuch.0", "--format", fmt)
    assert code == 2  # lint's "a source could not be loaded" (docs/lint.md)
    assert "1 file(s) could not be loaded: std.fabrics.clos" in err
    assert "--fail nosuch.0: no node named 'nosuch.0'" in err
