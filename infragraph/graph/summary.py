"""What `info` says about a graph: counts by type, link classes, and for a designer the switch
tiers (switches, ports used, down/up cables and their speeds, oversubscription) and a bill of
materials (graph.tiers). Every bandwidth is per direction (each link is full duplex), written
Gbit/s / Tbit/s (units.format_bandwidth). There is deliberately no total of all link bandwidths:
it adds PCIe to NVLink to cables and answers no design question."""

from __future__ import annotations

from collections import Counter

import numpy as np

from ..units import format_bandwidth
from .fqg import FQG
from .tiers import tier_table


def summary(g: FQG) -> dict:
    """Nodes by type, edges by endpoint types and by link class (Gbit/s per direction, ns), the
    tiers and the bill of materials."""
    types = np.array(g.type_names, dtype=object)
    node_counts = Counter(types[g.node_type].tolist()) if g.num_nodes else Counter()
    pair = np.sort(np.stack([g.node_type[g.edge_src], g.node_type[g.edge_dst]]), axis=0) if g.num_edges else None
    by_pair = Counter(f"{types[a]}--{types[b]}" for a, b in zip(*pair)) if pair is not None else Counter()
    bw = g.edge_bandwidth_gbps()
    per_link = np.bincount(g.edge_link, minlength=len(g.links)) if g.num_edges else np.zeros(len(g.links), int)
    links = [{"link": x.qualified_name, "edges": int(per_link[i]), "bandwidth_gbps": x.bandwidth_gbps,
              "latency_ns": x.latency_ns} for i, x in enumerate(g.links)]
    return {
        "name": g.name,
        "nodes": g.num_nodes,
        "edges": g.num_edges,
        "nodes_by_type": dict(sorted(node_counts.items())),
        "edges_by_endpoint_types": dict(sorted(by_pair.items())),
        "links": links,
        "edges_without_bandwidth": int(np.isnan(bw).sum()),
        **tier_table(g),
    }


def _bw(gbps: float | None) -> str:
    return "unrated" if gbps is None or gbps != gbps else format_bandwidth(gbps)


def _cables(speeds: list[dict]) -> str:
    """'64 x 400 Gbit/s + 8 x 200 Gbit/s', or '-'."""
    return " + ".join(f"{c['count']:,} x {_bw(c['bandwidth_gbps'])}" for c in speeds) or "-"


def _range(r: list[float] | None, fmt=lambda x: f"{x:,.0f}") -> str:
    if r is None:
        return "-"
    return fmt(r[0]) if r[0] == r[1] else f"{fmt(r[0])}-{fmt(r[1])}"


def _tier_lines(s: dict) -> list[str]:
    lines = ["", "tiers (tier 0: the boxes holding NPUs; a switch box's tier is its cable distance from them;",
             "cables are edges between boxes, bandwidth per direction):"]
    for t in s["tiers"]:
        what = {"hosts": "hosts", "switches": "switch boxes", "unreached": "switch boxes no host reaches"}[t["role"]]
        head = f"  tier {t['tier']}: {t['boxes']:,} {what} ({', '.join(t['instances'])})"
        if t["switch_asics"] and t["role"] != "hosts":
            head += f", {t['switch_asics']:,} switch ASIC(s)"
        lines.append(head)
        if t["ports_per_box"] is not None:
            lines.append(f"    ports used per box  {_range(t['ports_used_per_box'])} of {_range(t['ports_per_box'])}")
        else:
            lines.append(f"    cables per box      {_range(t['cable_ends_per_box'])}")
        lines.append(f"    down cables         {_cables(t['down_cables'])}")
        lines.append(f"    up cables           {_cables(t['up_cables'])}")
        if t["side_cables"]:
            lines.append(f"    cables in the tier  {_cables(t['side_cables'])}")
        if t["oversubscription"] is not None:
            lines.append(f"    oversubscription    {_range(t['oversubscription'], lambda x: f'{x:.3g}:1')} "
                         f"(down/up bandwidth per box)")
    return lines


def _bom_lines(s: dict) -> list[str]:
    bom = s["bill_of_materials"]
    lines = ["", "bill of materials:"]
    switches = ", ".join(f"tier {k}: {n:,}" for k, n in bom["switch_boxes"].items())
    lines.append(f"  switch boxes   {switches or 'none'}")
    for c in bom["cables"]:
        lo, hi = c["tiers"]
        where = f"tier {lo}-{hi}" if lo != hi else f"in tier {lo}"
        lines.append(f"  cables         {where}: {c['count']:,} x {_bw(c['bandwidth_gbps'])}")
    if bom["transceivers"]:
        lines.append("  transceivers   " + ", ".join(f"{t['count']:,} x {_bw(t['bandwidth_gbps'])}"
                                                     for t in bom["transceivers"])
                     + " (one at each end of every cable; a copper cable needs none)")
    return lines


def format_summary(s: dict) -> str:
    lines = [f"{s['name']}: {s['nodes']:,} nodes, {s['edges']:,} edges", "", "nodes by type:"]
    lines += [f"  {t:<16} {n:>12,}" for t, n in s["nodes_by_type"].items()]
    lines += ["", "edges by endpoint types:"]
    lines += [f"  {t:<24} {n:>12,}" for t, n in s["edges_by_endpoint_types"].items()]
    lines += ["", "link classes (bandwidth per direction; every link is full duplex):"]
    for x in s["links"]:
        lat = "-" if x["latency_ns"] is None else f"{x['latency_ns']:g} ns"
        lines.append(f"  {x['link']:<24} {x['edges']:>10,} edges  {_bw(x['bandwidth_gbps']):>12}  {lat:>10}")
    if s["edges_without_bandwidth"]:
        lines.append(f"  ({s['edges_without_bandwidth']:,} edges state no bandwidth)")
    lines += _tier_lines(s)
    if "bisection" in s:
        b = s["bisection"]
        lines += ["", f"bisection: {format_bandwidth(b['gbps'], 4)} per direction "
                      f"({format_bandwidth(b['per_npu_gbps'], 4)} per NPU of the sending half; max-flow between "
                      f"the two halves of the NPUs in rank order)"]
    lines += _bom_lines(s)
    return "\n".join(lines)
