"""Derived values of a sweep: a small, safe expression form over the point's variables.

`budget * split / 2`, `'SW(' + str(npus) + ')' if topology == 'switch' else torus`,
`[f'{bw1:g} GB/s', f'{bw2:g} GB/s']`: Python expression syntax, parsed with `ast` and evaluated by
walking the tree, never by `eval`. Only literals, the point's names, arithmetic, comparisons,
`and`/`or`/`not`, `x if c else y`, lists, indexing, f-strings and a few pure functions
(FUNCTIONS) are allowed; no attributes, no imports, no lambdas. Powers and repetitions are bounded
so that a typo cannot hang the run, and every number a derived value produces must be finite.
"""

from __future__ import annotations

import ast
import math
import operator
import re
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from ..errors import did_you_mean

FUNCTIONS: dict[str, Callable[..., Any]] = {
    "min": min, "max": max, "abs": abs, "round": round, "int": int, "float": float, "str": str,
    "len": len, "sum": sum, "sqrt": math.sqrt, "log2": math.log2, "log10": math.log10,
    "ceil": math.ceil, "floor": math.floor,
}
MAX_EXPONENT = 1024
MAX_INT_BITS = 1 << 16  # largest whole number a power may build (about 19,700 digits)
MAX_REPEAT = 10_000  # longest string or list a `*` may build

_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
           ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow}
_UNARY = {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Not: operator.not_}
_COMPARE = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
            ast.Gt: operator.gt, ast.GtE: operator.ge, ast.In: lambda a, b: a in b,
            ast.NotIn: lambda a, b: a not in b}
_ALLOWED = (ast.Expression, ast.Constant, ast.Name, ast.Load, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.And,
            ast.Or, ast.Compare, ast.IfExp, ast.Call, ast.List, ast.Tuple, ast.Subscript, ast.Slice,
            ast.JoinedStr, ast.FormattedValue, *_BINARY, *_UNARY, *_COMPARE)


class ExprError(Exception):
    """A problem in an expression; `offset` is the 0-based column inside the expression text."""

    def __init__(self, message: str, offset: int = 0, hint: str | None = None):
        super().__init__(message)
        self.message, self.offset, self.hint = message, offset, hint


@dataclass(frozen=True)
class Expr:
    """A parsed expression and the names it reads (checked against the spec before any point runs)."""

    text: str
    tree: ast.Expression
    names: tuple[str, ...]

    def evaluate(self, variables: Mapping[str, Any]) -> Any:
        value = _eval(self.tree.body, variables)
        _check_finite(value, self.tree.body)
        return value


