"""Expansion: InfraGraph document -> fully qualified graph, strictly checked and vectorised.

Each device is laid out once (its leaf nodes, in declaration order, nested devices inlined) and
its internal edges are computed once as local index arrays; instances then place `count` copies
of that layout with numpy broadcasting. Cost is linear in nodes + edges; the public
implementation re-added a device's internal edges per component instance (quartic in radix).

Everything the public implementation let through is an error here, located by document path
(and file:line:col through the document's source map): unknown names (with suggestions),
indices or slices out of range, one2one/ring with unequal endpoint counts, self-loops, a leaf
path that stops at a composed device, and a `port` cabled more than once.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..document.check import reference_errors
from ..document.endpoints import Segment, parse_path, select
from ..document.model import Device, Edge, Infrastructure
from ..errors import Diagnostic, InfraGraphError, Location, error, first_errors, unknown_name
from .annotate import apply_annotations
from .fqg import FQG, ComponentInfo, InstanceInfo, LinkInfo
from ..limits import Limits
from .size import size_errors

MAX_ERRORS = 10_000  # expansion stops after this many errors; the first MAX_SHOWN are shown, the rest counted


@dataclass
class _Placed:
    """Where a direct component of a device sits in the device's leaf order."""

    start: int
    count: int
    layout: "_Layout | None"  # the nested device's layout for choice 'device'


@dataclass
class _Layout:
    """One device, laid out: leaves, owners and internal edges as local index arrays."""

    device: Device
    n_leaves: int = 0
    n_owners: int = 1
    placed: dict[str, _Placed] = field(default_factory=dict)
    leaf_component: np.ndarray = None  # global component ids
    leaf_owner: np.ndarray = None  # 0 = this device; nested copies numbered from 1
    suffixes: list[str] = field(default_factory=list)
    src: np.ndarray = None
    dst: np.ndarray = None
    link: np.ndarray = None
    origin: np.ndarray = None

    def resolve(self, segments: list[Segment], path: str) -> np.ndarray:
        """Local leaf ids chosen by a component path, outer segments varying slowest."""
        seg = segments[0]
        placed = self.placed.get(seg.name)
        if placed is None:
            raise unknown_name("component", seg.name, self.placed, path, f" in device '{self.device.name}'")
        idx = select(seg, placed.count, path)
        if placed.layout is None:
            if len(segments) > 1:
                raise error(f"component '{seg.name}' of device '{self.device.name}' is not a device; "
                            f"cannot select '{'.'.join(map(str, segments[1:]))}' inside it", path)
            return placed.start + idx
        if len(segments) == 1:
            inner = ", ".join(placed.layout.placed) or "(none)"
            raise error(f"'{seg.name}' is a device, not a leaf component; name a component inside it "
                        f"(e.g. '{seg}.{next(iter(placed.layout.placed), 'x')}'); it has: {inner}", path)
        inner_ids = placed.layout.resolve(segments[1:], path)
        return (placed.start + idx[:, None] * placed.layout.n_leaves + inner_ids[None, :]).ravel()


def _pairs(a: np.ndarray, b: np.ndarray, scheme: str, path: str) -> tuple[np.ndarray, np.ndarray]:
    """Apply a scheme to two endpoint lists. many2many over one list is its complete graph
    (each pair once); ring connects a[i] to b[(i+1) % n], and a ring of two is one link."""
    same = a.shape == b.shape and bool(np.array_equal(a, b))
    if scheme == "one2one":
        if a.size != b.size:
            raise error(f"one2one needs the same number of endpoints on both sides, "
                        f"got {a.size} (ep1) and {b.size} (ep2)", path,
                        "adjust the slices, or use many2many to connect every pair")
        return a, b
    if scheme == "many2many":
        if same:
            i, j = np.triu_indices(a.size, k=1)
            return a[i], a[j]
        return np.repeat(a, b.size), np.tile(b, a.size)
    if a.size != b.size:
        raise error(f"ring needs the same number of endpoints on both sides, got {a.size} and {b.size}", path)
    if same and a.size == 2:
        return a[:1], a[1:]
    return a, np.roll(b, -1)


