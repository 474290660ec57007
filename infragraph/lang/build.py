"""Document assembly: device naming, link tables, compact edge records and the source map.

Edges produced by a loop are coalesced while they are emitted: consecutive edges from the same
edge statement whose indices advance by a constant step become one slice record
(`leaf[0:32].port[32:64] -- agg[0].port[0:32]`-style), so the document stays proportional to the
program, not to the cable count, and expansion (vectorised over records) stays fast.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..document.model import Bandwidth, Device, Edge, Endpoint, Latency, Link
from ..errors import Location
from ..units import to_gbps, to_ns
from . import ast as A
from .values import DeviceVal, EpRef, LinkVal, Seg


def clean_number(x: float) -> float | int:
    """Drop float noise from unit conversion (400.00000000000006 -> 400)."""
    y = float(f"{x:.12g}")
    return int(y) if y == int(y) and abs(y) < 1e15 else y


def sanitize(text: str) -> str:
    """A fragment usable in a document name (letters, digits, -, _); a bandwidth shown as `3.6 Tbit/s`
    becomes `3p6Tbps`, as units.name_fragment writes it."""
    return re.sub(r"[^A-Za-z0-9_-]", "", text.replace("bit/s", "bps").replace(".", "p").replace("/", "per"))


# ------------------------------------------------------------------------------- source map ----


class SourceMap:
    """Document path -> .igl position of the statement that produced the record (errors.SourceMap)."""

    def __init__(self, default: A.Pos | None = None):
        self.paths: dict[str, A.Pos] = {}
        self.default = default

    def add(self, path: str, pos: A.Pos | None) -> None:
        if pos is not None:
            self.paths.setdefault(path, pos)

    def pos(self, path: str) -> A.Pos | None:
        p = path
        while p:
            if p in self.paths:
                return self.paths[p]
            cut = max(p.rfind("."), p.rfind("["))
            if cut <= 0:
                break
            p = p[:cut]
        return self.default

    def locate(self, path: str) -> Location:
        pos = self.pos(path)
        if pos is None:
            return Location(path=path)
        return Location(pos.src.filename, pos.line, pos.col, path)

    def context(self, path: str) -> tuple[str | None, tuple[str, ...]]:
        """The source line (for the caret) and the import chain of `path`'s position."""
        pos = self.pos(path)
        if pos is None:
            return None, ()
        return pos.src.line(pos.line), pos.src.chain


# ---------------------------------------------------------------------------------- links ----


class LinkTable:
    """The links one scope (a device, or the infrastructure) uses, each under a unique name."""

    def __init__(self) -> None:
        self.links: list[Link] = []
        self.names: dict[LinkVal, str] = {}
        self.used: set[str] = set()
        self.vals: list[LinkVal] = []

    def name_of(self, link: LinkVal) -> str:
        if link in self.names:
            return self.names[link]
        base = link.suggested_name()
        name, n = base, 2
        while name in self.used:
            name, n = f"{base}-{n}", n + 1
        self.used.add(name)
        self.names[link] = name
        self.vals.append(link)
        self.links.append(
            Link(
                name,
                link.description,
                Bandwidth(clean_number(to_gbps(link.bandwidth))) if link.bandwidth is not None else None,
                Latency(clean_number(to_ns(link.latency))) if link.latency is not None else None,
            )
        )
        return name


# ---------------------------------------------------------------------------------- edges ----


@dataclass
class _Run:
    """Consecutive edges of one statement, possibly an arithmetic progression of indices."""

    seq: int
    ep1: EpRef
    ep2: EpRef
    link: str
    scheme: str
    poses: tuple[A.Pos, A.Pos, A.Pos]
    sig: tuple
    v0: tuple[int, ...]
    n1: int  # how many of v0's ints belong to ep1
    d: tuple[int, ...] | None = None
    m: int = 1
    many: bool = False  # a constant single node against a progression: many2many


def _signature(ep: EpRef) -> tuple[tuple, tuple[int, ...]]:
    sig, ints = [], []
    for s in ep.segs:
        if isinstance(s.sel, int):
            sig.append((s.docname, s.count, "#"))
            ints.append(s.sel)
        else:
            sig.append((s.docname, s.count, s.sel))
    return tuple(sig), tuple(ints)


def _varying(ep: EpRef, deltas: tuple[int, ...]) -> int | None | bool:
    """The segment index that varies (None if constant), or False when this cannot be one slice."""
    moving = [i for i, d in enumerate(deltas) if d != 0]
    if not moving:
        return None
    if len(moving) > 1 or deltas[moving[0]] < 0:
        return False
    int_segs = [i for i, s in enumerate(ep.segs) if isinstance(s.sel, int)]
    seg = int_segs[moving[0]]
    # Concatenating per-step selections equals the product order only if every other segment
    # selecting several items comes after the varying one.
    if any(s.selected() > 1 for s in ep.segs[:seg]):
        return False
    return seg


