"""Running sweeps: the local pool and a Dask LocalCluster give the same table, a killed worker or a
killed run loses no finished point, a resumed sweep runs only the missing points, a failing point
is recorded without stopping the others."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from infragraph.cli import main
from infragraph.sweep import sweep
from tests.helpers import NO_FIXED_PORT

ROOT = Path(__file__).resolve().parents[2]
# Columns that say where and how fast a point ran, not what it computed.
RUN_COLUMNS = {"worker", "point_wall_s", "engine_wall_s", "compiled"}

SMALL = """
    source: std.fabrics.stack
    axes:
      shape: {shapes}
      collective: [all-reduce, all-gather]
      size: {sizes}
"""


def spec(tmp_path: Path, shapes=("SW(4)", "RI(4)"), sizes=("1KiB", "1MiB")) -> Path:
    p = tmp_path / "spec.yaml"
    p.write_text(textwrap.dedent(SMALL.format(shapes=json.dumps(list(shapes)), sizes=json.dumps(list(sizes)))))
    return p


def rows(path: Path) -> list[dict]:
    return pq.read_table(path).to_pylist()


def computed(table: list[dict]) -> list[dict]:
    return [{k: v for k, v in r.items() if k not in RUN_COLUMNS} for r in table]


def journal_rows(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.endswith("}")]


def wait_for_rows(journal: Path, n: int, running, timeout: float = 600) -> list[dict]:
    """The journal's rows once it has `n`; fails at once when the run ends without them
    (`running()` false). The timeout only ends a hang: under load the first row takes 20 to 28 s
    (a fresh driver, its forkserver and a compile; 8 runnable processes per core)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        alive = running()
        found = journal_rows(journal)
        if len(found) >= n:
            return found
        if not alive:
            raise AssertionError(f"the sweep ended with {len(found)} of {n} finished point(s) in {journal}")
        time.sleep(0.02)
    raise AssertionError(f"no {n} finished point(s) in {journal} after {timeout} s")


def test_local_run_then_resume_runs_only_the_missing_points(tmp_path):
    out = tmp_path / "res"
    first = sweep(spec(tmp_path), out, workers=2)
    assert (first.points, first.ran, first.skipped, first.failed) == (8, 8, 0, 0)
    before = {r["key"]: r for r in rows(first.table)}
    assert all(r["status"] == "ok" and r["time_ns"] > 0 and r["busbw_gb_per_s"] > 0 for r in before.values())
    assert sum(r["compiled"] for r in before.values()) <= 2 * 2  # each graph at most once per worker
    assert not (tmp_path / "res.partial.jsonl").exists()

    again = sweep(spec(tmp_path, sizes=("1KiB", "1MiB", "1GiB")), out, workers=2)
    assert (again.points, again.ran, again.skipped) == (12, 4, 8)
    after = rows(again.table)
    assert [r["point"] for r in after] == list(range(12))
    for r in after:
        if r["key"] in before:  # untouched: same worker process and timings as in the first run
            assert r["worker"] == before[r["key"]]["worker"] and r["point_wall_s"] == before[r["key"]]["point_wall_s"]
    assert sum(r["key"] not in before for r in after) == 4
    csv_lines = (tmp_path / "res.csv").read_text().splitlines()
    assert len(csv_lines) == 13 and csv_lines[0].startswith('"point","key","source","collective","size_bytes"')


def test_a_failing_point_is_recorded_and_the_others_run(tmp_path, capsys):
    p = tmp_path / "spec.yaml"
    p.write_text(textwrap.dedent("""
        source: std.fabrics.stack
        axes:
          shape: ["RI(3)", "RI(4)"]
          algorithm: halving-doubling
    """))
    assert main(["sweep", str(p), "-o", str(tmp_path / "res"), "--workers", "1"]) == 1
    err = capsys.readouterr().err
    assert "2 points: 2 run, 0 already done, 1 failed" in err and "point 0: " in err
    bad, good = rows(tmp_path / "res.parquet")
    assert bad["status"] == "error" and "power" in bad["error"] and bad["time_ns"] is None
    assert good["status"] == "ok" and good["time_ns"] > 0


