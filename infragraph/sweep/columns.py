"""The results table's columns, and what a stored row must hold to be trusted by a resumed sweep.

A row is `point` (its index in the spec's expansion: the table's key, one row per point), `key` (a
hash of everything that decides its result: what a resume matches), the point's inputs, `status`
and `error`, then the metrics (worker.py computes them). A resumed sweep reuses rows from the
journal and the earlier table, so each one is checked here first: a row that does not hold what a
finished point holds is refused by `check_row`, never reused as a result.

A workload sweep's rows (a training step replayed per point) carry WORKLOAD_METRICS instead of the
collective's METRICS: the step time and the per-NPU means of the replay's breakdown, all in ns, and
the mean load per directed link of each tier (`load_gbit_per_s[<tier>]`, Gbit/s = 1e9 bit/s per
direction). A row is a workload row when it has a `step_time_ns` column.
"""

from __future__ import annotations

import math
from typing import Any

FIRST = ("point", "key")
STATUS = ("status", "error")
STATUSES = ("ok", "error", "not-run")  # not-run: the sweep stopped (Ctrl-C) before the point ran
# Metric columns in table order (per-tier `utilization[<tier>]` columns follow them).
METRICS = ("num_npus", "time_ns", "algbw_gb_per_s", "busbw_gb_per_s", "utilization_max", "bottleneck_tier",
           "warnings", "links_used", "chunk_bytes", "events", "engine_wall_s", "point_wall_s", "compiled", "worker")
TIER_PREFIX = "utilization["
WORKLOAD_METRICS = ("num_npus", "step_time_ns", "compute_ns_mean", "exposed_comm_ns_mean", "overlapped_comm_ns_mean",
                    "waiting_ns_mean", "idle_ns_mean", "tflops_per_npu", "collectives", "messages", "et_nodes", "generated",
                    "engine_wall_s", "point_wall_s", "compiled", "worker")
LOAD_PREFIX = "load_gbit_per_s["
PREFIXES = (TIER_PREFIX, LOAD_PREFIX)

_COUNTS = ("num_npus", "links_used", "events")
_NUMBERS = ("time_ns", "algbw_gb_per_s", "busbw_gb_per_s", "utilization_max", "chunk_bytes", "engine_wall_s",
            "point_wall_s")
_TEXTS = ("bottleneck_tier", "warnings")
_WORKLOAD_COUNTS = ("num_npus", "collectives", "messages", "et_nodes")
_WORKLOAD_NUMBERS = ("step_time_ns", "compute_ns_mean", "exposed_comm_ns_mean", "overlapped_comm_ns_mean",
                     "waiting_ns_mean", "idle_ns_mean", "tflops_per_npu", "engine_wall_s", "point_wall_s")
# compute + exposed communication + waiting for peers + idle is each NPU's whole step (the replay's breakdown, no memory
# nodes in a generated step): their means may exceed the step time by float rounding only.
_SUM_TOLERANCE = 1e-6


class RowError(ValueError):
    """What is wrong with a stored row (the caller adds the file and line)."""


def is_output(column: str) -> bool:
    """A column a point's run produces (status, error, metrics), as opposed to its inputs."""
    return column in STATUS or column in METRICS or column in WORKLOAD_METRICS or column.startswith(PREFIXES)


def reserved(name: str) -> bool:
    """A name an axis or derived value may not take: it would overwrite a column of the table."""
    return name in FIRST or is_output(name) or name == "source"


def check_row(row: Any) -> dict[str, Any]:
    """`row` if it is a well-formed stored row, else RowError saying the first thing wrong."""
    if not isinstance(row, dict):
        raise RowError(f"expected a row (a JSON object), got {_kind(row)}")
    point = row.get("point")
    if isinstance(point, bool) or not isinstance(point, int) or point < 0:
        raise RowError(f"point must be a whole number ≥ 0, got {point!r}")
    if not isinstance(row.get("key"), str):
        raise RowError(f"key must be a point key (text), got {row.get('key')!r}")
    status = row.get("status")
    if status not in STATUSES:
        raise RowError(f"status must be {', '.join(STATUSES[:-1])} or {STATUSES[-1]}, got {status!r}")
    if status != "ok":
        if not isinstance(row.get("error"), str):
            raise RowError(f"a failed point's error must be a message, got {row.get('error')!r}")
        return row
    if row.get("error") is not None:
        raise RowError(f"a point with status ok has an error: {row['error']!r}")
    if "step_time_ns" in row:
        _check_workload(row)
    else:
        _check_collective(row)
    if not isinstance(row.get("compiled"), bool):
        raise RowError(f"compiled must be true or false, got {row.get('compiled')!r}")
    if not isinstance(row.get("worker"), str):
        raise RowError(f"worker must be text (host:pid), got {row.get('worker')!r}")
    return row


def _count(name: str, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RowError(f"{name} must be a whole number ≥ 0, got {value!r}")


def _check_workload(row: dict[str, Any]) -> None:
    """A replayed step: counts whole, times finite and ≥ 0, the step positive, the per-NPU means
    within the step (compute + exposed + waiting + idle = the step), overlapped within compute."""
    if "waiting_ns_mean" not in row:
        raise RowError("waiting_ns_mean is missing: a row stored before 26 Nov 2026 counted the time a receive or "
                       "collective waits for its peer as exposed communication; rerun the point (a new table)")
    _check_measures(row, _WORKLOAD_COUNTS, _WORKLOAD_NUMBERS, LOAD_PREFIX)
    step = row["step_time_ns"]
    if not step > 0:
        raise RowError(f"step_time_ns must be > 0, got {step!r}")
    parts = row["compute_ns_mean"] + row["exposed_comm_ns_mean"] + row["waiting_ns_mean"] + row["idle_ns_mean"]
    if parts > step * (1 + _SUM_TOLERANCE):
        raise RowError(f"compute_ns_mean + exposed_comm_ns_mean + waiting_ns_mean + idle_ns_mean = {parts!r} exceeds "
                       f"step_time_ns {step!r}")
    if row["overlapped_comm_ns_mean"] > row["compute_ns_mean"] * (1 + _SUM_TOLERANCE):
        raise RowError(f"overlapped_comm_ns_mean {row['overlapped_comm_ns_mean']!r} exceeds compute_ns_mean "
                       f"{row['compute_ns_mean']!r} (communication overlaps compute only while compute runs)")
    if not isinstance(row.get("generated"), bool):
        raise RowError(f"generated must be true or false, got {row.get('generated')!r}")


def _check_collective(row: dict[str, Any]) -> None:
    _check_measures(row, _COUNTS, _NUMBERS, TIER_PREFIX)
    for name in _TEXTS:
        if row.get(name) is not None and not isinstance(row.get(name), str):
            raise RowError(f"{name} must be text or empty, got {row.get(name)!r}")


def _check_measures(row: dict[str, Any], counts: tuple[str, ...], numbers: tuple[str, ...], prefix: str) -> None:
    """The counts whole and ≥ 0, the numbers and every present per-tier column (`prefix`...) finite
    and ≥ 0: what a collective row and a workload row share."""
    for name in counts:
        _count(name, row.get(name))
    for name in numbers:
        _number(name, row.get(name))
    for name, value in row.items():
        if name.startswith(prefix) and value is not None:
            _number(name, value)


def _number(name: str, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        raise RowError(f"{name} must be a finite number ≥ 0, got {value!r}")


def _kind(value: Any) -> str:
    names = {list: "a list", str: "a string", float: "a float", int: "a whole number", bool: "a boolean",
             type(None): "null"}
    return names.get(type(value), type(value).__name__)
