"""sweep/expr.py: derived values are evaluated by walking the tree, never by `eval`; what is not
allowed, unknown, unbounded or not finite is an ExprError with the column inside the expression."""

from __future__ import annotations

import pytest

from infragraph.sweep.expr import MAX_INT_BITS, ExprError, name_offset, parse


def refused(call, *args) -> ExprError:
    """The ExprError `call(*args)` raises (parsing or evaluating)."""
    with pytest.raises(ExprError) as e:
        call(*args)
    return e.value


@pytest.mark.parametrize("text, variables, value", [
    ("budget * split / 2", {"budget": 800, "split": 0.25}, 100.0),
    ("'SW(' + str(npus) + ')' if topology == 'switch' else torus", {"npus": 8, "topology": "switch", "torus": "x"},
     "SW(8)"),
    ("[f'{bw1:g} GB/s', f'{bw2:g} GB/s']", {"bw1": 50.0, "bw2": 12.5}, ["50 GB/s", "12.5 GB/s"]),
    ("4 // tp", {"tp": 3}, 1),
    ("1 < x <= 3 and not y", {"x": 3, "y": False}, True),
    ("0 or x", {"x": 7}, 7),
    ("sizes[1:][0]", {"sizes": [1, 2, 3]}, 2),
    ("max(ceil(log2(n)), 2) ** 2", {"n": 9}, 16),
    ("f'{name!r}'", {"name": "a"}, "'a'"),
])
def test_values(text, variables, value):
    got = parse(text).evaluate(variables)
    assert got == value and type(got) is type(value)


def test_the_names_read_are_listed_once_in_order_without_functions():
    e = parse("min(a, b) + a * c")
    assert e.names == ("a", "b", "c") and name_offset(e, "c") == 16


@pytest.mark.parametrize("text, message, offset", [
    ("x.__class__", "'Attribute' is not allowed", 0),
    ("lambda: 1", "'Lambda' is not allowed", 0),
    ("(lambda: 1)()", "unknown function 'lambda: 1'", 0),
    ("open('f')", "unknown function 'open'", 0),
    ("max(a, key=b)", "unknown function 'max'", 0),
    ("[i for i in x]", "'ListComp' is not allowed", 0),
    ("a + * b", "bad expression: invalid syntax", 4),
])
def test_constructs_that_are_not_allowed(text, message, offset):
    e = refused(parse, text)
    assert e.message.startswith(message) and e.offset == offset


def test_an_unknown_name_is_located_with_a_suggestion():
    e = refused(lambda: parse("2 * bandwith").evaluate({"bandwidth": 1}))
    assert e.message == "unknown name 'bandwith'" and e.offset == 4 and "bandwidth" in e.hint


@pytest.mark.parametrize("text, message", [
    ("2 ** 2000", "exponent 2000 is too large (at most 1024)"),
    # each exponent is small, the nesting is not: this took 18 s before powers were bounded
    ("((10 ** 1000) ** 1000) ** 10", f"the power builds a number of more than {MAX_INT_BITS} bits"),
    ("'ab' * 5001", "repetition builds more than 10000 items"),
    ("[0] * 100 * 101", "repetition builds more than 10000 items"),
    ("f'{x:20000}'", "format '20000' is too wide"),
    ("float(2 ** 1024)", "OverflowError: int too large to convert to float"),
    ("sqrt(-1)", "ValueError: math domain error"),
    ("1 / (x - x)", "ZeroDivisionError: division by zero"),
    ("[1.0, [x * 1e308 * 10]]", "the value is inf, not a finite number"),
])
def test_values_that_cannot_be_made_are_errors_not_hangs_or_infinities(text, message):
    assert refused(lambda: parse(text).evaluate({"x": 1})).message == message


def test_a_large_but_bounded_power_still_evaluates():
    assert parse("(2 ** 1024) ** 60").evaluate({}) == 2 ** (1024 * 60)
    assert parse("(-1) ** 100000 if False else 3 ** 1000").evaluate({}) == 3 ** 1000
