"""A 3-tier folded-Clos InfraGraph document written compactly, the way a person would.

Radix k: k pods of k/2 leaves and k/2 aggregation switches, (k/2)^2 cores; every switch is one
ASIC plus k ports; hosts have 8 components (4 xpu, 2 nic, 1 cpu, 1 pcie switch) and 2 NICs, so
k^3/8 hosts fill the k^3/4 host ports. One edge record per leaf, per aggregation switch and per
leaf's host block, using slices and one2one — 3k^2/2 records for k^3/4 * 3 cables.
"""

from __future__ import annotations

import json
import sys


def clos3_document(k: int) -> dict:
    if k % 4:
        raise ValueError("radix must be a multiple of 4 (k/2 ports down, 2 NICs per host)")
    half = k // 2
    hosts_per_leaf = half // 2
    link = lambda name, gbps, ns: {  # noqa: E731
        "name": name,
        "physical": {"bandwidth": {"choice": "gigabits_per_second", "gigabits_per_second": gbps},
                     "latency": {"choice": "ns", "ns": ns}},
    }
    host = {
        "name": "host",
        "components": [
            {"name": "xpu", "choice": "xpu", "count": 4},
            {"name": "nic", "choice": "nic", "count": 2},
            {"name": "cpu", "choice": "cpu", "count": 1},
            {"name": "pcie", "choice": "switch", "count": 1},
        ],
        "links": [link("pcie5", 512, 100)],
        "edges": [
            {"ep1": {"component": "pcie"}, "ep2": {"component": "xpu"}, "scheme": "many2many", "link": "pcie5"},
            {"ep1": {"component": "pcie"}, "ep2": {"component": "nic"}, "scheme": "many2many", "link": "pcie5"},
            {"ep1": {"component": "pcie"}, "ep2": {"component": "cpu"}, "scheme": "many2many", "link": "pcie5"},
            {"ep1": {"component": "cpu"}, "ep2": {"component": "nic[0]"}, "scheme": "one2one", "link": "pcie5"},
        ],
    }
    switch = {
        "name": "switch",
        "components": [{"name": "asic", "choice": "switch", "count": 1}, {"name": "port", "choice": "port", "count": k}],
        "links": [link("fabric", 25600, 0)],
        "edges": [{"ep1": {"component": "asic"}, "ep2": {"component": "port"}, "scheme": "many2many", "link": "fabric"}],
    }
    edges = []
    for leaf in range(k * half):
        h0 = leaf * hosts_per_leaf
        edges.append({"ep1": {"instance": f"host[{h0}:{h0 + hosts_per_leaf}]", "component": "nic"},
                      "ep2": {"instance": f"leaf[{leaf}]", "component": f"port[0:{half}]"},
                      "scheme": "one2one", "link": "dac"})
        pod, j = divmod(leaf, half)
        edges.append({"ep1": {"instance": f"leaf[{leaf}]", "component": f"port[{half}:{k}]"},
                      "ep2": {"instance": f"agg[{pod * half}:{(pod + 1) * half}]", "component": f"port[{j}]"},
                      "scheme": "one2one", "link": "aoc"})
    for agg in range(k * half):
        pod, m = divmod(agg, half)
        edges.append({"ep1": {"instance": f"agg[{agg}]", "component": f"port[{half}:{k}]"},
                      "ep2": {"instance": f"core[{m * half}:{(m + 1) * half}]", "component": f"port[{pod}]"},
                      "scheme": "one2one", "link": "aoc"})
    return {
        "name": f"clos3-radix{k}",
        "description": f"3-tier folded Clos, radix {k}: {k ** 3 // 8} hosts with 2 NICs each",
        "devices": [host, switch],
        "links": [link("dac", 400, 5), link("aoc", 400, 50)],
        "instances": [
            {"name": "host", "device": "host", "count": k ** 3 // 8},
            {"name": "leaf", "device": "switch", "count": k * half},
            {"name": "agg", "device": "switch", "count": k * half},
            {"name": "core", "device": "switch", "count": half * half},
        ],
        "edges": edges,
    }


if __name__ == "__main__":
    json.dump(clos3_document(int(sys.argv[1])), sys.stdout, separators=(",", ":"))
