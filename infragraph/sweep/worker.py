"""What runs on a worker (a local process or a Dask worker): compile the point's graph — once per
distinct source + -D values per worker, from a small cache — simulate (or, in a workload sweep,
replay the point's training step: replay_point.py), and reduce the result to the table's metrics. A point's failure is returned as data (status "error" and the message), never
raised, so one bad point cannot take the others down with it.

Metrics (units in the column names): time_ns; algbw_gb_per_s and busbw_gb_per_s (GB = 1e9 bytes);
utilization_max (busiest directed link, busy time / collective time) and one
`utilization[<tier>]` column per link tier (the busiest link of that tier; tiers as
infragraph/simulate/load.py names them); bottleneck_tier; warnings (the result's warning codes);
engine_wall_s (the engine's own run) and point_wall_s (the whole point on the worker, including a
compile when `compiled` is true).
"""

from __future__ import annotations

import os
import socket
import threading
import time
import traceback
from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import Any

from ..errors import InfraGraphError, Location
from ..simulate import PreparedGraph, SimulationOptions, prepare, simulate
from .columns import TIER_PREFIX
from .replay_point import replay_point
from .workloads import WorkloadJob

MAX_CACHED_GRAPHS = 8

_cache: OrderedDict[str, PreparedGraph | InfraGraphError] = OrderedDict()
_lock = threading.Lock()  # Dask workers may run several threads in one process
_compile_lock = threading.Lock()  # one compile at a time per process: the language is not thread-safe,
#                                   and compiling holds the GIL anyway


@dataclass(frozen=True)
class Task:
    """Points that share one graph, as a worker needs them (small and picklable: no graph, no spec).
    Batching by graph keeps a worker on the graph it has compiled instead of every worker compiling
    every graph."""

    source: str  # the resolved file
    include: tuple[str, ...]
    defines: tuple[tuple[str, str], ...]
    graph_key: str
    options: tuple[SimulationOptions, ...]  # one per point
    workloads: tuple[WorkloadJob, ...] = ()  # a workload sweep: one per point (else empty)
    workload_cache: str = ""  # the ET sets' folder (etcache.py), absolute
    option_locations: tuple[tuple[tuple[str, Location], ...], ...] = ()  # per point: field -> its spec key


def run_task(task: Task) -> list[dict[str, Any]]:
    """Simulate each point of `task`; per point the metrics, or status "error" with the message."""
    jobs = task.workloads or (None,) * len(task.options)
    where = task.option_locations or ((),) * len(task.options)
    return [run_point(task, opts, job, dict(at)) for opts, job, at in zip(task.options, jobs, where)]


def _at_spec(e: InfraGraphError, where: dict[str, Location]) -> InfraGraphError:
    """`e` with errors about a simulation option's field ('chunks: error: ...') located at the spec
    key that set it ('s.yaml:9:11: axes.chunks: error: ...')."""
    return InfraGraphError([replace(d, location=where[d.location.path])
                            if d.location.file is None and d.location.path in where else d for d in e.diagnostics])


def run_point(task: Task, options: SimulationOptions, job: WorkloadJob | None = None,
              where: dict[str, Location] | None = None) -> dict[str, Any]:
    start = time.perf_counter()
    out: dict[str, Any] = {"status": "ok", "error": None, "compiled": False}
    try:
        prepared, out["compiled"] = _graph(task)
        if job is None:
            out.update(metrics(simulate(prepared, options)))
        else:
            replay_start = time.perf_counter()
            out.update(replay_point(prepared, options, job, task.workload_cache))
            out["engine_wall_s"] = time.perf_counter() - replay_start
    except InfraGraphError as e:
        out.update(status="error", error=str(_at_spec(e, where or {})))
    except Exception as e:  # an engine or toolchain bug: record it with where it happened, keep going
        out.update(status="error", error=f"internal error: {type(e).__name__}: {e}\n{traceback.format_exc(limit=4)}")
    out["point_wall_s"] = time.perf_counter() - start
    out["worker"] = f"{socket.gethostname()}:{os.getpid()}"
    return out


def _graph(task: Task) -> tuple[PreparedGraph, bool]:
    with _lock:
        found = _cache.get(task.graph_key)
        if found is not None:
            _cache.move_to_end(task.graph_key)
    compiled = found is None
    if found is None:
        with _compile_lock:
            found = _cache.get(task.graph_key) or _compile(task)  # another thread may have just built it
        with _lock:
            _cache[task.graph_key] = found
            while len(_cache) > MAX_CACHED_GRAPHS:
                _cache.popitem(last=False)
    if isinstance(found, InfraGraphError):  # a graph that does not compile fails each of its points fast
        raise found
    return found, compiled


def _compile(task: Task) -> PreparedGraph | InfraGraphError:
    from ..sources import load_graph

    try:
        return prepare(load_graph(task.source, dict(task.defines), list(task.include) or None))
    except InfraGraphError as e:
        return e


def metrics(r: dict[str, Any]) -> dict[str, Any]:
    """The table's metric columns of one simulation result: its headline numbers, the per-tier
    busiest-link utilization of the tiers that carried traffic (simulate.load's link tiers), and the
    codes of its warnings (over-capacity, over-injection, ...: when the model's answer is optimistic)."""
    out: dict[str, Any] = {
        "num_npus": r["num_npus"],
        "time_ns": r["collective_time_ns"],
        "algbw_gb_per_s": r["algorithm_bandwidth_gb_per_s"],
        "busbw_gb_per_s": r["bus_bandwidth_gb_per_s"],
        "utilization_max": r["max_link_utilization"],
        "bottleneck_tier": r["bottleneck_tier"],
        "warnings": ",".join(w["code"] for w in r["warnings"]) or None,
        "links_used": r["links_used"],
        "chunk_bytes": r["chunk_bytes"],
        "events": r["events"],
        "engine_wall_s": r["wall_time_s"],
    }
    out.update({f"{TIER_PREFIX}{t['tier']}]": t["utilization"]["max"] for t in r["tiers"] if t["links_used"]})
    return out
