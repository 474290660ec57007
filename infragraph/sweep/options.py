"""Simulation options as sweep variables: the names a spec may sweep over and their checks.

An axis or derived value named like a `SimulationOptions` field sets that option for the point.
Each value is checked where it enters (type, range, unit, finiteness); a `ValueError` here carries
the reason, and the spec reader adds the file:line:col and the point.
Units: `size` in bytes (a number or '1MiB'), `endpoint_delay` in ns (a number or '10ns'),
`local_mem_bw` in GB/s with GB = 1e9 bytes (a number or 'none').
"""

from __future__ import annotations

import math
from typing import Any, Callable

from ..errors import InfraGraphError
from ..simulate import (ALGORITHMS, COLLECTIVES, INTER_DIMENSION_SCHEDULINGS, INTRA_DIMENSION_SCHEDULINGS, MODELS,
                        ROUTINGS, SCHEDULINGS, parse_dims)
from ..simulate.policy import describe as describe_policy, parse_policy
from ..units import UnitError, parse_quantity, parse_size_bytes, to_ns


def _choice(choices: tuple[str, ...]) -> Callable[[Any], str]:
    def check(value: Any) -> str:
        if value not in choices:
            raise ValueError(f"{value!r} is not one of: {', '.join(choices)}")
        return value
    return check


def _count(minimum: int) -> Callable[[Any], int]:
    def check(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            raise ValueError(f"expected a whole number ≥ {minimum}, got {value!r}")
        return value
    return check


def _number(value: Any, unit: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"expected a finite number ({unit}) or a quantity with a unit, got {value!r}")
    return float(value)


def _size(value: Any) -> float:
    try:
        nbytes = parse_size_bytes(value) if isinstance(value, str) else _number(value, "bytes")
    except UnitError as e:
        raise ValueError(str(e)) from None
    if not nbytes >= 1 or nbytes != int(nbytes):
        raise ValueError(f"a size must be a whole number of bytes ≥ 1, got {value!r}")
    return float(nbytes)


def _delay(value: Any) -> float:
    try:
        ns = to_ns(parse_quantity(value)) if isinstance(value, str) else _number(value, "ns")
    except UnitError as e:
        raise ValueError(str(e)) from None
    if not ns >= 0:
        raise ValueError(f"a delay must be ≥ 0 ns, got {value!r}")
    return ns


def _mem_bw(value: Any) -> float | None:
    if isinstance(value, str) and value.lower() == "none":
        return None
    gb_per_s = _number(value, "GB/s")
    if not gb_per_s > 0:
        raise ValueError(f"local memory bandwidth must be > 0 GB/s (or 'none'), got {value!r}")
    return gb_per_s


def _algorithm(value: Any) -> tuple[str, ...]:
    names = value if isinstance(value, list) else str(value).split(",")
    out = tuple(str(a).strip() for a in names)
    for a in out:
        _choice(ALGORITHMS)(a)
    return out


def _dims(value: Any) -> tuple[int, ...]:
    try:
        return parse_dims(value)
    except InfraGraphError as e:
        raise ValueError(e.diagnostics[0].message) from None


def _routing_policy(value: Any) -> str:
    """'scale-out=d-mod-k' and the like (simulate.policy), kept as the canonical per-tier text."""
    try:
        return describe_policy(parse_policy(str(value)))
    except InfraGraphError as e:
        raise ValueError(e.diagnostics[0].message) from None


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"expected true or false, got {value!r}")
    return value


# name in the spec -> (SimulationOptions field, table column, check/convert)
OPTIONS: dict[str, tuple[str, str, Callable[[Any], Any]]] = {
    "collective": ("collective", "collective", _choice(COLLECTIVES)),
    "size": ("size_bytes", "size_bytes", _size),
    "algorithm": ("algorithm", "algorithm", _algorithm),
    "model": ("model", "model", _choice(MODELS)),
    "chunks": ("chunks", "chunks", _count(1)),
    "active_chunks": ("active_chunks", "active_chunks", _count(1)),
    "dims": ("dims", "dims", _dims),
    "routing": ("routing", "routing", _choice(ROUTINGS)),
    "optimization": ("optimization", "optimization", _choice(("localBWAware", "baseline"))),
    "scheduling": ("scheduling", "scheduling", _choice(SCHEDULINGS)),
    "intra_dimension_scheduling": ("intra_dimension_scheduling", "intra_dimension_scheduling",
                                   _choice(INTRA_DIMENSION_SCHEDULINGS)),
    "inter_dimension_scheduling": ("inter_dimension_scheduling", "inter_dimension_scheduling",
                                   _choice(INTER_DIMENSION_SCHEDULINGS)),
    "endpoint_delay": ("endpoint_delay_ns", "endpoint_delay_ns", _delay),
    "local_mem_bw": ("local_mem_bw_gb_per_s", "local_mem_bw_gb_per_s", _mem_bw),
    "ecmp": ("ecmp", "ecmp", _bool),
    "routing_policy": ("routing_policy", "routing_policy", _routing_policy),
    "root": ("root", "root", _count(0)),
}
# Columns every table has, whether the spec sets them or leaves the default.
ALWAYS = ("collective", "size", "algorithm", "model", "chunks")


def column_value(field: str, value: Any) -> Any:
    """An option's value as a table cell: tuples joined ('ring,direct', '8x4'), others as they are."""
    if field == "algorithm":
        return ",".join(value)
    if field == "dims":
        return "x".join(map(str, value)) if value else None
    return value
