"""graph.failures: selecting, resolving and applying failed and degraded links and nodes."""

from __future__ import annotations

import math

import numpy as np
import pytest

from infragraph.errors import InfraGraphError
from infragraph.graph.failures import (Degrade, FailureSpec, apply_failures, cables, edge_name, healthy,
                                       parse_degrade, resolve_failures, with_failures)
from infragraph.sources import load_graph
from tests.helpers import error_of, error_text, graph


@pytest.fixture(scope="module")
def clos():
    return load_graph("std.fabrics.clos", {"radix": "4"})  # 8 hosts, 4 leaves, 2 spines


def _names(g, edges):
    return sorted(edge_name(g, int(e)) for e in edges)


def test_one_edge_cut_either_order(clos):
    for target in ("leaf.0.port.2--spine.0.port.0", "spine.0.port.0--leaf.0.port.2"):
        g, f = with_failures(clos, FailureSpec(fail=(target,)))
        assert g.num_edges == clos.num_edges - 1
        assert _names(clos, np.flatnonzero(f.failed_edge)) == ["leaf.0.port.2--spine.0.port.0"]
        assert not f.failed_node.any()


def test_device_copy_and_glob_fail_every_edge_of_their_nodes(clos):
    g, f = with_failures(clos, FailureSpec(fail=("spine.1",)))
    inst = next(x for x in clos.instances if x.name == "spine")
    assert f.failed_node.sum() == inst.nodes_per_copy  # the switch and its 4 ports
    # 4 internal switch-port edges + 4 cables to the leaves
    assert f.failed_edge.sum() == 8 and g.num_edges == clos.num_edges - 8
    assert g.num_nodes == clos.num_nodes  # ids do not move
    g2, f2 = with_failures(clos, FailureSpec(fail=("spine.1.*",)))
    assert np.array_equal(f.failed_edge, f2.failed_edge)
    _, f3 = with_failures(clos, FailureSpec(fail=("leaf.?.port.3",)))
    assert f3.failed_node.sum() == 4 and f3.failed_edge.sum() == 8


def test_degrade_moves_edges_to_a_degraded_link_class(clos):
    spec = FailureSpec(degrade=(parse_degrade("leaf.0.port.2--spine.0.port.0:bandwidth=0.5,latency=200ns"),
                                Degrade("leaf.0.port.2--spine.0.port.0", 0.5, 100.0)))
    g, f = with_failures(clos, spec)
    assert g.num_edges == clos.num_edges
    e = int(np.flatnonzero(f.degraded_edge)[0])
    assert f.bandwidth_factor[e] == 0.25 and f.extra_latency_ns[e] == 300.0  # factors multiply, latencies add
    assert g.edge_bandwidth_gbps()[e] == pytest.approx(clos.edge_bandwidth_gbps()[e] * 0.25)
    assert g.edge_latency_ns()[e] == pytest.approx(clos.edge_latency_ns()[e] + 300.0)
    assert g.links[int(g.edge_link[e])].name.endswith("~x0.25+300ns")
    others = np.arange(g.num_edges) != e
    assert np.array_equal(g.edge_bandwidth_gbps()[others], clos.edge_bandwidth_gbps()[others])


def test_random_failures_are_cables_and_reproducible_by_seed(clos):
    a = resolve_failures(clos, FailureSpec(fail_random=0.25, seed=7))
    b = resolve_failures(clos, FailureSpec(fail_random=0.25, seed=7))
    c = resolve_failures(clos, FailureSpec(fail_random=0.25, seed=8))
    n = cables(clos).size
    assert a.failed_edge.sum() == round(0.25 * n)
    assert np.array_equal(a.failed_edge, b.failed_edge) and not np.array_equal(a.failed_edge, c.failed_edge)
    assert set(np.flatnonzero(a.failed_edge)) <= set(cables(clos))
    # random failures come on top of named ones, never re-picking a failed cable
    d = resolve_failures(clos, FailureSpec(fail=("spine.0",), fail_random=0.5, seed=1))
    assert d.failed_edge.sum() == 4 + 4 + round(0.5 * (n - 4))


def test_annotations_fail_and_degrade(tmp_path):
    g = graph("""
        name: two
        devices:
          - name: box
            components: [{name: xpu, count: 1, choice: xpu}, {name: port, count: 2, choice: port}]
            links: [{name: in, physical: {bandwidth: {choice: gigabits_per_second, gigabits_per_second: 800}}}]
            edges: [{ep1: {component: xpu}, ep2: {component: "port[0:2]"}, scheme: many2many, link: in}]
        links:
          - name: cable
            physical: {bandwidth: {choice: gigabits_per_second, gigabits_per_second: 400}, latency: {choice: ns, ns: 100}}
        instances: [{name: n, device: box, count: 3}]
        edges:
          - {ep1: {instance: "n[0]", component: "port[0]"}, ep2: {instance: "n[1]", component: "port[1]"}, link: cable}
          - {ep1: {instance: "n[1]", component: "port[0]"}, ep2: {instance: "n[2]", component: "port[1]"}, link: cable}
        annotations:
          nodes: [{name: n.2.port.1, attributes: [{attribute: failed, value: "true"}]}]
          edges:
            - ep1: n[0].port[0]
              ep2: n[1].port[1]
              attributes: [{attribute: bandwidth_factor, value: "0.5"}, {attribute: extra_latency_ns, value: "50"}]
    """)
    f = resolve_failures(g)
    assert _names(g, np.flatnonzero(f.failed_edge)) == ["n.1.port.0--n.2.port.1", "n.2.xpu.0--n.2.port.1"]
    out = apply_failures(g, f)
    assert out.num_edges == g.num_edges - 2
    assert sorted(out.edge_bandwidth_gbps().tolist()).count(200.0) == 1
    assert "failed" not in out.node_attrs and "bandwidth_factor" not in out.edge_attrs
    assert not resolve_failures(out).any()  # applying twice = applying once
    assert healthy(g).num_edges == g.num_edges and not resolve_failures(healthy(g)).any()
    assert not resolve_failures(g, FailureSpec(use_annotations=False)).any()


