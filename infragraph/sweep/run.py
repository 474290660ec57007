"""The sweep driver: read the spec, skip points already done, run the rest on an executor
(local pool or Dask — one loop for both), journal each result as it arrives, write the table.

The table is keyed by point index: every point of the spec is written exactly once, with its
result, its error, or status not-run when the run was interrupted before it ran.

A future that fails because its worker died (the local pool breaks when any worker is killed) is
not the point's fault: the point is run again on a fresh pool, up to MAX_ATTEMPTS times, and only
then recorded as failed. A point that fails inside the worker records its message and never stops
the others. Ctrl-C keeps every finished point (the table is written before the run stops).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import InfraGraphError
from . import etcache
from .columns import RowError, check_row, is_output
from .executors import check_options, executor_for
from .points import Point, expand
from .progress import SweepProgress
from .expr import ExprError
from .spec import Spec, read_spec
from .store import ResultStore
from .worker import Task, run_task

MAX_ATTEMPTS = 3
MAX_BATCH = 64


@dataclass
class SweepReport:
    """What a run did; `table` is the path of the Parquet file (the CSV sits beside it)."""

    table: Path
    csv: Path
    points: int
    ran: int
    skipped: int
    failed: int
    wall_s: float
    executor: str
    retried: int = 0  # point runs lost with a dead worker and run again
    errors: list[str] = field(default_factory=list)  # the first few failures, for the summary


def sweep(spec: str | Path, output: str | Path, scheduler: Any = None, workers: int | None = None,
          show_progress: bool | None = None) -> SweepReport:
    """Run the sweep described by `spec`, writing OUTPUT.parquet and OUTPUT.csv: one row per point
    of the spec, in order — its result, its error, or (when the run was interrupted) status not-run.

    scheduler: None (local process pool over `workers` processes, default every core), a Dask
    address such as 'tcp://host:8786', a scheduler file, 'slurm:CONFIG.yaml', or a
    distributed.Client. show_progress: a progress bar on stderr (default: when it is a terminal)."""
    start = time.perf_counter()
    s = read_spec(spec)
    points = expand(s)
    check_options(scheduler, workers)
    store = ResultStore(output)
    with store:  # the output's lock: one sweep at a time writes it
        rows = reusable(points, store.previous(), s)
        skipped = len(rows)
        todo = [p for p in points if p.index not in rows]
        retried = 0
        executor = executor_for(scheduler, workers) if todo else None
        bar = SweepProgress(len(points), skipped, s.name, show_progress)
        try:
            if executor is not None:
                store.open()  # an unwritable output fails before any point runs
                cache = str(store.workloads.resolve()) if s.workload is not None else ""
                if cache:
                    etcache.clean(store.workloads)
                with bar:
                    retried = _run(executor, s, todo, store, rows, bar, executor.workers, cache)
        finally:
            if executor is not None:
                executor.close()
            table = [rows.get(p.index) or _not_run(p) for p in points]
            store.write(table, [name for name, _e in s.report])
    failed = [r for r in table if r["status"] == "error"]
    return SweepReport(store.parquet, store.csv, len(points), len(todo), skipped, len(failed),
                       time.perf_counter() - start, executor.description if executor else "nothing to run",
                       retried, [f"point {r['point']}: {r['error']}" for r in failed[:5]])


def reusable(points: list[Point], previous: list[dict[str, Any]], spec: Spec | None = None) -> dict[int, dict[str, Any]]:
    """The finished (status ok) stored rows that this run keeps, by point index.

    A stored row counts for point i when it was stored as point i with point i's key; failing that,
    any ok row with point i's key (same inputs, same source, same toolchain: the same result) —
    the spec may have gained or lost points before this one. Only the row's results are taken: its
    index and inputs are this point's own, so no point can appear twice or under another's inputs;
    its report columns are computed again from them."""
    by_index: dict[int, dict[str, Any]] = {}
    by_key: dict[str, dict[str, Any]] = {}
    for row in previous:  # later rows (the journal's) win
        by_index[row["point"]] = row
        if row["status"] == "ok":
            by_key[row["key"]] = row
    out = {}
    for p in points:
        row = by_index.get(p.index)
        if row is None or row["key"] != p.key or row["status"] != "ok":
            row = by_key.get(p.key)
        if row is not None:
            out[p.index] = _row(p, {k: v for k, v in row.items() if is_output(k)}, spec)
    return out


def _run(executor, spec: Spec, todo: list[Point], store: ResultStore, rows: dict[int, dict[str, Any]],
         bar: SweepProgress, workers: int, cache: str = "") -> int:
    """Run `todo` into `rows` (by point index); returns how many point runs were lost with a dead
    worker and retried."""
    attempts = {p.index: 0 for p in todo}
    while todo:
        batches = batch_by_graph(todo, workers)
        futures = {executor.submit(run_task, _task(spec.source, b, cache), f"sweep-{b[0].key}-{len(b)}"): b
                   for b in batches}
        todo = []
        for future in executor.as_completed(futures):
            batch = futures[future]
            try:
                outs = future.result()
            except executor.lost:
                for p in batch:
                    attempts[p.index] += 1
                retry = [p for p in batch if attempts[p.index] < MAX_ATTEMPTS]
                todo += retry
                if retry:
                    continue
                outs = [{"status": "error", "error": f"the worker running this point died {MAX_ATTEMPTS} times"}
                        ] * len(batch)
            except Exception as e:  # Dask's KilledWorker, a cancelled future, ...
                outs = [{"status": "error", "error": f"{type(e).__name__}: {e}"}] * len(batch)
            for p, out in zip(batch, outs):
                row = _row(p, out, spec)
                rows[p.index] = row
                store.append(row)
                bar.advance(row["status"] == "ok")
        if todo:
            executor.restart()
            todo.sort(key=lambda p: p.index)
    return sum(attempts.values())


def batch_by_graph(points: list[Point], workers: int) -> list[list[Point]]:
    """Points grouped by the graph they need, each group split so that there are about
    4 tasks per worker (load balance) and no task holds more than MAX_BATCH points (results
    arrive, and are journalled, at least that often)."""
    groups: dict[str, list[Point]] = {}
    for p in points:
        groups.setdefault(p.graph_key, []).append(p)
    target = max(len(groups), 4 * workers)
    out = []
    for group in groups.values():
        pieces = max(1, math.ceil(target * len(group) / len(points)), math.ceil(len(group) / MAX_BATCH))
        size = math.ceil(len(group) / pieces)
        out += [group[i:i + size] for i in range(0, len(group), size)]
    return out


def _task(source, batch: list[Point], cache: str = "") -> Task:
    jobs = tuple(p.workload for p in batch if p.workload is not None)
    return Task(source.path, source.include, batch[0].defines, batch[0].graph_key, tuple(p.options for p in batch),
                jobs, cache, tuple(p.option_locations for p in batch))


def _row(p: Point, outputs: dict[str, Any], spec: Spec | None = None) -> dict[str, Any]:
    """Point `p`'s table row: its index, key and inputs, then its run's outputs (status, error,
    metrics) and the spec's report columns. An ok result that is not a valid row (a NaN time, say)
    becomes an error, not a number in the table — the same check a resumed sweep applies to what it
    reads back; so does a report column that cannot be computed (its message is located in the spec)."""
    row = {"point": p.index, "key": p.key, **p.inputs, **outputs}
    try:
        check_row(row)
    except RowError as e:
        return {"point": p.index, "key": p.key, **p.inputs, "status": "error",
                "error": f"internal error: the result is not a valid row: {e}"}
    if row["status"] == "ok" and spec is not None and spec.report:
        try:
            row.update(report_columns(spec, row))
        except InfraGraphError as e:
            return {"point": p.index, "key": p.key, **p.inputs, "status": "error", "error": str(e)}
    return row


def report_columns(spec: Spec, row: dict[str, Any]) -> dict[str, Any]:
    """The spec's report columns for a finished row, in order (each may read the ones before it):
    a number (finite) or text; anything else is an error at the column's expression."""
    env = dict(row)
    out: dict[str, Any] = {}
    for name, e in spec.report:
        where = f"report.{name}"
        try:
            value = e.evaluate(env)
        except ExprError as x:
            raise spec.fail(where, f"{x.message} (at point {row['point']})", x.hint, x.offset, e.text) from None
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            raise spec.fail(where, f"a report column must be a number or text, got {value!r} (at point {row['point']})")
        env[name] = out[name] = value
    return out


def _not_run(p: Point) -> dict[str, Any]:
    return {"point": p.index, "key": p.key, **p.inputs, "status": "not-run",
            "error": "not run: the sweep stopped before this point ran; run the same command again to resume"}