def parse(text: str) -> Expr:
    """Parse `text`; an ExprError (with the column) for bad syntax or a construct not allowed."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as e:
        raise ExprError(f"bad expression: {e.msg}", max((e.offset or 1) - 1, 0)) from None
    names: list[str] = []
    for node in ast.walk(tree):
        if not isinstance(node, _ALLOWED):
            raise ExprError(f"'{type(node).__name__}' is not allowed in a derived value (only arithmetic, "
                            "comparisons, conditionals, lists, indexing, f-strings and "
                            f"{', '.join(FUNCTIONS)})", getattr(node, "col_offset", 0))
        if isinstance(node, ast.Call):
            if not isinstance(node.func, ast.Name) or node.func.id not in FUNCTIONS or node.keywords:
                name = node.func.id if isinstance(node.func, ast.Name) else ast.unparse(node.func)
                raise ExprError(f"unknown function '{name}'; functions: {', '.join(FUNCTIONS)}", node.col_offset,
                                did_you_mean(name, FUNCTIONS))
        elif isinstance(node, ast.Name) and node.id not in FUNCTIONS and node.id not in names:
            names.append(node.id)
    return Expr(text, tree, tuple(names))


def name_offset(expr: Expr, name: str) -> int:
    """Column of the first use of `name` in the expression (for locating an unknown name)."""
    for node in ast.walk(expr.tree):
        if isinstance(node, ast.Name) and node.id == name:
            return node.col_offset
    return 0


def _eval(node: ast.AST, env: Mapping[str, Any]) -> Any:
    try:
        return _eval_node(node, env)
    except ExprError:
        raise
    except (ArithmeticError, TypeError, ValueError, IndexError, KeyError) as e:
        raise ExprError(f"{type(e).__name__}: {e}", getattr(node, "col_offset", 0)) from None


def _eval_node(node: ast.AST, env: Mapping[str, Any]) -> Any:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        if node.id not in env:
            raise ExprError(f"unknown name '{node.id}'", node.col_offset, did_you_mean(node.id, env))
        return env[node.id]
    if isinstance(node, ast.BinOp):
        a, b = _eval(node.left, env), _eval(node.right, env)
        if isinstance(node.op, ast.Pow) and isinstance(b, (int, float)) and abs(b) > MAX_EXPONENT:
            raise ExprError(f"exponent {b} is too large (at most {MAX_EXPONENT})", node.col_offset)
        if isinstance(node.op, ast.Pow) and _power_bits(a, b) > MAX_INT_BITS:
            # Each exponent within MAX_EXPONENT still nests: ((10**1000)**1000)**10 took 18 s.
            raise ExprError(f"the power builds a number of more than {MAX_INT_BITS} bits", node.col_offset)
        if isinstance(node.op, ast.Mult) and _repeat_count(a, b) > MAX_REPEAT:
            raise ExprError(f"repetition builds more than {MAX_REPEAT} items", node.col_offset)
        return _BINARY[type(node.op)](a, b)
    if isinstance(node, ast.UnaryOp):
        return _UNARY[type(node.op)](_eval(node.operand, env))
    if isinstance(node, ast.BoolOp):
        is_and = isinstance(node.op, ast.And)
        value = None
        for v in node.values:
            value = _eval(v, env)
            if bool(value) != is_and:
                return value
        return value
    if isinstance(node, ast.Compare):
        left = _eval(node.left, env)
        for op, right_node in zip(node.ops, node.comparators):
            right = _eval(right_node, env)
            if not _COMPARE[type(op)](left, right):
                return False
            left = right
        return True
    if isinstance(node, ast.IfExp):
        return _eval(node.body if _eval(node.test, env) else node.orelse, env)
    if isinstance(node, ast.Call):
        return FUNCTIONS[node.func.id](*(_eval(a, env) for a in node.args))  # type: ignore[union-attr]
    if isinstance(node, (ast.List, ast.Tuple)):
        return [_eval(e, env) for e in node.elts]
    if isinstance(node, ast.Subscript):
        return _eval(node.value, env)[_eval(node.slice, env)]
    if isinstance(node, ast.Slice):
        return slice(*(None if p is None else _eval(p, env) for p in (node.lower, node.upper, node.step)))
    if isinstance(node, ast.JoinedStr):
        return "".join(_eval(v, env) if isinstance(v, ast.FormattedValue) else str(v.value) for v in node.values)
    if isinstance(node, ast.FormattedValue):
        value = _eval(node.value, env)
        value = {115: str, 114: repr, 97: ascii}.get(node.conversion, lambda x: x)(value)
        spec = _eval(node.format_spec, env) if node.format_spec else ""
        if any(int(n) > MAX_REPEAT for n in re.findall(r"\d+", spec)):
            raise ExprError(f"format '{spec}' is too wide", node.col_offset)
        return format(value, spec)
    raise ExprError(f"'{type(node).__name__}' is not allowed", getattr(node, "col_offset", 0))


def _power_bits(a: Any, b: Any) -> int:
    """About how many bits the whole number a ** b has (0 unless both are whole numbers, b > 0):
    float powers overflow to an error by themselves, whole ones grow without limit."""
    if isinstance(a, int) and isinstance(b, int) and not isinstance(a, bool) and b > 0 and abs(a) > 1:
        return (abs(a).bit_length() - 1) * b
    return 0


def _repeat_count(a: Any, b: Any) -> int:
    for seq, n in ((a, b), (b, a)):
        if isinstance(seq, (str, list)) and isinstance(n, int):
            return len(seq) * n
    return 0


def _check_finite(value: Any, node: ast.AST) -> None:
    """Every number in `value`, at any depth of lists, must be finite."""
    for v in value if isinstance(value, list) else [value]:
        if isinstance(v, list):
            _check_finite(v, node)
        elif isinstance(v, float) and not math.isfinite(v):
            raise ExprError(f"the value is {v}, not a finite number", getattr(node, "col_offset", 0))
