"""The sweep never loses or repeats a point (issue 21 item 2), as a property over random small specs:

- a run killed with SIGKILL at random moments (its whole process group: the driver, its fork
  server and its pool), then resumed with the same command, gives the table of an uninterrupted run;
- a run on a local Dask cluster whose workers are SIGKILLed mid-run gives that same table.

"The same table" means the same rows in the same order with the same inputs, status, error and
metrics; only the columns that say where and how fast a point ran may differ. The specs repeat
axis values (points with equal inputs) and include points that fail (halving-doubling on a ring of
3), so "exactly once, with its result or its error" is tested, not only the happy path.

CI runs a few examples (tiny fabrics, at most 8 points); `INFRAGRAPH_SLOW=1 pytest -m slow` runs
many more of each.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from infragraph.sweep import sweep
from tests.helpers import NO_FIXED_PORT

ROOT = Path(__file__).resolve().parents[2]
RUN_COLUMNS = {"worker", "point_wall_s", "engine_wall_s", "compiled"}  # where and how fast, not what
SLOW = pytest.mark.skipif(os.environ.get("INFRAGRAPH_SLOW") != "1", reason="long variant: INFRAGRAPH_SLOW=1")
FAST_RUNS = settings(max_examples=3, deadline=None, derandomize=True, database=None,
                     suppress_health_check=list(HealthCheck))
LONG_RUNS = settings(max_examples=25, deadline=None, database=None, suppress_health_check=list(HealthCheck))


@st.composite
def specs(draw) -> str:
    """A spec of 2 to 8 points on 2- to 4-NPU fabrics; values may repeat, and some points may fail."""
    shapes = draw(st.lists(st.sampled_from(["SW(2)", "SW(4)", "RI(4)", "RI(3)"]), min_size=1, max_size=2))
    collectives = draw(st.lists(st.sampled_from(["all-reduce", "all-gather", "reduce-scatter"]), min_size=1,
                                max_size=2))
    sizes = draw(st.lists(st.sampled_from([1024, 4096, 65536]), min_size=2, max_size=2))
    algorithm = draw(st.sampled_from(["ring", "halving-doubling"]))  # halving-doubling fails on RI(3)
    return (f"source: std.fabrics.stack\naxes:\n  shape: {shapes}\n  collective: {collectives}\n"
            f"  size: {sizes}\n  algorithm: {algorithm}\n").replace("'", '"')


def write_spec(folder: Path, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    spec = folder / "spec.yaml"
    spec.write_text(text, encoding="utf-8")
    return spec


def computed(table: Path) -> list[dict]:
    return [{k: v for k, v in r.items() if k not in RUN_COLUMNS} for r in pq.read_table(table).to_pylist()]


def uninterrupted(spec: Path, folder: Path) -> list[dict]:
    r = sweep(spec, folder / "reference", workers=1, show_progress=False)
    table = computed(r.table)
    assert [row["point"] for row in table] == list(range(r.points))
    return table


def journal_lines(journal: Path) -> int:
    try:
        return journal.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def wait_for_progress(out: Path, pid: int, fraction: float, points: int, alive) -> None:
    """Wait until the run `pid` holds the output's lock (it has started: spec read, earlier rows
    checked) and has journalled `fraction` of the points still to do, or has ended."""
    journal, lock = out.with_suffix(".partial.jsonl"), out.with_suffix(".lock")
    before = journal_lines(journal)
    target = before + int(fraction * max(points - before, 0))
    end = time.monotonic() + 120
    while alive() and time.monotonic() < end:
        try:
            started = lock.read_text().startswith(f"pid {pid} ")
        except FileNotFoundError:
            started = False
        if started and journal_lines(journal) >= target:
            return
        time.sleep(0.005)


def assert_same_table(out: Path, reference: list[dict]) -> None:
    """Every point exactly once, in order, as in the uninterrupted run; nothing of the run left over."""
    assert computed(out.with_suffix(".parquet")) == reference
    assert not out.with_suffix(".partial.jsonl").exists() and not out.with_suffix(".lock").exists()
    assert not list(out.parent.glob(".*.part"))  # the tables' temporaries (output.open_output)


# -- SIGKILL of the whole run, then resume -----------------------------------------------------------

def killed_and_resumed(folder: Path, text: str, kills: list[tuple[float, float]]) -> None:
    spec = write_spec(folder, text)
    reference = uninterrupted(spec, folder)
    out = folder / "res"
    for fraction, delay in kills:  # each kill: once `fraction` of what is left is journalled, wait `delay`
        proc = subprocess.Popen([sys.executable, "-m", "infragraph", "sweep", str(spec), "-o", str(out),
                                 "--workers", "1", "-q"], cwd=ROOT, start_new_session=True,
                                env={**os.environ, "PYTHONPATH": str(ROOT)},
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_for_progress(out, proc.pid, fraction, len(reference), lambda: proc.poll() is None)
            time.sleep(delay)
        finally:
            running = proc.poll() is None
            if running:
                os.killpg(proc.pid, signal.SIGKILL)  # the driver and its pool, as a crash or OOM kill would
            proc.wait()
        event(f"killed with {journal_lines(out.with_suffix('.partial.jsonl'))} of {len(reference)} rows journalled"
              if running else "the run had finished")
    sweep(spec, out, workers=1, show_progress=False)  # the same command again
    assert_same_table(out, reference)


KILLS = st.lists(st.tuples(st.floats(0, 1), st.floats(0, 0.2)), min_size=1, max_size=2)


@FAST_RUNS
@given(text=specs(), kills=KILLS)
def test_a_run_killed_at_random_moments_then_resumed_equals_an_uninterrupted_run(tmp_path_factory, text, kills):
    killed_and_resumed(tmp_path_factory.mktemp("kill"), text, kills)


@pytest.mark.slow
@SLOW
@LONG_RUNS
@given(text=specs(), kills=st.lists(st.tuples(st.floats(0, 1), st.floats(0, 1)), min_size=1, max_size=4))
def test_a_run_killed_at_random_moments_then_resumed_equals_an_uninterrupted_run_long(tmp_path_factory, text,
                                                                                       kills):
    killed_and_resumed(tmp_path_factory.mktemp("kill"), text, kills)


# -- SIGKILL of Dask workers mid-run -----------------------------------------------------------------

@pytest.fixture(scope="module")
def dask_cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  scheduler_kwargs=NO_FIXED_PORT, silence_logs=50) as cluster, \
            distributed.Client(cluster) as client:
        yield cluster, client


def dask_workers_killed(cluster, client, folder: Path, text: str, kills: list[tuple[float, int]]) -> None:
    spec = write_spec(folder, text)
    reference = uninterrupted(spec, folder)
    out = folder / "res"
    client.wait_for_workers(1, timeout=600)
    report: dict = {}
    run = threading.Thread(target=lambda: report.update(r=sweep(spec, out, scheduler=cluster.scheduler_address,
                                                                show_progress=False)))
    run.start()
    for fraction, which in kills:  # once `fraction` of what is left is journalled, kill one of the workers
        wait_for_progress(out, os.getpid(), fraction, len(reference), run.is_alive)
        pids = sorted(client.run(os.getpid, on_error="ignore").values())
        if run.is_alive() and len(pids) > 1:  # one survivor at least: the run never waits for a restart
            os.kill(pids[which % len(pids)], signal.SIGKILL)
            event(f"a worker killed with {journal_lines(out.with_suffix('.partial.jsonl'))} of {len(reference)} "
                  "rows journalled")
        else:
            event("no kill (the run had finished, or one worker was left)")
    run.join(timeout=600)  # a hang's end only; a run takes some 30 s under load
    assert "r" in report, "the sweep did not finish"
    assert_same_table(out, reference)


DASK_KILLS = st.lists(st.tuples(st.floats(0, 0.5), st.integers(0, 1)), min_size=1, max_size=2)


@FAST_RUNS
@given(text=specs(), kills=DASK_KILLS)
def test_dask_workers_killed_mid_run_give_the_uninterrupted_table(dask_cluster, tmp_path_factory, text, kills):
    dask_workers_killed(*dask_cluster, tmp_path_factory.mktemp("dask"), text, kills)


@pytest.mark.slow
@SLOW
@LONG_RUNS
@given(text=specs(), kills=st.lists(st.tuples(st.floats(0, 1), st.integers(0, 1)), min_size=1, max_size=3))
def test_dask_workers_killed_mid_run_give_the_uninterrupted_table_long(dask_cluster, tmp_path_factory, text, kills):
    dask_workers_killed(*dask_cluster, tmp_path_factory.mktemp("dask"), text, kills)
