"""Integer fields of the JSON/YAML/TOML documents we read, taken as their schemas take them.

JSON Schema's "integer" is any number with a zero fractional part (JSON Schema core 2020-12,
4.2.1): 1.0 and 1e3 are integers to every schema in schemas/, so each reader takes them too, as
the exact int, and refuses what the schema refuses (1.5, true, "1", NaN). Above 2**53 every
double is integral and neighbouring integers share one, so a number written with a fraction or an
exponent there is not an exact integer and is refused (written as digits it is a Python int).
One rule for every reader: the schedule JSON and .igsched header, the FQG JSON, the sweep spec,
the lint configuration and simulation results.
"""

from __future__ import annotations

EXACT_DOUBLE = 1 << 53


def exact_integer(value: object) -> int | None:
    """The int an integer field holds: an int (not a bool), or a float with no fraction up to
    2**53 in magnitude (converted exactly); None for anything else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer() and abs(value) <= EXACT_DOUBLE:
        return int(value)
    return None


def not_an_integer(value: object) -> str:
    """Why `value` (for which `exact_integer` gave None) is refused: "expected an integer, found 1.5",
    saying why when it is an integral float beyond 2**53."""
    beyond = isinstance(value, float) and value.is_integer()
    why = " (beyond 2**53 a number with a fraction or exponent is not exact; write its digits)" if beyond else ""
    return f"expected an integer, found {value!r}{why}"
