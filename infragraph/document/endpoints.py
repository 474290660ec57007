"""Endpoint strings: dotted paths of `name[slice]` segments, resolved strictly against counts.

`host[0:2]`, `nic[-1]`, `cx5[0].pcie_endpoint[0]`, `port[0:48:2]`, `xpu[:]` and `xpu` (all) are
valid. Unlike Python slicing, a selection that reaches past the count, or selects nothing, is an
error: the public implementation silently truncated such slices or created phantom nodes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ..errors import error

_SEGMENT = re.compile(r"(?P<name>.+?)\[(?P<sel>[^\[\]]*)\]")
_INT = re.compile(r"\s*[-+]?\d+\s*")


@dataclass(frozen=True)
class Segment:
    name: str
    selector: str | None  # the text between brackets, None when absent (= all)

    def __str__(self) -> str:
        return self.name if self.selector is None else f"{self.name}[{self.selector}]"


def parse_path(text: str, path: str) -> list[Segment]:
    """Split 'cx5[0].port[0:2]' into segments; `path` is the document path for errors."""
    if not text or not text.strip():
        raise error("empty endpoint; expected 'name' or 'name[slice]'", path)
    segments = []
    for part in text.split("."):
        part = part.strip()
        if not part:
            raise error(f"empty segment in endpoint '{text}'; expected 'name[slice]' between dots", path)
        m = _SEGMENT.fullmatch(part)
        segments.append(Segment(m.group("name"), m.group("sel")) if m else Segment(part, None))
    return segments


def select(segment: Segment, count: int, path: str) -> np.ndarray:
    """Indices (np.int64) chosen by `segment`'s selector from `count` items, strictly checked."""
    sel = segment.selector
    if sel is None or sel.strip() == ":":
        return np.arange(count, dtype=np.int64)
    parts = sel.split(":")
    if len(parts) == 1:
        if not _INT.fullmatch(parts[0]):
            raise error(f"bad index '[{sel}]' on '{segment.name}'; expected an integer or a slice a:b:c", path)
        i = int(parts[0])
        if not -count <= i < count:
            raise error(
                f"index {i} out of range for '{segment.name}', which has {count} "
                f"(valid: 0..{count - 1}, or -{count}..-1)",
                path,
            )
        return np.array([i % count], dtype=np.int64)
    if len(parts) > 3 or any(p.strip() and not _INT.fullmatch(p) for p in parts):
        raise error(f"bad slice '[{sel}]' on '{segment.name}'; expected start:stop or start:stop:step", path)
    start, stop = (int(p) if p.strip() else None for p in parts[:2])
    step = int(parts[2]) if len(parts) == 3 and parts[2].strip() else 1
    if step == 0:
        raise error(f"slice step cannot be zero in '[{sel}]' on '{segment.name}'", path)
    for bound in (start, stop):
        if bound is not None and not -count <= bound <= count:
            raise error(
                f"slice '[{sel}]' out of range for '{segment.name}', which has {count} (bounds -{count}..{count})",
                path,
            )
    chosen = np.arange(count, dtype=np.int64)[slice(start, stop, step)]
    if chosen.size == 0:
        raise error(f"slice '[{sel}]' selects no '{segment.name}' (it has {count})", path)
    return chosen
