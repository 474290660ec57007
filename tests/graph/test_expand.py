"""Expansion to the fully qualified graph."""

from pathlib import Path

import numpy as np

from infragraph.document import io
from infragraph.graph import expand
from tests.helpers import graph

MINI = Path(__file__).parent.parent / "data" / "mini.yaml"


def names(g, e):
    return g.node_name(int(g.edge_src[e])), g.node_name(int(g.edge_dst[e]))


def test_minimal_document_gives_13_nodes_and_12_edges():
    g = expand(io.load(MINI))
    assert (g.num_nodes, g.num_edges) == (13, 12)
    assert g.node_names[:4] == ["host.0.xpu.0", "host.0.xpu.1", "host.0.nic.0", "host.0.nic.1"]
    assert g.node_names[-1] == "sw.0.port.3"
    cables = [names(g, e) for e in range(g.num_edges) if g.links[g.edge_link[e]].name == "eth"]
    assert cables == [("host.0.nic.0", "sw.0.port.0"), ("host.0.nic.1", "sw.0.port.1"),
                      ("host.1.nic.0", "sw.0.port.2"), ("host.1.nic.1", "sw.0.port.3")]
    bw = g.edge_bandwidth_gbps()
    assert np.nansum(bw) == 4 * 400 and np.isnan(bw).sum() == 8
    assert sorted(set(g.edge_latency_ns()[~np.isnan(g.edge_latency_ns())])) == [500.0]


NESTED = """
name: nested
devices:
- name: qsfp
  components: [{name: port, choice: port, count: 2}]
- name: cx5
  components: [{name: asic, choice: nic, count: 1}, {name: qsfp, choice: device, count: 2}]
  links: [{name: serdes}]
  edges: [{ep1: {component: asic}, ep2: {component: "qsfp.port"}, link: serdes, scheme: many2many}]
- name: dgx
  components: [{name: xpu, choice: xpu, count: 2}, {name: cx5, choice: device, count: 2}]
  links: [{name: pcie}]
  edges:
  - {ep1: {component: xpu}, ep2: {device: cx5, component: asic}, link: pcie, scheme: one2one}
instances: [{name: dgx, device: dgx, count: 2}]
"""


def test_nested_devices_extend_the_path_and_keep_internal_edges():
    g = graph(NESTED)
    assert g.num_nodes == 2 * (2 + 2 * (1 + 2 * 2))
    assert "dgx.1.cx5.1.qsfp.1.port.1" in g.node_names
    n = g.node_id("dgx.0.cx5.1.qsfp.0.port.1")
    attrs = g.node_attributes(n)
    assert attrs["type"] == "port" and attrs["device"] == "dgx" and attrs["parent_device"] == "qsfp"
    assert attrs["instance_index"] == 0 and attrs["component_index"] == 1
    pcie = [names(g, e) for e in range(g.num_edges) if g.links[g.edge_link[e]].name == "pcie"]
    assert pcie[:2] == [("dgx.0.xpu.0", "dgx.0.cx5.0.asic.0"), ("dgx.0.xpu.1", "dgx.0.cx5.1.asic.0")]
    serdes = [names(g, e) for e in range(g.num_edges) if g.links[g.edge_link[e]].name == "serdes"]
    assert len(serdes) == 2 * 2 * 4 and ("dgx.1.cx5.1.asic.0", "dgx.1.cx5.1.qsfp.1.port.1") in serdes
    # every nested copy is its own owner: qsfp ports are not in the cx5's owner
    assert g.node_owner[g.node_id("dgx.0.cx5.0.qsfp.0.port.0")] != g.node_owner[g.node_id("dgx.0.cx5.0.asic.0")]


def test_node_id_is_the_inverse_of_node_name():
    g = graph(NESTED)
    assert all(g.node_id(name) == i for i, name in enumerate(g.node_names))
    assert all(g.node_name(i) == name for i, name in enumerate(g.node_names))


CLIQUE = """
name: fc
devices: [{name: npu, components: [{name: x, choice: xpu, count: 1}]}]
links: [{name: l}]
instances: [{name: n, device: npu, count: %d}]
edges: [{ep1: {instance: n, component: x}, ep2: {instance: n, component: x}, link: l, scheme: %s}]
"""


def test_many2many_over_one_list_is_the_complete_graph():
    g = graph(CLIQUE % (5, "many2many"))
    assert g.num_edges == 10
    assert len({tuple(sorted(names(g, e))) for e in range(g.num_edges)}) == 10