def test_killed_run_keeps_finished_points_and_resumes(tmp_path):
    s = spec(tmp_path)
    out = tmp_path / "res"
    proc = subprocess.Popen([sys.executable, "-m", "infragraph", "sweep", str(s), "-o", str(out), "--workers", "1",
                             "-q"], cwd=ROOT, start_new_session=True, env={**os.environ, "PYTHONPATH": str(ROOT)},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_rows(tmp_path / "res.partial.jsonl", 1, lambda: proc.poll() is None)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # the run and its pool, as a crash or an OOM kill would
        proc.wait()
    kept = journal_rows(tmp_path / "res.partial.jsonl")
    # Killed before the table was written; all 8 rows may be in when a loaded machine delays the kill.
    assert 1 <= len(kept) <= 8 and not (tmp_path / "res.parquet").exists()
    resumed = sweep(s, out, workers=2)
    assert (resumed.ran, resumed.skipped) == (8 - len(kept), len(kept))
    final = {r["key"]: r for r in rows(resumed.table)}
    for r in kept:
        assert final[r["key"]]["worker"] == r["worker"] and final[r["key"]]["time_ns"] == r["time_ns"]


def _kill_a_worker_mid_sweep(tmp_path: Path, scheduler) -> tuple:
    """Run 4 graphs x 4 points in 8 tasks; when the first points are in, SIGKILL the worker that ran them."""
    s = spec(tmp_path, shapes=("SW(4)", "RI(4)", "RI(2)_RI(2)", "FC(4)"))
    out = tmp_path / "res"
    report = {}
    thread = threading.Thread(target=lambda: report.update(r=sweep(s, out, scheduler=scheduler,
                                                                   workers=None if scheduler else 2)))
    thread.start()
    early = wait_for_rows(tmp_path / "res.partial.jsonl", 1, thread.is_alive)
    os.kill(int(early[0]["worker"].rsplit(":", 1)[1]), signal.SIGKILL)
    thread.join(timeout=600)  # a hang's end only; the whole sweep takes some 30 s under load
    assert "r" in report, "the sweep did not finish"
    return report["r"], early


def test_a_worker_killed_mid_sweep_loses_no_finished_point_local(tmp_path):
    r, early = _kill_a_worker_mid_sweep(tmp_path, None)
    assert (r.points, r.failed) == (16, 0)
    assert r.retried >= 1  # the pool broke; its unfinished points ran again on a fresh pool
    final = {x["key"]: x for x in rows(r.table)}
    for x in early:  # finished before the kill: kept as they were, not run again
        assert final[x["key"]]["worker"] == x["worker"] and final[x["key"]]["point_wall_s"] == x["point_wall_s"]


@pytest.fixture(scope="module")
def dask_cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  scheduler_kwargs=NO_FIXED_PORT, silence_logs=50) as cluster:
        yield cluster


def test_dask_local_cluster_gives_the_same_table_as_the_local_pool(tmp_path, dask_cluster):
    # both workers up: a worker killed by another test of this module is being restarted
    dask_cluster.wait_for_workers(2, timeout=600)
    s = spec(tmp_path)
    local = sweep(s, tmp_path / "local", workers=2)
    dask = sweep(s, tmp_path / "dask", scheduler=dask_cluster.scheduler_address)
    assert dask.executor.startswith("Dask cluster at tcp://") and dask.failed == 0
    assert computed(rows(dask.table)) == computed(rows(local.table))
    assert len({r["worker"] for r in rows(dask.table)}) == 2  # both workers took part


def test_a_scheduler_file_reaches_the_same_cluster(tmp_path, dask_cluster):
    scheduler_file = tmp_path / "scheduler.json"
    scheduler_file.write_text(json.dumps({"address": dask_cluster.scheduler_address}))
    r = sweep(spec(tmp_path, shapes=("SW(4)",), sizes=("1KiB",)), tmp_path / "res", scheduler=str(scheduler_file))
    assert (r.points, r.failed) == (2, 0) and r.executor.startswith("Dask cluster at tcp://")


def test_a_dask_worker_killed_mid_sweep_loses_no_finished_point(tmp_path, dask_cluster):
    r, early = _kill_a_worker_mid_sweep(tmp_path, dask_cluster.scheduler_address)
    assert (r.points, r.failed) == (16, 0)
    final = {x["key"]: x for x in rows(r.table)}
    for x in early:
        assert final[x["key"]]["worker"] == x["worker"] and final[x["key"]]["point_wall_s"] == x["point_wall_s"]


def test_unreadable_earlier_results_and_unwritable_output_are_located(tmp_path, capsys):
    s = spec(tmp_path, shapes=("SW(4)",), sizes=("1KiB",))
    (tmp_path / "res.parquet").write_text("not parquet")
    assert main(["sweep", str(s), "-o", str(tmp_path / "res")]) == 1
    assert "res.parquet: error: cannot read earlier results" in capsys.readouterr().err
    (tmp_path / "file").write_text("")
    assert main(["sweep", str(s), "-o", str(tmp_path / "file" / "res")]) == 1
    assert f"res.parquet: error: cannot write results: '{tmp_path / 'file'}' is not a folder" in capsys.readouterr().err


