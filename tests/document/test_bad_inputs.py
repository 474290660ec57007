"""Every failure of the public implementation listed in the design note is a located error here."""

import pytest

from infragraph.graph.query import nodes_where
from tests.helpers import TWO_DEVICES, error_of, graph

HEAD = TWO_DEVICES
INSTANCES = "instances: [{name: host, device: host, count: 2}, {name: sw, device: switch, count: 1}]\n"


def edges(*lines: str) -> str:
    return HEAD + INSTANCES + "edges:\n" + "".join(f"- {x}\n" for x in lines)


def test_component_typo_is_an_error_with_suggestion_and_line():
    msg = error_of(edges('{ep1: {instance: "host[0]", component: "nick[0:2]"}, '
                         'ep2: {instance: "sw[0]", component: "port[0:2]"}, link: eth}'))
    assert "test.yaml:15:42: edges[0].ep1.component: error: unknown component 'nick' in device 'host'" in msg
    assert "expected one of: nic, xpu" in msg and "did you mean 'nic'?" in msg


def test_out_of_range_index_is_an_error_not_a_phantom_node():
    msg = error_of(edges('{ep1: {instance: "host[0]", component: "nic[0]"}, '
                         'ep2: {instance: "sw[0]", component: "port[99]"}, link: eth}'))
    assert "edges[0].ep2.component: error: index 99 out of range for 'port', which has 4" in msg


def test_slice_past_the_count_is_an_error_not_a_truncation():
    msg = error_of(edges('{ep1: {instance: "host[0:3]", component: "nic[0]"}, '
                         'ep2: {instance: "sw[0]", component: "port[0:3]"}, link: eth}'))
    assert "edges[0].ep1.instance: error: slice '[0:3]' out of range for 'host', which has 2" in msg


def test_port_cabled_twice_is_an_error_naming_port_peers_and_records():
    msg = error_of(edges(
        '{ep1: {instance: "host[0]", component: "nic[0:2]"}, ep2: {instance: "sw[0]", component: "port[0:2]"}, link: eth}',
        '{ep1: {instance: "host[1]", component: "nic[0:2]"}, ep2: {instance: "sw[0]", component: "port[1:3]"}, link: eth}',
    ))
    assert "test.yaml:16:3: edges[1]: error: port 'sw.0.port.1' is cabled 2 times" in msg
    assert "host.0.nic.1, host.1.nic.0" in msg and "by edges[0], edges[1]" in msg


def test_one2one_with_unequal_counts_is_an_error():
    msg = error_of(edges('{ep1: {instance: "host[0]", component: "nic"}, '
                         'ep2: {instance: "sw[0]", component: "port"}, link: eth, scheme: one2one}'))
    assert "edges[0].scheme: error: one2one needs the same number of endpoints on both sides, got 2 (ep1) and 4" in msg


def test_undefined_link_is_an_error():
    msg = error_of(edges('{ep1: {instance: "host[0]", component: "nic"}, '
                         'ep2: {instance: "sw[0]", component: "port[0:2]"}, link: ethh}'))
    assert "edges[0].link: error: unknown link 'ethh' in the infrastructure links; expected one of: eth" in msg
    assert "did you mean 'eth'?" in msg


def test_duplicate_instance_names_are_an_error():
    msg = error_of(HEAD + "instances: [{name: host, device: host, count: 2}, {name: host, device: switch, count: 1}]\n")
    assert "instances[1].name: error: duplicate instance name 'host' (first defined at instances[0])" in msg


def test_unknown_device_is_a_located_error_not_a_key_error():
    msg = error_of(HEAD + "instances: [{name: h, device: hots, count: 2}]\n")
    assert "instances[0].device: error: unknown device 'hots'; expected one of: host, switch" in msg
    assert "did you mean 'host'?" in msg


def test_ring_scheme_is_implemented():
    g = graph(HEAD + "instances: [{name: h, device: host, count: 4}]\nedges:\n"
              '- {ep1: {instance: h, component: "nic[0]"}, ep2: {instance: h, component: "nic[0]"}, link: eth, scheme: ring}\n')
    ring = [(g.node_name(a), g.node_name(b)) for a, b, k in zip(g.edge_src, g.edge_dst, g.edge_link)
            if g.links[k].name == "eth"]
    assert ring == [("h.0.nic.0", "h.1.nic.0"), ("h.1.nic.0", "h.2.nic.0"),
                    ("h.2.nic.0", "h.3.nic.0"), ("h.3.nic.0", "h.0.nic.0")]


