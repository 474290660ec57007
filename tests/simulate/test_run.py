"""infragraph.simulate: the Rust engine driven from real InfraGraph documents."""

from __future__ import annotations

from dataclasses import replace

import pytest

from infragraph import schemas
from infragraph.errors import InfraGraphError
from infragraph.simulate import SimulationOptions as Opts
from infragraph.simulate import chrome_trace, prepare, simulate, sweep
from tests import simgraphs


def calibrated(local_mem_bw: float) -> dict:
    return simulate(simgraphs.ring(8), Opts(chunks=4, active_chunks=1, endpoint_delay_ns=10,
                                           local_mem_bw_gb_per_s=local_mem_bw, model="astra"))


def test_calibration_ring8_local_mem_bw_50():
    r = calibrated(50)
    assert r["collective_time_ns"] == 117_780
    assert r["chunks"] == 4 and r["chunk_bytes"] == 262_144


def test_calibration_ring8_local_mem_bw_1600():
    assert calibrated(1600)["collective_time_ns"] == 64_440


@pytest.mark.parametrize("model, ends", [("astra", [20_031, 20_031]), ("astra-aware", [20_031, 39_562])])
def test_two_flows_on_one_link(model, ends):
    g = simgraphs.line(2, gbps=simgraphs.ASTRA_50GB_GBPS, ns=500)
    r = simulate(g, Opts(collective="point-to-point", groups=((0, 1), (0, 1)), model=model, trace=True,
                         endpoint_delay_ns=0))
    assert sorted(f["end_ns"] for f in r["trace"]) == ends


@pytest.mark.parametrize("collective, algorithm", [
    ("all-reduce", "ring"), ("reduce-scatter", "direct"), ("all-gather", "halving-doubling"),
    ("all-to-all", "direct"), ("broadcast", "double-binary-tree"), ("reduce", "ring-bidirectional"),
])
@pytest.mark.parametrize("model", ["unaware", "aware", "fair", "astra"])
def test_results_validate_against_the_schema(collective, algorithm, model):
    r = simulate(simgraphs.switch(8), Opts(collective=collective, algorithm=(algorithm,), model=model, chunks=2,
                                           trace=True))
    schemas.validate("simulation-result", r)
    assert r["collective_time_ns"] > 0
    assert r["flows"]["count"] == r["flows"]["delivered"] == len(r["trace"])
    sent = sum(x["bytes_sent"] for x in r["ranks"])
    assert sent == pytest.approx(sum(x["bytes_received"] for x in r["ranks"]))
    assert max(x["finish_ns"] for x in r["ranks"]) == r["collective_time_ns"]


def test_switch_routes_cross_two_links_and_utilization_is_bounded():
    r = simulate(simgraphs.switch(4), Opts(collective="all-to-all", algorithm=("direct",), model="aware"))
    # Every NPU uplink and downlink carries 3 x size/4 bytes.
    assert len(r["links"]) == 8
    assert all(link["bytes"] == 3 * (1 << 20) / 4 for link in r["links"])
    assert all(0 < link["utilization"] <= 1 for link in r["links"])
    assert r["links"][0]["src"].startswith(("npu.", "sw."))


def test_bus_bandwidth_follows_nccl_convention():
    r = simulate(simgraphs.ring(4), Opts(size_bytes=1 << 20, model="unaware"))
    algbw = (1 << 20) / r["collective_time_ns"]
    assert r["algorithm_bandwidth_gb_per_s"] == pytest.approx(algbw)
    assert r["bus_bandwidth_gb_per_s"] == pytest.approx(algbw * 2 * 3 / 4)


def test_unreachable_pair_names_both_nodes():
    with pytest.raises(InfraGraphError) as info:
        simulate(simgraphs.two_islands(), Opts())
    msg = str(info.value)
    assert "no path from 'npu." in msg and "to 'npu." in msg
    assert "Traceback" not in msg


