"""Workload sweeps under bad input (issue 20 item 5): every invalid combination and every bad key
is refused at the spec key that is wrong — exit 1, one located message, no traceback — before any
point runs; a point whose ranks do not match the fabric is a located error row, and the run exits 1."""

from __future__ import annotations

import pyarrow.parquet as pq
import pytest

from tests.sweep.workload_specs import TINY_MODEL

from .input_cases import at, cli, write

SPEC = TINY_MODEL + """\
axes:
  shape: "RI(4)"
  tp: [2, 4]
derive:
  dp: "4 // tp"
"""


def run(capsys, tmp_path, text: str, *options: str) -> tuple[int, str, str]:
    spec = write(tmp_path, "s.yaml", text)
    code, out = cli(capsys, "sweep", spec, *(options or ("--dry-run",)))
    assert "Traceback" not in out and "internal error" not in out, out
    return code, out, str(spec)


@pytest.mark.parametrize("change, marker, message", [
    (("tp: [2, 4]", "tp: [2, 3]"), "[2, 3]", "heads 4 must divide evenly over tp 3"),
    (("  tp: [2, 4]\n", "  tp: [2, 4]\n  pp: [1, 4]\n"), "[1, 4]", "layers 2 must divide evenly over pp 4"),
    (("  vocab: 100\n", "  vocab: 100\n  tpp: 2\n"), "2\n  global_batch", "'tpp' is not a workload key"),
    (("  tp: [2, 4]\n", "  tp: [2, 4]\n  size: [1MiB]\n"), "[1MiB]", "'size' does not apply to a workload sweep"),
    (("  tp: [2, 4]\n", "  tp: [2, 4]\n  efficiency: [0]\n"), "[0]",
     "'efficiency' is 0; expected a finite number > 0"),
    (("  tp: [2, 4]\n", "  tp: [2, 4]\n  zero: [true]\n"), "[true]", "'zero' is True; expected a whole number"),
])
def test_a_bad_workload_key_or_combination_is_located_before_anything_runs(tmp_path, capsys, change, marker, message):
    text = SPEC.replace(*change)
    for options in ((), ("-o", str(tmp_path / "r"), "-q")):
        code, out, spec = run(capsys, tmp_path, text, *options)
        assert code == 1 and message in out, out
        assert out.startswith(at(spec, text, marker)), out
        assert not (tmp_path / "r.parquet").exists()  # nothing ran, nothing was claimed


@pytest.mark.parametrize("change, marker, message", [
    ((SPEC[SPEC.index("workload:"):SPEC.index("axes:")], "workload: [2]\n"), "[2]",
     "workload: error: [2] is a list; expected text or a mapping"),
    (("  layers: 2\n", "  layers: [2]\n"), "[2]", "workload.layers: error: [2] is not of type"),
    (("derive:\n", "where: 7\nderive:\n"), "7", "where: error: 7 is a whole number; expected text or a list"),
    (("derive:\n", "where: ''\nderive:\n"), "''", "where: error: '' should be non-empty"),
])
def test_a_value_of_the_wrong_kind_says_what_was_found_and_expected(tmp_path, capsys, change, marker, message):
    """An anyOf section (text or a mapping, text or a list) names the kinds, not 'any of the given schemas'."""
    text = SPEC.replace(*change)
    code, out, spec = run(capsys, tmp_path, text)
    assert code == 1 and message in out and "given schemas" not in out, out
    assert out.startswith(at(spec, text, marker)), out


def test_a_bad_constant_in_the_section_gets_no_where_hint(tmp_path, capsys):
    """A value the section itself gets wrong is wrong at every point: no point named, no `where` hint."""
    text = SPEC.replace("  hidden: 256\n", "  hidden: .nan\n")
    code, out, spec = run(capsys, tmp_path, text)
    assert code == 1 and "'hidden' is nan; expected a whole number >= 1" in out, out
    assert out.startswith(at(spec, text, ".nan")) and "where" not in out and "(at " not in out, out


def test_a_missing_workload_file_is_located(tmp_path, capsys):
    text = "source: std.fabrics.stack\nworkload: gone.yaml\naxes:\n  shape: \"RI(4)\"\n"
    code, out, spec = run(capsys, tmp_path, text)
    assert code == 1 and "no such workload spec 'gone.yaml'" in out and out.startswith(at(spec, text, "gone.yaml"))


def test_a_point_whose_ranks_are_not_the_fabrics_npus_is_a_located_error_row(tmp_path, capsys):
    text = SPEC.replace('dp: "4 // tp"', 'dp: "8 // tp"')
    code, out, spec = run(capsys, tmp_path, text, "-o", str(tmp_path / "r"), "--workers", "1", "-q")
    assert code == 1 and "2 failed" in out
    rows = pq.read_table(tmp_path / "r.parquet").to_pylist()
    assert [r["status"] for r in rows] == ["error", "error"]
    assert all(r["error"].startswith(at(spec, text, '"8 // tp"')) for r in rows)
    assert "tp x pp x dp = 2 x 1 x 4 = 8 ranks, but the fabric has 4 NPUs" in rows[0]["error"]
    assert 'where' in rows[0]["error"]  # the hint


def test_a_bad_report_expression_is_located(tmp_path, capsys):
    text = SPEC + "report:\n  per_npu: \"step_time_ns / num_npu\"\n"
    code, out, spec = run(capsys, tmp_path, text)
    assert code == 1 and "unknown name 'num_npu'" in out and "num_npus" in out
    assert out.startswith(at(spec, text, "num_npu\"", shift=0).rsplit(":", 1)[0]), out
