"""Building large text outputs (FQG JSON, GraphML) fast and in bounded memory: per-node texts
from per-instance templates instead of a record per node, produced and written in chunks."""

from __future__ import annotations

from typing import Callable, Iterable, Iterator

import numpy as np

from ..document.model import Value
from .fqg import FQG, ComponentInfo, InstanceInfo

CHUNK = 65536  # records per piece handed to the writer


def attribute_rows(per_item: dict[str, dict[int, Value]]) -> dict[int, dict[str, Value]]:
    """{attr: {item: value}} -> {item: {attr: value}}, attributes in the graph's order."""
    out: dict[int, dict[str, Value]] = {}
    for attr, values in per_item.items():
        for item, v in values.items():
            out.setdefault(item, {})[attr] = v
    return out


class _Extras:
    """Text to insert before the closing `close` of some records (their annotations)."""

    def __init__(self, extra: dict[int, str], close: str):
        self.extra, self.close = extra, close
        self.keys = np.array(sorted(extra), dtype=np.int64)

    def apply(self, texts: list[str], first: int) -> list[str]:
        """`texts` are records first, first+1, …: patch those that have an extra."""
        lo, hi = np.searchsorted(self.keys, [first, first + len(texts)])
        cut = len(self.close)
        for n in self.keys[lo:hi].tolist():
            texts[n - first] = texts[n - first][:-cut] + self.extra[n] + self.close
        return texts


def node_text_chunks(g: FQG, template: Callable[[InstanceInfo, int, ComponentInfo], tuple[str, str, str]],
                     close: str, extra: dict[int, str]) -> Iterator[list[str]]:
    """The nodes' texts in id order, about CHUNK at a time, without a record per node: every copy
    of an instance block shares a per-local-node template (head, middle, tail) around the copy
    number (which appears twice: in the name and as the instance index); `extra[n]`
    (annotations) goes before `close`."""
    extras = _Extras(extra, close)
    comps = g.components
    buf: list[str] = []
    first = 0
    for inst in g.instances:
        per = inst.nodes_per_copy
        if inst.count == 0 or per == 0:
            continue
        parts = [template(inst, local, comps[int(g.node_component[inst.first_node + local])])
                 for local in range(per)]
        for copy in range(inst.count):
            c = str(copy)
            buf.extend([a + c + b + c + tail + close for a, b, tail in parts])
            if len(buf) >= CHUNK:
                yield extras.apply(buf, first)
                first += len(buf)
                buf = []
    if buf:
        yield extras.apply(buf, first)


def edge_text_chunks(g: FQG, render: Callable[[int, list[int], list[int], list[int]], list[str]],
                     close: str, extra: dict[int, str]) -> Iterator[list[str]]:
    """The edges' texts in id order, CHUNK at a time: `render(first_id, src, dst, link)` for each
    slice of the edge arrays, then `extra[e]` inserted before `close`."""
    extras = _Extras(extra, close)
    for start in range(0, g.num_edges, CHUNK):
        end = min(start + CHUNK, g.num_edges)
        texts = render(start, g.edge_src[start:end].tolist(), g.edge_dst[start:end].tolist(),
                       g.edge_link[start:end].tolist())
        yield extras.apply(texts, start)


def joined(chunks: Iterable[list[str]], sep: str = ",") -> Iterator[str]:
    """`sep.join` of all the chunks' texts, one piece per chunk."""
    started = False
    for texts in chunks:
        if texts:
            yield (sep if started else "") + sep.join(texts)
            started = True