@pytest.mark.parametrize("opts, words", [
    (Opts(algorithm=("halving-doubling",), groups=((0, 1, 2),)), "power-of-two"),
    (Opts(algorithm=("ring",), dims=(3, 3)), "multiply to 9"),
    (Opts(algorithm=("ringg",)), "did you mean 'ring'"),
    (Opts(groups=((0, 99),)), "rank 99"),
    (Opts(algorithm=("ring", "direct")), "logical dimensions"),
    (Opts(chunks=0), "at least 1"),
    (Opts(collective="all-to-all", algorithm=("double-binary-tree",)), "double binary tree"),
])
def test_bad_requests_are_clear_errors(opts, words):
    with pytest.raises(InfraGraphError) as info:
        simulate(simgraphs.ring(8), opts)
    assert words in str(info.value)


def test_stack_shape_dims():
    from infragraph.simulate import parse_dims

    assert parse_dims("RI(4)_FC(8)_SW(32)") == (4, 8, 32)
    assert parse_dims("16x16x16") == (16, 16, 16) and parse_dims("8,4") == (8, 4)


def test_ranks_follow_natural_name_order():
    r = simulate(simgraphs.ring(12), Opts())
    nodes = [x["node"] for x in r["ranks"]]
    assert nodes[10] == "npu.10.xpu.0" and nodes[2] == "npu.2.xpu.0"


def test_graph_dims_annotation_drives_hierarchical_algorithms():
    g = simgraphs.torus((4, 2), annotate=True)
    r = simulate(g, Opts(algorithm=("ring", "direct"), model="astra", chunks=2))
    assert r["dims"] == [4, 2]
    explicit = simulate(simgraphs.torus((4, 2)), Opts(algorithm=("ring", "direct"), dims=(4, 2), model="astra",
                                                       chunks=2))
    assert explicit["collective_time_ns"] == r["collective_time_ns"]
    one_algo = simulate(g, Opts(algorithm=("ring",), model="astra", chunks=2))
    assert one_algo["dims"] == [4, 2]
    flat = simulate(g, Opts(algorithm=("ring",), dims=(8,), model="astra", chunks=2))
    assert flat["dims"] == [8] and flat["collective_time_ns"] != one_algo["collective_time_ns"]


def test_dimension_order_routing_on_a_torus():
    g = simgraphs.torus((4, 4), gbps=100, ns=100)
    r = simulate(g, Opts(collective="all-to-all", algorithm=("direct",), routing="dor", dims=(4, 4), model="aware"))
    schemas.validate("simulation-result", r)
    # Direct all-to-all on a 4x4 torus: every message follows x then y, so total link bytes =
    # sum over pairs of (hops) x size/16, with hops = ring distance in x + ring distance in y.
    per = (1 << 20) / 16
    dist = [0, 1, 2, 1]
    want = 16 * sum((dist[dx] + dist[dy]) * per for dx in range(4) for dy in range(4))
    assert sum(link["bytes"] for link in r["links"]) == pytest.approx(want)


def test_concurrent_groups_and_deterministic_runs():
    g = simgraphs.switch(8)
    opts = Opts(groups=((0, 1, 2, 3), (4, 5, 6, 7)), model="fair", chunks=3)
    a, b = simulate(g, opts), simulate(g, opts)
    assert a["collective_time_ns"] == b["collective_time_ns"] and a["links"] == b["links"]
    assert len(a["ranks"]) == 8


def test_sweep_is_monotone_in_size_and_bus_bandwidth_grows():
    res = sweep(simgraphs.ring(8), [1024, 1 << 16, 1 << 22], Opts(model="aware"))
    times = [r["collective_time_ns"] for r in res]
    bus = [r["bus_bandwidth_gb_per_s"] for r in res]
    assert times == sorted(times) and bus == sorted(bus)
    # Large messages approach the link speed (429.5 Gbit/s = 53.7 GB/s) but never exceed it.
    assert bus[-1] < 53.7


def test_chrome_trace_has_a_begin_and_end_per_message():
    r = simulate(prepare(simgraphs.ring(4)), Opts(trace=True))
    tr = chrome_trace(r)
    phases = [e["ph"] for e in tr["traceEvents"]]
    assert phases.count("b") == phases.count("e") == r["flows"]["count"]
    with pytest.raises(InfraGraphError):
        chrome_trace(simulate(simgraphs.ring(4), Opts()))


