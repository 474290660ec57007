"""Link rules: missing physical attributes, speed mismatches across a cable, parallel links that
disagree, and duplicate edges.

How a node's speed is known (IG006): a `speed_gbps` node annotation (a number, Gbit/s) or a
`speed` annotation (a quantity such as "400 Gbps", as the .igl language writes `speed = ...`),
for any node type; otherwise, for a `port`, the bandwidth of the internal link(s) that attach it
inside its device (e.g. the switch's asic–port link), the fastest if several. Other nodes have no
known speed. An annotation that is not a bandwidth is ignored here (it is not this rule's job).
"""

from __future__ import annotations

import numpy as np

from ... import units
from ...graph.fqg import FQG, LinkInfo
from ..model import Finding, LintContext, grouped
from ...units import format_bandwidth
from .registry import rule


def _num(x: float | None, unit: str) -> str:
    if x is None or x != x:
        return "?"
    return format_bandwidth(x) if unit == "Gbit/s" else f"{x:g} {unit}"


def describe_link(link: LinkInfo) -> str:
    """"'eth' (400 Gbit/s, 500 ns)" — the link's qualified name and physical attributes."""
    return f"'{link.qualified_name}' ({_num(link.bandwidth_gbps, 'Gbit/s')}, {_num(link.latency_ns, 'ns')})"


def _pair(g: FQG, e: int) -> tuple[str, str]:
    return g.node_name(int(g.edge_src[e])), g.node_name(int(g.edge_dst[e]))


@rule("IG005", "link-missing-physical", "warning", "A link used by edges has no bandwidth or no latency")
def link_missing_physical(ctx: LintContext):
    g = ctx.g
    uses = np.bincount(g.edge_link, minlength=len(g.links))
    first_use = np.full(len(g.links), -1)
    used_links, first_edge = np.unique(g.edge_link, return_index=True)
    first_use[used_links] = first_edge
    for k, link in enumerate(g.links):
        missing = [what for what, v in (("bandwidth (in bit/s)", link.bandwidth_gbps),
                                        ("latency", link.latency_ns)) if v is None]
        if not uses[k] or not missing:
            continue
        yield Finding(
            "IG005",
            f"link '{link.qualified_name}' has no {' and no '.join(missing)}; {int(uses[k])} edge(s) use it",
            ctx.locate.link(k),
            _pair(g, int(first_use[k])),
            "give the link physical: {bandwidth: {choice: gigabits_per_second, ...}, latency: {choice: ns, ...}}",
        )


def node_speeds(g: FQG, bandwidth: np.ndarray, is_cable: np.ndarray, is_port: np.ndarray) -> np.ndarray:
    """Per-node speed in Gbit/s (NaN = unknown): see the module docstring."""
    speed = np.full(g.num_nodes, np.nan)
    inside = ~is_cable & ~np.isnan(bandwidth)
    for end in (g.edge_src, g.edge_dst):
        sel = inside & is_port[end]
        np.fmax.at(speed, end[sel], bandwidth[sel])
    for attr in ("speed", "speed_gbps"):  # speed_gbps, the explicit one, wins
        column = g.node_annotation(attr)
        if not column:
            continue
        parsed = {v: _as_gbps(v, attr) for v in set(column.values())}  # few distinct values
        nodes = np.fromiter(column.keys(), dtype=np.int64, count=len(column))
        values = np.array([parsed[v] for v in column.values()], dtype=np.float64)
        known = ~np.isnan(values)
        speed[nodes[known]] = values[known]
    return speed


def _as_gbps(value, attr: str) -> float:
    """An annotation value in Gbit/s, NaN when it is not one: numbers are Gbit/s for speed_gbps;
    text must be a bandwidth quantity ("400 Gbps", "50 GB/s")."""
    if isinstance(value, bool):
        return np.nan
    if isinstance(value, (int, float)):
        return float(value) if attr == "speed_gbps" else np.nan
    try:
        return units.to_gbps(units.parse_quantity(str(value)))
    except units.UnitError:
        return np.nan


# Speeds within 0.1% are equal: a `speed` annotation is text ("274.878 Gbps" for 1 TiB/s / 32),
# rounded when it was written, while link bandwidths are exact.
SAME_SPEED_RTOL = 1e-3


