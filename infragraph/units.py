"""Physical quantities with explicit units.

Everything in InfraGraph that has a unit (link bandwidth, latency, message sizes) goes through
this module, so that bits and bytes, SI and binary prefixes, and ns/us/ms can never be mixed up.

A `Quantity` stores its value in base units (bits for information, seconds for time) together
with the exponents of those two dimensions, so arithmetic keeps dimensions:
``(400 Gbps) * (1 us)`` is 400,000 bits, ``(1 MiB) / (50 GB/s)`` is a time, and adding a time to
a bandwidth is a `UnitError`.

The fully qualified graph stores bandwidth as Gbit/s (1e9 bit/s) and latency as ns; the
conversion helpers at the bottom are the single place where that choice is made.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

# Dimension exponents: (information, time).
Dim = tuple[int, int]
DIMENSIONLESS: Dim = (0, 0)
INFORMATION: Dim = (1, 0)
TIME: Dim = (0, 1)
BANDWIDTH: Dim = (1, -1)
RATE: Dim = (0, -1)

DIM_NAMES: dict[Dim, str] = {
    DIMENSIONLESS: "number",
    INFORMATION: "data size",
    TIME: "time",
    BANDWIDTH: "bandwidth",
    RATE: "frequency",
}


class UnitError(ValueError):
    """A quantity was used with the wrong dimension or an unknown unit."""


def _prefixed(symbols: dict[str, float], base: str, scale: float) -> dict[str, float]:
    return {p + base: f * scale for p, f in symbols.items()}


_SI = {"": 1.0, "K": 1e3, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15}
_BIN = {"Ki": 2.0**10, "Mi": 2.0**20, "Gi": 2.0**30, "Ti": 2.0**40, "Pi": 2.0**50}

# unit symbol -> (factor to base units, dimension)
UNITS: dict[str, tuple[float, Dim]] = {}
for _sym, _f in {**_prefixed(_SI, "b", 1.0), **_prefixed(_SI, "bit", 1.0)}.items():
    UNITS[_sym] = (_f, INFORMATION)
for _sym, _f in {**_prefixed(_SI, "B", 8.0), **_prefixed(_BIN, "B", 8.0)}.items():
    UNITS[_sym] = (_f, INFORMATION)
# Bandwidth in bits: every common spelling is accepted on input (Gbps, Gb/s, Gbit/s, Gbits/s; binary
# prefixes with bit/s); output is always written Gbit/s / Tbit/s (format_bandwidth).
for _sym, _f in {**_prefixed(_SI, "bps", 1.0), **_prefixed(_SI, "b/s", 1.0), **_prefixed(_SI, "bit/s", 1.0),
                 **_prefixed(_SI, "bits/s", 1.0), **_prefixed(_BIN, "bit/s", 1.0),
                 **_prefixed(_BIN, "bps", 1.0)}.items():
    UNITS[_sym] = (_f, BANDWIDTH)
for _sym, _f in {**_prefixed(_SI, "bits", 1.0), **_prefixed(_BIN, "bit", 1.0), **_prefixed(_BIN, "b", 1.0)}.items():
    UNITS[_sym] = (_f, INFORMATION)
for _sym, _f in {
    **_prefixed(_SI, "B/s", 8.0),
    **_prefixed(_SI, "Bps", 8.0),
    **_prefixed(_BIN, "B/s", 8.0),
    **_prefixed(_BIN, "Bps", 8.0),
}.items():
    UNITS[_sym] = (_f, BANDWIDTH)
UNITS.update(
    {
        "s": (1.0, TIME),
        "ms": (1e-3, TIME),
        "us": (1e-6, TIME),
        "µs": (1e-6, TIME),
        "ns": (1e-9, TIME),
        "ps": (1e-12, TIME),
        "Hz": (1.0, RATE),
        "kHz": (1e3, RATE),
        "MHz": (1e6, RATE),
        "GHz": (1e9, RATE),
    }
)
del _sym, _f


@dataclass(frozen=True)
class Quantity:
    """A number with a physical dimension, stored in base units (bits, seconds)."""

    value: float
    dim: Dim = DIMENSIONLESS

    @property
    def kind(self) -> str:
        return DIM_NAMES.get(self.dim, f"bit^{self.dim[0]}·s^{self.dim[1]}")

    def require(self, dim: Dim, what: str) -> float:
        """Return the base-unit value, or raise UnitError naming `what` and both dimensions."""
        if self.dim != dim:
            raise UnitError(f"{what} must be a {DIM_NAMES[dim]}, got a {self.kind} ({self})")
        return self.value

    def _same(self, other: Quantity, op: str) -> None:
        if self.dim != other.dim:
            raise UnitError(f"cannot {op} a {self.kind} and a {other.kind}")

    def __add__(self, other: Quantity) -> Quantity:
        self._same(other, "add")
        return Quantity(self.value + other.value, self.dim)

    def __sub__(self, other: Quantity) -> Quantity:
        self._same(other, "subtract")
        return Quantity(self.value - other.value, self.dim)

    def __mul__(self, other: Quantity) -> Quantity:
        return Quantity(self.value * other.value, (self.dim[0] + other.dim[0], self.dim[1] + other.dim[1]))

    def __truediv__(self, other: Quantity) -> Quantity:
        if other.value == 0:
            raise ZeroDivisionError("division by zero")
        return Quantity(self.value / other.value, (self.dim[0] - other.dim[0], self.dim[1] - other.dim[1]))

    def __neg__(self) -> Quantity:
        return Quantity(-self.value, self.dim)

    def compare(self, other: Quantity) -> int:
        self._same(other, "compare")
        return (self.value > other.value) - (self.value < other.value)

    def __str__(self) -> str:
        return format_quantity(self)


_QUANTITY_RE = re.compile(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*([A-Za-zµ/]+)\s*$")


def unit(symbol: str) -> Quantity:
    """The quantity `1 symbol`, e.g. unit("Gbps"). Raises UnitError listing the known units."""
    try:
        factor, dim = UNITS[symbol]
    except KeyError:
        raise UnitError(f"unknown unit '{symbol}'; known units: {', '.join(sorted(UNITS))}") from None
    return Quantity(factor, dim)


def parse_quantity(text: str) -> Quantity:
    """Parse '400 Gbps', '50 GB/s', '1.5us' or '1 MiB' into a Quantity."""
    m = _QUANTITY_RE.match(text)
    if not m:
        raise UnitError(f"expected a number with a unit such as '400 Gbps' or '500 ns', got '{text}'")
    return Quantity(float(m.group(1)) * unit(m.group(2)).value, unit(m.group(2)).dim)


_SPELLED = ((re.compile(r"(?:bit|bits)/s(?:ec)?$"), "bit/s"), (re.compile(r"(?:byte|bytes)/s(?:ec)?$"), "B/s"),
            (re.compile(r"/sec$"), "/s"), (re.compile(r"(?:sec|secs)$"), "s"), (re.compile(r"bits$"), "bit"))


def suggest_unit(text: str) -> str | None:
    """'did you mean ...?' for a misspelt unit symbol: a spelled-out rate (Gbit/sec -> Gbit/s), the wrong
    case (gbps -> Gbps; bits preferred over bytes when both fit), a bare prefix (400G -> Gbps),
    else the closest symbol; None when nothing is close."""
    for pattern, repl in _SPELLED:
        fixed = pattern.sub(repl, text)
        if fixed != text and fixed in UNITS:
            return f"did you mean '{fixed}'?"
    same_case = sorted((u for u in UNITS if u.lower() == text.lower()), key=lambda u: ("b" not in u, u))
    if same_case:
        return f"did you mean '{same_case[0]}'?"
    if text in _SI or text in _BIN or text.upper() in _SI:
        prefix = text if text in _SI or text in _BIN else text.upper()
        return f"did you mean '{prefix}bps' (bits per second) or '{prefix}B/s' (bytes per second)?"
    import difflib

    close = difflib.get_close_matches(text, list(UNITS), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None


def unknown_unit_message(text: str) -> str:
    """"unknown unit 'Gbs'; did you mean 'Gbps'?" (or a list of common units when nothing is close)."""
    suggestion = suggest_unit(text)
    return f"unknown unit '{text}'; " + (suggestion or "expected a unit such as Gbit/s, GB/s, ns, us, ms, MiB or GHz")


def _fmt_number(x: float) -> str:
    if x == int(x) and abs(x) < 1e15:
        return str(int(x))
    return f"{x:.6g}"


BANDWIDTH_STEPS = (("Pbit/s", 1e6), ("Tbit/s", 1e3), ("Gbit/s", 1.0), ("Mbit/s", 1e-3), ("kbit/s", 1e-6))


def format_bandwidth(gbps: float, digits: int | None = None) -> str:
    """The one way a bandwidth is written in output: bits per second with an SI prefix, the largest
    that keeps the number at 1 or more (`400 Gbit/s`, `3.2 Tbit/s`, `12.5 Mbit/s`). `digits`, when
    given, rounds to that many significant digits (`3.2 Tbit/s` rather than `3.19999 Tbit/s`);
    otherwise whole values print whole and others to 6 significant digits. Input accepts every
    spelling (Gbps, Gb/s, Gbit/s, GB/s for bytes); the graph's unit is Gbit/s."""
    if not math.isfinite(gbps) or gbps == 0:
        return f"{gbps:g} Gbit/s"
    for sym, f in BANDWIDTH_STEPS:
        if abs(gbps) >= f:
            break
    else:
        sym, f = "bit/s", 1e-9
    x = gbps / f
    return f"{x:.{digits}g} {sym}" if digits is not None else f"{_fmt_number(round(x, 9))} {sym}"