def test_stack_blueprint_ranks_and_dims_annotation():
    from infragraph import blueprints

    g = blueprints.graph("std.fabrics.stack", shape="RI(4)_RI(2)")
    r = simulate(g, Opts(model="astra", chunks=2, algorithm="ring"))
    assert r["dims"] == [4, 2]
    # Ranks come from the blueprint's `rank` annotation: rank i is npu[i].
    assert [x["node"].split(".")[1] for x in r["ranks"]] == [str(i) for i in range(8)]
    schemas.validate("simulation-result", r)


@pytest.mark.parametrize("model", ["astra", "astra-aware"])
def test_stack_with_ports_gives_the_same_answer_as_direct_links(model):
    # The blueprint wires NPU -> port -> port -> NPU; ports pass bits on (no store-and-forward),
    # so in both models the stack answers as NPUs linked directly (ASTRA-sim's view of it).
    from infragraph import blueprints

    gbps = simgraphs.ASTRA_50GB_GBPS
    stack = blueprints.graph("std.fabrics.stack", shape="RI(4)_RI(4)", bandwidth="[50 GiB/s, 50 GiB/s]")
    direct = simgraphs.torus((4, 4), gbps=gbps, ns=500)
    opts = Opts(model=model, chunks=4, dims=(4, 4), collective="all-reduce")
    assert simulate(stack, opts)["collective_time_ns"] == simulate(direct, opts)["collective_time_ns"]


def test_event_budget_stops_runaway_runs():
    with pytest.raises(InfraGraphError, match="max_events"):
        simulate(simgraphs.ring(8), Opts(max_events=10))


def test_astra_models_default_to_astra_sims_chunk_order_and_routes():
    from infragraph import blueprints

    g = blueprints.graph("std.fabrics.stack", shape="RI(8)")
    base = Opts(model="astra-aware", algorithm=("halving-doubling",), chunks=4, active_chunks=2)
    default = simulate(g, base)
    assert default["routing"] == "dor"  # the stack states its ASTRA-sim topology
    assert default == {**simulate(g, replace(base, scheduling="arrival", routing="dor")),
                       "wall_time_s": default["wall_time_s"], "events_per_second": default["events_per_second"]}
    # Our own models keep shortest paths and (phase, chunk) order.
    assert simulate(g, replace(base, model="aware"))["routing"] == "hops"
    # A graph without an ASTRA-sim topology: shortest paths.
    assert simulate(simgraphs.ring(8), base)["routing"] == "hops"


def test_astra_ring_ties_go_clockwise_like_astra_sim():
    # Halving-doubling on an aware Ring(8): the distance-4 exchange has two equally short ways;
    # ASTRA-sim takes the clockwise one. Reference case s1-0211 of shared/backends: the real
    # binary's finish times; shortest paths with ECMP give other NPUs other times.
    from infragraph import blueprints

    g = blueprints.graph("std.fabrics.stack", shape="RI(8)", bandwidth="[396.2 GiB/s]", latency="[359 ns]")
    o = Opts(model="astra-aware", algorithm=("halving-doubling",), size_bytes=536870912, chunks=10,
             active_chunks=2, endpoint_delay_ns=1, local_mem_bw_gb_per_s=1e6)
    reference = [3862927, 3926385, 3830660, 3863285] * 2
    assert [r["finish_ns"] for r in simulate(g, o)["ranks"]] == reference
    assert [r["finish_ns"] for r in simulate(g, replace(o, routing="hops"))["ranks"]] != reference


@pytest.mark.parametrize("opts, message", [
    (Opts(scheduling="newest"), "unknown scheduling 'newest'"),
    (Opts(model="astra", collective="all-gather", size_bytes=3, chunks=4), "0 bytes per chunk"),
    (Opts(model="astra", algorithm=("double-binary-tree",)), "power-of-two"),
    (Opts(model="astra", collective="all-to-all", algorithm=("halving-doubling",)), "all-to-all"),
])
def test_astra_inputs_astra_sim_cannot_run_are_errors(opts, message):
    with pytest.raises(InfraGraphError, match=message):
        simulate(simgraphs.ring(6), opts)