class _Edges:
    """Edge arrays under construction: appended group by group, concatenated once at the end."""

    def __init__(self) -> None:
        self.src: list[np.ndarray] = []
        self.dst: list[np.ndarray] = []
        self.link: list[np.ndarray] = []
        self.origin: list[np.ndarray] = []

    def add(self, a: np.ndarray, b: np.ndarray, link: int, origin: int) -> None:
        self.src.append(a)
        self.dst.append(b)
        self.link.append(np.full(a.size, link))
        self.origin.append(np.full(a.size, origin))

    def add_copies(self, lay: _Layout, offsets: np.ndarray) -> None:
        """The internal edges of `lay`, once per copy placed at each node offset."""
        if lay.src.size:
            self.src.append((offsets[:, None] + lay.src[None, :]).ravel())
            self.dst.append((offsets[:, None] + lay.dst[None, :]).ravel())
            self.link.append(np.tile(lay.link, offsets.size))
            self.origin.append(np.tile(lay.origin, offsets.size))

    def arrays(self, index_dtype) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        return (_cat(self.src, index_dtype), _cat(self.dst, index_dtype),
                _cat(self.link, np.int32), _cat(self.origin, np.int32))


class _Expander:
    def __init__(self, doc: Infrastructure, limits: Limits):
        self.doc = doc
        self.limits = limits
        self.devices = {d.name: (i, d) for i, d in enumerate(doc.devices)}
        self.layouts: dict[str, _Layout] = {}
        self.components: list[ComponentInfo] = []
        self.type_names: list[str] = []
        self.links: list[LinkInfo] = []
        self.records: list[str] = []
        self.diags: list[Diagnostic] = []

    # -- bookkeeping ------------------------------------------------------------------------
    def _type_id(self, name: str) -> int:
        if name not in self.type_names:
            self.type_names.append(name)
        return self.type_names.index(name)

    def _register_links(self, links, scope: str) -> dict[str, int]:
        ids = {}
        for x in links:
            ids[x.name] = len(self.links)
            self.links.append(LinkInfo(x.name, scope, x.bandwidth.gbps() if x.bandwidth else None,
                                       x.latency.ns() if x.latency else None, x.description))
        return ids

    def _fail(self, e: InfraGraphError) -> None:
        self.diags.extend(e.diagnostics)
        if len(self.diags) >= MAX_ERRORS:
            raise InfraGraphError(first_errors(self.diags))

    # -- devices ----------------------------------------------------------------------------
    def layout(self, name: str) -> _Layout:
        if name in self.layouts:
            return self.layouts[name]
        di, device = self.devices[name]
        lay = _Layout(device)
        comp_ids, owners, suffixes = [], [], []
        edges = _Edges()
        for c in device.components:
            if c.choice == "device":
                sub = self.layout(c.name)
                lay.placed[c.name] = _Placed(lay.n_leaves, c.count, sub)
                copies = np.arange(c.count)
                comp_ids.append(np.tile(sub.leaf_component, c.count))
                owners.append((lay.n_owners + copies[:, None] * sub.n_owners + sub.leaf_owner[None, :]).ravel())
                suffixes.extend(f"{c.name}.{k}.{s}" for k in range(c.count) for s in sub.suffixes)
                edges.add_copies(sub, lay.n_leaves + copies * sub.n_leaves)
                lay.n_leaves += c.count * sub.n_leaves
                lay.n_owners += c.count * sub.n_owners
            else:
                lay.placed[c.name] = _Placed(lay.n_leaves, c.count, None)
                self.components.append(ComponentInfo(device.name, c.name, c.node_type))
                self._type_id(c.node_type)
                comp_ids.append(np.full(c.count, len(self.components) - 1))
                owners.append(np.zeros(c.count, dtype=np.int64))
                suffixes.extend(f"{c.name}.{j}" for j in range(c.count))
                lay.n_leaves += c.count
        def resolve(ep, p: str) -> np.ndarray:
            return lay.resolve(parse_path(_device_path(ep), f"{p}.component"), f"{p}.component")

        self._add_records(device.edges, f"devices[{di}].edges", resolve,
                          self._register_links(device.links, device.name), edges)
        lay.leaf_component = _cat(comp_ids, np.int32)
        lay.leaf_owner = _cat(owners, np.int32)
        lay.suffixes = suffixes
        lay.src, lay.dst, lay.link, lay.origin = edges.arrays(np.int64)
        self.layouts[name] = lay
        return lay

    def _add_records(self, records: list[Edge], where: str, resolve, link_ids: dict[str, int], out: _Edges) -> None:
        """Resolve each edge record and apply its scheme; problems are collected, not fatal."""
        for ei, e in enumerate(records):
            path = f"{where}[{ei}]"
            try:
                a, b = _pairs(resolve(e.ep1, f"{path}.ep1"), resolve(e.ep2, f"{path}.ep2"), e.scheme, f"{path}.scheme")
            except InfraGraphError as err:
                self._fail(err)
                continue
            self.records.append(path)
            out.add(a, b, link_ids[e.link], len(self.records) - 1)

    # -- infrastructure ---------------------------------------------------------------------
    def run(self) -> FQG:
        doc = self.doc
        self.diags = reference_errors(doc)
        if self.diags:
            raise InfraGraphError(first_errors(self.diags))
        self.diags = size_errors(doc, self.limits)  # before any array is allocated
        if self.diags:
            raise InfraGraphError(self.diags)
        for d in doc.devices:  # every device is checked, instantiated or not
            self.layout(d.name)
        instances: list[InstanceInfo] = []
        blocks = []  # (layout, count, first_node, first_owner)
        node_base = owner_base = 0
        for inst in doc.instances:
            lay = self.layout(inst.device)
            instances.append(InstanceInfo(inst.name, inst.device, inst.count, node_base, lay.n_leaves, lay.suffixes))
            blocks.append((lay, inst.count, node_base, owner_base))
            node_base += inst.count * lay.n_leaves
            owner_base += inst.count * lay.n_owners
        if self.diags:
            raise InfraGraphError(first_errors(self.diags))
        by_name = {inst.name: (i, blocks[i]) for i, inst in enumerate(instances)}

        def nodes(instance: str, component: str | None, ipath: str, cpath: str) -> np.ndarray:
            inst_segs = parse_path(instance, ipath)
            if len(inst_segs) != 1 or inst_segs[0].name not in by_name:
                raise unknown_name("instance", inst_segs[0].name, by_name, ipath)
            _, (lay, count, first, _) = by_name[inst_segs[0].name]
            copies = select(inst_segs[0], count, ipath)
            if component is None:
                local = np.arange(lay.n_leaves)
            else:
                segs = parse_path(component, cpath)
                if segs[0].name not in lay.placed and segs[0].name == lay.device.name and len(segs) > 1:
                    segs = segs[1:]  # 'dgx.cx5[0]' style: the device's own name as a leading segment
                local = lay.resolve(segs, cpath)
            return (first + copies[:, None] * lay.n_leaves + local[None, :]).ravel()

        def resolve(ep, p: str) -> np.ndarray:
            return nodes(ep.instance, ep.component, f"{p}.instance", f"{p}.component")

        def selector(text: str, p: str) -> np.ndarray:
            instance, _, component = text.partition(".")
            return nodes(instance, component or None, p, p)

        edges = _Edges()
        for lay, count, first, _ in blocks:
            edges.add_copies(lay, first + np.arange(count) * lay.n_leaves)
        self._add_records(doc.edges, "edges", resolve, self._register_links(doc.links, ""), edges)
        edge_src, edge_dst, edge_link, edge_origin = edges.arrays(np.int32)
        if self.diags:
            raise InfraGraphError(first_errors(self.diags))

        node_component = _cat([np.tile(lay.leaf_component, c) for lay, c, _, _ in blocks], np.int32)
        type_of_component = np.array([self.type_names.index(c.type) for c in self.components], dtype=np.int16)
        fqg = FQG(
            name=doc.name,
            description=doc.description,
            instances=instances,
            components=self.components,
            type_names=self.type_names,
            links=self.links,
            node_type=type_of_component[node_component] if node_component.size else np.zeros(0, np.int16),
            node_component=node_component,
            node_instance=_cat([np.full(c * lay.n_leaves, i) for i, (lay, c, _, _) in enumerate(blocks)], np.int32),
            node_copy=_cat([np.repeat(np.arange(c), lay.n_leaves) for lay, c, _, _ in blocks], np.int32),
            node_owner=_cat(
                [(ob + np.arange(c)[:, None] * lay.n_owners + lay.leaf_owner[None, :]).ravel()
                 for lay, c, _, ob in blocks], np.int32),
            edge_src=edge_src,
            edge_dst=edge_dst,
            edge_link=edge_link,
            edge_origin=edge_origin,
            edge_records=self.records,
        )
        self.diags = _self_loops(fqg) + _ports_cabled_twice(fqg)
        if self.diags:
            raise InfraGraphError(first_errors(self.diags))
        apply_annotations(fqg, doc.annotations, selector)
        return fqg


