"""One workload point on a worker: the point's ET set (generated once, etcache.py), replayed on the
compiled fabric with the point's simulation options (infragraph.workload.replay's public
`replay`), reduced to the table's workload columns (columns.WORKLOAD_METRICS).

Metrics (units in the names): step_time_ns, the last NPU's finish; compute_ns_mean,
exposed_comm_ns_mean, overlapped_comm_ns_mean, waiting_ns_mean, idle_ns_mean: the per-NPU means of
the replay's breakdown (docs/workloads.md, "What the report says"; waiting: for a peer's send or a
collective's last member; idle is measured to the step's end);
tflops_per_npu, the step's model FLOPs / NPUs / step time in 1e12 FLOP/s; collectives and messages
replayed, et_nodes in the set; `load_gbit_per_s[<tier>]`, each link tier's mean load per directed
link over the step (Gbit/s, 1e9 bit/s, per direction) for the tiers that carried bytes.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import replace
from typing import Any

from ..errors import Diagnostic, InfraGraphError
from ..simulate import PreparedGraph, SimulationOptions
from .columns import LOAD_PREFIX
from .etcache import ensure
from .workloads import WorkloadJob

MAX_CACHED_WORKLOADS = 2  # read ET sets kept per worker (a point's neighbours share its workload)

_read: OrderedDict[str, Any] = OrderedDict()
_lock = threading.Lock()


def replay_point(prepared: PreparedGraph, options: SimulationOptions, job: WorkloadJob, cache: str) -> dict[str, Any]:
    """The workload metrics of `job` replayed on `prepared`; an InfraGraphError for a point that
    cannot run (its tp x pp x dp is not the fabric's NPU count, located at the spec key)."""
    from ..workload.llm import summary
    from ..workload.replay import ReplayOptions, replay

    s = job.spec
    npus = int(prepared.npu_nodes.size)
    if s.world != npus:
        raise InfraGraphError(Diagnostic(
            f"tp x pp x dp = {s.tp} x {s.pp} x {s.dp} = {s.world} ranks, but the fabric has {npus} NPUs; "
            "a workload needs one rank per NPU", job.world_at,
            f"keep only matching points with `where`, e.g. \"tp * pp * dp == {npus}\""))
    prefix, generated = ensure(cache, job.key, s)
    workload = _workload(job.key, prefix, npus)
    r = replay(prepared, workload, ReplayOptions(sim=replace(options, trace=False)))
    n = r["npus"]
    step = r["step_time_ns"]

    def mean(key: str) -> float:
        return sum(x[key] for x in n) / len(n)

    out: dict[str, Any] = {
        "num_npus": r["num_npus"],
        "step_time_ns": step,
        "compute_ns_mean": mean("compute_ns"),
        "exposed_comm_ns_mean": mean("exposed_ns"),
        "overlapped_comm_ns_mean": mean("overlapped_ns"),
        "waiting_ns_mean": mean("waiting_ns"),
        "idle_ns_mean": mean("idle_to_step_ns"),
        "tflops_per_npu": summary(s)["step_flops"] / s.world / step * 1e9 / 1e12 if step > 0 else 0.0,
        "collectives": len(r["collectives"]),
        "messages": len(r["messages"]),
        "et_nodes": int(workload.cols.id.size),
        "generated": generated,
    }
    out.update({f"{LOAD_PREFIX}{t['tier']}]": t["mean_gbit_per_s_per_link"] for t in r["tiers"] if t["bytes"] > 0})
    return out


def _workload(key: str, prefix: str, npus: int):
    """The ET set read and checked (infragraph.workload.trace), from this worker's small cache."""
    from ..workload.trace import read_et_set

    with _lock:
        found = _read.get(key)
        if found is not None:
            _read.move_to_end(key)
            return found
    w = read_et_set(prefix, npus, f"{prefix}.json")
    with _lock:
        _read[key] = w
        while len(_read) > MAX_CACHED_WORKLOADS:
            _read.popitem(last=False)
    return w
