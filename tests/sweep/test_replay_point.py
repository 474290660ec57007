"""Workload sweeps end to end (infragraph/sweep/replay_point.py through the driver): each row is
the replay `infragraph simulate --workload` gives for the same ETs on the same fabric, each
distinct workload is generated once, a point whose tp x pp x dp is not the fabric's NPU count is an
error row located at the spec key, and a resumed sweep reuses the rows."""

from __future__ import annotations

import pyarrow.parquet as pq
import pytest

from infragraph.simulate import SimulationOptions, prepare
from infragraph.sources import load_graph
from infragraph.sweep import sweep
from infragraph.workload.llm import Generator, LlmSpec
from infragraph.workload.replay import ReplayOptions, replay
from infragraph.workload.trace import read_et_set

from .workload_specs import TINY, write


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("tiny")
    report = sweep(write(tmp), tmp / "r", workers=1, show_progress=False)
    return tmp, report, pq.read_table(tmp / "r.parquet").to_pylist()


def test_every_point_is_the_replay_of_its_workload_on_its_fabric(tiny):
    tmp, report, rows = tiny
    assert report.failed == 0 and [r["status"] for r in rows] == ["ok"] * 4
    r = rows[3]  # tp 4, dp 1, the first dimension at 100 GB/s
    assert (r["tp"], r["dp"], r["bandwidth"]) == (4, 1, '["100 GB/s", "50 GB/s"]')
    spec = LlmSpec(layers=2, hidden=256, heads=4, seq=128, vocab=100, global_batch=4, tp=4, dp=1)
    Generator(spec).write(tmp / "direct" / "step")
    g = load_graph("std.fabrics.stack", {"shape": '"FC(2)_RI(2)"', "bandwidth": "[100 GB/s, 50 GB/s]"})
    w = read_et_set(str(tmp / "direct" / "step"), 4, str(tmp / "direct" / "step.json"))
    direct = replay(prepare(g), w, ReplayOptions(sim=SimulationOptions(top_links=0)))
    assert r["step_time_ns"] == direct["step_time_ns"]
    n = direct["npus"]
    assert r["exposed_comm_ns_mean"] == pytest.approx(sum(x["exposed_ns"] for x in n) / 4, rel=1e-12)
    assert r["idle_ns_mean"] == pytest.approx(sum(x["idle_to_step_ns"] for x in n) / 4, rel=1e-12)
    assert r["waiting_ns_mean"] == pytest.approx(sum(x["waiting_ns"] for x in n) / 4, rel=1e-12)
    parts = r["compute_ns_mean"] + r["exposed_comm_ns_mean"] + r["waiting_ns_mean"] + r["idle_ns_mean"]
    assert parts == pytest.approx(r["step_time_ns"], rel=1e-9)
    assert r["collectives"] == len(direct["collectives"]) and r["num_npus"] == 4
    assert r["tflops_per_npu"] == pytest.approx(spec.step_flops() / 4 / r["step_time_ns"] / 1e3)
    loads = {k: v for k, v in r.items() if k.startswith("load_gbit_per_s[")}
    assert loads == {f"load_gbit_per_s[{t['tier']}]": t["mean_gbit_per_s_per_link"] for t in direct["tiers"]
                     if t["bytes"] > 0}


def test_more_bandwidth_gives_a_shorter_step(tiny):
    _tmp, _report, rows = tiny
    assert rows[1]["step_time_ns"] < rows[0]["step_time_ns"]
    assert rows[3]["step_time_ns"] < rows[2]["step_time_ns"]


def test_each_distinct_workload_is_generated_once(tiny):
    tmp, _report, rows = tiny
    assert sum(r["generated"] for r in rows) == 2
    assert len([d for d in (tmp / "r.workloads").iterdir() if not d.name.startswith(".")]) == 2


def test_a_resumed_workload_sweep_reuses_its_rows(tiny):
    tmp, _report, rows = tiny
    again = sweep(write(tmp), tmp / "r", workers=1, show_progress=False)
    assert (again.ran, again.skipped) == (0, 4)
    assert pq.read_table(tmp / "r.parquet").to_pylist() == rows


def test_a_point_with_the_wrong_number_of_ranks_is_a_located_error_row(tmp_path):
    text = TINY.replace('dp: "4 // tp"', 'dp: "2"').replace("  bw: [50, 100]\n", "  bw: [50]\n")
    spec = write(tmp_path, text)
    report = sweep(spec, tmp_path / "r", workers=1, show_progress=False)
    rows = pq.read_table(tmp_path / "r.parquet").to_pylist()
    assert report.failed == 1 and [r["status"] for r in rows] == ["ok", "error"]
    line = text[:text.index('dp: "2"')].count("\n") + 1
    assert rows[1]["error"].startswith(f"{spec}:{line}:")
    assert "derive.dp" in rows[1]["error"]
    assert "tp x pp x dp = 4 x 1 x 2 = 8 ranks, but the fabric has 4 NPUs" in rows[1]["error"]
    assert "Traceback" not in rows[1]["error"]
