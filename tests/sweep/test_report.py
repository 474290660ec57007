"""The spec's `report` columns (run.py report_columns, spec.py _report): computed from each
finished point's inputs and metrics, placed after the metrics, recomputed on resume; a bad name is
refused before anything runs and a value that cannot be computed is the point's located error."""

from __future__ import annotations

import pyarrow.parquet as pq
import pytest

from infragraph.errors import InfraGraphError
from infragraph.sweep import sweep
from infragraph.sweep.spec import read_spec

BASE = """\
source: std.fabrics.stack
axes:
  shape: ["SW(2)"]
  size: [1024, 4096]
  price: [3]
report:
"""


def write(tmp_path, report: str):
    p = tmp_path / "s.yaml"
    p.write_text(BASE + report, encoding="utf-8")
    return p


def test_report_columns_follow_the_metrics_and_read_each_other(tmp_path):
    spec = write(tmp_path, '  time_us: "time_ns / 1000"\n  dollars: "time_us * price"\n  label: "f\'{size_bytes}B\'"\n')
    sweep(spec, tmp_path / "r", workers=1, show_progress=False)
    table = pq.read_table(tmp_path / "r.parquet")
    names = table.column_names
    assert names.index("worker") < names.index("time_us") < names.index("dollars") < names.index("label")
    for r in table.to_pylist():
        assert r["time_us"] == pytest.approx(r["time_ns"] / 1000)
        assert r["dollars"] == pytest.approx(r["time_ns"] / 1000 * 3)
        assert r["label"] == f"{r['size_bytes']}B"
    again = sweep(spec, tmp_path / "r", workers=1, show_progress=False)
    assert again.skipped == 2 and pq.read_table(tmp_path / "r.parquet").to_pylist() == table.to_pylist()


def test_a_report_changed_between_runs_is_recomputed_from_the_stored_metrics(tmp_path):
    spec = write(tmp_path, '  t2: "time_ns * price"\n')
    sweep(spec, tmp_path / "r", workers=1, show_progress=False)
    spec = write(tmp_path, '  t3: "time_ns * price * 2"\n')
    again = sweep(spec, tmp_path / "r", workers=1, show_progress=False)
    rows = pq.read_table(tmp_path / "r.parquet").to_pylist()
    assert again.ran == 0 and all(r["t3"] == r["time_ns"] * 6 and "t2" not in r for r in rows)


@pytest.mark.parametrize("report, message, marker", [
    ('  x: "time_nss * price"\n', "unknown name 'time_nss'", "time_nss"),
    ('  x: "price"\n  time_ns: "1"\n', "'time_ns' is already a column", "time_ns:"),
    ('  x: "price"\n  price: "1"\n', "'price' is already a column", "price: \""),
    ('  x: "routing * price"\n', "unknown name 'routing'", "routing"),  # an option the table does not hold
])
def test_a_bad_report_column_is_refused_before_anything_runs(tmp_path, report, message, marker):
    spec = write(tmp_path, report)
    with pytest.raises(InfraGraphError) as e:
        read_spec(spec)
    text = BASE + report
    line = text[:text.rindex(marker)].count("\n") + 1
    assert message in str(e.value) and f"s.yaml:{line}:" in str(e.value)


def test_a_report_value_that_cannot_be_computed_is_the_points_located_error(tmp_path):
    spec = write(tmp_path, '  bad: "time_ns * price / (size_bytes - 1024)"\n')
    report = sweep(spec, tmp_path / "r", workers=1, show_progress=False)
    rows = pq.read_table(tmp_path / "r.parquet").to_pylist()
    assert report.failed == 1 and [r["status"] for r in rows] == ["error", "ok"]
    assert f"s.yaml:{BASE.count(chr(10)) + 1}:" in rows[0]["error"] and "report.bad" in rows[0]["error"]
    assert "at point 0" in rows[0]["error"]
