"""The reduced max-flow equals a generic max-flow (networkx on the whole graph), healthy and failed."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

from infragraph.analyze.bisection import bisection
from infragraph.analyze.maxflow import ReducedNetwork, Trials
from infragraph.graph.failures import draw_cables
from infragraph.graph.ranks import npu_order
from infragraph.sources import load_graph

FABRICS = [
    ("std.fabrics.clos", {"radix": "4"}),
    ("std.fabrics.clos", {"radix": "8"}),
    ("std.fabrics.clos", {"radix": "4", "tiers": "3"}),
    ("std.fabrics.clos", {"radix": "4", "nics_per_host": "2", "planes": "2"}),
    ("std.fabrics.torus", {"sizes": "[4,4]"}),
    ("std.fabrics.ring", {}),
]


def generic_flow(g, capacity: np.ndarray) -> float:
    """networkx max-flow on the unreduced graph: every edge both ways, a super source and sink."""
    d = nx.DiGraph()
    for e in range(g.num_edges):
        a, b = int(g.edge_src[e]), int(g.edge_dst[e])
        for x, y in ((a, b), (b, a)):
            if d.has_edge(x, y):
                d[x][y]["capacity"] += capacity[e]
            else:
                d.add_edge(x, y, capacity=capacity[e])
    npus = npu_order(g)
    half = npus.size // 2
    for n in npus[:half].tolist():
        d.add_edge("S", n)  # no capacity attribute: unlimited
    for n in npus[half:].tolist():
        d.add_edge(n, "T")
    return nx.maximum_flow_value(d, "S", "T")


@pytest.mark.parametrize("source, defines", FABRICS)
def test_equals_generic_max_flow_healthy_failed_and_degraded(source, defines):
    g = load_graph(source, defines)
    b = bisection(g)
    trials = Trials(b.network, b.capacity)
    rng = np.random.default_rng(1)
    for seed in range(6):
        cap = b.capacity.copy()
        failed = draw_cables(b.cables, max(1, b.cables.size // 8), seed) if seed else b.cables[:0]
        cap[failed] = 0.0
        if seed % 2:  # degraded links: factors that are not whole numbers of Gbit/s
            slow = rng.choice(g.num_edges, size=max(1, g.num_edges // 10), replace=False)
            cap[slow] *= rng.uniform(0.1, 1.0, slow.size)
        ours = b.network.max_flow(cap)
        assert ours.gbps == pytest.approx(generic_flow(g, cap), abs=ours.resolution_gbps * b.network.cu.size + 1e-6)
        if not seed % 2:
            assert trials.run(failed).gbps == ours.gbps and ours.exact


def test_reduction_leaves_a_small_core():
    g = load_graph("std.fabrics.clos", {"radix": "8"})
    b = bisection(g)
    assert b.network.core_nodes.size == 8 + 4 + 2  # leaf and spine ASICs, source, sink
    assert b.network.cu.size == 8 * 4 + 8  # leaf-spine pairs, source/sink to each leaf


def test_unlimited_links_and_disconnection():
    src, dst = np.array([0, 1]), np.array([1, 2])
    net = ReducedNetwork(3, src, dst, np.array([0]), np.array([2]))
    assert net.max_flow(np.array([np.inf, np.inf])).gbps == np.inf
    assert net.max_flow(np.array([np.inf, 5.0])).gbps == 5.0
    assert net.max_flow(np.array([0.0, 5.0])).gbps == 0.0
