"""The logical dimensions a collective runs over, and the algorithm `auto` picks for each.

A fabric states its dimensions in the graph annotation `dims`, in ASTRA-sim's stack notation,
dimension 1 (fastest-varying rank) first: `RI(4)_FC(8)_SW(32)`. Kinds: `RI` ring, `FC` fully
connected, `SW` switch, `LI` line (a mesh dimension: a ring without its wraparound link). A size
may be `*`: the NPUs left over, N / (product of the others) — so a Clos, which cannot ask its host
device how many GPUs it holds, writes `SW(*)_SW(64)`: the scale-up domain inside each server,
then the 64 servers. Sizes without kinds (`4x4x4`, `8,4`) are accepted too.

The annotation is used when it covers the process group (all NPUs); dimensions of size 1 are
dropped (`SW(*)` on one-GPU hosts). `--dims` overrides it.

Which algorithm runs (`default_algorithm`, when none is asked for): on GPU servers (NPUs inside
hosts that have NICs) `nccl`, NCCL's own choice (simulate.nccl; for a point-to-point transfer,
which has no algorithm to choose, NCCL's send/recv at NCCL's per-link figures); on abstract fabrics (a torus of
NPUs, an ASTRA-sim stack) ring, except all-to-all, which is direct (NCCL's send/recv all-to-all);
the astra models keep ASTRA-sim's default, ring.

`auto` alone on GPU servers is `nccl` too (not with the astra models). Otherwise, and as one entry
of a per-dimension list, `auto` picks per dimension (ASTRA-sim's topology-aware choice, as in its
example system configurations and our ASTRA-sim translator; design note topologies.md): RI and LI
→ ring; FC → direct; SW → halving-doubling when the size is a power of two, else direct;
all-to-all never uses halving-doubling (direct, NCCL's send/recv all-to-all); a dimension of
unknown kind → ring.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import InfraGraphError, error

KINDS = {"RI": "RI", "Ring": "RI", "FC": "FC", "FullyConnected": "FC", "SW": "SW", "Switch": "SW",
         "LI": "LI", "Line": "LI"}
_BLOCK = re.compile(r"\s*([A-Za-z]+)\(\s*(\d+|\*)\s*\)\s*")


@dataclass(frozen=True)
class Dims:
    """The dimensions a run uses and where they came from (printed, and kept in the result)."""

    sizes: tuple[int, ...]  # () = flat: one dimension of the whole group
    kinds: tuple[str | None, ...]  # RI | FC | SW | LI, or None where not stated
    source: str  # "option" | "graph" | "flat"
    note: str | None = None  # why a graph annotation was not used

    def shape(self) -> str:
        """'SW(8)_SW(16)', or '8x16' where kinds are unknown."""
        if self.sizes and all(self.kinds):
            return "_".join(f"{k}({n})" for k, n in zip(self.kinds, self.sizes))
        return "x".join(map(str, self.sizes))


def parse_shape(value: Any) -> tuple[tuple[int | None, ...], tuple[str | None, ...]]:
    """'RI(4)_SW(*)', '16x16x16', '8,4', '8_4', [8, 4] or 8 -> (sizes, kinds); None = '*' / unstated."""
    text = str(value).strip()
    if "(" in text:
        blocks = text.split("_")
        found = [_BLOCK.fullmatch(b) for b in blocks]
        bad = next((b for b, m in zip(blocks, found) if m is None or m.group(1) not in KINDS), None)
        if bad is not None:
            raise error(f"bad dims {value!r}: '{bad}' is not a dimension; expected blocks like RI(4), FC(8), "
                        f"SW(32), LI(4) or SW(*) joined by '_'")
        sizes = tuple(None if m.group(2) == "*" else int(m.group(2)) for m in found)
        kinds: tuple[str | None, ...] = tuple(KINDS[m.group(1)] for m in found)
    else:
        if isinstance(value, (list, tuple)):
            parts = list(value)
        elif isinstance(value, (int, np.integer)) and not isinstance(value, bool):
            parts = [value]
        else:
            parts = [p for p in re.split(r"[x×,_\s]+", text) if p]
        try:
            sizes = tuple(int(p) for p in parts)
        except (TypeError, ValueError):
            raise error(f"bad dims {value!r}; expected sizes like 8,4 or 16x16x16, or a shape like RI(4)_SW(8)") \
                from None
        kinds = (None,) * len(sizes)
    if not sizes or any(d is not None and d < 1 for d in sizes):
        raise error(f"bad dims {value!r}; every dimension must be at least 1")
    if sizes.count(None) > 1:
        raise error(f"bad dims {value!r}; at most one dimension can be '*'")
    return sizes, kinds


def parse_dims(value: Any) -> tuple[int, ...]:
    """Sizes only, every one stated ('*' is for graph annotations)."""
    sizes, _ = parse_shape(value)
    if None in sizes:
        raise error(f"bad dims {value!r}; give every size ('*' is only for a graph's dims annotation)")
    return tuple(int(s) for s in sizes if s is not None)


def _fill(sizes: tuple[int | None, ...], n: int) -> tuple[int, ...] | None:
    """Resolve the '*' size against n NPUs; None when the sizes cannot cover n."""
    known = math.prod(s for s in sizes if s is not None)
    if None in sizes:
        if n % known:
            return None
        return tuple(n // known if s is None else s for s in sizes)
    return tuple(int(s) for s in sizes if s is not None) if known == n else None


def resolve(annotation: Any, option: tuple[int, ...] | None, group_size: int) -> Dims:
    """The dimensions to use: `option` (--dims) if given, else the graph's `dims` annotation when
    it covers the group, else flat. Kinds come from the annotation when its sizes match."""
    stated: tuple[tuple[int, ...], tuple[str | None, ...]] | None = None
    note = None
    if annotation is not None:
        try:
            raw_sizes, raw_kinds = parse_shape(annotation)
        except InfraGraphError as exc:  # the value is in the graph, not on the command line: say so
            raise error(f"the graph's annotation {exc.diagnostics[0].message}", "annotations.graph.dims") from None
        sizes = _fill(raw_sizes, group_size)
        if sizes is None:
            note = f"the graph's dims annotation '{annotation}' does not cover the group of {group_size} NPUs"
        else:
            keep = [i for i, s in enumerate(sizes) if s > 1]
            stated = (tuple(sizes[i] for i in keep), tuple(raw_kinds[i] for i in keep))
    if option is not None:
        kinds = stated[1] if stated and stated[0] == tuple(option) else (None,) * len(option)
        return Dims(tuple(option), kinds, "option")
    if stated is not None and stated[0]:
        return Dims(stated[0], stated[1], "graph")
    return Dims((), (), "flat", note)


def auto_algorithm(kind: str | None, size: int, collective: str) -> str:
    """The algorithm ASTRA-sim's topology-aware configuration runs on one dimension (see module doc)."""
    if kind == "FC":
        return "direct"
    if kind == "SW":
        pow2 = size > 0 and size & (size - 1) == 0
        return "halving-doubling" if pow2 and collective != "all-to-all" else "direct"
    return "ring"


