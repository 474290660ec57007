"""sweep under bad input (issue 21 item 2): every point of the spec is in the table exactly once
(keyed by its index, never by its inputs), nothing is claimed that did not happen, a resumed
journal is checked line by line, two sweeps never write one output, and options and paths are
refused at the option or file that is wrong — exit 1, one located message, no traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from infragraph.sweep.points import expand
from infragraph.sweep.spec import read_spec

from .input_cases import at, cli, write

ROOT = Path(__file__).resolve().parent.parent.parent

ONE = """\
source: std.fabrics.stack
axes:
  shape: ["SW(2)"]
  size: [1024, 2048]
"""


def sweep(capsys, spec: Path, *options: str) -> tuple[int, str]:
    code, text = cli(capsys, "sweep", spec, *options)
    assert "Traceback" not in text and "internal error" not in text, text
    return code, text


def table(path: Path) -> list[dict]:
    return pq.read_table(path).to_pylist()


def journal_row(spec: Path, index: int = 0, **fields) -> dict:
    """A well-formed journal row for point `index` of `spec` (its real key), overridden by `fields`."""
    p = expand(read_spec(spec))[index]
    return {"point": p.index, "key": p.key, **p.inputs, "status": "ok", "error": None, "num_npus": 2,
            "time_ns": 1000.0, "algbw_gb_per_s": 1.0, "busbw_gb_per_s": 1.0, "utilization_max": 0.5,
            "bottleneck_tier": "npu–sw", "warnings": None, "links_used": 4, "chunk_bytes": 1024.0, "events": 10,
            "engine_wall_s": 0.001, "point_wall_s": 0.002, "compiled": True, "worker": "host:1", **fields}


# -- every point exactly once ------------------------------------------------------------------------

def test_identical_inputs_are_three_points_not_one_point_three_times(tmp_path, capsys):
    spec = write(tmp_path, "s.yaml", "source: std.fabrics.stack\naxes:\n  shape: [\"SW(2)\"]\n"
                                     "  size: [1024, 1024, 1024]\n")
    code, text = sweep(capsys, spec, "-o", tmp_path / "r", "--workers", "1", "-q")
    assert code == 0, text
    rows = table(tmp_path / "r.parquet")
    assert [r["point"] for r in rows] == [0, 1, 2]
    assert len({r["key"] for r in rows}) == 1  # the key names a result (equal inputs, equal key), not a row
    assert all(r["status"] == "ok" and r["size_bytes"] == 1024 for r in rows)
    assert len({r["time_ns"] for r in rows}) == 1


def test_points_that_differ_only_in_a_variable_keep_their_own_rows(tmp_path, capsys):
    # x only feeds a derived value that comes out the same: the simulations are identical, the rows are not
    spec = write(tmp_path, "s.yaml", textwrap.dedent("""\
        source: std.fabrics.stack
        axes:
          shape: ["SW(2)"]
          x: [3, 1, 2]
        derive:
          chunks: "1 + 0 * x"
    """))
    code, text = sweep(capsys, spec, "-o", tmp_path / "r", "--workers", "1", "-q")
    assert code == 0, text
    rows = table(tmp_path / "r.parquet")
    assert [(r["point"], r["x"]) for r in rows] == [(0, 3), (1, 1), (2, 2)]


@pytest.mark.parametrize("value", [".nan", ".inf", "-.inf"])
def test_a_non_finite_axis_value_is_refused_where_it_is_written(tmp_path, capsys, value):
    text = f"source: std.fabrics.stack\naxes:\n  shape: [\"SW(2)\"]\n  x: [1.0, {value}]\nderive:\n  chunks: \"1 + 0 * x\"\n"
    spec = write(tmp_path, "s.yaml", text)
    code, out = sweep(capsys, spec, "-o", tmp_path / "r")
    assert code == 1
    assert out.startswith(f"{at(spec, text, value)}: axes.x[1]: error: ")
    assert "not a finite number" in out
    assert not list(tmp_path.glob("r.*"))


def test_a_non_finite_derived_constant_is_refused(tmp_path, capsys):
    text = "source: std.fabrics.stack\naxes:\n  shape: [\"SW(2)\"]\nderive:\n  chunks: .nan\n"
    spec = write(tmp_path, "s.yaml", text)
    code, out = sweep(capsys, spec, "--dry-run")
    assert code == 1
    assert out.startswith(f"{at(spec, text, '.nan')}: derive.chunks: error: ") and "not a finite number" in out


@pytest.mark.parametrize("expression", ["float('nan')", "[1, float('inf')]", "[[1e308 * 10]]"])
def test_a_derived_value_that_is_not_finite_is_refused_before_anything_runs(tmp_path, capsys, expression):
    text = (f"source: std.fabrics.stack\naxes:\n  shape: [\"SW(2)\"]\n  x: [1, 2]\nderive:\n  y: \"{expression}\"\n"
            "where: \"x > 0 and len(str(y)) > 0\"\n")
    spec = write(tmp_path, "s.yaml", text)
    code, out = sweep(capsys, spec, "-o", tmp_path / "r")
    assert code == 1
    assert out.startswith(f"{at(spec, text, expression)}: derive.y: error: the value is "), out
    assert "not a finite number (at shape='SW(2)', x=1)" in out and not list(tmp_path.glob("r.*"))


@pytest.mark.parametrize("name", ["time_ns", "status", "point", "size_bytes", "worker"])
def test_a_name_that_is_a_table_column_is_refused(tmp_path, capsys, name):
    text = f"source: std.fabrics.stack\naxes:\n  shape: [\"SW(2)\"]\n  {name}: [1, 2]\nwhere: \"{name} > 0\"\n"
    spec = write(tmp_path, "s.yaml", text)
    code, out = sweep(capsys, spec, "--dry-run")
    assert code == 1
    assert out.startswith(f"{at(spec, text, '[1, 2]')}: axes.{name}: error: '{name}' is a column of the results table")


# -- no wrong claims ---------------------------------------------------------------------------------

@pytest.mark.parametrize("dry", [False, True])
def test_a_where_that_keeps_no_point_is_an_error_and_writes_nothing(tmp_path, capsys, dry):
    text = "source: std.fabrics.stack\naxes:\n  shape: [\"SW(2)\"]\n  x: [1, 2, 3]\nwhere: \"x > 5\"\n"
    spec = write(tmp_path, "s.yaml", text)
    code, out = sweep(capsys, spec, *(["--dry-run"] if dry else ["-o", tmp_path / "r"]))
    assert code == 1
    assert out.startswith(f"{at(spec, text, 'x > 5')}: where: error: the condition keeps none of the 3 points")
    assert "wrote" not in out and not list(tmp_path.glob("r*"))


# -- journals are checked when resumed ---------------------------------------------------------------

@pytest.mark.parametrize("bad, message", [
    ({"time_ns": "garbage"}, "time_ns must be a finite number ≥ 0, got 'garbage'"),
    ({"time_ns": None}, "time_ns must be a finite number ≥ 0, got None"),
    ({"time_ns": -1}, "time_ns must be a finite number ≥ 0, got -1"),
    ({"status": "fine"}, "status must be ok, error or not-run, got 'fine'"),
    ({"status": "error", "error": None}, "a failed point's error must be a message, got None"),
    ({"point": "0"}, "point must be a whole number ≥ 0, got '0'"),
    ({"key": 7}, "key must be a point key (text), got 7"),
    ({"compiled": "yes"}, "compiled must be true or false, got 'yes'"),
])
def test_a_journal_row_that_is_wrong_is_refused_naming_the_line(tmp_path, capsys, bad, message):
    spec = write(tmp_path, "s.yaml", ONE)
    journal = tmp_path / "r.partial.jsonl"
    good = journal_row(spec, 0)
    journal.write_text(json.dumps(good) + "\n" + json.dumps({**journal_row(spec, 1), **bad}) + "\n")
    code, out = sweep(capsys, spec, "-o", tmp_path / "r")
    assert code == 1
    assert out.startswith(f"{journal}:2: error: corrupt sweep journal: {message}"), out
    assert "delete" in out  # the hint says what to do
    assert not (tmp_path / "r.parquet").exists()


@pytest.mark.parametrize("line, message", [
    ("[1, 2]", "expected a row (a JSON object), got a list"),
    ("\"text\"", "expected a row (a JSON object), got a string"),
    ("{\"point\": 0,", "not JSON: "),
    ("NaN", "expected a row (a JSON object), got a float"),
])
def test_a_journal_that_is_not_rows_is_refused_naming_the_line(tmp_path, capsys, line, message):
    spec = write(tmp_path, "s.yaml", ONE)
    journal = tmp_path / "r.partial.jsonl"
    journal.write_text(line + "\n" + json.dumps(journal_row(spec, 0)) + "\n")
    code, out = sweep(capsys, spec, "-o", tmp_path / "r")
    assert code == 1
    assert out.startswith(f"{journal}:1: error: corrupt sweep journal: {message}"), out


@pytest.mark.parametrize("name", ["r.partial.jsonl", "r.lock", "r.parquet"])
def test_a_folder_where_a_file_of_the_run_goes_is_located(tmp_path, capsys, name):
    spec = write(tmp_path, "s.yaml", ONE)
    (tmp_path / name).mkdir()
    code, out = sweep(capsys, spec, "-o", tmp_path / "r")
    assert code == 1
    assert out.startswith(f"{tmp_path / name}: error: cannot "), out


def test_a_journal_cut_short_by_a_kill_loses_only_its_last_line(tmp_path, capsys):
    spec = write(tmp_path, "s.yaml", ONE)
    journal = tmp_path / "r.partial.jsonl"
    kept = journal_row(spec, 0)
    journal.write_text(json.dumps(kept) + "\n" + json.dumps(journal_row(spec, 1))[:40])  # no newline: cut short
    code, out = sweep(capsys, spec, "-o", tmp_path / "r", "--workers", "1", "-q")
    assert code == 0, out
    assert "2 points: 1 run, 1 already done, 0 failed" in out
    rows = table(tmp_path / "r.parquet")
    assert [r["point"] for r in rows] == [0, 1] and rows[0]["worker"] == "host:1" and rows[1]["status"] == "ok"


def test_a_row_of_another_point_is_not_taken_for_this_one(tmp_path, capsys):
    spec = write(tmp_path, "s.yaml", ONE)
    journal = tmp_path / "r.partial.jsonl"
    journal.write_text(json.dumps(journal_row(spec, 0, point=1)) + "\n")  # point 0's key under index 1
    code, out = sweep(capsys, spec, "-o", tmp_path / "r", "--workers", "1", "-q")
    assert code == 0, out
    rows = table(tmp_path / "r.parquet")
    assert [r["point"] for r in rows] == [0, 1] and rows[1]["size_bytes"] == 2048 and rows[1]["worker"] != "host:1"


def test_an_earlier_table_with_a_wrong_row_is_refused_naming_the_row(tmp_path, capsys):
    import pyarrow as pa

    spec = write(tmp_path, "s.yaml", ONE)
    rows = [journal_row(spec, 0), journal_row(spec, 1, status="ok", time_ns=float("nan"))]
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "r.parquet")
    code, out = sweep(capsys, spec, "-o", tmp_path / "r")
    assert code == 1
    assert out.startswith(f"{tmp_path / 'r.parquet'}: rows[1]: error: corrupt results table: time_ns must be a "
                          "finite number ≥ 0, got nan"), out


# -- options and paths -------------------------------------------------------------------------------

@pytest.mark.parametrize("output", [".", "..", "sub/"])
def test_an_output_that_is_a_folder_is_refused_at_the_option(tmp_path, capsys, output, monkeypatch):
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path)
    spec = write(tmp_path, "s.yaml", ONE)
    code, out = sweep(capsys, spec, "-o", output)
    assert code == 1
    assert out.startswith(f"-o: error: '{output}' names a folder; give the results a name, e.g. "), out
    assert not list(tmp_path.rglob("*.parquet"))


@pytest.mark.parametrize("content, message", [
    ("garbage", "not a Dask scheduler file: not JSON"),
    ("[1, 2]", "not a Dask scheduler file: expected a JSON object with an 'address'"),
    ("{\"addr\": 1}", "not a Dask scheduler file: expected a JSON object with an 'address'"),
])
def test_a_garbage_scheduler_file_is_refused(tmp_path, capsys, content, message):
    spec = write(tmp_path, "s.yaml", ONE)
    scheduler = write(tmp_path, "scheduler.json", content)
    code, out = sweep(capsys, spec, "-o", tmp_path / "r", "--scheduler", scheduler)
    assert code == 1
    assert out.startswith(f"{scheduler}: --scheduler: error: {message}"), out
    assert not list(tmp_path.glob("r.*"))


@pytest.mark.parametrize("options, message", [
    (["--scheduler", "nosuch.json"], "nosuch.json: --scheduler: error: no such scheduler file"),
    (["--scheduler", "garbage"], "--scheduler: error: cannot connect to the Dask scheduler garbage"),
    (["--workers", "0"], "--workers: error: --workers must be at least 1, got 0"),
    (["--workers", "2", "--scheduler", "tcp://127.0.0.1:1"], "--workers: error: --workers applies to the local pool"),
])
def test_bad_executor_options_name_the_option(tmp_path, capsys, options, message, monkeypatch):
    monkeypatch.chdir(tmp_path)
    spec = write(tmp_path, "s.yaml", ONE)
    code, out = sweep(capsys, spec, "-o", tmp_path / "r", *options)
    assert code == 1
    assert out.startswith(message), out


def test_bad_executor_options_are_refused_even_when_nothing_is_left_to_run(tmp_path, capsys):
    spec = write(tmp_path, "s.yaml", ONE)
    (tmp_path / "r.partial.jsonl").write_text("".join(json.dumps(journal_row(spec, i)) + "\n" for i in (0, 1)))
    code, out = sweep(capsys, spec, "-o", tmp_path / "r", "--workers", "0")
    assert code == 1 and out.startswith("--workers: error: --workers must be at least 1, got 0"), out


# -- one writer per output ---------------------------------------------------------------------------

HOLD = """
import sys, time
from infragraph.sweep.lock import OutputLock
with OutputLock(sys.argv[1]):
    print("held", flush=True)
    time.sleep(120)
