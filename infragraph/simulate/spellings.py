"""The command line's spellings of the simulation options, accepted by `SimulationOptions` too.

`infragraph simulate --size 1MiB --local-mem-bw "1600 GB/s" --endpoint-delay 10ns --no-ecmp` and
`SimulationOptions(size="1MiB", local_mem_bw="1600 GB/s", endpoint_delay="10ns", no_ecmp=True)`
mean the same run: each option's name (dashes as underscores) and value as written on the command
line, next to the fields themselves (`size_bytes=1048576.0`, `local_mem_bw_gb_per_s=1600.0`,
`endpoint_delay_ns=10.0`, `ecmp=False`). A field given as text with a unit (`size_bytes="1MiB"`)
is converted as well. Unknown names and a value given twice (`size` and `size_bytes`) are errors
naming the keyword, never silently dropped. Units: sizes in bytes (1 KiB = 1024 B, 1 KB = 1000 B),
memory bandwidth in GB/s = 1e9 bytes/s, delays in ns.
"""

from __future__ import annotations

import math
from typing import Any, Callable

from ..errors import Diagnostic, InfraGraphError, Location, did_you_mean
from ..units import BANDWIDTH, UnitError, parse_quantity, parse_size_bytes, to_ns


def _bad(name: str, message: str) -> InfraGraphError:
    return InfraGraphError(Diagnostic(message, Location(path=name)))


def size_bytes(value: Any, name: str = "size") -> float:
    """'1MiB', '4 KB', 4096 or 4096.0 -> bytes (a finite number > 0)."""
    given = value
    if isinstance(value, str):
        try:
            value = parse_size_bytes(value)
        except UnitError as e:
            raise _bad(name, f"bad {name} '{value}': {e}") from None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
        raise _bad(name, f"{name} must be a finite number of bytes > 0 or a size such as '1MiB', got {given!r}")
    return float(value)


def delay_ns(value: Any, name: str = "endpoint_delay") -> float:
    """'10ns', '1.5us', or a number of ns -> ns (finite, >= 0)."""
    given = value
    if isinstance(value, str):
        text = value.strip()
        try:
            value = float(text) if text.replace(".", "", 1).isdigit() else float(f"{to_ns(parse_quantity(text)):.12g}")
        except UnitError as e:
            raise _bad(name, f"bad {name} '{text}': {e}") from None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        raise _bad(name, f"{name} must be a finite time >= 0 such as '10ns' (a number is ns), got {given!r}")
    return float(value)


def mem_bw_gb_per_s(value: Any, name: str = "local_mem_bw") -> float | None:
    """'1600 GB/s', '12.8 Tbit/s', a number of GB/s (1e9 bytes/s), or None / 'none' (reduction is
    free) -> GB/s."""
    given = value
    if value is None or (isinstance(value, str) and value.strip().lower() == "none"):
        return None
    if isinstance(value, str):
        text = value.strip()
        try:
            value = float(text)
        except ValueError:
            try:
                q = parse_quantity(text)
                value = q.require(BANDWIDTH, name) / 8e9
            except UnitError as e:
                raise _bad(name, f"bad {name} '{text}': {e}") from None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
        raise _bad(name, f"bad {name} {given!r}: expected a finite bandwidth > 0 (a number is GB/s = 1e9 bytes/s), "
                         f"or 'none'")
    return float(value)


def _names(value: Any, name: str) -> tuple[str, ...]:
    """'ring,direct' or ['ring', 'direct'] -> ('ring', 'direct')."""
    if isinstance(value, str):
        return tuple(p.strip() for p in value.split(","))
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise _bad(name, f"{name} must be a name or a comma-separated list of names, got {value!r}")


def _dims(value: Any, name: str) -> tuple[int, ...] | None:
    """'8,4', '16x16', 'RI(8)_SW(4)' or [8, 4] -> (8, 4)."""
    if value is None or isinstance(value, tuple):
        return value
    if isinstance(value, list):
        return tuple(value)
    if isinstance(value, str):
        from .dims import parse_dims

        return parse_dims(value)
    raise _bad(name, f"{name} must be sizes like '8,4' or a list of ints, got {value!r}")


MAX_GROUP_RANKS = 10_000_000  # more ranks than any fabric here has NPUs: a typo, refused before a list is built


