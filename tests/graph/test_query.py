"""Queries on the FQG."""

import pytest

from infragraph.errors import InfraGraphError
from infragraph.graph.query import connected_components, neighbors, nodes_where, shortest_path, shortest_paths
from tests.helpers import graph

TWO_SWITCHES = """
name: q
devices:
- {name: h, components: [{name: x, choice: xpu, count: 1}]}
- {name: s, components: [{name: p, choice: port, count: 4}, {name: a, choice: switch, count: 1}],
   links: [{name: i}], edges: [{ep1: {component: a}, ep2: {component: p}, link: i, scheme: many2many}]}
links: [{name: l}]
instances: [{name: h, device: h, count: 3}, {name: s, device: s, count: 2}]
edges:
- {ep1: {instance: "h[0]", component: x}, ep2: {instance: "s[0]", component: "p[0]"}, link: l}
- {ep1: {instance: "h[1]", component: x}, ep2: {instance: "s[1]", component: "p[0]"}, link: l}
- {ep1: {instance: "s[0]", component: "p[1]"}, ep2: {instance: "s[1]", component: "p[1]"}, link: l}
- {ep1: {instance: "s[0]", component: "p[2]"}, ep2: {instance: "s[1]", component: "p[2]"}, link: l}
"""


def test_nodes_by_type_and_builtin_attributes():
    g = graph(TWO_SWITCHES)
    assert [g.node_name(n) for n in nodes_where(g, type="xpu")] == ["h.0.x.0", "h.1.x.0", "h.2.x.0"]
    assert [g.node_name(n) for n in nodes_where(g, instance="s", instance_index=1, component="a")] == ["s.1.a.0"]
    assert list(nodes_where(g, type="gpu")) == []


def test_neighbors_are_distinct():
    g = graph(TWO_SWITCHES)
    assert [g.node_name(n) for n in neighbors(g, g.node_id("s.0.a.0"))] == [f"s.0.p.{i}" for i in range(4)]


def test_all_shortest_paths_through_parallel_trunks():
    g = graph(TWO_SWITCHES)
    paths = shortest_paths(g, g.node_id("h.0.x.0"), g.node_id("h.1.x.0"))
    named = sorted([g.node_name(n) for n in p] for p in paths)
    assert len(named) == 2 and all(len(p) == 8 for p in named)
    assert {p[3] for p in named} == {"s.0.p.1", "s.0.p.2"}
    assert len(shortest_path(g, g.node_id("h.0.x.0"), g.node_id("s.0.a.0"))) == 3


def test_unreachable_pair_names_both_nodes():
    g = graph(TWO_SWITCHES)
    with pytest.raises(InfraGraphError, match="no path between 'h.0.x.0' and 'h.2.x.0'"):
        shortest_path(g, g.node_id("h.0.x.0"), g.node_id("h.2.x.0"))


def test_connected_components():
    g = graph(TWO_SWITCHES)
    n, labels = connected_components(g)
    assert n == 2 and labels[g.node_id("h.2.x.0")] != labels[g.node_id("h.0.x.0")]