def _stretch(ep: EpRef, seg: int | None, m: int, d: int) -> EpRef:
    if seg is None:
        return ep
    s = ep.segs[seg]
    last = s.sel + (m - 1) * d
    new = Seg(s.label, s.docname, s.count, (s.sel, last + 1, d), s.device)
    return EpRef(ep.level, ep.segs[:seg] + (new,) + ep.segs[seg + 1:])


class EdgeSink:
    """Collects the edges of one body (a device or the fabric), coalescing loops into slices."""

    def __init__(self) -> None:
        self.runs: dict[int, _Run] = {}
        self.done: list[_Run] = []
        self.seq = 0

    def add(self, key: int, ep1: EpRef, ep2: EpRef, link: str, scheme: str, poses) -> None:
        sig1, v1 = _signature(ep1)
        sig2, v2 = _signature(ep2)
        sig = (sig1, sig2, link, scheme)
        v = v1 + v2
        run = self.runs.get(key)
        if run is not None and run.sig == sig and scheme == "one2one" and self._extends(run, v):
            run.m += 1
            return
        if run is not None:
            self.done.append(run)
        self.seq += 1
        self.runs[key] = _Run(self.seq, ep1, ep2, link, scheme, poses, sig, v, len(v1))

    def _extends(self, run: _Run, v: tuple[int, ...]) -> bool:
        if run.d is None:
            d = tuple(b - a for a, b in zip(run.v0, v))
            s1 = _varying(run.ep1, d[: run.n1])
            s2 = _varying(run.ep2, d[run.n1:])
            if s1 is False or s2 is False or (s1 is None and s2 is None):
                return False
            if s1 is None or s2 is None:
                const = run.ep1 if s1 is None else run.ep2
                if const.count() != 1:
                    return False
                run.many = True
            run.d = d
            return True
        return all(a + run.m * dd == b for a, dd, b in zip(run.v0, run.d, v))

    def records(self) -> list[tuple[EpRef, EpRef, str, str, tuple]]:
        """The coalesced edge records in source order: (ep1, ep2, link, scheme, poses)."""
        runs = sorted(self.done + list(self.runs.values()), key=lambda r: r.seq)
        out = []
        for r in runs:
            if r.m == 1 or r.d is None:
                out.append((r.ep1, r.ep2, r.link, r.scheme, r.poses))
                continue
            d1, d2 = r.d[: r.n1], r.d[r.n1:]
            s1, s2 = _varying(r.ep1, d1), _varying(r.ep2, d2)
            e1 = _stretch(r.ep1, s1, r.m, d1[[i for i, x in enumerate(d1) if x][0]] if s1 is not None else 0)
            e2 = _stretch(r.ep2, s2, r.m, d2[[i for i, x in enumerate(d2) if x][0]] if s2 is not None else 0)
            out.append((e1, e2, r.link, "many2many" if r.many else r.scheme, r.poses))
        return out


def endpoint(ep: EpRef) -> Endpoint:
    """Document endpoint: fabric level splits off the instance segment."""
    if ep.level == "fabric":
        rest = ".".join(s.text() for s in ep.segs[1:])
        return Endpoint(component=rest, instance=ep.segs[0].text())
    return Endpoint(component=ep.text())


def edges_into(sink: EdgeSink, smap: SourceMap, prefix: str) -> list[Edge]:
    """The sink's records as document edges, registering each one's position under `prefix`."""
    out = []
    for i, (e1, e2, link, scheme, (p, p1, p2)) in enumerate(sink.records()):
        out.append(Edge(endpoint(e1), endpoint(e2), link, scheme))
        smap.add(f"{prefix}edges[{i}]", p)
        smap.add(f"{prefix}edges[{i}].ep1", p1)
        smap.add(f"{prefix}edges[{i}].ep2", p2)
    return out


# -------------------------------------------------------------------------------- devices ----


@dataclass
class DeviceRegistry:
    """Gives elaborated devices unique document names, in first-use order (nested devices first)."""

    devices: list[Device] = field(default_factory=list)
    used: set[str] = field(default_factory=set)
    smap: SourceMap = field(default_factory=SourceMap)
    local_maps: dict[int, list[tuple[str, A.Pos]]] = field(default_factory=dict)

    def name(self, dv: DeviceVal, preferred: str | None = None) -> str:
        if dv.docname is not None:
            return dv.docname
        base = preferred if preferred and preferred not in self.used else dv.base_name
        name, n = base, 2
        while name in self.used:
            name, n = f"{base}-{n}", n + 1
        self.used.add(name)
        dv.docname = name
        dv.doc.name = name
        dv.index = len(self.devices)
        self.devices.append(dv.doc)
        for path, pos in self.local_maps.pop(id(dv), []):
            self.smap.add(f"devices[{dv.index}]{path}", pos)
        return name
