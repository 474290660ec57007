"""Size before building: the node and edge counts of a document, computed from its counts alone.

Counts multiply (an instance of 10⁹ copies of a device with 10⁹ ports), so a document of a few
lines can describe more nodes than memory holds; building it ends in a MemoryError or a numpy
allocation error after gigabytes. Here the counts are multiplied out with Python integers first
(no arrays, no overflow) and a document above the limits is refused, naming the record that makes
it large. The limits are generous (the largest blueprint graphs are a few million nodes) and a
flag (`--max-nodes`, `--max-edges`) raises them.

Endpoint selections are sized without resolving them (`range(count)[slice]` has a length without
items); a selection that is wrong is sized as its whole component here and reported by expansion.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..document.endpoints import Segment, parse_path
from ..document.model import Device, Edge, Infrastructure
from ..errors import Diagnostic, InfraGraphError, Location
from ..limits import Limits

@dataclass(frozen=True)
class Culprit:
    """One record's share of the total: `amount` nodes or edges, and why."""

    path: str
    amount: int
    why: str


def _selected(seg: Segment, count: int) -> int:
    """How many of `count` items `seg` selects (the whole count when the selector is malformed)."""
    sel = seg.selector
    if sel is None or sel.strip() in (":", "*"):
        return count
    parts = sel.split(":")
    try:
        if len(parts) == 1:
            int(parts[0])
            return 1
        bounds = [int(p) if p.strip() else None for p in parts[:3]]
        return len(range(count)[slice(*bounds)]) if bounds[2:] != [0] else count
    except ValueError:
        return count


class _Sizer:
    """Nodes and edges per device copy, and each device's total number of copies, memoised."""

    def __init__(self, doc: Infrastructure):
        self.doc = doc
        self.devices = {d.name: (i, d) for i, d in enumerate(doc.devices)}
        self._leaves: dict[str, int] = {}
        self._edges: dict[str, int] = {}
        self._busy: set[str] = set()  # composition cycles are reported by the reference checks

    def leaves(self, name: str) -> int:
        if name in self._leaves or name not in self.devices or name in self._busy:
            return self._leaves.get(name, 0)
        self._busy.add(name)
        d = self.devices[name][1]
        n = sum(c.count * (self.leaves(c.name) if c.choice == "device" else 1) for c in d.components)
        self._busy.discard(name)
        self._leaves[name] = n
        return n

    def edges(self, name: str) -> int:
        if name in self._edges or name not in self.devices or name in self._busy:
            return self._edges.get(name, 0)
        self._busy.add(name)
        d = self.devices[name][1]
        n = sum(c.count * self.edges(c.name) for c in d.components if c.choice == "device")
        n += sum(self.record_edges(e, lambda ep, d=d: self.selected_in(d, _device_path(ep))) for e in d.edges)
        self._busy.discard(name)
        self._edges[name] = n
        return n

    def selected_in(self, device: Device, path: str) -> int:
        """Leaves a component path selects in one copy of `device`."""
        try:
            segs = parse_path(path, "")
        except InfraGraphError:
            return 0
        n, dev = 1, device
        for i, seg in enumerate(segs):
            comp = next((c for c in dev.components if c.name == seg.name), None)
            if comp is None and i == 0 and seg.name == dev.name and len(segs) > 1:
                continue  # 'dgx.cx5[0]': the device's own name as a leading segment
            if comp is None:
                return 0
            n *= _selected(seg, comp.count)
            if comp.choice != "device":
                return n
            dev = self.devices.get(comp.name, (0, None))[1]
            if dev is None:
                return 0
        return n * self.leaves(dev.name)

    def selected_infra(self, ep) -> int:
        try:
            inst_seg = parse_path(ep.instance, "")[0]
        except (InfraGraphError, TypeError):
            return 0
        inst = next((x for x in self.doc.instances if x.name == inst_seg.name), None)
        if inst is None or inst.device not in self.devices:
            return 0
        copies = _selected(inst_seg, inst.count)
        device = self.devices[inst.device][1]
        per_copy = self.leaves(device.name) if ep.component is None else self.selected_in(device, ep.component)
        return copies * per_copy

    @staticmethod
    def record_edges(e: Edge, size) -> int:
        a, b = size(e.ep1), size(e.ep2)
        if e.scheme == "many2many":
            return a * (a - 1) // 2 if e.ep1 == e.ep2 else a * b
        return min(a, b)

    def copies(self) -> dict[str, int]:
        """Total copies of each device in the graph (instances times nesting)."""
        out: dict[str, int] = {}
        order = self._topological()
        for inst in self.doc.instances:
            out[inst.device] = out.get(inst.device, 0) + inst.count
        for name in order:
            d = self.devices[name][1]
            for c in d.components:
                if c.choice == "device" and c.name in self.devices:
                    out[c.name] = out.get(c.name, 0) + out.get(name, 0) * c.count
        return out

    def _topological(self) -> list[str]:
        """Devices, each before the devices it contains (cycles broken arbitrarily)."""
        seen: set[str] = set()
        post: list[str] = []
        for start in self.devices:
            stack = [(start, iter(self.devices[start][1].components))]
            if start in seen:
                continue
            seen.add(start)
            while stack:
                name, it = stack[-1]
                child = next((c.name for c in it if c.choice == "device" and c.name in self.devices
                              and c.name not in seen), None)
                if child is None:
                    post.append(name)
                    stack.pop()
                else:
                    seen.add(child)
                    stack.append((child, iter(self.devices[child][1].components)))
        return post[::-1]


