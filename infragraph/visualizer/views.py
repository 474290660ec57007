"""Levels of detail as small graphs ("views") made by merging FQG nodes into boxes.

Every level is a *quotient* of the FQG: a `group` array maps each FQG node to a box (or -1 to leave
it out); edges whose ends fall in the same box disappear inside it, and parallel edges between two
boxes merge into one line that keeps how many links it stands for, their total bandwidth and the
worst utilization. The same merge makes the aggregated views of large fabrics (racks, pods,
groups), so there is one way to turn many things into one box, not one per level.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..document.model import Value
from ..errors import did_you_mean, error
from ..graph.failures import edge_states
from ..graph.fqg import FQG

# Component types in the order that names a device's role: a device holding an xpu is a host,
# one holding a switch (and no xpu) a switch, and so on.
ROLE_ORDER = ("xpu", "cpu", "switch", "router", "nic", "memory", "port")


@dataclass
class View:
    """A graph of boxes and merged lines, ready to lay out and draw.

    Per box: `kind` (index into `kinds`, the colour class), `block` (boxes of one instance or one
    component share a block; structure detection looks for grids inside a block), `host` (the
    box holds accelerators, or a CPU and no switch: Clos tiers are counted from hosts), `size`
    (how many devices or components it stands for), `label`, `name` (searchable), `device` (the device to drill into,
    or ""). Per line: `src`/`dst` box indices, `count` of links, `bandwidth` (total Gbit/s per
    direction of the links that work), `utilization` (max of the merged links, NaN if unknown),
    `util_sum` (the links' utilizations added, unknown = idle: mean = util_sum / count) and `used`
    (how many of its links carried traffic), `rated` (total Gbit/s counting failed links too; None
    without failures) and `rail` (the rail of its links, -1 for none or several; None when the
    hosts have no rails).
    """

    title: str
    kinds: list[str]
    kind: np.ndarray
    block: np.ndarray
    host: np.ndarray
    size: np.ndarray
    label: list[str]
    name: list[str]
    device: list[str]
    src: np.ndarray
    dst: np.ndarray
    count: np.ndarray
    bandwidth: np.ndarray
    utilization: np.ndarray
    notes: list[str] = field(default_factory=list)
    attrs: list[dict[str, Value]] | None = None  # per-box attributes (small views only)
    cluster: np.ndarray | None = None  # full level: boxes of one device copy are drawn together
    cluster_label: list[str] | None = None
    failed: np.ndarray | None = None  # per line: merged links that failed (None: no failures)
    degraded: np.ndarray | None = None  # per line: merged links that are degraded
    rated: np.ndarray | None = None  # per line: Gbit/s of all its links, failed ones included
    util_sum: np.ndarray | None = None  # per line: sum of its links' utilizations (None: no results)
    used: np.ndarray | None = None  # per line: links that carried traffic (None: no results)
    rail: np.ndarray | None = None  # per line: rail index, -1 for none or several (None: no rails)
    rail_names: list[str] | None = None  # per rail: the host component that names it ("nic.3")

    @property
    def num_nodes(self) -> int:
        return int(self.kind.shape[0])

    @property
    def num_edges(self) -> int:
        return int(self.src.shape[0])


def merge_edges(src: np.ndarray, dst: np.ndarray, count: np.ndarray, bandwidth: np.ndarray,
                utilization: np.ndarray, group: np.ndarray, sums: tuple[np.ndarray, ...] = (),
                label: np.ndarray | None = None) -> tuple[np.ndarray, ...]:
    """Map edge ends through `group` and merge parallel edges: (src, dst, count, bandwidth, util),
    followed by one merged total per array in `sums` (per-edge counts or amounts, e.g. failed
    links; each total keeps its array's dtype), then, with `label`, the label every merged edge
    shares (-1 where they differ or where an edge has -1).

    Edges with an end mapped to -1 or with both ends in one group are dropped. Bandwidth sums
    (NaN counts as 0), utilization keeps the maximum (NaN when no merged edge has one).
    """
    a, b = group[src], group[dst]
    keep = (a >= 0) & (b >= 0) & (a != b)
    a, b = np.minimum(a[keep], b[keep]).astype(np.int64), np.maximum(a[keep], b[keep]).astype(np.int64)
    if a.size == 0:
        z = np.zeros(0, np.int64)
        return (z, z, z, np.zeros(0), np.zeros(0)) + tuple(np.zeros(0, x.dtype) for x in sums) + \
            ((z,) if label is not None else ())
    n = int(group.max()) + 1
    pair, inv = np.unique(a * n + b, return_inverse=True)
    m = pair.size
    cnt = np.bincount(inv, weights=count[keep], minlength=m).astype(np.int64)
    bw = np.bincount(inv, weights=np.nan_to_num(bandwidth[keep]), minlength=m)
    util = np.full(m, -np.inf)
    u = utilization[keep]
    ok = ~np.isnan(u)
    np.maximum.at(util, inv[ok], u[ok])
    util[np.isneginf(util)] = np.nan
    totals = tuple(np.bincount(inv, weights=x[keep], minlength=m).astype(x.dtype) for x in sums)
    if label is not None:
        lo, hi = np.full(m, np.iinfo(np.int64).max), np.full(m, -1, np.int64)
        np.minimum.at(lo, inv, label[keep])
        np.maximum.at(hi, inv, label[keep])
        totals += (np.where(lo == hi, hi, -1),)
    return (pair // n, pair % n, cnt, bw, util) + totals


def role(types: set[str]) -> str:
    """The colour class of a device from the component types it holds (see ROLE_ORDER)."""
    for t in ROLE_ORDER:
        if t in types:
            return t
    return sorted(types)[0] if types else "device"


def _copy_index(g: FQG) -> tuple[np.ndarray, np.ndarray]:
    """Per FQG node, the index of its top-level device copy; and the first copy index per instance."""
    starts = np.cumsum([0] + [i.count for i in g.instances])
    return starts[g.node_instance] + g.node_copy, starts


def quotient(g: FQG, group: np.ndarray, utilization: np.ndarray | None,
             label: np.ndarray | None = None) -> tuple[np.ndarray, ...]:
    """The FQG's edges merged through `group` (see merge_edges): src, dst, count, bandwidth, util,
    then the sum of the links' utilizations and how many carried traffic (None, None without
    results), then the shared `label` when given."""
    util = np.full(g.num_edges, np.nan) if utilization is None else utilization
    known = ~np.isnan(util)
    src, dst, cnt, bw, mx, total, used, *shared = merge_edges(
        g.edge_src, g.edge_dst, np.ones(g.num_edges, np.int64), g.edge_bandwidth_gbps(), util, group,
        (np.where(known, util, 0.0), (known & (util > 0)).astype(np.int64)), label)
    results = utilization is not None
    return (src, dst, cnt, bw, mx, total if results else None, used if results else None) + tuple(shared)


def mark_failures(v: View, g: FQG, group: np.ndarray) -> View:
    """Count each line's failed and degraded links (the graph's `failed`, `bandwidth_factor` and
    `extra_latency_ns` edge annotations; see graph.failures.marked); a failed link adds no bandwidth."""
    failed, degraded = edge_states(g)
    if not (failed.any() or degraded.any()):
        return v
    v.rated = v.bandwidth.copy()
    bw = np.where(failed, 0.0, g.edge_bandwidth_gbps())
    merged = merge_edges(g.edge_src, g.edge_dst, np.ones(g.num_edges, np.int64), bw, np.full(g.num_edges, np.nan),
                         group, (failed.astype(np.int64), degraded.astype(np.int64)))
    v.bandwidth, v.failed, v.degraded = merged[3], merged[5], merged[6]
    return v


def fabric_view(g: FQG, utilization: np.ndarray | None = None) -> View:
    """One box per top-level device copy (`leaf.3`), coloured by the device's role."""
    group, starts = _copy_index(g)
    inst_types: list[set[str]] = [set() for _ in g.instances]
    for inst_i, t in _pairs_fast(g.node_instance, g.node_type):
        inst_types[inst_i].add(g.type_names[t])
    roles = [role(s) for s in inst_types]
    kinds = sorted(set(roles), key=lambda r: (ROLE_ORDER.index(r) if r in ROLE_ORDER else 99, r))
    counts = np.array([i.count for i in g.instances], dtype=np.int64)
    inst_of_box = np.repeat(np.arange(len(g.instances)), counts)
    kind = np.array([kinds.index(r) for r in roles], dtype=np.int32)[inst_of_box] if counts.sum() else np.zeros(0, np.int32)
    # A device with accelerators is a host even when it holds a switch (NVSwitch, a PCIe or scale-up
    # switch: most GPU servers); a CPU-only device is a host unless it is a switch with its own CPU.
    is_host = np.array([("xpu" in s) or ("cpu" in s and "switch" not in s) for s in inst_types], dtype=bool)
    labels = [f"{i.name}.{c}" for i in g.instances for c in range(i.count)]
    host_box = is_host[inst_of_box] if counts.sum() else np.zeros(0, bool)
    edge_rail, rail_names = host_rails(g, group, host_box)
    src, dst, cnt, bw, util, total, used, *rail = quotient(g, group, utilization, edge_rail)
    if rail_names and np.unique(rail[0][rail[0] >= 0]).size < 2:
        rail_names = None  # each host's rails share one line (all its NICs on one switch): nothing to colour
    return mark_failures(View(
        title=f"{g.name}: fabric", kinds=kinds, kind=kind, block=inst_of_box.astype(np.int32),
        host=host_box, size=np.ones(len(labels), np.int64),
        label=labels, name=labels, device=[g.instances[i].device for i in inst_of_box.tolist()],
        src=src, dst=dst, count=cnt, bandwidth=bw, utilization=util, util_sum=total, used=used,
        rail=_switch_rails(src, dst, host_box, rail[0]) if rail_names else None, rail_names=rail_names,
    ), g, group)


