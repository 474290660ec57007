"""Reading a sweep specification (YAML or TOML, schemas/sweep.schema.json) with located errors.

Everything that can be checked before a point runs is checked here, each problem reported at the
spec's file:line:col: the schema, the source (a blueprint name or a file), axis values and ranges,
zip groups, derived-value expressions and the names they read, and what every name means — a
simulation option (sweep/options.py), a parameter of the source (passed as -D), a key of the
`workload` section (an LLM training step, sweep/workloads.py), or a variable some derived value
reads. A name that is none of these is an error (a typo must not silently leave a parameter at its
default).
"""

from __future__ import annotations

import hashlib
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import blueprints
from ..document import tomlio
from ..document.io import YamlSourceMap
from ..document.reader import parse_text
from ..errors import Diagnostic, InfraGraphError, Location, SourceMap, did_you_mean, found_line, read_text
from ..integers import exact_integer, not_an_integer
from ..schemas import schema_errors
from ..sources import DOCUMENT_SUFFIXES
from ..units import UnitError, parse_size_bytes
from . import expr
from .columns import METRICS, WORKLOAD_METRICS, reserved
from .options import OPTIONS
from .workloads import KEYS as WORKLOAD_KEYS, NOT_FOR_WORKLOADS, WorkloadBase, check_required, read_base

MAX_AXIS_VALUES = 100_000
MAX_POINTS = 1_000_000
OPTION, PARAM, VARIABLE, WORKLOAD = "option", "param", "variable", "workload"
OPTION_COLUMNS = {column for _field, column, _check in OPTIONS.values()}


@dataclass(frozen=True)
class Source:
    """What every point compiles: a blueprint or file, its declared parameters and a content digest."""

    label: str  # as the spec names it (std.fabrics.stack, or the path as written)
    path: str  # the resolved file
    params: dict[str, str]  # declared parameter -> its .igl type (empty for documents)
    include: tuple[str, ...]  # .igl import search path
    digest: str  # sha256 over the file and every .igl file it imports


@dataclass
class Spec:
    """A checked sweep specification, ready to expand into points (sweep/points.py)."""

    file: str
    name: str
    source: Source
    axes: dict[str, list[Any]]  # name -> values, in spec order
    factors: list[list[str]]  # axes varying together, in product order (a lone axis is a group of one)
    derive: list[tuple[str, expr.Expr | Any]]  # in order; an Expr, or a constant
    where: list[tuple[str, expr.Expr]]  # (spec path, expression)
    roles: dict[str, str]  # variable name -> OPTION, PARAM, WORKLOAD or VARIABLE
    source_map: SourceMap = field(repr=False, default=None)  # type: ignore[assignment]
    workload: WorkloadBase | None = None  # the `workload` section: each point replays a training step
    report: list[tuple[str, expr.Expr]] = field(default_factory=list)  # result columns, from inputs + metrics
    section: tuple[str, ...] = ()  # workload keys only the section sets (constants at the head of `derive`)

    def fail(self, path: str, message: str, hint: str | None = None, offset: int | None = None,
             text: str | None = None) -> InfraGraphError:
        return located(self.source_map, path, message, hint, offset, text)

    def num_points(self) -> int:
        return math.prod(len(self.axes[group[0]]) for group in self.factors)


def located(source_map: SourceMap, path: str, message: str, hint: str | None = None, offset: int | None = None,
            text: str | None = None) -> InfraGraphError:
    """An error at document path `path` of the spec, at `offset` inside expression `text` when given."""
    loc = source_map.locate(path)
    line = found_line(loc)
    column = loc.column
    if text is not None and offset is not None and line is not None and column is not None:
        start = line.find(text.strip(), column - 1)
        if start >= 0:
            column = start + offset + 1
    loc = Location(loc.file, loc.line, column, path)
    return InfraGraphError(Diagnostic(message, loc, hint, source_line=line if column is not None else None))


def read_spec(path: str | Path) -> Spec:
    """Parse and check the spec file at `path` (.yaml/.yml/.json or .toml)."""
    path = Path(path)
    text = read_text(path, "sweep spec")
    if path.suffix == ".toml":
        data, source_map = tomlio.loads(text, str(path)), tomlio.TomlSourceMap(text, str(path))
    elif path.suffix in DOCUMENT_SUFFIXES:
        data, source_map = parse_text(text, str(path), "a sweep spec needs 'source' and 'axes'"), YamlSourceMap(text, str(path))
    else:
        raise InfraGraphError(Diagnostic(f"unknown spec file type '{path.suffix}'; expected .yaml, .yml, "
                                         ".json or .toml", Location(str(path))))
    diags = [_at_unexpected_key(d) for d in schema_errors("sweep", data)]
    if diags:
        raise InfraGraphError(diags).relocated(source_map)
    return _check(data, str(path), source_map)