def _device_path(ep) -> str:
    return f"{ep.device}.{ep.component}" if ep.device else ep.component


def size_errors(doc: Infrastructure, limits: Limits) -> list[Diagnostic]:
    """A located error when expanding `doc` would exceed `limits` (or lay out a device that does)."""
    s = _Sizer(doc)
    out: list[Diagnostic] = []
    node_parts = [Culprit(f"devices[{i}].components[{ci}]", c.count * (s.leaves(c.name) if c.choice == "device" else 1),
                          f"component '{c.name}' of device '{d.name}' has {c.count:,} "
                          + (f"copies of device '{c.name}' ({_nodes(s.leaves(c.name))} each)" if c.choice == "device"
                             else "nodes"))
                  for i, d in enumerate(doc.devices) for ci, c in enumerate(d.components)]
    node_parts += [Culprit(f"instances[{i}]", x.count * s.leaves(x.device),
                           f"instance '{x.name}' is {x.count:,} copies of device '{x.device}' "
                           f"({_nodes(s.leaves(x.device))} each)") for i, x in enumerate(doc.instances)]
    nodes = sum(i.count * s.leaves(i.device) for i in doc.instances)
    worst = _culprit(node_parts, limits.max_nodes)
    if worst is not None and max(nodes, worst.amount) > limits.max_nodes:
        out.append(_too_big("nodes", max(nodes, worst.amount), limits.max_nodes, worst, "--max-nodes"))
        return out  # edge counts of a graph this size are beside the point
    copies = s.copies()
    edge_parts = [Culprit(f"devices[{i}].edges[{ei}]", max(copies.get(d.name, 0), 1) * n,
                          f"edge record {ei} of device '{d.name}' makes {n:,} edges per copy"
                          + (f", in {copies[d.name]:,} copies" if copies.get(d.name, 0) > 1 else ""))
                  for i, d in enumerate(doc.devices) for ei, e in enumerate(d.edges)
                  for n in [s.record_edges(e, lambda ep, d=d: s.selected_in(d, _device_path(ep)))]]
    edge_parts += [Culprit(f"edges[{ei}]", n, f"edge record {ei} ({e.scheme}) makes {n:,} edges")
                   for ei, e in enumerate(doc.edges) for n in [s.record_edges(e, s.selected_infra)]]
    edges = sum(i.count * s.edges(i.device) for i in doc.instances) + sum(
        c.amount for c in edge_parts if c.path.startswith("edges["))
    worst = _culprit(edge_parts, limits.max_edges)
    if worst is not None and max(edges, worst.amount) > limits.max_edges:
        out.append(_too_big("edges", max(edges, worst.amount), limits.max_edges, worst, "--max-edges"))
    return out


def _culprit(parts: list[Culprit], limit: int) -> Culprit | None:
    """The most specific record over the limit on its own (the smallest such), else the largest."""
    over = [c for c in parts if c.amount > limit]
    if over:
        return min(over, key=lambda c: c.amount)
    return max(parts, key=lambda c: c.amount, default=None)


def _nodes(n: int) -> str:
    return f"{n:,} node" + ("" if n == 1 else "s")


def _too_big(what: str, total: int, limit: int, culprit: Culprit, flag: str) -> Diagnostic:
    return Diagnostic(
        f"the graph would have {_big(total)} {what}, more than the limit of {limit:,}: {culprit.why}",
        Location(path=culprit.path),
        f"is a count larger than intended? If not, raise the limit with {flag} (memory grows with the graph)")


def _big(n: int) -> str:
    return f"{n:,}" if n < 10**15 else f"about {float(n):.3g}"