@rule("IG006", "cable-speed-mismatch", "warning", "The two ends of a cable have different speeds")
def cable_speed_mismatch(ctx: LintContext):
    g, f = ctx.g, ctx.facts
    speed = node_speeds(g, f.bandwidth, f.is_cable, f.of_type("port"))
    a, b = speed[g.edge_src], speed[g.edge_dst]
    bad = np.flatnonzero(f.is_cable & ~np.isnan(a) & ~np.isnan(b) & ~np.isclose(a, b, rtol=SAME_SPEED_RTOL, atol=0))
    groups = grouped(((int(g.edge_origin[e]), min(a[e], b[e]), max(a[e], b[e])), e) for e in bad.tolist())
    for (_, lo, hi), edges in ctx.capped("IG006", groups):
        e = edges[0]
        s, d = _pair(g, e)
        yield Finding(
            "IG006",
            f"{len(edges)} cable(s) join ends of different speeds ({format_bandwidth(lo)} vs {format_bandwidth(hi)}), "
            f"e.g. '{s}' ({format_bandwidth(a[e])}) — '{d}' ({format_bandwidth(b[e])})",
            ctx.locate.edge(e),
            (s, d),
            "cable ports of the same speed, or correct the `speed_gbps` annotation / the ports' internal link",
        )


def _link_signatures(g: FQG) -> np.ndarray:
    """Per link class, a small integer equal for classes with the same physical attributes."""
    seen: dict[tuple, int] = {}
    out = []
    for x in g.links:
        key = (x.bandwidth_gbps, x.latency_ns, tuple(sorted((k, str(v)) for k, v in x.attributes.items())))
        out.append(seen.setdefault(key, len(seen)))
    return np.array(out, dtype=np.int64)


@rule("IG007", "parallel-links-differ", "warning", "Parallel links between the same two nodes have different attributes")
def parallel_links_differ(ctx: LintContext):
    g = ctx.g
    edges, group = ctx.facts.parallel_groups
    if edges.size == 0:
        return
    sig = _link_signatures(g)[g.edge_link[edges]]
    starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
    lo, hi = np.minimum.reduceat(sig, starts), np.maximum.reduceat(sig, starts)
    ends = np.r_[starts[1:], edges.size]

    def differing():  # (lowest and highest link signature's links, the record of the highest), edge
        for i in np.flatnonzero(lo != hi).tolist():
            members, msig = edges[starts[i]:ends[i]], sig[starts[i]:ends[i]]
            ea, eb = int(members[np.argmin(msig)]), int(members[np.argmax(msig)])
            yield (int(g.edge_link[ea]), int(g.edge_link[eb]), int(g.edge_origin[eb])), eb

    for (la, lb, _), examples in ctx.capped("IG007", grouped(differing())):
        s, d = _pair(g, examples[0])
        yield Finding(
            "IG007",
            f"{len(examples)} node pair(s) are joined by parallel links with different attributes: "
            f"{describe_link(g.links[la])} and {describe_link(g.links[lb])}, e.g. '{s}' — '{d}'",
            ctx.locate.edge(examples[0]),
            (s, d),
            "use one link class for parallel cables, or make their bandwidth and latency agree",
        )


@rule("IG011", "duplicate-edge", "warning", "The same two nodes are joined more than once by the same link")
def duplicate_edge(ctx: LintContext):
    """A repeated edge is a duplicate unless its link class says `bundle = true`: then parallel
    edges are the lanes of one bundle (the 18 NVLinks of an H100 to its NVSwitches), which carry
    traffic together (simulate sprays over them), not a copy-paste slip."""
    g = ctx.g
    edges, group = ctx.facts.parallel_groups
    bundle = np.array([link.attributes.get("bundle") is True for link in g.links] + [False], dtype=bool)
    keep = ~bundle[g.edge_link[edges]] if edges.size else np.zeros(0, dtype=bool)
    edges, group = edges[keep], group[keep]
    if edges.size == 0:
        return
    order = np.lexsort((edges, g.edge_link[edges], group))  # by group, then link, then edge id
    e_sorted, key_g, key_l = edges[order], group[order], g.edge_link[edges][order]
    repeat = np.flatnonzero((key_g[1:] == key_g[:-1]) & (key_l[1:] == key_l[:-1])) + 1
    # first occurrence of each repeated (pair, link): walk back to the start of the run
    run_start = np.maximum.accumulate(np.where(np.r_[True, (key_g[1:] != key_g[:-1]) | (key_l[1:] != key_l[:-1])],
                                               np.arange(e_sorted.size), 0))
    firsts, dups = e_sorted[run_start[repeat]].tolist(), e_sorted[repeat].tolist()
    findings = grouped(((int(g.edge_origin[f]), int(g.edge_origin[d])), (f, d)) for f, d in zip(firsts, dups))
    for (r_first, r_dup), pairs in ctx.capped("IG011", findings):
        first, dup = pairs[0]
        s, d = _pair(g, dup)
        origin = "this record" if r_first == r_dup else ctx.locate.edge_path(first)
        yield Finding(
            "IG011",
            f"{len(pairs)} edge(s) over link '{g.links[int(g.edge_link[dup])].qualified_name}' duplicate "
            f"edges already made by {origin}, e.g. '{s}' — '{d}'",
            ctx.locate.edge(dup),
            (s, d),
            "delete the repeated edge; if the cables are meant to be parallel, cable separate ports, or mark "
            "the link `bundle = true` when they are lanes of one bundle (e.g. NVLinks)",
        )