def _at_unexpected_key(d: Diagnostic) -> Diagnostic:
    """An unknown key is reported where it is written, not at the mapping that holds it."""
    m = re.search(r"\('([^']+)' (?:was|were) unexpected\)", d.message)
    if not m or d.location.path is None:
        return d
    parent = "" if d.location.path == "<document>" else d.location.path + "."
    allowed = d.message.partition("allowed keys: ")[2].split(", ")
    return Diagnostic(d.message, Location(path=parent + m.group(1)), d.hint or did_you_mean(m.group(1), allowed))


def _check(data: dict, file: str, source_map: SourceMap) -> Spec:
    def fail(where: str, message: str, hint: str | None = None) -> InfraGraphError:
        return located(source_map, where, message, hint)

    source = _source(data, Path(file).parent, fail)
    workload = read_base(data["workload"], Path(file).parent, fail) if "workload" in data else None
    for where, name in [*((f"axes.{n}", n) for n in data["axes"]), *((f"derive.{n}", n) for n in data.get("derive") or {})]:
        if reserved(name) or (name in OPTION_COLUMNS and name not in OPTIONS):
            raise fail(where, f"'{name}' is a column of the results table; name this value otherwise")
    axes = {name: _axis_values(name, value, fail) for name, value in data["axes"].items()}
    factors = _factors(data, axes, fail)
    # The workload section's values that no axis or derived value sets are constants every
    # expression may read (`where: "heads % tp == 0"`).
    section = [k for k in (workload.values if workload else {}) if k not in axes and k not in (data.get("derive") or {})]
    derive: list[tuple[str, Any]] = [(k, workload.values[k]) for k in section] if workload else []
    known = list(axes) + section
    reads: set[str] = set()
    for name, value in (data.get("derive") or {}).items():
        where = f"derive.{name}"
        if name in known:
            raise fail(where, f"'{name}' is already {'an axis' if name in axes else 'derived above'}")
        if isinstance(value, str):
            e = _parse_expr(source_map, where, value, known)
            reads.update(e.names)
            derive.append((name, e))
        else:
            _check_finite(value, where, fail)
            derive.append((name, value))
        known.append(name)
    conditions = data.get("where") or []
    where_list = []
    for i, text in enumerate([conditions] if isinstance(conditions, str) else conditions):
        where = "where" if isinstance(conditions, str) else f"where[{i}]"
        e = _parse_expr(source_map, where, text, known)
        reads.update(e.names)
        where_list.append((where, e))
    for text in (data.get("report") or {}).values():  # a value only a report column reads is read
        try:
            reads.update(expr.parse(text).names)
        except expr.ExprError:
            pass  # reported where it is written, by _report
    roles = _roles(known, axes, source, reads, fail, workload is not None)
    if workload is not None:
        check_required(workload, [n for n, r in roles.items() if r == WORKLOAD], fail)
    report = _report(data.get("report") or {}, roles, workload is not None, source_map, fail)
    spec = Spec(file, data.get("name") or Path(file).stem, source, axes, factors, derive, where_list, roles,
                source_map, workload, report, tuple(section))
    if spec.num_points() > MAX_POINTS:
        raise fail("axes", f"the axes make {spec.num_points():,} points; the limit is {MAX_POINTS:,}",
                   "zip axes that vary together, or split the study")
    return spec


def _report(section: dict[str, str], roles: dict[str, str], workload: bool, source_map: SourceMap,
            fail) -> list[tuple[str, expr.Expr]]:
    """The `report` columns: expressions over a finished point's row (its inputs and metrics) and
    the report columns before them, evaluated by the driver (run.py) as each point's result arrives."""
    from .options import ALWAYS

    options = [n for n in ALWAYS if not (workload and n in NOT_FOR_WORKLOADS)]
    options += [n for n, role in roles.items() if role == OPTION]
    metrics = [m for m in (WORKLOAD_METRICS if workload else METRICS) if m not in ("worker", "compiled")]
    known = ["source", *(OPTIONS[n][1] for n in options), *(WORKLOAD_KEYS if workload else ()),
             *(n for n, role in roles.items() if role != OPTION), *metrics]
    known = list(dict.fromkeys(known))
    out = []
    for name, text in section.items():
        where = f"report.{name}"
        if name in known or reserved(name) or name in OPTIONS or name in OPTION_COLUMNS:
            raise fail(where, f"'{name}' is already a column of the results table; name this column otherwise")
        out.append((name, _parse_expr(source_map, where, text, known)))
        known.append(name)
    return out