def test_attribute_query_is_exact_not_substring():
    ann = "annotations:\n  nodes:\n" + "".join(
        f"  - {{name: h.{i // 2}.xpu.{i % 2}, attributes: [{{attribute: rank, value: '{i}'}}]}}\n" for i in range(16))
    g = graph(HEAD + "instances: [{name: h, device: host, count: 8}]\n" + ann)
    assert [g.node_name(n) for n in nodes_where(g, rank=1)] == ["h.0.xpu.1"]
    assert [g.node_name(n) for n in nodes_where(g, rank="1")] == ["h.0.xpu.1"]


def test_self_loop_is_an_error():
    msg = error_of(HEAD + "instances: [{name: h, device: host, count: 2}]\nedges:\n"
                   '- {ep1: {instance: "h[0]", component: "nic[0]"}, ep2: {instance: "h[0]", component: "nic[0]"}, '
                   'link: eth}\n')
    assert "edges[0]: error: self-loop: node 'h.0.nic.0' is connected to itself" in msg


def test_composition_cycle_is_an_error():
    msg = error_of("""
        name: c
        devices:
        - {name: a, components: [{name: b, choice: device, count: 1}]}
        - {name: b, components: [{name: a, choice: device, count: 1}]}
    """)
    assert "device composition cycle: a contains b contains a" in msg


def test_composed_device_must_exist():
    msg = error_of("""
        name: c
        devices:
        - {name: a, components: [{name: cx5, choice: device, count: 1}]}
    """)
    assert "devices[0].components[0].name: error: unknown device 'cx5'" in msg


def test_endpoint_must_reach_a_leaf_component():
    msg = error_of("""
        name: c
        devices:
        - name: nic
          components: [{name: port, choice: port, count: 2}]
        - name: host
          components: [{name: xpu, choice: xpu, count: 1}, {name: nic, choice: device, count: 2}]
          links: [{name: l}]
          edges: [{ep1: {component: xpu}, ep2: {component: "nic[0]"}, link: l}]
    """)
    assert "devices[1].edges[0].ep2.component: error: 'nic' is a device, not a leaf component" in msg
    assert "it has: port" in msg


def test_device_edges_are_checked_even_when_not_instantiated():
    msg = error_of("""
        name: c
        devices:
        - name: d
          components: [{name: x, choice: xpu, count: 2}]
          links: [{name: l}]
          edges: [{ep1: {component: "x[0]"}, ep2: {component: "x[5]"}, link: l}]
    """)
    assert "devices[0].edges[0].ep2.component: error: index 5 out of range for 'x', which has 2" in msg


@pytest.mark.parametrize("selector, expected", [
    ("nic[0:0]", "selects no 'nic'"),
    ("nic[a]", "bad index '[a]'"),
    ("nic[0:1:0]", "slice step cannot be zero"),
    ("nic[1:2:3:4]", "bad slice"),
    ("nic..x", "empty segment"),
])
def test_malformed_selectors(selector, expected):
    msg = error_of(edges(f'{{ep1: {{instance: "host[0]", component: "{selector}"}}, '
                         f'ep2: {{instance: "sw[0]", component: "port[0]"}}, link: eth}}'))
    assert expected in msg


def test_several_errors_are_reported_in_one_run():
    msg = error_of(edges(
        '{ep1: {instance: "host[0]", component: "nicc"}, ep2: {instance: "sw[0]", component: "port[0:2]"}, link: eth}',
        '{ep1: {instance: "hots[0]", component: "nic"}, ep2: {instance: "sw[0]", component: "port[2:4]"}, link: eth}',
    ))
    assert "unknown component 'nicc'" in msg and "unknown instance 'hots'" in msg


def test_unknown_annotation_target_is_an_error():
    msg = error_of(HEAD + INSTANCES + "annotations:\n  nodes: [{name: host.5.xpu.0, attributes: [{attribute: rank, value: '0'}]}]\n")
    assert "annotations.nodes[0].name" in msg and "no node named 'host.5.xpu.0'" in msg
