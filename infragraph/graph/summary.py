"""Counts that describe a graph at a glance: nodes and edges by type, link classes, bandwidth."""

from __future__ import annotations

from collections import Counter

import numpy as np

from .fqg import FQG


def summary(g: FQG) -> dict:
    """Nodes by type, edges by endpoint types and by link class, total bandwidth (Gbit/s)."""
    types = np.array(g.type_names, dtype=object)
    node_counts = Counter(types[g.node_type].tolist()) if g.num_nodes else Counter()
    pair = np.sort(np.stack([g.node_type[g.edge_src], g.node_type[g.edge_dst]]), axis=0) if g.num_edges else None
    by_pair = Counter(f"{types[a]}--{types[b]}" for a, b in zip(*pair)) if pair is not None else Counter()
    bw = g.edge_bandwidth_gbps()
    per_link = np.bincount(g.edge_link, minlength=len(g.links)) if g.num_edges else np.zeros(len(g.links), int)
    links = []
    for i, x in enumerate(g.links):
        links.append({
            "link": x.qualified_name,
            "edges": int(per_link[i]),
            "bandwidth_gbps": x.bandwidth_gbps,
            "latency_ns": x.latency_ns,
            "total_bandwidth_gbps": None if x.bandwidth_gbps is None else x.bandwidth_gbps * int(per_link[i]),
        })
    return {
        "name": g.name,
        "nodes": g.num_nodes,
        "edges": g.num_edges,
        "nodes_by_type": dict(sorted(node_counts.items())),
        "edges_by_endpoint_types": dict(sorted(by_pair.items())),
        "links": links,
        "total_bandwidth_gbps": float(np.nansum(bw)) if bw.size else 0.0,
        "edges_without_bandwidth": int(np.isnan(bw).sum()),
    }


def format_summary(s: dict) -> str:
    lines = [f"{s['name']}: {s['nodes']:,} nodes, {s['edges']:,} edges", "", "nodes by type:"]
    lines += [f"  {t:<16} {n:>12,}" for t, n in s["nodes_by_type"].items()]
    lines += ["", "edges by endpoint types:"]
    lines += [f"  {t:<24} {n:>12,}" for t, n in s["edges_by_endpoint_types"].items()]
    lines += ["", "link classes (bandwidth per direction; every link is full duplex):"]
    for x in s["links"]:
        bw = "-" if x["bandwidth_gbps"] is None else f"{x['bandwidth_gbps']:g} Gbps"
        lat = "-" if x["latency_ns"] is None else f"{x['latency_ns']:g} ns"
        tot = "" if x["total_bandwidth_gbps"] is None else f"  total {x['total_bandwidth_gbps']:,.0f} Gbps"
        lines.append(f"  {x['link']:<24} {x['edges']:>10,} edges  {bw:>12}  {lat:>10}{tot}")
    lines += ["", f"total bandwidth: {s['total_bandwidth_gbps']:,.0f} Gbps per direction (the sum over edges, each way)"
              + (f" ({s['edges_without_bandwidth']:,} edges state no bandwidth)" if s["edges_without_bandwidth"] else "")]
    return "\n".join(lines)