# Names that select an algorithm rather than name one the engine runs.
SELECTORS = ("auto", "default", "nccl")


def default_algorithm(collective: str, model: str = "fair", in_servers: bool = False) -> str:
    """The algorithm a run without --algorithm uses (see the module doc)."""
    if model.startswith("astra"):
        return "ring"
    if in_servers:  # a point-to-point transfer too: NCCL's send/recv, at NCCL's per-link figures
        return "nccl"
    return "direct" if collective == "all-to-all" else "ring"


def algorithms(requested: tuple[str, ...], dims: Dims, group_size: int, collective: str, *, model: str = "fair",
               in_servers: bool = False) -> tuple[str, ...]:
    """Resolve `requested` (one entry, or one per dimension): 'default' by `default_algorithm`,
    'auto' alone on GPU servers by 'nccl', every other 'auto' by the per-dimension pick."""
    if requested == ("default",):
        return (default_algorithm(collective, model, in_servers),)
    if requested == ("auto",) and in_servers and not model.startswith("astra"):
        return ("nccl",)
    if "auto" not in requested:
        return requested
    sizes, kinds = (dims.sizes, dims.kinds) if dims.sizes else ((group_size,), (None,))
    if len(requested) == 1:
        requested = requested * len(sizes)
    if len(requested) != len(sizes):
        return requested  # the engine reports the mismatch
    return tuple(auto_algorithm(k, n, collective) if a == "auto" else a
                 for a, k, n in zip(requested, kinds, sizes))