def name_fragment(q: Quantity) -> str:
    """A quantity as part of a generated identifier, which may not hold '/' or spaces: `400Gbps`,
    `1p6Tbps`, `500ns` (the names of inline links, `link-400Gbps-500ns`). Displayed values use
    format_quantity / format_bandwidth instead."""
    if q.dim == BANDWIDTH:
        text = format_bandwidth(q.value / 1e9).replace("bit/s", "bps")
    else:
        text = format_quantity(q)
    return text.replace(" ", "").replace(".", "p")


def format_quantity(q: Quantity) -> str:
    """Human-readable form in the most natural unit (Gbps for bandwidth, ns/us/ms for time)."""
    if q.dim == BANDWIDTH:
        return format_bandwidth(q.value / 1e9)
    if q.dim == TIME:
        for sym, f in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
            if abs(q.value) >= f:
                return f"{_fmt_number(q.value / f)} {sym}"
        return f"{_fmt_number(round(q.value / 1e-9, 6))} ns"
    if q.dim == INFORMATION:
        if q.value % 8 == 0:
            nbytes = q.value / 8
            for sym, f in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
                if nbytes >= f and nbytes % f == 0:
                    return f"{_fmt_number(nbytes / f)} {sym}"
            return f"{_fmt_number(nbytes)} B"
        return f"{_fmt_number(q.value)} b"
    if q.dim == DIMENSIONLESS:
        return _fmt_number(q.value)
    return f"{_fmt_number(q.value)} bit^{q.dim[0]}·s^{q.dim[1]}"