def parse_ranks(text: str, name: str = "--group") -> tuple[int, ...]:
    """Ranks like '0-7' or '0,2,4,6' (a --group, --trace-ranks, or SimulationOptions(group=...)); a bad
    one is an error located at `name`."""
    ranks: list[int] = []
    for part in text.split(","):
        lo, dash, hi = part.strip().partition("-")
        try:
            first, last = (int(lo), int(hi)) if dash else (int(lo), int(lo))
        except ValueError:
            first, last = 0, -1
        if first < 0 or last < first:
            raise _bad(name, f"bad {name} '{text}'; expected ranks like 0-7 or 0,2,4,6 "
                             "(non-negative, each range LOW-HIGH with LOW <= HIGH)")
        if len(ranks) + last - first + 1 > MAX_GROUP_RANKS:
            raise _bad(name, f"bad {name} '{text}': {len(ranks) + last - first + 1:,} ranks, more "
                             f"than {MAX_GROUP_RANKS:,}; it names NPU ranks of the fabric")
        ranks.extend(range(first, last + 1))
    return tuple(ranks)


def _groups(value: Any, name: str) -> tuple[tuple[int, ...], ...] | None:
    """['0-7', '8-15'] (the command line's repeated --group) or [[0, 1], [2, 3]] -> tuples."""
    if value is None:
        return None
    if isinstance(value, str):
        value = [value]
    return tuple(parse_ranks(g, name) if isinstance(g, str) else tuple(g) for g in value)


def _pxn(value: Any, name: str) -> bool | None:
    table = {"auto": None, "on": True, "off": False}
    if isinstance(value, str):
        if value not in table:
            raise _bad(name, f"{name} must be auto, on or off, got '{value}'")
        return table[value]
    return None if value is None else flag(value, name)


def flag(value: Any, name: str) -> bool:
    """True or False as given: 'no', 0 or 'off' would otherwise pass as truthy or falsy."""
    if not isinstance(value, bool):
        raise _bad(name, f"{name} must be true or false, got {value!r}")
    return value


# CLI spelling -> (field, converter). The converters also apply to a field given as text.
ALIASES: dict[str, tuple[str, Callable[[Any, str], Any]]] = {
    "size": ("size_bytes", size_bytes),
    "endpoint_delay": ("endpoint_delay_ns", delay_ns),
    "local_mem_bw": ("local_mem_bw_gb_per_s", mem_bw_gb_per_s),
    "group": ("groups", _groups),
    "no_ecmp": ("ecmp", lambda v, n: not flag(v, n)),
    "no_nic_affinity": ("nic_affinity", lambda v, n: not flag(v, n)),
}
# SimulationOptions' true/false fields: checked whatever type they are given in.
FLAGS = ("ecmp", "nic_affinity", "gpu_transit", "trace", "symmetry", "astra_communicator_group", "pxn", "warnings")
FIELD_CONVERTERS: dict[str, Callable[[Any, str], Any]] = {
    "size_bytes": size_bytes, "endpoint_delay_ns": delay_ns, "local_mem_bw_gb_per_s": mem_bw_gb_per_s,
    "algorithm": _names, "dims": _dims, "groups": _groups, "pxn": _pxn,
    **{f: flag for f in FLAGS if f != "pxn"},
}


def cli_option(name: str) -> str:
    """The command line's option for a SimulationOptions field or keyword ('chunks' -> '--chunks',
    'size_bytes' -> '--size'), so that an error raised against the field reads as the option the
    user typed when it comes from the command line."""
    key = next((alias for alias, (field, _c) in ALIASES.items() if field == name and not alias.startswith("no_")),
               name)
    return "--" + key.replace("_", "-")


def to_fields(options: dict[str, Any], fields: set[str]) -> dict[str, Any]:
    """`options` with every CLI spelling replaced by its field and every value in a field's
    accepted spellings converted; unknown or doubled names are errors naming them."""
    out: dict[str, Any] = {}
    for name, value in options.items():
        key = name.replace("-", "_").lstrip("_")
        if key in ALIASES:
            field, convert = ALIASES[key]
        elif key in fields:
            field, convert = key, FIELD_CONVERTERS.get(key, lambda v, _n: v)
        else:
            known = sorted(fields | set(ALIASES))
            hint = did_you_mean(key, known)
            raise InfraGraphError(Diagnostic(f"SimulationOptions has no option '{name}'", Location(path=name),
                                             hint or f"options: {', '.join(known)}"))
        if field in out:
            raise _bad(name, f"'{name}' and another spelling of {field} are both given; give one")
        # a field given in its own type is passed through (run.simulate checks it); text is converted
        out[field] = convert(value, name) if field != key or isinstance(value, (str, list)) or field in FLAGS else value
    return out