def host_rails(g: FQG, group: np.ndarray, host_box: np.ndarray) -> tuple[np.ndarray | None, list[str] | None]:
    """Per FQG edge, the rail it belongs to: on a cable from a host to a switch, the host component
    it leaves from (`nic.3`: rail 3; -1 on every other edge); with the rails' names. (None, None)
    unless some host cables out of two or more such components (one NIC per host is no rail)."""
    host_side = np.full(g.num_edges, -1, np.int64)
    a, b = group[g.edge_src], group[g.edge_dst]
    ok = (a >= 0) & (b >= 0)
    out_a = ok & host_box[np.maximum(a, 0)] & ~host_box[np.maximum(b, 0)]
    out_b = ok & host_box[np.maximum(b, 0)] & ~host_box[np.maximum(a, 0)]
    host_side[out_a], host_side[out_b] = g.edge_src[out_a], g.edge_dst[out_b]
    cables = np.flatnonzero(host_side >= 0)
    if cables.size == 0:
        return None, None
    nodes = host_side[cables]
    keys: dict[tuple[str, int], int] = {}
    key = np.empty(nodes.size, np.int64)
    inst_of = g.node_instance[nodes]
    for k in np.unique(inst_of).tolist():
        inst = g.instances[k]
        mine = inst_of == k
        local = (nodes[mine] - inst.first_node) % inst.nodes_per_copy
        table = np.array([keys.setdefault(_component(sfx), len(keys)) for sfx in inst.suffixes], np.int64)
        key[mine] = table[local]
    if len(np.unique(key)) < 2 or np.unique(group[nodes] * len(keys) + key).size == np.unique(group[nodes]).size:
        return None, None  # one component per host: no rails
    present = set(np.unique(key).tolist())
    names = sorted(kk for kk, v in keys.items() if v in present)
    rank = {keys[n]: i for i, n in enumerate(names)}
    edge_rail = np.full(g.num_edges, -1, np.int64)
    edge_rail[cables] = np.array([rank[k] for k in key.tolist()], np.int64)
    return edge_rail, [f"{n}.{i}" if i >= 0 else n for n, i in names]