def test_cli_dry_run_and_a_bad_spec(tmp_path, capsys):
    assert main(["sweep", str(spec(tmp_path)), "--dry-run"]) == 0
    assert "8 points over 2 distinct graph(s) of std.fabrics.stack" in capsys.readouterr().out
    bad = tmp_path / "bad.yaml"
    bad.write_text("source: std.fabrics.stack\naxes:\n  shape: [\"SW(4)\"]\n  modle: [aware]\n")
    assert main(["sweep", str(bad), "-o", str(tmp_path / "x")]) == 1
    assert "bad.yaml:4:10: axes.modle: error: 'modle' is not a simulation option" in capsys.readouterr().err
    assert main(["sweep", str(spec(tmp_path))]) == 1
    assert "give -o RESULTS" in capsys.readouterr().err


def test_batches_share_one_graph_balance_the_workers_and_stay_small():
    from infragraph.simulate import SimulationOptions
    from infragraph.sweep.points import Point
    from infragraph.sweep.run import MAX_BATCH, batch_by_graph

    points = [Point(i, {}, (), SimulationOptions(), f"g{g}", f"k{i}")
              for i, g in enumerate([0] * 30 + [1] * 2 + [2] * 300)]
    batches = batch_by_graph(points, workers=2)
    assert sorted(p.index for b in batches for p in b) == list(range(332))  # each point once
    assert all(len({p.graph_key for p in b}) == 1 and len(b) <= MAX_BATCH for b in batches)
    per_graph = {g: sum(b[0].graph_key == g for b in batches) for g in ("g0", "g1", "g2")}
    assert per_graph == {"g0": 1, "g1": 1, "g2": 8}  # small graphs whole; the big one split for balance


def test_a_sweep_varies_astra_sims_scheduling_options_and_the_engine_follows(tmp_path):
    """`infragraph simulate --intra-dimension-scheduling / --inter-dimension-scheduling` as sweep
    axes: each point runs with its own pair, and the table says which (the times are those of
    tests/simulate/test_run.py::test_scheduling_options_match_astra_sims_code, ASTRA-sim's own)."""
    p = tmp_path / "spec.yaml"
    p.write_text(textwrap.dedent("""
        source: std.fabrics.stack
        axes:
          shape: "RI(4)_RI(8)"
          bandwidth: [["50 GiB/s", "100 GiB/s"]]
          latency: [["500 ns", "500 ns"]]
          model: astra
          chunks: 8
          size: 1MiB
          intra_dimension_scheduling: [FIFO, FIFO, SCF]
          inter_dimension_scheduling: [baseline, themis, themis]
        zip: [[intra_dimension_scheduling, inter_dimension_scheduling]]
    """))
    r = sweep(p, tmp_path / "res", workers=1, show_progress=False)
    assert r.failed == 0
    got = [(x["intra_dimension_scheduling"], x["inter_dimension_scheduling"], x["time_ns"]) for x in rows(r.table)]
    assert got == [("FIFO", "baseline", 68_712), ("FIFO", "themis", 74_062), ("SCF", "themis", 70_692)]


def test_ctrl_c_writes_every_point_once_the_unrun_ones_as_not_run(tmp_path):
    s = spec(tmp_path, shapes=("SW(4)", "RI(4)", "RI(2)_RI(2)", "FC(4)"))
    out = tmp_path / "res"
    proc = subprocess.Popen([sys.executable, "-m", "infragraph", "sweep", str(s), "-o", str(out), "--workers", "1",
                             "-q"], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # see test_progress
    wait_for_rows(tmp_path / "res.partial.jsonl", 1, lambda: proc.poll() is None)
    proc.send_signal(signal.SIGINT)  # the driver only, as Ctrl-C in a shell that runs it in the background
    _, err = proc.communicate(timeout=600)
    if proc.returncode == 0:
        pytest.skip("the sweep finished before the interrupt arrived")
    assert proc.returncode == 130 and "status not-run" in err
    table = rows(tmp_path / "res.parquet")
    assert [r["point"] for r in table] == list(range(16))
    statuses = {r["status"] for r in table}
    assert statuses <= {"ok", "not-run"}
    if "not-run" not in statuses:  # the interrupt came after the last point, while the table was written
        pytest.skip("every point had finished when the interrupt arrived")
    resumed = sweep(s, out, workers=1, show_progress=False)
    assert resumed.ran == sum(r["status"] == "not-run" for r in table) and resumed.failed == 0
    assert {r["status"] for r in rows(resumed.table)} == {"ok"}
