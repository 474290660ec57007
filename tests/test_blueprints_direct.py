"""Direct-connect blueprints: RI/FC/SW stacks, torus, mesh, hypercube, ring, fully connected.

Structure is checked against closed forms (blueprint_checks.stack_link_counts, grid_link_count,
grid_diameter) and by recomputing every NPU's coordinates from its rank: a cable that joins the
wrong NPUs, or a numbering that is not x1 + n1*x2 + ..., fails check_stack / check_grid.
"""

from __future__ import annotations

from math import prod

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests import blueprint_checks as bc

SEED_SHAPES = ["RI(4)_RI(2)", "RI(4)_SW(2)", "FC(4)_FC(2)_FC(2)", "SW(16)_SW(8)_SW(4)", "RI(4)_FC(8)_SW(32)"]


def ports_needed(shape):
    return sum({"RI": 2 if k > 2 else 1, "FC": k - 1, "SW": 1}[t] for t, k in shape)


@pytest.mark.parametrize("text", SEED_SHAPES)
def test_seed_shapes_build_the_exact_multi_rail_graph(text):
    shape = bc.parse_shape(text)
    g = bc.build("std.fabrics.stack", shape=text)
    n = prod(k for _, k in shape)
    switches = sum(n // k for t, k in shape if t == "SW")
    counts = bc.type_counts(g)
    assert counts["xpu"] == n
    assert counts["switch"] == switches
    # every NPU port is used exactly once (a multi-rail NPU has exactly the ports its dims need)
    npu_ports = bc.nodes_in(g, "npu", "port")
    assert len(npu_ports) == n * ports_needed(shape)
    assert int(bc.cable_mask(g).sum()) == sum(bc.stack_link_counts(shape))
    bc.assert_hygiene(g)
    bc.check_stack(g, shape)
    assert g.graph_annotations["dims"] == text
    assert g.graph_annotations["npus_count"] == ",".join(str(k) for _, k in shape)


def test_fully_populated_dragonfly_stack_has_diameter_3():
    # FC(4)_FC(2)_FC(2): 16 NPUs, one hop per dimension -> at most 3 hops between NPUs
    g = bc.build("std.fabrics.stack", shape="FC(4)_FC(2)_FC(2)")
    npus = bc.copy_base(g, "npu") + __import__("numpy").arange(16)
    assert bc.induced_diameter(g, npus) == 3


def test_ring_fc_switch_16x8x4_with_per_dimension_bandwidth():
    text = "Ring(16)_FullyConnected(8)_Switch(4)"
    g = bc.build("std.fabrics.stack", shape=text, bandwidth=["200 GB/s", "100 GB/s", "50 GB/s"],
                 latency=["500 ns", "1 us", "2 us"])
    shape = bc.parse_shape(text)
    bc.check_stack(g, shape)
    assert bc.type_counts(g)["xpu"] == 512
    ann = g.graph_annotations
    assert ann["dims"] == "RI(16)_FC(8)_SW(4)"
    assert ann["astra.topology"] == "Ring,FullyConnected,Switch"
    assert ann["bandwidth_gbps"] == "1600,800,400" and ann["latency_ns"] == "500,1000,2000"
    # cables of dimension d carry dimension d's bandwidth: 512 ring + 512*7/2 FC + 512 switch links
    bw = g.edge_bandwidth_gbps()[bc.cable_mask(g)]
    assert sorted(set(bw.tolist())) == [400, 800, 1600]
    assert (bw == 1600).sum() == 512 and (bw == 800).sum() == 512 * 7 // 2 and (bw == 400).sum() == 512
    # the NPU's own xpu-port path must not be slower than its fastest dimension, nor the switch's
    # ASIC-port path than its dimension
    internal = ~bc.cable_mask(g)
    on_npu = internal & (g.node_type[g.edge_src] == g.type_names.index("xpu"))
    assert g.edge_bandwidth_gbps()[on_npu].min() == 1600
    assert g.edge_bandwidth_gbps()[internal & ~on_npu].min() == 400


def test_every_switch_dimension_has_switches_with_exactly_its_ports():
    """Issue 20: SW(4)_RI(2)_SW(8) has 16 four-port switches (sw1) and 8 eight-port ones (sw3),
    each port cabled once and at its own dimension's bandwidth; max(SW sizes)-port switches for
    every dimension described 4-port switches as 8-port ones (and a 16,384-GPU SW(8)_SW(2048) as
    4.3 M edges instead of 98,304)."""
    g = bc.build("std.fabrics.stack", shape="SW(4)_RI(2)_SW(8)", bandwidth=["400 Gbps", "200 Gbps", "100 Gbps"])
    assert bc.copies_per_instance(g) == {"npu": 64, "sw1": 16, "sw3": 8}
    cabled = np.zeros(g.num_nodes, dtype=int)
    np.add.at(cabled, np.concatenate([g.edge_src, g.edge_dst])[np.tile(bc.cable_mask(g), 2)], 1)
    speed = g.edge_bandwidth_gbps()
    for inst, ports, gbps in (("sw1", 4, 400), ("sw3", 8, 100)):
        port_nodes = bc.nodes_in(g, inst, "port")
        assert len(port_nodes) == bc.copies_per_instance(g)[inst] * ports
        assert (cabled[port_nodes] == 1).all(), f"every {inst} port carries exactly one cable"
        on_switch = np.isin(g.edge_src, port_nodes) | np.isin(g.edge_dst, port_nodes)
        assert set(speed[on_switch].tolist()) == {gbps}, f"{inst}'s ASIC-port links and cables run at its dimension's speed"
    assert g.num_nodes == 64 * (1 + 3) + 16 * 5 + 8 * 9
    bc.check_stack(g, bc.parse_shape("SW(4)_RI(2)_SW(8)"))


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(["RI", "FC", "SW"]), st.integers(1, 5)), min_size=1, max_size=3))
def test_any_small_stack_is_exact(dims):
    """Every shape of up to 3 dimensions of size <= 5 is exact; a size-1 block is rejected."""
    text = "_".join(f"{t}({k})" for t, k in dims)
    if any(k < 2 for _, k in dims):
        bad = next(f"{t}({k})" for t, k in dims if k < 2)
        assert f"shape block '{bad}' needs at least 2 NPUs" in bc.rejection("std.fabrics.stack", shape=text)
        return
    g = bc.build("std.fabrics.stack", shape=text)
    bc.assert_hygiene(g)
    bc.check_stack(g, dims)