def _parse_expr(source_map: SourceMap, where: str, text: str, known: list[str]) -> expr.Expr:
    try:
        e = expr.parse(text)
    except expr.ExprError as x:
        raise located(source_map, where, x.message, x.hint, x.offset, text) from None
    for name in e.names:
        if name not in known:
            raise located(source_map, where, f"unknown name '{name}' (known here: {', '.join(known) or 'none'})",
                          did_you_mean(name, known), expr.name_offset(e, name), text)
    return e


def _source(data: dict, base: Path, fail) -> Source:
    from ..lang.compiler import source_files

    label = data["source"]
    include = tuple(str((base / p).resolve()) for p in data.get("include") or [])
    if blueprints.is_blueprint_name(label) and not (base / label).exists():
        try:
            path = blueprints.resolve(label)
        except InfraGraphError as e:
            raise fail("source", e.diagnostics[0].message, e.diagnostics[0].hint) from None
    else:
        path = (base / label).resolve()
        if not path.is_file():
            raise fail("source", f"no such file '{label}' (looked for {path})",
                       "give a blueprint name such as std.fabrics.stack, or a path relative to the spec")
    if path.suffix == ".igl":
        from .. import lang

        files = source_files(str(path), list(include))
        described = blueprints.describe(label) if blueprints.is_blueprint_name(label) else lang.describe(str(path))
        params = {p["name"]: p["type"] for p in described["params"]}
    elif path.suffix in DOCUMENT_SUFFIXES:
        files, params = [path], {}
    else:
        raise fail("source", f"unknown source type '{path.suffix}'; expected .igl, .yaml, .yml or .json")
    digest = hashlib.sha256()
    for f in files:
        digest.update(str(f.name).encode() + b"\0" + f.read_bytes() + b"\0")
    return Source(label, str(path), params, include, digest.hexdigest())


def _axis_values(name: str, value: Any, fail) -> list[Any]:
    where = f"axes.{name}"
    if isinstance(value, dict):
        values = _range(name, value, where, fail)
    elif isinstance(value, list):
        values = value
        for i, v in enumerate(values):
            _check_finite(v, f"{where}[{i}]", fail)
    else:
        _check_finite(value, where, fail)
        values = [value]
    if len(values) > MAX_AXIS_VALUES:
        raise fail(where, f"axis '{name}' has {len(values):,} values; the limit is {MAX_AXIS_VALUES:,}")
    return values


def _check_finite(value: Any, where: str, fail) -> None:
    """A number in an axis or a constant must be finite: a NaN equals nothing (not even a resumed
    copy of itself) and an infinity is no quantity any option or parameter can take."""
    for v in value if isinstance(value, list) else [value]:
        if isinstance(v, list):
            _check_finite(v, where, fail)
        elif isinstance(v, float) and not math.isfinite(v):
            raise fail(where, f"{v} is not a finite number")


def _range(name: str, r: dict, where: str, fail) -> list[Any]:
    modes = [k for k in ("step", "factor", "count") if k in r]
    if len(modes) > 1:
        raise fail(where, f"a range takes one of step, factor or count; this one has {' and '.join(modes)}")

    def bound(key: str) -> float:
        v = r[key]
        if isinstance(v, str):
            if name != "size":
                raise fail(f"{where}.{key}", f"range bound {v!r} is not a number (units are read for 'size' only)")
            try:
                return parse_size_bytes(v)
            except UnitError as e:
                raise fail(f"{where}.{key}", f"bad size {v!r}: {e}") from None
        if not math.isfinite(v):
            raise fail(f"{where}.{key}", f"range bound {v!r} is not finite")
        return v

    lo, hi = bound("from"), bound("to")
    if hi < lo:
        raise fail(where, f"range runs from {r['from']!r} down to {r['to']!r}; 'to' must be ≥ 'from'")
    mode = modes[0] if modes else "step"
    if mode == "factor":
        if lo <= 0:
            raise fail(f"{where}.from", f"a geometric range needs 'from' > 0, got {lo:g}")
        count = math.floor(math.log(hi / lo) / math.log(r["factor"]) + 1e-9) + 1
        values = [lo * r["factor"] ** i for i in range(min(count, MAX_AXIS_VALUES + 1))]
    elif mode == "count":
        n = exact_integer(r["count"])  # the schema's "integer": 3.0 is 3
        if n is None:
            raise fail(f"{where}.count", not_an_integer(r["count"]))
        values = [lo + (hi - lo) * i / (n - 1) for i in range(min(n, MAX_AXIS_VALUES + 1))]
    else:
        step = r.get("step", 1)
        count = math.floor((hi - lo) / step + 1e-9) + 1
        values = [lo + step * i for i in range(min(count, MAX_AXIS_VALUES + 1))]
    # whole numbers stay ints (sizes, counts); others are rounded off the float noise of i * step
    return [int(round(v)) if abs(v - round(v)) < 1e-9 * max(1.0, abs(v)) else round(v, 12) for v in values]