def _component(suffix: str) -> tuple[str, int]:
    """The top component a node's suffix names within its device copy: 'nic.3.port.0' -> ('nic', 3)."""
    parts = suffix.split(".")
    return (parts[0], int(parts[1])) if len(parts) > 1 and parts[1].isdigit() else (parts[0], -1)


def _switch_rails(src: np.ndarray, dst: np.ndarray, host_box: np.ndarray, rail: np.ndarray) -> np.ndarray:
    """Per line, its rail: host lines as merged; a line from a switch whose host lines all carry one
    rail (a rail's leaf) to a switch with no host lines (a spine) carries that rail too."""
    rail = rail.copy()
    n = host_box.size
    lo, hi = np.full(n, np.iinfo(np.int64).max), np.full(n, -2, np.int64)
    touches_host = host_box[src] | host_box[dst]
    switch_end = np.where(host_box[src], dst, src)[touches_host]
    np.minimum.at(lo, switch_end, rail[touches_host])
    np.maximum.at(hi, switch_end, rail[touches_host])
    leaf_rail = np.where((lo == hi) & (hi >= 0), hi, -1)
    has_hosts = hi > -2
    upper = ~touches_host & (has_hosts[src] != has_hosts[dst])
    lower = np.where(has_hosts[src], src, dst)
    rail[upper] = leaf_rail[lower[upper]]
    return rail