@pytest.mark.parametrize("text,message", [
    ("RI(4)_XX(2)", "bad shape block 'XX(2)'"),
    ("RI(1)", "needs at least 2 NPUs"),
])
def test_bad_shapes_are_rejected_with_a_message(text, message):
    assert message in bc.rejection("std.fabrics.stack", shape=text)


def test_bandwidth_list_must_match_the_dimensions():
    msg = bc.rejection("std.fabrics.stack", shape="RI(4)_RI(2)", bandwidth=["100 GB/s"])
    assert "bandwidth has 1 entries for 2 dimensions of 'RI(4)_RI(2)'" in msg


@pytest.mark.parametrize("sizes,wrap", [([4, 4], True), ([8, 4, 2], True), ([3, 5], False), ([4, 4, 4], True),
                                        ([2, 3], False)])
def test_torus_and_mesh_match_the_k_ary_n_cube_formulas(sizes, wrap):
    g = bc.build("std.fabrics.torus", sizes=sizes, wrap=wrap)
    assert bc.type_counts(g)["xpu"] == prod(sizes)
    bc.assert_hygiene(g)
    bc.check_grid(g, "npu", sizes, wrap)  # links, one-step cables, diameter, interior degree 2n
    assert g.graph_annotations["topology"] == ("torus" if wrap else "mesh")
    assert g.graph_annotations["shape"] == "x".join(map(str, sizes))


