"""infragraph.simulate.dims: logical dimensions from the graph (every blueprint), --dims, `auto`."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import shortest_path

from infragraph import blueprints
from infragraph.errors import InfraGraphError
from infragraph.graph.ranks import npu_order
from infragraph.simulate import SimulationOptions as Opts
from infragraph.simulate import simulate
from infragraph.simulate.dims import algorithms, auto_algorithm, parse_shape, resolve
from tests import simgraphs

# (blueprint, parameters, the dimensions simulate must use): every blueprint with logical dimensions.
CASES = [
    ("std.fabrics.stack", {"shape": "RI(4)_FC(3)_SW(2)"}, "RI(4)_FC(3)_SW(2)"),
    ("std.fabrics.stack", {"shape": "RI(4)_RI(3)", "wrap": False}, "LI(4)_LI(3)"),
    ("std.fabrics.torus", {"sizes": [4, 3, 2]}, "RI(4)_RI(3)_RI(2)"),
    ("std.fabrics.mesh", {"sizes": [3, 4]}, "LI(3)_LI(4)"),
    ("std.fabrics.hypercube", {"dims": 3}, "RI(2)_RI(2)_RI(2)"),
    ("std.fabrics.ring", {"npus": 6}, "RI(6)"),
    ("std.fabrics.fully_connected", {"npus": 5}, "FC(5)"),
    ("std.fabrics.clos", {}, "SW(32)"),  # one GPU per host: the scale-up dimension has size 1 (dropped)
    ("std.fabrics.clos", {"tiers": 1, "radix": 6}, "SW(6)"),  # one GPU per host: the scale-up dimension has size 1 (dropped)
    ("std.fabrics.clos", {"radix": 4, "tiers": 3, "nics_per_host": 2, "rail_optimized": True}, "SW(2)_SW(8)"),
    ("std.fabrics.clos", {"radix": 4, "nics_per_host": 4, "planes": 2, "host_device": "dgx.dgx(gpus = 4, nvswitches = 2)"},
     "SW(4)_SW(4)"),
    ("std.fabrics.single_switch", {"ports": 8, "nics_per_host": 2}, "SW(2)_SW(4)"),
    ("std.fabrics.dragonfly", {"p": 2, "a": 3, "h": 1, "g": 4}, "SW(2)_FC(3)_FC(4)"),
    ("std.fabrics.gpu_cluster", {"gpus": 3, "width": 2, "height": 3, "cus_per_router": 2, "mem_channels_per_router": 1,
                                 "io_ports_per_router": 1}, "SW(2)_LI(2)_LI(3)_SW(3)"),
    ("std.devices.gpu_noc", {"width": 3, "height": 2, "cus_per_router": 2, "mem_channels_per_router": 1,
                             "io_ports_per_router": 1}, "SW(2)_LI(3)_LI(2)"),
]


def npu_hops(g, npus: np.ndarray, sources: list[int]) -> np.ndarray:
    """Hop distances from the NPUs of rank `sources` to every NPU (rank order)."""
    n = g.num_nodes
    m = coo_matrix((np.ones(g.num_edges), (g.edge_src, g.edge_dst)), shape=(n, n)).tocsr()
    return shortest_path(m, directed=False, unweighted=True, indices=npus[sources])[:, npus]


def check_against_the_graph(g, sizes: tuple[int, ...], kinds: tuple[str, ...]) -> None:
    """The dimensions describe the wiring, checked on the lines through rank 0 (hop distances from
    rank 0 in the FQG): on a ring or line the distance grows with the ring / line distance (by the
    same number of hops per step); on a switch or full mesh every member is equally far."""
    npus = npu_order(g)
    hops = npu_hops(g, npus, [0])[0]
    stride = 1
    for k, kind in zip(sizes, kinds):
        d = hops[[c * stride for c in range(1, k)]]
        if kind in ("SW", "FC"):
            assert len(set(d.tolist())) == 1, f"{kind}({k}) members at different distances {d}"
        else:
            steps = [min(c, k - c) if kind == "RI" else c for c in range(1, k)]
            per_step = d[1] - d[0] if k > 2 and steps[1] != steps[0] else None
            if per_step is not None:
                assert per_step > 0, f"{kind}({k}): distance does not grow along the line: {d}"
                assert (d - d[0] == per_step * (np.array(steps) - 1)).all(), f"{kind}({k}) distances {d}"
        stride *= k


@pytest.mark.parametrize("name, params, shape", CASES, ids=[f"{c[0]}-{c[2]}" for c in CASES])
def test_every_blueprint_states_its_dimensions(name, params, shape):
    g = blueprints.graph(name, **params)
    n = npu_order(g).size
    used = resolve(g.graph_annotations.get("dims"), None, n)
    assert used.source == "graph" and used.shape() == shape
    assert n == math.prod(used.sizes)
    # Not equidistant by design: a multi-tier Clos's hosts (a switch hierarchy is one dimension,
    # design note topologies.md) and the dragonfly's groups (one global link per group pair).
    last = len(used.sizes) - (1 if "dragonfly" in name or params.get("tiers", 2) > 1 and "clos" in name else 0)
    check_against_the_graph(g, used.sizes[:last], used.kinds[:last])


def test_simulate_uses_and_reports_the_graph_dimensions(capsys):
    g = blueprints.graph("std.fabrics.clos", radix=4, tiers=2, nics_per_host=2, rail_optimized=True)
    r = simulate(g, Opts(model="aware", algorithm=("auto", "auto")))
    assert r["dims"] == [2, 4] and r["dim_kinds"] == ["SW", "SW"] and r["dims_source"] == "graph"
    assert r["algorithm"] == ["halving-doubling", "halving-doubling"] and r["algorithm_requested"] == ["auto", "auto"]
    # `auto` alone on GPU servers (hosts with NICs) is NCCL's choice
    nccl = simulate(g, Opts(model="aware", algorithm=("auto",)))
    assert nccl["dims"] == [2, 4] and nccl["nccl"]["algorithm"] in ("ring", "tree")
    flat = simulate(g, Opts(model="aware", dims=(8,)))
    assert flat["dims_source"] == "option" and flat["dim_kinds"] == [None]
    from infragraph.cli import main

    assert main(["simulate", "std.fabrics.torus", "-D", "sizes=[4,2]", "--algorithm", "auto"]) == 0
    out = capsys.readouterr().out
    assert "algorithm ring,ring (auto)" in out and "dimensions      RI(4)_RI(2) from the graph's dims annotation" in out


def test_a_group_the_annotation_does_not_cover_runs_flat_and_says_why():
    g = blueprints.graph("std.fabrics.torus", sizes=[4, 2])
    r = simulate(g, Opts(groups=((0, 1, 2, 3),)))
    assert r["dims"] == [] and r["dims_source"] == "flat"
    assert r["dims_note"] == "the graph's dims annotation 'RI(4)_RI(2)' does not cover the group of 4 NPUs"


@pytest.mark.parametrize("text, sizes, kinds", [
    ("RI(4)_FC(8)_SW(32)", (4, 8, 32), ("RI", "FC", "SW")),
    ("Ring(4)_Switch(*)", (4, None), ("RI", "SW")),
    ("LI(3)", (3,), ("LI",)),
    ("16x16", (16, 16), (None, None)),
    ([8, 4], (8, 4), (None, None)),
    (8, (8,), (None,)),
])
def test_shapes_parse(text, sizes, kinds):
    assert parse_shape(text) == (sizes, kinds)


@pytest.mark.parametrize("text, words", [
    ("RI(4)_XX(2)", "'XX(2)' is not a dimension"),
    ("RI(4)_SW(0)", "at least 1"),
    ("SW(*)_SW(*)", "at most one dimension can be '*'"),
    ("RI(4", "'RI(4' is not a dimension"),
    ("4xfour", "expected sizes like 8,4"),
])
def test_bad_shapes_are_clear_errors(text, words):
    with pytest.raises(InfraGraphError, match=words.replace("(", r"\(").replace(")", r"\)").replace("*", r"\*")):
        parse_shape(text)


def test_a_bad_graph_annotation_is_located_in_the_graph():
    g = simgraphs.torus((4, 2))
    g.graph_annotations["dims"] = "RI(4)_QQ(2)"
    with pytest.raises(InfraGraphError) as info:
        simulate(g, Opts())
    assert "the graph's annotation bad dims" in str(info.value) and "annotations.graph.dims" in str(info.value)


def test_star_takes_the_npus_left_over_and_size_one_dimensions_drop():
    assert resolve("SW(*)_SW(4)", None, 32).sizes == (8, 4)
    assert resolve("SW(*)_SW(4)", None, 4).shape() == "SW(4)"
    assert resolve("SW(*)_SW(5)", None, 32).source == "flat"
    assert resolve("RI(4)_SW(2)", (4, 2), 8).kinds == ("RI", "SW")  # --dims equal to the annotation keeps kinds


@pytest.mark.parametrize("kind, size, collective, algo", [
    ("RI", 8, "all-reduce", "ring"), ("LI", 4, "all-reduce", "ring"), ("FC", 6, "all-reduce", "direct"),
    ("SW", 16, "all-reduce", "halving-doubling"), ("SW", 12, "all-reduce", "direct"),
    ("SW", 16, "all-to-all", "direct"), (None, 16, "all-reduce", "ring"),
])
def test_auto_follows_the_topology_aware_rule(kind, size, collective, algo):
    assert auto_algorithm(kind, size, collective) == algo


def test_auto_mixes_with_explicit_algorithms():
    d = resolve("RI(4)_SW(8)", None, 32)
    assert algorithms(("auto",), d, 32, "all-reduce") == ("ring", "halving-doubling")
    assert algorithms(("direct", "auto"), d, 32, "all-reduce") == ("direct", "halving-doubling")
    assert algorithms(("auto",), resolve(None, None, 12), 12, "all-reduce") == ("ring",)


def test_hand_written_fabric_states_its_dimensions(tmp_path):
    from infragraph.sources import load_graph

    src = tmp_path / "pair_of_rings.igl"
    src.write_text("""device npu {
    component xpu: xpu
}

fabric pairs {
    instance npu[8]: npu
    for c in 0..4 {
        npu[c].xpu -- npu[(c + 1) % 4].xpu via link(200 Gbps, 100 ns)
        npu[4 + c].xpu -- npu[4 + (c + 1) % 4].xpu via link(200 Gbps, 100 ns)
        npu[c].xpu -- npu[4 + c].xpu via link(100 Gbps, 100 ns)
    }
    dims = "RI(4)_RI(2)"  # ranks 0-3 and 4-7 are rings; rank r and r + 4 are paired
}
""")
    g = load_graph(str(src))
    r = simulate(g, Opts(algorithm=("auto",)))
    assert r["dims"] == [4, 2] and r["dims_source"] == "graph" and r["algorithm"] == ["ring", "ring"]