def test_dimension_order_routing_crosses_fully_connected_and_switch_dims_in_one_step():
    # On a stack, dor walks ring dimensions NPU by NPU but crosses FC / SW dimensions directly
    # (not through the NPUs in between), so it takes the same paths as shortest-path routing.
    from infragraph import blueprints

    g = blueprints.graph("std.fabrics.stack", shape="FC(4)_SW(4)")
    o = Opts(model="astra", collective="all-to-all", algorithm=("direct",), dims=(4, 4))
    dor, hops = simulate(g, replace(o, routing="dor")), simulate(g, replace(o, routing="hops"))
    assert dor["routing"] == "dor" and hops["routing"] == "hops"
    assert dor["collective_time_ns"] == hops["collective_time_ns"]
    assert dor["link_bytes_total"] == hops["link_bytes_total"]


@pytest.mark.parametrize("opts, path, message", [
    (Opts(model="astra", inter_dimension_scheduling="greedy"), None, "unknown inter-dimension scheduling 'greedy'"),
    (Opts(model="astra", intra_dimension_scheduling="LIFO"), None, "unknown intra-dimension scheduling 'LIFO'"),
    (Opts(model="astra", scheduling="fifo", intra_dimension_scheduling="SCF"), "intra_dimension_scheduling",
     "need arrival scheduling (the default of the astra models); got fifo scheduling with model astra"),
    (Opts(model="fair", inter_dimension_scheduling="themis"), "inter_dimension_scheduling",
     "got fifo scheduling with model fair"),
])
def test_scheduling_options_outside_what_is_modelled_are_errors(opts, path, message):
    with pytest.raises(InfraGraphError) as e:
        simulate(simgraphs.ring(8), opts)
    [d] = e.value.diagnostics
    assert message in d.message and d.location.path == path


def test_scheduling_options_match_astra_sims_code():
    """RI(4) x RI(8) at 50 / 100 GiB/s, 500 ns, a 1 MiB ring all-reduce in 8 chunks: the real
    binaries print 68,712 ns (stock 518bd51, which ignores both keys, and a build whose loader
    reads them, under FIFO / baseline), 74,062 ns under themis and 70,692 ns under themis + SCF
    (that build; astra-sim/system/scheduling/OfflineGreedy.cc, Sys.cc `insert_stream`)."""
    from infragraph import blueprints

    g = blueprints.graph("std.fabrics.stack", shape="RI(4)_RI(8)", bandwidth="[50 GiB/s, 100 GiB/s]",
                         latency="[500 ns, 500 ns]")
    base = Opts(model="astra", chunks=8, size_bytes=1 << 20)
    times = {(intra, inter): simulate(g, replace(base, intra_dimension_scheduling=intra,
                                                 inter_dimension_scheduling=inter))["collective_time_ns"]
             for intra, inter in (("FIFO", "baseline"), ("FIFO", "themis"), ("SCF", "themis"))}
    assert times == {("FIFO", "baseline"): 68_712, ("FIFO", "themis"): 74_062, ("SCF", "themis"): 70_692}


@pytest.mark.parametrize("starts, path, message", [
    (((0, 1),), "member_start_ns[0]", "member_start_ns[0] has 2 starts for a group of 8 members"),
    (((0,) * 8, (0,) * 8), "member_start_ns", "member_start_ns gives starts for 2 process groups, but there are 1"),
    (((0, 0, 0, -5, 0, 0, 0, 0),), "member_start_ns[0][3]", "member_start_ns[0][3] = -5: expected a finite time >= 0 ns"),
    (((0, 0, 0, 0, 0, 0, 0, float("inf")),), "member_start_ns[0][7]", "= inf: expected a finite time >= 0 ns"),
    (((0, 0, 0, 0, 0, 0, 0, float("nan")),), "member_start_ns[0][7]", "= nan: expected a finite time >= 0 ns"),
    (((0, 0, 0, 0, 0, 0, 0, True),), "member_start_ns[0][7]", "= True: expected a finite time >= 0 ns"),
    (((0, 0, 0, 0, 0, 0, 0, "5"),), "member_start_ns[0][7]", "= '5': expected a finite time >= 0 ns"),
    # not sequences: a TypeError from len() before; now located at the field
    (5.0, "member_start_ns", "member_start_ns = 5.0: expected one sequence of starts (ns) per process group"),
    (None, "member_start_ns", "member_start_ns = None: expected one sequence"),
    ((7,), "member_start_ns[0]", "member_start_ns[0] = 7: expected a sequence of one start (ns) per member"),
])
def test_bad_member_starts_are_located(starts, path, message):
    with pytest.raises(InfraGraphError) as e:
        simulate(simgraphs.ring(8), Opts(model="astra", member_start_ns=starts))
    [d] = e.value.diagnostics
    assert d.location.path == path and message in d.message