def test_many2many_between_two_lists_is_their_product():
    g = graph(CLIQUE.replace("ep1: {instance: n,", 'ep1: {instance: "n[0:2]",').replace(
        "ep2: {instance: n,", 'ep2: {instance: "n[2:5]",') % (5, "many2many"))
    assert g.num_edges == 6


def test_ring_of_two_is_one_link():
    assert graph(CLIQUE % (2, "ring")).num_edges == 1
    assert graph(CLIQUE % (3, "ring")).num_edges == 3


def test_parallel_links_are_kept():
    text = CLIQUE % (2, "one2one")
    text = text.replace("edges: [", 'edges: [{ep1: {instance: "n[0]", component: x}, ep2: {instance: "n[1]", component: x}, link: l},'
                                     '{ep1: {instance: "n[0]", component: x}, ep2: {instance: "n[1]", component: x}, link: l},')
    text = text.replace("ep1: {instance: n, component: x}, ep2: {instance: n, component: x}, link: l, scheme: one2one",
                        'ep1: {instance: "n[1]", component: x}, ep2: {instance: "n[0]", component: x}, link: l')
    g = graph(text)
    assert g.num_edges == 3
    assert {tuple(sorted(names(g, e))) for e in range(3)} == {("n.0.x.0", "n.1.x.0")}


def test_instance_slices_multiply_with_component_slices():
    g = graph("""
        name: m
        devices:
        - {name: h, components: [{name: nic, choice: nic, count: 4}]}
        - {name: s, components: [{name: port, choice: port, count: 8}]}
        links: [{name: l}]
        instances: [{name: h, device: h, count: 4}, {name: s, device: s, count: 1}]
        edges: [{ep1: {instance: "h[0:4:2]", component: "nic[1:3]"}, ep2: {instance: s, component: "port[0:4]"}, link: l}]
    """)
    assert [names(g, e) for e in range(g.num_edges)] == [
        ("h.0.nic.1", "s.0.port.0"), ("h.0.nic.2", "s.0.port.1"), ("h.2.nic.1", "s.0.port.2"), ("h.2.nic.2", "s.0.port.3")]


def test_negative_and_open_selectors():
    g = graph("""
        name: m
        devices:
        - {name: h, components: [{name: nic, choice: nic, count: 4}]}
        links: [{name: l}]
        instances: [{name: h, device: h, count: 3}]
        edges: [{ep1: {instance: "h[-1]", component: "nic[-2:]"}, ep2: {instance: "h[0]", component: "nic[:2]"}, link: l}]
    """)
    assert [names(g, e) for e in range(g.num_edges)] == [("h.2.nic.2", "h.0.nic.0"), ("h.2.nic.3", "h.0.nic.1")]


def test_custom_component_type_becomes_the_node_type():
    g = graph("""
        name: c
        devices: [{name: d, components: [{name: r, choice: custom, custom: {type: router}, count: 2}]}]
        instances: [{name: d, device: d, count: 1}]
    """)
    assert list(g.nodes_of_type("router")) == [0, 1]


def test_annotations_attach_to_nodes_edges_links_and_graph():
    g = graph("""
        name: a
        devices:
        - name: h
          components: [{name: x, choice: xpu, count: 4}]
          links: [{name: nv}]
          edges: [{ep1: {component: x}, ep2: {component: x}, link: nv, scheme: ring}]
        instances: [{name: h, device: h, count: 2}]
        annotations:
          nodes:
          - {name: h.1.x.3, attributes: [{attribute: rank, value: '7'}]}
          - {name: "h[0].x[0:2]", attributes: [{attribute: tier, value: '0'}]}
          edges: [{ep1: h.0.x.0, ep2: h.0.x.1, attributes: [{attribute: weight, value: '2.5'}]}]
          links: [{name: h.nv, attributes: [{attribute: media, value: copper}]}]
          graph: [{attribute: dims, value: '4,2'}]
    """)
    assert g.node_annotation("rank") == {7: 7}
    assert g.node_annotation("tier") == {0: 0, 1: 0}
    assert list(g.edge_attrs["weight"].values()) == [2.5]
    assert g.links[0].attributes == {"media": "copper"}
    assert g.graph_annotations == {"dims": "4,2"}
    assert g.edge_attributes(0)["media"] == "copper"