# --- The fully qualified graph's units: Gbit/s (SI) and ns. -----------------------------------

BANDWIDTH_UNIT = "Gbit/s (1e9 bit/s)"
LATENCY_UNIT = "ns"


def to_gbps(q: Quantity) -> float:
    return q.require(BANDWIDTH, "bandwidth") / 1e9


def to_ns(q: Quantity) -> float:
    return q.require(TIME, "latency") / 1e-9


def to_bytes(q: Quantity) -> float:
    return q.require(INFORMATION, "size") / 8.0


def bandwidth_problem(value: object, shown: str | None = None) -> str | None:
    """Why `value` cannot be a link bandwidth (in any unit), or None. A bandwidth is a finite number
    greater than zero: NaN compares false against every check and would make a link free; zero or a
    negative rate divides by zero or runs time backwards downstream. `shown` is how to print the value."""
    return _number_problem(value, "bandwidth", "greater than 0", lambda x: x > 0, shown)


def latency_problem(value: object, shown: str | None = None) -> str | None:
    """Why `value` cannot be a link latency, or None: a finite number, zero or more."""
    return _number_problem(value, "latency", "0 or more", lambda x: x >= 0, shown)


def _number_problem(value: object, what: str, bound: str, ok, shown: str | None) -> str | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return f"{what} must be a number, got {shown or repr(value)}"
    if isinstance(value, float) and not math.isfinite(value):
        return f"{what} must be a finite number {bound}, got {shown or value}"
    if not ok(value):
        return f"{what} must be {bound}, got {shown or f'{value:g}'}"
    return None


def gbps_to_gib_per_s(gbps: float) -> float:
    """ASTRA-sim's analytical bandwidth unit: GB/s with GB = 2^30 bytes (400 Gbps -> 46.566)."""
    return gbps * 1e9 / 8.0 / 2.0**30


def parse_size_bytes(text: str) -> int:
    """Parse a message size like '1MiB', '4 KB' or a plain byte count into whole bytes."""
    text = text.strip()
    if text.isdigit():
        return int(text)
    if not _QUANTITY_RE.match(text):  # the generic message's examples ('400 Gbps') are not sizes
        raise UnitError(f"expected a size such as '1MiB', '4 KB' or a number of bytes, got '{text}'")
    nbytes = to_bytes(parse_quantity(text))
    if not math.isfinite(nbytes) or nbytes < 0:
        raise UnitError(f"size '{text}' is not a finite, non-negative number of bytes")
    if not math.isclose(nbytes, round(nbytes)):
        raise UnitError(f"size '{text}' is not a whole number of bytes")
    return int(round(nbytes))