"""


def test_a_second_sweep_on_the_same_output_is_refused(tmp_path, capsys):
    spec = write(tmp_path, "s.yaml", ONE)
    lock = tmp_path / "r.lock"
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(lock)], cwd=ROOT, stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert holder.stdout.readline().strip() == "held"
        code, out = sweep(capsys, spec, "-o", tmp_path / "r")
        assert code == 1
        assert out.startswith(f"{lock}: error: another sweep is writing these results (pid {holder.pid} on "), out
        assert not (tmp_path / "r.partial.jsonl").exists() and not (tmp_path / "r.parquet").exists()
    finally:
        holder.kill()
        holder.wait()
    # the holder died without cleaning up: its lock file is left, its lock is not
    assert lock.exists()
    code, out = sweep(capsys, spec, "-o", tmp_path / "r", "--workers", "1", "-q")
    assert code == 0, out
    assert len(table(tmp_path / "r.parquet")) == 2 and not lock.exists()


# -- simulation options the graph or the combination refuses (issue 23 review) -----------------------

def test_scheduling_options_no_model_of_the_point_runs_are_refused_before_anything_runs(tmp_path, capsys):
    """themis under the fair model ran every point into "<input>: error: ..." rows; now the spec is
    refused at the axis that asks for it, nothing run."""
    spec = write(tmp_path, "s.yaml", "source: std.fabrics.stack\naxes:\n  shape: [\"SW(2)\"]\n  model: fair\n"
                                     "  inter_dimension_scheduling: [baseline, themis]\n")
    code, text = sweep(capsys, spec, "-o", tmp_path / "r", "--workers", "1", "-q")
    assert code == 1 and text.startswith(f"{spec}:5:31: axes.inter_dimension_scheduling: error: "), text
    assert "got fifo scheduling with model fair" in text and "themis" in text
    assert not (tmp_path / "r.parquet").exists()


def test_an_option_the_graph_refuses_is_located_at_its_spec_key(tmp_path, capsys):
    """The chunk limit needs the group's size, so it is checked on the worker; its row said
    "chunks: error: ..." and now names the spec's line."""
    spec = write(tmp_path, "s.yaml", "source: std.fabrics.stack\naxes:\n  shape: [\"SW(2)\"]\n  chunks: 99999999\n")
    code, text = sweep(capsys, spec, "-o", tmp_path / "r", "--workers", "1", "-q")
    assert code == 1, text
    [row] = table(tmp_path / "r.parquet")
    assert row["error"].startswith(f"{spec}:4:11: axes.chunks: error: 99,999,999 chunks on 2 group members"), row


@pytest.mark.parametrize("axes, where, message", [
    # each was "<input>: error: cannot simulate: invalid input: ..." in the point's row
    ('  algorithm: "ring,direct,ring"\n', ":4:14: axes.algorithm:",
     "3 algorithms for 2 dimensions (4x2: the graph's dims annotation)"),
    ('  dims: "3,3"\n', ":4:9: axes.dims:", "dims 3x3 multiply to 9 but the group has 8 ranks"),
    ("  root: 99\n  collective: broadcast\n", ":4:9: axes.root:", "root member 99 is outside the group of 8"),
    ("  collective: point-to-point\n", ":4:15: axes.collective:", "point-to-point needs groups of exactly 2 ranks"),
])
def test_options_the_graph_refuses_name_their_spec_key(tmp_path, capsys, axes, where, message):
    spec = write(tmp_path, "s.yaml", f'source: std.fabrics.stack\naxes:\n  shape: "RI(4)_SW(2)"\n{axes}')
    code, text = sweep(capsys, spec, "-o", tmp_path / "r", "--workers", "1", "-q")
    assert code == 1, text
    [row] = table(tmp_path / "r.parquet")
    assert row["error"].startswith(f"{spec}{where} error: {message}"), row["error"]
