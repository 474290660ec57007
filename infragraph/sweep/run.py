"""The sweep driver: read the spec, skip points already done, run the rest on an executor
(local pool or Dask — one loop for both), journal each result as it arrives, write the table.

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

from .executors import executor_for
from .points import Point, expand
from .progress import SweepProgress
from .spec import read_spec
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
    """Run the sweep described by `spec`, writing OUTPUT.parquet and OUTPUT.csv.

    scheduler: None (local process pool over `workers` processes, default every core), a Dask
    address such as 'tcp://host:8786', a scheduler file, 'slurm:CONFIG.yaml', or a
    distributed.Client. show_progress: a progress bar on stderr (default: when it is a terminal)."""
    start = time.perf_counter()
    s = read_spec(spec)
    points = expand(s)
    store = ResultStore(output)
    previous = store.previous()
    keep = {p.key: _renumbered(previous[p.key], p) for p in points
            if p.key in previous and previous[p.key].get("status") == "ok"}
    todo = [p for p in points if p.key not in keep]
    rows = dict(keep)
    retried = 0
    executor = executor_for(scheduler, workers) if todo else None
    bar = SweepProgress(len(points), len(keep), s.name, show_progress)
    try:
        if executor is not None:
            store.open()  # an unwritable output fails before any point runs
            with bar:
                retried = _run(executor, s.source, todo, store, rows, bar, executor.workers)
    finally:
        if executor is not None:
            executor.close()
        ordered = [rows[p.key] for p in points if p.key in rows]
        if ordered:
            store.write(ordered)
        else:
            store.close()
    failed = [r for r in ordered if r["status"] != "ok"]
    return SweepReport(store.parquet, store.csv, len(points), len(todo), len(keep), len(failed),
                       time.perf_counter() - start, executor.description if executor else "nothing to run",
                       retried, [f"point {r['point']}: {r['error']}" for r in failed[:5]])


def _run(executor, source, todo: list[Point], store: ResultStore, rows: dict, bar: SweepProgress,
         workers: int) -> int:
    """Run `todo`; returns how many point runs were lost with a dead worker and retried."""
    attempts = {p.key: 0 for p in todo}
    while todo:
        batches = batch_by_graph(todo, workers)
        futures = {executor.submit(run_task, _task(source, b), f"sweep-{b[0].key}-{len(b)}"): b for b in batches}
        todo = []
        for future in executor.as_completed(futures):
            batch = futures[future]
            try:
                outs = future.result()
            except executor.lost:
                for p in batch:
                    attempts[p.key] += 1
                retry = [p for p in batch if attempts[p.key] < MAX_ATTEMPTS]
                todo += retry
                if retry:
                    continue
                outs = [{"status": "error", "error": f"the worker running this point died {MAX_ATTEMPTS} times"}
                        ] * len(batch)
            except Exception as e:  # Dask's KilledWorker, a cancelled future, ...
                outs = [{"status": "error", "error": f"{type(e).__name__}: {e}"}] * len(batch)
            for p, out in zip(batch, outs):
                row = {"point": p.index, "key": p.key, **p.inputs, **out}
                rows[p.key] = row
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


def _task(source, batch: list[Point]) -> Task:
    return Task(source.path, source.include, batch[0].defines, batch[0].graph_key, tuple(p.options for p in batch))


def _renumbered(row: dict[str, Any], p: Point) -> dict[str, Any]:
    """An earlier row with this run's point number (the spec may have gained points before it)."""
    return {**row, "point": p.index}