def test_member_starts_as_arrays_are_accepted():
    import numpy as np

    late = simulate(simgraphs.ring(8), Opts(model="astra", member_start_ns=np.array([[0.0] * 7 + [500.0]])))
    plain = simulate(simgraphs.ring(8), Opts(model="astra"))
    assert late["collective_time_ns"] > plain["collective_time_ns"]


def test_greedy_weighs_dimensions_by_the_bandwidths_astra_sim_reads():
    """offlineGreedy divides network.yml's GB/s (2^30 B): the graph's Gbit/s (rounded, 3332.8946217
    for 388 GB/s) give ratios a bit off, which flips dimension orders where loads tie (g23-00028)."""
    from infragraph import blueprints
    from infragraph.simulate.run import dim_bandwidths, greedy_bandwidths
    from tests.simulate.test_astra_reference import stack_params

    dims = [["Ring", 2, 388.0, 967.0], ["FullyConnected", 2, 30.0, 18.0], ["FullyConnected", 2, 50.0, 100.0]]
    p = prepare(blueprints.graph("std.fabrics.stack", **stack_params({"dims": dims})))
    assert greedy_bandwidths(p, [2, 2, 2]) == [388.0, 30.0, 50.0]
    gbps = dim_bandwidths(p, [2, 2, 2])
    assert gbps[1] / gbps[0] != 30.0 / 388.0  # why the conversion is needed


@pytest.mark.parametrize("options, message", [
    ({"chunks": 0}, "chunks: error: chunks must be a whole number, at least 1, got 0"),
    ({"active_chunks": 1.5}, "active_chunks: error: active_chunks must be a whole number, at least 1, got 1.5"),
    ({"chunks": 99_999_999}, "chunks: error: 99,999,999 chunks on 8 group members are 799,999,992 chunk parts, more "
                             "than the engine holds (67,108,864); expected at most 8,388,608 chunks"),
])
def test_chunk_counts_are_checked_before_the_engine_allocates(options, message):
    """Far too many chunks were an aborted process (the engine's allocation of 77 GB), not an error."""
    with pytest.raises(InfraGraphError) as e:
        simulate(simgraphs.ring(8), Opts(**options))
    assert str(e.value).startswith(message)


@pytest.mark.parametrize("model", ["fair", "aware"])
def test_a_broadcast_chain_pipelines_its_chunks(model):
    """8 MB in 8 chunks down the chain 0 -> 1 -> ... -> 7 of 12.5 GB/s links (0 ns): a chunk crosses a
    link in T = 1 MB / 12.5 GB/s = 80 us, and the last chunk reaches rank 7 after (8 + 7 - 1) T =
    1.12 ms. Under `fair` the root and every relay started all 8 chunks at once, max-min sharing
    split each link among them and they moved hop by hop together: 7 x 640 us = 4.48 ms (a 1 GiB
    NCCL-mode broadcast on a DGX H100 ran at 53 GB/s busbw)."""
    g = simgraphs.line(8, gbps=100.0, ns=0.0)
    r = simulate(g, Opts(collective="broadcast", algorithm=("ring",), size_bytes=8_000_000, chunks=8,
                         endpoint_delay_ns=0, local_mem_bw_gb_per_s=None, model=model))
    assert r["collective_time_ns"] == pytest.approx(14 * 80_000, rel=1e-9)
    # the last chunk reaches relay k after (8 + k - 1) T (under `fair` a sender is done when its own
    # last chunk has landed: a relay one T later, the root when relay 1 has it)
    last = {x["rank"]: x["finish_ns"] for x in r["ranks"]}
    assert last[7] == pytest.approx(14 * 80_000, rel=1e-9)
    if model == "fair":
        assert [last[k] for k in range(7)] == pytest.approx([(8 + k) * 80_000 for k in range(7)], rel=1e-9)