def test_size_two_dimension_is_one_link_not_two():
    g = bc.build("std.fabrics.torus", sizes=[2, 4])
    assert int(bc.cable_mask(g).sum()) == 4 * 1 + 2 * 4  # 4 pairs in dim 1, 2 rings of 4 in dim 2
    bc.assert_no_duplicate_cables(g)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(1, 5), min_size=1, max_size=3), st.booleans())
def test_torus_sweep_including_invalid_sizes(sizes, wrap):
    if min(sizes) < 2:
        msg = bc.rejection("std.fabrics.torus", sizes=sizes, wrap=wrap)
        assert "every dimension needs at least 2 NPUs" in msg
        return
    g = bc.build("std.fabrics.torus", sizes=sizes, wrap=wrap)
    bc.check_grid(g, "npu", sizes, wrap)


def test_mesh_blueprint_is_the_unwrapped_torus():
    g = bc.build("std.fabrics.mesh", sizes=[4, 3])
    bc.assert_hygiene(g)
    bc.check_grid(g, "npu", [4, 3], False)
    assert bc.grid_diameter([4, 3], False) == 5 and g.graph_annotations["topology"] == "mesh"


@pytest.mark.parametrize("dims", [1, 3, 4])
def test_hypercube_has_diameter_and_degree_dims(dims):
    g = bc.build("std.fabrics.hypercube", dims=dims)
    bc.assert_hygiene(g)
    bc.check_grid(g, "npu", [2] * dims, True)
    assert int(bc.cable_mask(g).sum()) == dims * 2 ** (dims - 1)
    assert bc.induced_diameter(g, bc.copy_base(g, "npu") + __import__("numpy").arange(2 ** dims)) == dims


def test_hypercube_rejects_zero_dimensions():
    assert "a hypercube needs 1 to 20 dimensions, got 0" in bc.rejection("std.fabrics.hypercube", dims=0)


@pytest.mark.parametrize("npus", [2, 3, 8])
def test_ring(npus):
    g = bc.build("std.fabrics.ring", npus=npus)
    bc.assert_hygiene(g)
    bc.check_stack(g, [("RI", npus)])
    assert int(bc.cable_mask(g).sum()) == (npus if npus > 2 else 1)
    assert bc.induced_diameter(g, bc.copy_base(g, "npu") + __import__("numpy").arange(npus)) == npus // 2


def test_fully_connected():
    g = bc.build("std.fabrics.fully_connected", npus=6)
    bc.assert_hygiene(g)
    bc.check_stack(g, [("FC", 6)])
    assert int(bc.cable_mask(g).sum()) == 15
    assert "a fully connected fabric needs at least 2 NPUs, got 1" in bc.rejection("std.fabrics.fully_connected", npus=1)
    assert "a ring needs at least 2 NPUs, got 0" in bc.rejection("std.fabrics.ring", npus=0)


def test_stack_document_is_compact():
    """RI(4)_FC(8)_RI(4)_SW(32), 4,096 NPUs and 36,864 cables, in a few hundred records: per
    coordinate pair one record per min(stride, blocks) group: 4*1 + 28*4 + 4*32 + 32*1 = 276."""
    from infragraph import blueprints

    doc = blueprints.instantiate("std.fabrics.stack", shape="RI(4)_FC(8)_RI(4)_SW(32)")
    assert len(doc.edges) == 276
    g = bc.build("std.fabrics.stack", shape="RI(4)_FC(8)_RI(4)_SW(32)")
    assert int(bc.cable_mask(g).sum()) == sum(bc.stack_link_counts(bc.parse_shape("RI(4)_FC(8)_RI(4)_SW(32)")))
    bc.check_stack(g, bc.parse_shape("RI(4)_FC(8)_RI(4)_SW(32)"))
