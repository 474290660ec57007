"""The one integer rule of every reader (infragraph/integers.py): JSON Schema's "integer", read exactly."""

from __future__ import annotations

import pytest

from infragraph.integers import EXACT_DOUBLE, exact_integer, not_an_integer


@pytest.mark.parametrize("value, number", [
    (3, 3), (3.0, 3), (-0.0, 0), (1e3, 1000), (float(EXACT_DOUBLE), EXACT_DOUBLE), (10**30, 10**30),
    (3.5, None), (True, None), (False, None), ("3", None), (None, None), (float("nan"), None),
    (float("inf"), None), (float(EXACT_DOUBLE) * 2, None), (1e300, None),
])
def test_exact_integer(value, number):
    got = exact_integer(value)
    assert got == number and (number is None or type(got) is int)


def test_the_refusal_says_why_an_integral_float_is_refused():
    assert not_an_integer(1.5) == "expected an integer, found 1.5"
    assert not_an_integer("3") == "expected an integer, found '3'"
    assert not_an_integer(1e300).startswith("expected an integer, found 1e+300 (beyond 2**53 ")