def _device_path(ep) -> str:
    """A device edge endpoint as one component path: `device` (composition) prefixes `component`."""
    return f"{ep.device}.{ep.component}" if ep.device else ep.component


def _cat(parts: list[np.ndarray], dtype) -> np.ndarray:
    return np.concatenate(parts).astype(dtype, copy=False) if parts else np.zeros(0, dtype=dtype)


def _self_loops(g: FQG) -> list[Diagnostic]:
    bad = np.flatnonzero(g.edge_src == g.edge_dst)
    return [
        Diagnostic(f"self-loop: node '{g.node_name(int(g.edge_src[e]))}' is connected to itself",
                   Location(path=g.edge_records[int(g.edge_origin[e])]),
                   "check the slices and the scheme of this edge")
        for e in bad[:MAX_ERRORS]
    ]


def _ports_cabled_twice(g: FQG) -> list[Diagnostic]:
    """A `port` takes one cable: at most one edge leaving the device copy that holds the port."""
    if "port" not in g.type_names:
        return []
    cross = np.flatnonzero(g.node_owner[g.edge_src] != g.node_owner[g.edge_dst])
    ends = np.concatenate([g.edge_src[cross], g.edge_dst[cross]])
    edges = np.concatenate([cross, cross])
    is_port = g.node_type[ends] == g.type_names.index("port")
    ends, edges = ends[is_port], edges[is_port]
    counts = np.bincount(ends, minlength=g.num_nodes)
    out = []
    for port in np.flatnonzero(counts > 1)[:MAX_ERRORS]:
        used = edges[ends == port]
        records = [g.edge_records[int(g.edge_origin[e])] for e in used]
        peers = [g.node_name(int(g.edge_dst[e] if g.edge_src[e] == port else g.edge_src[e])) for e in used]
        out.append(Diagnostic(
            f"port '{g.node_name(int(port))}' is cabled {len(used)} times "
            f"(to {', '.join(peers[:4])}{', …' if len(peers) > 4 else ''}; by {', '.join(dict.fromkeys(records))})",
            Location(path=records[-1]),
            "a port takes one cable: use another port index",
        ))
    return out


def expand(doc: Infrastructure, limits: Limits | None = None) -> FQG:
    """The fully qualified graph of `doc`. Raises InfraGraphError (all problems found, located),
    also when the graph would be larger than `limits` (default: `size.Limits()`)."""
    try:
        return _Expander(doc, limits or Limits()).run()
    except InfraGraphError as e:
        raise e.relocated(doc.source) from None