@pytest.mark.parametrize("attr, value, expected", [
    ("failed", "maybe", "must be true or false"),
    ("bandwidth_factor", "0", "in (0, 1]"),
    ("bandwidth_factor", "1.5", "in (0, 1]"),
    ("bandwidth_factor", ".nan", "in (0, 1]"),
    ("extra_latency_ns", "-1", ">= 0"),
    ("extra_latency_ns", ".inf", ">= 0"),
])
def test_bad_annotation_values_are_located_errors(attr, value, expected):
    text = error_of(f"""
        name: bad
        devices: [{{name: box, components: [{{name: xpu, count: 2, choice: xpu}}],
                   links: [{{name: l, physical: {{bandwidth: {{choice: gigabits_per_second, gigabits_per_second: 1}}}}}}],
                   edges: [{{ep1: {{component: "xpu[0]"}}, ep2: {{component: "xpu[1]"}}, link: l}}]}}]
        instances: [{{name: b, device: box, count: 1}}]
        annotations:
          nodes: [{{name: b.0.xpu.0, attributes: [{{attribute: {attr}, value: "{value}"}}]}}]
    """)
    assert expected in text and "test.yaml:8:" in text and "annotations.nodes[0].attributes[0].value" in text


def test_bad_values_in_a_graph_read_back_name_the_node(clos):
    from dataclasses import replace

    g = replace(clos, node_attrs={"bandwidth_factor": {3: 7.0}})
    with pytest.raises(InfraGraphError) as e:
        resolve_failures(g)
    assert f"node '{clos.node_name(3)}': a bandwidth factor" in str(e.value)


@pytest.mark.parametrize("spec, expected", [
    (FailureSpec(fail=("spine.7",)), "--fail spine.7: error: no node named 'spine.7'"),
    (FailureSpec(fail=("spone.*",)), "did you mean 'spine.*'"),
    (FailureSpec(fail=("",)), "empty node name"),
    (FailureSpec(fail=("leaf.0.port.0--spine.0.port.0",)), "no edge joins 'leaf.0.port.0' and 'spine.0.port.0'"),
    (FailureSpec(fail_random=0.0), "finite number in (0, 1]"),
    (FailureSpec(fail_random=1.5), "finite number in (0, 1]"),
    (FailureSpec(fail_random=math.nan), "finite number in (0, 1]"),
    (FailureSpec(fail_random=0.001), "rounds to 0 failures"),
    (FailureSpec(fail_random=0.5, seed=-1), "--seed: error: the seed must be an integer >= 0"),
    (FailureSpec(degrade=(Degrade("spine.0", 0.0),)), "--degrade spine.0: error: a bandwidth factor"),
    (FailureSpec(degrade=(Degrade("spine.0", 1.0, math.inf),)), "extra latency must be a finite"),
    (FailureSpec(degrade=(Degrade("nowhere", 0.5),)), "no node named 'nowhere'"),
])
def test_bad_failure_specs_are_located_errors(clos, spec, expected):
    with pytest.raises(InfraGraphError) as e:
        resolve_failures(clos, spec)
    assert expected in str(e.value)


@pytest.mark.parametrize("text, expected", [
    ("spine.0", "expected TARGET:bandwidth=FACTOR,latency=EXTRA"),
    ("spine.0:", "expected TARGET:bandwidth=FACTOR,latency=EXTRA"),
    (":bandwidth=0.5", "expected TARGET:bandwidth=FACTOR,latency=EXTRA"),
    ("spine.0:speed=0.5", "expected bandwidth=FACTOR or latency=EXTRA"),
    ("spine.0:bandwidth=half", "bad bandwidth factor 'half'"),
    ("spine.0:bandwidth=150%", "in (0, 1]"),
    ("spine.0:bandwidth=-0.5", "in (0, 1]"),
    ("spine.0:bandwidth=inf", "in (0, 1]"),
    ("spine.0:latency=100", "give a time with its unit"),
    ("spine.0:latency=5 Gbps", "bad extra latency"),
    ("spine.0:latency=-5ns", ">= 0"),
    ("spine.0:latency=1e999ns", "finite"),
])
def test_bad_degrade_specs(text, expected):
    err = error_text(parse_degrade, text)
    assert expected in err and f"--degrade {text}" in err


def test_degrade_spec_forms():
    assert parse_degrade("a.0:bandwidth=50%") == Degrade("a.0", 0.5, 0.0)
    assert parse_degrade("a.0.p.0--b.0.p.1:latency=+1us") == Degrade("a.0.p.0--b.0.p.1", 1.0, 1000.0)
