"""Operator semantics: integer/float arithmetic, dimension-checked quantity arithmetic, comparisons.

Rules (kept strict so mistakes surface at compile time):
- int op int stays int for + - * // % **; `/` always gives a float.
- A quantity times or divided by a number keeps its dimension; quantity * quantity multiplies
  dimensions (bandwidth * time = size); a dimensionless result is a plain float.
- Adding, subtracting or comparing different dimensions, or a quantity and a bare number, is an
  error naming both dimensions (`400 Gbps + 5 ns`).
- `and`/`or`/`not`/`if` need real booleans; `==` between different kinds is simply false.
"""

from __future__ import annotations

import math
from typing import Any

from ..units import DIMENSIONLESS, Quantity, UnitError
from .values import brief, type_of

MAX_INT_BITS = 256  # a bigger integer is surely a runaway expression, not a topology
MAX_SEQUENCE = 1_000_000  # items in a string or list built by + or *


class OpError(Exception):
    def __init__(self, message: str, hint: str | None = None):
        super().__init__(message)
        self.message, self.hint = message, hint


def _num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _collapse(q: Quantity) -> Any:
    return q.value if q.dim == DIMENSIONLESS else q


def _as_q(v: Any) -> Quantity:
    return v if isinstance(v, Quantity) else Quantity(float(v))


def _check_int(v: Any) -> Any:
    if isinstance(v, int) and v.bit_length() > MAX_INT_BITS:
        raise OpError(f"integer result too large ({v.bit_length()} bits)", "is an exponent or a product runaway?")
    if isinstance(v, float) and not math.isfinite(v):
        raise OpError("number overflow (result is not a finite number)")
    return v


def _bad(op: str, a: Any, b: Any) -> OpError:
    return OpError(f"cannot apply '{op}' to {type_of(a)} and {type_of(b)}")


def binary(op: str, a: Any, b: Any) -> Any:
    """`a op b` for the arithmetic and comparison operators (and/or are short-circuited elsewhere)."""
    try:
        if op in ("==", "!="):
            eq = _equal(a, b)
            return eq if op == "==" else not eq
        if op in ("<", "<=", ">", ">="):
            c = _compare(a, b, op)
            return {"<": c < 0, "<=": c <= 0, ">": c > 0, ">=": c >= 0}[op]
        if op == "in":
            if isinstance(b, (list, range)):
                return any(_equal(a, x) for x in b) if isinstance(b, list) else a in b
            if isinstance(b, str) and isinstance(a, str):
                return a in b
            raise _bad(op, a, b)
        if op == "..":
            if isinstance(a, int) and isinstance(b, int) and not isinstance(a, bool) and not isinstance(b, bool):
                return range(a, b)
            raise OpError(f"a range needs two integers, got {type_of(a)} .. {type_of(b)}")
        if _num(a) and _num(b):
            return _check_int(_numeric(op, a, b))
        if isinstance(a, Quantity) or isinstance(b, Quantity):
            if (isinstance(a, Quantity) or _num(a)) and (isinstance(b, Quantity) or _num(b)):
                return _quantity(op, a, b)
            raise _bad(op, a, b)
        if op == "+" and isinstance(a, (str, list)) and type(a) is type(b):
            if len(a) + len(b) > MAX_SEQUENCE:
                raise OpError(f"{type_of(a)} too long: the result would have {len(a) + len(b):,} items "
                              f"(limit {MAX_SEQUENCE:,})", "is a recursion doubling a string or list?")
            return a + b
        if op == "*" and isinstance(a, (str, list)) and isinstance(b, int) and not isinstance(b, bool):
            if b * len(a) > MAX_SEQUENCE:
                raise OpError(f"repetition too large: the result would have {b * len(a):,} items "
                              f"(limit {MAX_SEQUENCE:,})")
            return a * b
        raise _bad(op, a, b)
    except ZeroDivisionError:
        raise OpError("division by zero") from None
    except UnitError as e:
        raise OpError(str(e)) from None
    except OverflowError:
        raise OpError("number overflow") from None


def _numeric(op: str, a: Any, b: Any) -> Any:
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if op == "/":
        return a / b
    if op == "//":
        return a // b
    if op == "%":
        return a % b
    if op == "**":
        if isinstance(a, int) and isinstance(b, int):
            if b < 0:
                return float(a) ** b
            if a not in (0, 1, -1) and b * max(a.bit_length(), 1) > MAX_INT_BITS:
                raise OpError(f"integer result too large ({a} ** {b})")
        return a ** b
    raise OpError(f"unknown operator '{op}'")


def _quantity(op: str, a: Any, b: Any) -> Any:
    out = _quantity_op(op, a, b)
    value = out.value if isinstance(out, Quantity) else out
    if isinstance(value, float) and not math.isfinite(value):
        raise OpError(f"number overflow ({brief(a)} {op} {brief(b)} is not finite)")
    return out


def _quantity_op(op: str, a: Any, b: Any) -> Any:
    qa, qb = _as_q(a), _as_q(b)
    if op in ("+", "-"):
        if qa.dim != qb.dim:
            raise OpError(f"cannot {'add' if op == '+' else 'subtract'} a {qa.kind} and a {qb.kind} "
                          f"({brief(a)} {op} {brief(b)})", "both sides need the same unit dimension")
        return _collapse(qa + qb if op == "+" else qa - qb)
    if op == "*":
        return _collapse(qa * qb)
    if op == "/":
        return _collapse(qa / qb)
    if op in ("//", "%"):
        if qa.dim != qb.dim:
            raise OpError(f"'{op}' needs two quantities of the same dimension, got a {qa.kind} and a {qb.kind}")
        if qb.value == 0:
            raise ZeroDivisionError
        return int(qa.value // qb.value) if op == "//" else _collapse(Quantity(qa.value % qb.value, qa.dim))
    raise OpError(f"cannot apply '{op}' to quantities ({brief(a)} {op} {brief(b)})")


def _equal(a: Any, b: Any) -> bool:
    if isinstance(a, Quantity) and isinstance(b, Quantity):
        return a.dim == b.dim and math.isclose(a.value, b.value, rel_tol=1e-12, abs_tol=0.0)
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if _num(a) and _num(b):
        return a == b
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b))
    return a == b


def _compare(a: Any, b: Any, op: str) -> int:
    if _num(a) and _num(b):
        return (a > b) - (a < b)
    if isinstance(a, Quantity) and isinstance(b, Quantity):
        if a.dim != b.dim:
            raise OpError(f"cannot compare a {a.kind} and a {b.kind} ({brief(a)} {op} {brief(b)})")
        return a.compare(b)
    if isinstance(a, str) and isinstance(b, str):
        return (a > b) - (a < b)
    q, n = (a, b) if isinstance(a, Quantity) else (b, a)
    if isinstance(q, Quantity) and _num(n):
        raise OpError(f"cannot compare a {q.kind} with a bare number ({brief(a)} {op} {brief(b)})",
                      f"give the number a unit, e.g. {brief(n)} {'Gbps' if q.kind == 'bandwidth' else 'ns'}")
    raise _bad(op, a, b)


def negate(v: Any) -> Any:
    if _num(v):
        return -v
    if isinstance(v, Quantity):
        return -v
    raise OpError(f"cannot negate a {type_of(v)}")


def truth(v: Any, what: str) -> bool:
    """`v` as a condition: only real booleans are accepted (`if n` on an int is a mistake)."""
    if isinstance(v, bool):
        return v
    raise OpError(f"{what} must be a bool, got {type_of(v)}", "compare explicitly, e.g. 'n > 0'")