def _pairs_fast(a: np.ndarray, b: np.ndarray) -> list[tuple[int, int]]:
    key = np.unique(a.astype(np.int64) * 65536 + b.astype(np.int64))
    return list(zip((key // 65536).tolist(), (key % 65536).tolist()))


def _leaf_view(g: FQG, nodes: np.ndarray, title: str, utilization: np.ndarray | None, strip: str = "") -> View:
    """One box per FQG node in `nodes` (ascending ids), coloured by component type."""
    group = np.full(g.num_nodes, -1, np.int64)
    group[nodes] = np.arange(nodes.size)
    src, dst, cnt, bw, util, total, used_links = quotient(g, group, utilization)
    types = g.node_type[nodes]
    used = sorted(set(types.tolist()), key=lambda t: (ROLE_ORDER.index(g.type_names[t])
                                                      if g.type_names[t] in ROLE_ORDER else 99, g.type_names[t]))
    kinds = [g.type_names[t] for t in used]
    remap = {t: i for i, t in enumerate(used)}
    names = [g.node_name(int(n)) for n in nodes] if nodes.size <= 200_000 else []
    labels = [n[len(strip):] if strip and n.startswith(strip) else n for n in names]
    small = nodes.size <= 20_000
    return mark_failures(View(
        title=title, kinds=kinds, kind=np.array([remap[t] for t in types.tolist()], np.int32),
        block=g.node_component[nodes].astype(np.int32), host=np.zeros(nodes.size, bool),
        size=np.ones(nodes.size, np.int64), label=labels, name=names, device=[""] * nodes.size,
        src=src, dst=dst, count=cnt, bandwidth=bw, utilization=util, util_sum=total, used=used_links,
        attrs=[g.node_attributes(int(n)) for n in nodes] if small else None,
    ), g, group)


def device_copy_nodes(g: FQG, name: str) -> tuple[np.ndarray, str]:
    """The FQG nodes inside one device, named by device (`leafsw`: its first copy), by instance
    (`leaf`: copy 0) or by copy (`leaf.3`); and the name prefix those nodes share."""
    by_inst = {i.name: i for i in g.instances}
    inst_name, _, idx = name.partition(".")
    inst = by_inst.get(inst_name)
    if inst is None:
        inst = next((i for i in g.instances if i.device == name), None)
        idx = ""
    if inst is None:
        known = sorted({i.device for i in g.instances} | set(by_inst))
        raise error(f"no device or instance named '{name}'; the fabric has: {', '.join(known[:30])}", "--level",
                    hint=did_you_mean(name, known))
    if idx and (not idx.isdigit() or int(idx) >= inst.count):
        raise error(f"'{name}': instance '{inst.name}' has copies 0..{inst.count - 1}", "--level")
    copy = int(idx or 0)
    first = inst.first_node + copy * inst.nodes_per_copy
    return np.arange(first, first + inst.nodes_per_copy), f"{inst.name}.{copy}."


def device_view(g: FQG, name: str, utilization: np.ndarray | None = None) -> View:
    """The inside of one device copy: one box per component, its internal links."""
    nodes, prefix = device_copy_nodes(g, name)
    inst = g.instances[int(g.node_instance[nodes[0]])] if nodes.size else None
    dev = inst.device if inst else name
    return _leaf_view(g, nodes, f"{g.name}: device {dev} ({prefix[:-1]})", utilization, strip=prefix)


def full_view(g: FQG, utilization: np.ndarray | None = None) -> View:
    """Every FQG node (component) and every link."""
    v = _leaf_view(g, np.arange(g.num_nodes), f"{g.name}: full", utilization)
    group, _ = _copy_index(g)
    v.cluster = group.astype(np.int32)
    v.cluster_label = [f"{i.name}.{c}" for i in g.instances for c in range(i.count)]
    return v