def _factors(data: dict, axes: dict[str, list[Any]], fail) -> list[list[str]]:
    groups: list[list[str]] = [list(axes)] if data.get("combine") == "zip" else []
    if data.get("combine") == "zip" and data.get("zip"):
        raise fail("zip", "'zip' groups are for combine: product; with combine: zip every axis already zips")
    for i, group in enumerate(data.get("zip") or []):
        for name in group:
            if name not in axes:
                raise fail(f"zip[{i}]", f"'{name}' is not an axis", did_you_mean(name, axes))
            if any(name in g for g in groups):
                raise fail(f"zip[{i}]", f"axis '{name}' is in two zip groups")
        groups.append(list(group))
    for group in groups:
        lengths = {name: len(axes[name]) for name in group}
        if len(set(lengths.values())) > 1:
            where = "combine" if data.get("combine") == "zip" else f"zip[{groups.index(group)}]"
            raise fail(where, "zipped axes must have equal lengths: "
                       + ", ".join(f"{n} has {k}" for n, k in lengths.items()))
    # product order follows the spec's axis order (a zip group sits where its first axis is)
    order = {name: i for i, name in enumerate(axes)}
    grouped = {n for g in groups for n in g}
    factors = groups + [[n] for n in axes if n not in grouped]
    return sorted(factors, key=lambda g: min(order[n] for n in g))


def _roles(names: list[str], axes: dict, source: Source, reads: set[str], fail,
           workload: bool = False) -> dict[str, str]:
    roles = {}

    def not_also_a_parameter(name: str, where: str, kind: str) -> None:
        if name in source.params and f"D.{name}" not in names:
            raise fail(where, f"'{name}' is both a {kind} and a parameter of '{source.label}'",
                       f"write the parameter as 'D.{name}'; '{name}' next to it is the {kind}")

    for name in names:
        where = f"axes.{name}" if name in axes else f"derive.{name}"
        if name.startswith("D."):
            if name[2:] not in source.params:
                raise fail(where, f"'{source.label}' has no parameter '{name[2:]}'",
                           did_you_mean(name[2:], source.params) or _param_list(source))
            roles[name] = PARAM
        elif workload and name in NOT_FOR_WORKLOADS:
            raise fail(where, f"'{name}' does not apply to a workload sweep: the step's trace names each "
                              "collective, its size and its group")
        elif workload and name in WORKLOAD_KEYS:
            not_also_a_parameter(name, where, "workload key")
            roles[name] = WORKLOAD
        elif name in OPTIONS:
            not_also_a_parameter(name, where, "simulation option")
            roles[name] = OPTION
        elif name in source.params:
            roles[name] = PARAM
        elif name in reads:
            roles[name] = VARIABLE
        elif name in WORKLOAD_KEYS:
            raise fail(where, f"'{name}' is a workload key, but this spec has no 'workload' section",
                       "add `workload:` (a workload spec file, or a mapping of its keys) to replay a training "
                       "step at every point (docs/sweep.md, 'Workload sweeps')")
        else:
            names_known = [*OPTIONS, *source.params, *(WORKLOAD_KEYS if workload else ())]
            raise fail(where, f"'{name}' is not a simulation option, not a parameter of '{source.label}', "
                              f"{'not a workload key, ' if workload else ''}and no derived value, condition or "
                              "report column reads it",
                       did_you_mean(name, names_known)
                       or f"simulation options: {', '.join(OPTIONS)}; {_param_list(source)}")
    return roles


def _param_list(source: Source) -> str:
    return f"parameters of {source.label}: {', '.join(source.params) or '(none)'}"
