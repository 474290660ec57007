"""Built-in functions and constants of the language (the global scope every module sees).

Each builtin is a plain Python function that raises `OpError` with a user-facing message on
misuse; the evaluator adds the position. `parse_shape` reads ASTRA-sim's multi-dimensional
notation ("RI(4)_FC(8)_SW(32)") so blueprints can build RI/FC/SW stacks from one string.
"""

from __future__ import annotations

import math
import re
from typing import Any

from ..units import BANDWIDTH, TIME, Quantity, bandwidth_problem, latency_problem
from .ops import OpError, binary
from .values import AUTO, Builtin, EdgeSel, EpRef, Kind, LinkVal, a_value, brief, show

KINDS = {k: Kind(k) for k in ("xpu", "nic", "cpu", "memory", "port", "switch")}


def _int(v: Any, what: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise OpError(f"{what} must be an int, got {a_value(v)}")
    return v


def _seq(v: Any, fn: str) -> list:
    if isinstance(v, (list, range)):
        return list(v)
    if isinstance(v, str):
        return list(v)
    raise OpError(f"{fn}() needs a list, range or string, got {a_value(v)}")


def b_len(x: Any) -> int:
    if isinstance(x, (list, range, str)):
        return len(x)
    raise OpError(f"len() needs a list, range or string, got {a_value(x)}")


def b_range(a: Any, b: Any = None, step: Any = 1) -> range:
    if b is None:
        a, b = 0, a
    a, b, step = _int(a, "range start"), _int(b, "range stop"), _int(step, "range step")
    if step == 0:
        raise OpError("range step cannot be zero")
    return range(a, b, step)


def _fold(xs: Any, fn: str, op: str) -> Any:
    items = _seq(xs, fn)
    if not items:
        raise OpError(f"{fn}() of an empty sequence")
    acc = items[0]
    for x in items[1:]:
        acc = binary(op, acc, x)
    return acc


def b_min(*xs: Any) -> Any:
    items = _seq(xs[0], "min") if len(xs) == 1 else list(xs)
    return min_max(items, "min", "<")


def b_max(*xs: Any) -> Any:
    items = _seq(xs[0], "max") if len(xs) == 1 else list(xs)
    return min_max(items, "max", ">")


def min_max(items: list, fn: str, op: str) -> Any:
    if not items:
        raise OpError(f"{fn}() of an empty sequence")
    best = items[0]
    for x in items[1:]:
        if binary(op, x, best):
            best = x
    return best


def b_sum(xs: Any) -> Any:
    items = _seq(xs, "sum")
    return _fold(items, "sum", "+") if items else 0


def b_product(xs: Any) -> Any:
    items = _seq(xs, "product")
    return _fold(items, "product", "*") if items else 1


def b_abs(x: Any) -> Any:
    if isinstance(x, Quantity):
        return Quantity(abs(x.value), x.dim)
    if isinstance(x, (int, float)) and not isinstance(x, bool):
        return abs(x)
    raise OpError(f"abs() needs a number, got {a_value(x)}")


def b_int(x: Any) -> int:
    if isinstance(x, bool):
        raise OpError("int() of a bool")
    if isinstance(x, int):
        return x
    if isinstance(x, float):
        if math.isnan(x) or math.isinf(x):
            raise OpError(f"int() of {x}")
        return int(x)
    if isinstance(x, str) and re.fullmatch(r"\s*[-+]?\d+\s*", x):
        return int(x)
    raise OpError(f"int() cannot convert {brief(x)}")


def b_float(x: Any) -> float:
    if isinstance(x, (int, float)) and not isinstance(x, bool):
        return float(x)
    if isinstance(x, str):
        try:
            f = float(x)
        except ValueError:
            pass
        else:
            if math.isfinite(f):
                return f
            raise OpError(f"{brief(x)} is not a finite number", "numbers in a fabric must be finite")
    raise OpError(f"float() cannot convert {brief(x)}")


def b_str(x: Any) -> str:
    return x if isinstance(x, str) else show(x)


def b_split(s: Any, sep: Any) -> list:
    if not isinstance(s, str) or not isinstance(sep, str) or not sep:
        raise OpError("split(text, separator) needs two strings (a non-empty separator)")
    return s.split(sep)


def b_join(xs: Any, sep: Any = "") -> str:
    if not isinstance(sep, str):
        raise OpError("join(list, separator) needs a string separator")
    return sep.join(b_str(x) for x in _seq(xs, "join"))


def b_floor(x: Any) -> int:
    if isinstance(x, (int, float)) and not isinstance(x, bool):
        return math.floor(x)
    raise OpError(f"floor() needs a number, got {a_value(x)}")


def b_ceil(x: Any) -> int:
    if isinstance(x, (int, float)) and not isinstance(x, bool):
        return math.ceil(x)
    raise OpError(f"ceil() needs a number, got {a_value(x)}")


def b_log2(x: Any) -> float:
    if isinstance(x, (int, float)) and not isinstance(x, bool) and x > 0:
        return math.log2(x)
    raise OpError(f"log2() needs a positive number, got {brief(x)}")


def b_is_pow2(x: Any) -> bool:
    x = _int(x, "is_pow2() argument")
    return x > 0 and x & (x - 1) == 0


_SHAPE_BLOCK = re.compile(r"\s*(RI|FC|SW|Ring|FullyConnected|Switch)\s*\(\s*(\d+)\s*\)\s*")
_SHAPE_ALIASES = {"Ring": "RI", "FullyConnected": "FC", "Switch": "SW"}


def b_parse_shape(text: Any) -> list:
    """'RI(4)_FC(8)_SW(32)' -> [["RI", 4], ["FC", 8], ["SW", 32]] (dimension 1 first)."""
    if not isinstance(text, str):
        raise OpError(f"parse_shape() needs a string, got {a_value(text)}")
    out = []
    for part in text.split("_"):
        m = _SHAPE_BLOCK.fullmatch(part)
        if not m:
            raise OpError(f"bad shape block '{part}' in '{text}'; expected RI(k), FC(k) or SW(k) joined by '_'",
                          'e.g. "RI(4)_FC(8)_SW(32)"')
        size = int(m.group(2))
        if size < 2:
            raise OpError(f"shape block '{part.strip()}' needs at least 2 NPUs")
        out.append([_SHAPE_ALIASES.get(m.group(1), m.group(1)), size])
    return out


def b_link(bandwidth: Any = None, latency: Any = None, description: Any = "") -> LinkVal:
    """An inline link: `via link(400 Gbps, 500 ns)`."""
    if bandwidth is not None and not (isinstance(bandwidth, Quantity) and bandwidth.dim == BANDWIDTH):
        raise OpError(f"link bandwidth must be a bandwidth such as 400 Gbps, got {a_value(bandwidth)}")
    if latency is not None and not (isinstance(latency, Quantity) and latency.dim == TIME):
        raise OpError(f"link latency must be a time such as 500 ns, got {a_value(latency)}")
    if not isinstance(description, str):
        raise OpError("link description must be a string")
    problem = (bandwidth is not None and bandwidth_problem(bandwidth.value, show(bandwidth))) or (
        latency is not None and latency_problem(latency.value, show(latency)))
    if problem:
        raise OpError(f"link {problem}")
    return LinkVal(None, bandwidth, latency, description)


def b_custom(type_name: Any) -> Kind:
    if not isinstance(type_name, str) or not type_name.strip():
        raise OpError('custom() needs the type as a non-empty string, e.g. custom("tpu")')
    return Kind("custom", type_name)


def b_between(a: Any, b: Any) -> EdgeSel:
    """The edges joining two endpoint selections, for `annotate between(a, b) failed = true`."""
    for side in (a, b):
        if not isinstance(side, EpRef) or side.level != "fabric":
            raise OpError(f"needs two instance endpoints (like leaf[0].port[3]), got {a_value(side)}")
    return EdgeSel(a, b)


_FUNCTIONS = {
    "len": (b_len, "len(x): items in a list, range or string"),
    "between": (b_between, "between(a, b): the edges joining endpoints a and b, for annotate (failed, bandwidth_factor)"),
    "range": (b_range, "range(stop) / range(start, stop[, step]): like a..b with a step"),
    "min": (b_min, "min(a, b, ...) or min(list)"),
    "max": (b_max, "max(a, b, ...) or max(list)"),
    "sum": (b_sum, "sum(list)"),
    "product": (b_product, "product(list)"),
    "abs": (b_abs, "abs(x)"),
    "int": (b_int, "int(x): truncate a float or parse a string"),
    "float": (b_float, "float(x)"),
    "str": (b_str, "str(x): the value as text"),
    "split": (b_split, "split(text, sep)"),
    "join": (b_join, "join(list, sep)"),
    "floor": (b_floor, "floor(x)"),
    "ceil": (b_ceil, "ceil(x)"),
    "log2": (b_log2, "log2(x)"),
    "is_pow2": (b_is_pow2, "is_pow2(n)"),
    "parse_shape": (b_parse_shape, 'parse_shape("RI(4)_FC(8)_SW(32)") -> [["RI", 4], ["FC", 8], ["SW", 32]]'),
    "link": (b_link, "link(bandwidth, latency, description): an inline link"),
    "custom": (b_custom, 'custom("type"): a component kind of your own'),
}


def global_names() -> dict[str, Any]:
    """The names every module starts with."""
    out: dict[str, Any] = {name: Builtin(name, fn, doc) for name, (fn, doc) in _FUNCTIONS.items()}
    out.update(KINDS)
    out["auto"] = AUTO
    return out
