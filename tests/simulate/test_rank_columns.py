"""`simulate --json-ranks columns`: the result's ranks as one list per field (simulate/rank_columns.py),
the same values as the rows, valid against schemas/simulation-result.schema.json; rows stay the default."""

from __future__ import annotations

import json

import pytest

from infragraph import schemas
from infragraph.cli import main
from infragraph.simulate.rank_columns import FIELDS
from infragraph.errors import InfraGraphError
from tests.badinput.input_cases import cli
from tests.simgraphs import write_ring


@pytest.fixture
def ring8(tmp_path):
    return write_ring(tmp_path / "ring8.yaml", 8)


def _both(ring8, tmp_path, *argv):
    """The --json result as rows (the default) and as columns, for the same run."""
    out = []
    for layout in ("rows", "columns"):
        path = tmp_path / f"{layout}.json"
        assert main(["simulate", ring8, "--model", "aware", *argv, "--json", str(path), "--json-ranks", layout]) == 0
        out.append(json.loads(path.read_text()))
    return out


def _columns_of(rows: list[dict]) -> dict[str, list]:
    return {f: [r[f] for r in rows] for f in FIELDS}


def test_columns_hold_the_rows_values_and_both_match_the_schema(ring8, tmp_path, capsys):
    rows, columns = _both(ring8, tmp_path, "--size", "1MiB")
    assert isinstance(rows["ranks"], list) and len(rows["ranks"]) == 8
    assert columns["ranks"] == _columns_of(rows["ranks"])
    assert columns["ranks"]["rank"] == list(range(8))
    strip = lambda r: {k: v for k, v in r.items() if k not in ("ranks", "wall_time_s", "events_per_second")}
    assert strip(columns) == strip(rows)  # nothing else changes
    schemas.validate("simulation-result", rows)
    schemas.validate("simulation-result", columns)


def test_a_size_sweep_lists_every_result_as_columns(ring8, tmp_path, capsys):
    rows, columns = _both(ring8, tmp_path, "--size", "1KiB..4KiB")
    assert len(rows) == len(columns) == 3
    for r, c in zip(rows, columns):
        assert c["ranks"] == _columns_of(r["ranks"])
        schemas.validate("simulation-result", c)


def test_a_comparison_lists_each_algorithms_ranks_as_columns(ring8, tmp_path, capsys):
    path = tmp_path / "cmp.json"
    assert main(["simulate", ring8, "--algorithm", "ring,synthesized", "--json", str(path), "--json-ranks", "columns"]) == 0
    results = json.loads(path.read_text())["results"]
    assert [r["algorithm_requested"] for r in results] == [["ring"], ["synthesized"]]
    assert all(r["ranks"]["node"] == results[0]["ranks"]["node"] and len(r["ranks"]["finish_ns"]) == 8 for r in results)


def test_the_schema_refuses_columns_that_are_not_lists_of_the_fields(ring8, tmp_path, capsys):
    _rows, result = _both(ring8, tmp_path, "--size", "1MiB")
    good = result["ranks"]
    for ranks in ({k: v for k, v in good.items() if k != "bytes_received"},  # a field missing
                  {**good, "extra": [1] * 8},
                  {**good, "node": "npu"}):
        with pytest.raises(InfraGraphError, match=r"ranks"):
            schemas.validate("simulation-result", {**result, "ranks": ranks})


@pytest.mark.parametrize("argv, words", [
    ([], "--json-ranks says how the --json result lists the ranks; give --json too"),
    (["--json", "-", "--workload", "w.txt"], "a workload's result lists its NPUs"),
])
def test_json_ranks_where_it_would_do_nothing_is_an_option_error(ring8, tmp_path, capsys, argv, words):
    code, out = cli(capsys, "simulate", ring8, "--json-ranks", "columns", *argv)
    assert code == 1 and out.startswith(f"--json-ranks: error: {words}"), out
