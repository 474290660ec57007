"""Expanding a checked spec into points: the product (or zip) of the axes, derived values, the filter.

Every point carries its table inputs, the -D texts for its source, its `SimulationOptions`, its
workload (when the spec has a `workload` section: the point's LlmSpec, checked here), and two
keys: `graph_key` (source digest + -D texts: which compiled graph it needs, so a worker compiles
each distinct graph once) and `key` (graph_key + options + the table inputs + the toolchain's own
digest: what a resumed sweep matches before it reuses a stored row). The table itself is keyed by
the point's index: points with equal inputs (a repeated axis value) are still separate points.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from dataclasses import asdict, dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from .. import blueprints
from ..errors import InfraGraphError, Location
from ..simulate import SimulationOptions
from ..simulate.run import check_scheduling
from . import expr
from .options import ALWAYS, OPTIONS, column_value
from .spec import OPTION, PARAM, WORKLOAD, Spec
from .workloads import NOT_FOR_WORKLOADS, WorkloadJob, job_key, point_spec, spec_columns, world_path

PACKAGE = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Point:
    index: int  # position in the spec's expansion (after the filter)
    inputs: dict[str, Any]  # table columns: every axis, derived value and option
    defines: tuple[tuple[str, str], ...]  # -D NAME=VALUE texts for the source
    options: SimulationOptions
    graph_key: str
    key: str
    workload: WorkloadJob | None = None  # a workload sweep's point: the training step it replays
    # SimulationOptions field -> where the spec sets it: a worker's error about a field (the engine's
    # chunk limit needs the graph) is reported there, not at the field's bare name.
    option_locations: tuple[tuple[str, Location], ...] = ()


def expand(spec: Spec) -> list[Point]:
    """Every point of `spec`, in order; a bad derived or option value is located in the spec."""
    points: list[Point] = []
    groups = [[spec.axes[name] for name in group] for group in spec.factors]
    for combo in itertools.product(*(list(zip(*g)) for g in groups)):
        env: dict[str, Any] = {}
        for names, values in zip(spec.factors, combo):
            env.update(zip(names, values))
        for name, value in spec.derive:
            env[name] = _evaluate(spec, f"derive.{name}", value, env) if isinstance(value, expr.Expr) else value
        if all(_evaluate(spec, where, e, env) for where, e in spec.where):
            points.append(_point(spec, len(points), env))
    if not points:  # the schema keeps axes non-empty: the filter removed everything
        where, e = spec.where[0] if len(spec.where) == 1 else ("where", None)
        raise spec.fail(where, f"the condition keeps none of the {spec.num_points():,} points",
                        "a sweep with no point has nothing to run; loosen the condition", 0 if e else None,
                        e.text if e else None)
    return points


def _evaluate(spec: Spec, where: str, e: expr.Expr, env: dict[str, Any]) -> Any:
    try:
        return e.evaluate(env)
    except expr.ExprError as x:
        raise spec.fail(where, f"{x.message} (at {_describe(spec, env)})", x.hint, x.offset, e.text) from None


def _describe(spec: Spec, env: dict[str, Any]) -> str:
    return ", ".join(f"{n}={env[n]!r}" for n in spec.axes)


def _where(spec: Spec, name: str) -> str:
    if name in spec.section:
        return spec.workload.paths[name]
    return f"axes.{name}" if name in spec.axes else f"derive.{name}"


def _point(spec: Spec, index: int, env: dict[str, Any]) -> Point:
    options: dict[str, Any] = {}
    defines: dict[str, str] = {}
    inputs: dict[str, Any] = {}
    workload: dict[str, Any] = {}
    for name, value in env.items():
        role = spec.roles[name]
        if role == WORKLOAD and name not in spec.section:  # the point's own values (the section's are the base)
            workload[name] = value
        if role == OPTION:
            field, _column, check = OPTIONS[name]
            try:
                options[field] = check(value)
            except ValueError as e:
                raise spec.fail(_where(spec, name), f"{name}: {e} (at {_describe(spec, env)})") from None
            continue
        if role == PARAM:
            param = name[2:] if name.startswith("D.") else name
            try:
                defines[param] = blueprints.to_igl(value, spec.source.params[param])
            except TypeError as e:
                raise spec.fail(_where(spec, name), str(e)) from None
        inputs[name] = json.dumps(value) if isinstance(value, list) else value
    opts = replace(SimulationOptions(top_links=0), **options)  # the table keeps per-tier numbers only
    set_by = {OPTIONS[n][0]: n for n in env if spec.roles[n] == OPTION}
    try:
        check_scheduling(opts)  # a combination no graph can run is refused before anything runs
    except InfraGraphError as e:
        [d] = e.diagnostics
        name = set_by.get(d.location.path) or next((n for n in ("model", "scheduling") if n in env), None)
        raise spec.fail(_where(spec, name) if name else "axes", f"{d.message} (at {_describe(spec, env)})",
                        d.hint) from None
    locations = tuple((field, spec.source_map.locate(_where(spec, name))) for field, name in set_by.items())
    table = {"source": spec.source.label}
    for name in ALWAYS:
        if spec.workload is not None and name in NOT_FOR_WORKLOADS:
            continue
        field, column, _check = OPTIONS[name]
        table[column] = column_value(field, getattr(opts, field))
    for field, value in options.items():
        column = next(c for f, c, _ in OPTIONS.values() if f == field)
        table[column] = column_value(field, value)
    job = None
    if spec.workload is not None:
        def at(path: str, message: str, varied: bool):
            if not varied:  # the section's own value: the same at every point
                return spec.fail(path, message)
            return spec.fail(path, f"{message} (at {_describe(spec, env)})",
                             "keep only feasible points with `where`, e.g. \"heads % tp == 0\"")

        llm = point_spec(spec.workload, workload, lambda n: _where(spec, n), at)
        table.update(spec_columns(llm))
        loc = spec.source_map.locate(world_path(spec.workload, list(workload), lambda n: _where(spec, n)))
        job = WorkloadJob(llm, job_key(llm, toolchain_digest()), loc)
    table.update(inputs)
    define_items = tuple(sorted(defines.items()))
    graph_key = _digest([spec.source.digest, define_items])
    key = _digest([graph_key, toolchain_digest(), table,
                   {k: v for k, v in asdict(opts).items() if k not in ("trace", "top_links", "links")}])
    return Point(index, table, define_items, opts, graph_key, key, job, locations)


@lru_cache(maxsize=1)
def toolchain_digest() -> str:
    """A hash of the toolchain itself (every module and the compiled engine): results from another
    version are not reused by a resumed sweep, since the same point may now give another answer."""
    h = hashlib.sha256()
    for f in sorted(PACKAGE.rglob("*")):
        if f.suffix in (".py", ".so") and f.is_file():
            h.update(f.relative_to(PACKAGE).as_posix().encode() + b"\0" + f.read_bytes())
    return h.hexdigest()


def _digest(parts: list[Any]) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=list).encode()).hexdigest()[:20]
