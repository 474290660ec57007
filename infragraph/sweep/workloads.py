"""Workload sweeps, spec side: a `workload` section (an LLM training step, docs/workloads.md) whose
keys the axes and derived values may vary, point by point, together with the fabric's parameters.

The section is a workload spec file (`infragraph workload`'s YAML, relative to the sweep spec) or
an inline mapping of `LlmSpec` keys. An axis or derived value named like an `LlmSpec` field
(`tp`, `pp`, `dp`, `micro_batch`, `layers`, ...) sets that key for the point. Each point's spec is
built here, in the driver, before anything runs: a combination `LlmSpec` refuses (heads not
divisible by tp, layers not divisible by pp, ...) is an error located at the spec key that varies,
never a row. Whether tp x pp x dp matches the fabric's NPU count is known only once the fabric is
compiled (on the worker): that error carries the location computed here (`world_at`).
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any, Callable

from ..errors import InfraGraphError, Location, did_you_mean
from ..workload.llm import REQUIRED_KEYS, LlmSpec, read_spec as read_llm_spec

KEYS = tuple(f.name for f in fields(LlmSpec))
# Simulation options that a workload's trace decides per node (as `simulate --workload` refuses them).
NOT_FOR_WORKLOADS = ("collective", "size", "root")
WORLD = ("dp", "pp", "tp")  # the keys whose product must be the fabric's NPU count, most often swept first


@dataclass(frozen=True)
class WorkloadBase:
    """The `workload` section: its values (every LlmSpec key it sets) and where each is written."""

    values: dict[str, Any]
    paths: dict[str, str]  # key -> the spec path its value is written at ("workload" for a file)


@dataclass(frozen=True)
class WorkloadJob:
    """What a worker needs to replay one point's step (small and picklable)."""

    spec: LlmSpec
    key: str  # content hash of the spec and the toolchain: the ET set's folder in the cache
    world_at: Location  # where tp x pp x dp is decided, for the NPU-count error


def read_base(value: Any, base: Path, fail: Callable[..., InfraGraphError]) -> WorkloadBase:
    """The `workload` section: a workload spec file (checked whole by its own reader) or a mapping."""
    if isinstance(value, str):
        path = (base / value).resolve()
        if not path.is_file():
            raise fail("workload", f"no such workload spec '{value}' (looked for {path})",
                       "give a workload spec file (docs/workloads.md) relative to the sweep spec, or a mapping")
        spec = read_llm_spec(path)  # its errors name the workload file
        return WorkloadBase(asdict(spec), {k: "workload" for k in KEYS})
    for key in value:
        if key not in KEYS:
            raise fail(f"workload.{key}", f"'{key}' is not a workload key; expected one of: {', '.join(KEYS)}",
                       did_you_mean(key, KEYS))
    return WorkloadBase(dict(value), {k: f"workload.{k}" for k in value})


def check_required(base: WorkloadBase, swept: list[str], fail: Callable[..., InfraGraphError]) -> None:
    """Every required key is in the section or set by an axis or derived value."""
    missing = [k for k in REQUIRED_KEYS if k not in base.values and k not in swept]
    if missing:
        raise fail("workload", f"the workload needs {', '.join(repr(k) for k in missing)} (in this section, or "
                               "as an axis or derived value)")


def point_spec(base: WorkloadBase, values: dict[str, Any], where: Callable[[str], str],
               fail: Callable[[str, str, bool], InfraGraphError]) -> LlmSpec:
    """The point's LlmSpec: the section's values overridden by the point's. An invalid combination is
    an error at the first key its message names that the point sets (else at the section); `fail`'s
    third argument says whether a key the point varies is named (else `where` cannot help)."""
    merged = {**base.values, **values}
    try:
        return LlmSpec(**merged)
    except InfraGraphError as e:
        message = e.diagnostics[0].message
        named = [k for k in re.findall(r"[a-z_]+", message) if k in KEYS]
        swept = [k for k in named if k in values]
        path = where(swept[0]) if swept else base.paths.get(named[0], "workload") if named else "workload"
        raise fail(path, message, bool(swept)) from None


def world_path(base: WorkloadBase, swept: list[str], where: Callable[[str], str]) -> str:
    """The spec path an NPU-count mismatch is reported at: the first swept of dp, pp, tp, else the
    section's own tp/pp/dp (or the section)."""
    for k in WORLD:
        if k in swept:
            return where(k)
    return next((base.paths[k] for k in WORLD if k in base.paths), "workload")


def spec_columns(spec: LlmSpec) -> dict[str, Any]:
    """The point's workload as table columns: every LlmSpec key (units as docs/workloads.md states)."""
    return asdict(spec)


def job_key(spec: LlmSpec, toolchain: str) -> str:
    """A content hash of the workload spec (and the toolchain that generates its ETs): points whose
    workloads are equal share one ET set."""
    text = json.dumps([asdict(spec), toolchain], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:20]
