"""infragraph.simulate.nccl: NCCL's algorithm/protocol choice and the engine run reproducing it."""

from __future__ import annotations

from pathlib import Path

import pytest

from infragraph import blueprints
from infragraph.errors import InfraGraphError
from infragraph.simulate import SimulationOptions as Opts
from infragraph.simulate import simulate
from infragraph.simulate.nccl import Servers, choose, inter_speed
from infragraph.sources import load_graph
from tests import simgraphs

# An HGX H100: 8 GPUs, 18 NVLink4 links x 25 GB/s = 450 GB/s per direction over 4 NVSwitch chips.
H100 = """import std.devices.host as hosts

fabric server() {
    instance dgx: hosts.host(cpus = 2, gpus = 8, nics = 8, pcie_switches = 4, scaleup_switches = 4,
                             scaleup_bandwidth = 450 GB/s)
}
"""
# The same GPUs with NVSwitch chips that reduce (NVLink SHARP).
NVLS = (Path(__file__).resolve().parents[2] / "examples" / "hgx_h100_nvls.igl").read_text()
# nccl-tests all_reduce_perf busbw on one HGX H100 (ring), as ASTRA-sim's HGX-H100 validation page
# reports it: 741 GB/s "bidirectional", 370.5 GB/s per direction.
H100_NCCL_RING_BUSBW = 370.5


def _graph(tmp_path, text: str):
    path = tmp_path / "server.igl"
    path.write_text(text)
    return load_graph(str(path))


@pytest.fixture(scope="module")
def h100(tmp_path_factory):
    return _graph(tmp_path_factory.mktemp("h100"), H100)


def test_h100_all_reduce_1gib_is_ncclls_ring_within_10_percent(h100):
    r = simulate(h100, Opts(size_bytes=1 << 30, local_mem_bw_gb_per_s=None))
    assert r["algorithm_requested"] == ["default"] and r["nccl"]["algorithm"] == "ring"
    assert r["nccl"]["protocol"] == "Simple" and r["algorithm"] == ["ring"]
    assert abs(r["bus_bandwidth_gb_per_s"] / H100_NCCL_RING_BUSBW - 1) < 0.10
    assert r["bus_bandwidth_gb_per_s"] < 450  # no NVLS: never above the NVLink bandwidth
    scaleup = [t for t in r["tiers"] if "scale-up" in t["tier"]][0]
    assert scaleup["links_used"] == scaleup["links"] == 64  # every NVLink carries traffic
    assert not r["warnings"]


@pytest.mark.parametrize("gpus", [2, 4, 8])
def test_2_to_8_h100_gpus_beat_astra_sims_analytical_error(h100, gpus):
    """Issue 24's Show: ASTRA-sim's analytical model is off by 9.7-20.6 % (geomean) on 2-8 H100
    GPUs; NCCL's ring measures 365-370 GB/s busbw for 2 to 8 of them (NVIDIA/nccl issue 1455;
    NVIDIA/nccl-tests issue 212: ~370 GB/s). Ours: within 2 % of 370.5 for every group size."""
    r = simulate(h100, Opts(size_bytes=1 << 30, local_mem_bw_gb_per_s=None, groups=(tuple(range(gpus)),)))
    assert r["nccl"]["algorithm"] == "ring"
    assert abs(r["bus_bandwidth_gb_per_s"] / H100_NCCL_RING_BUSBW - 1) < 0.02


@pytest.mark.parametrize("gpus, algorithm", [(2, "ring"), (3, "nvls"), (8, "nvls")])
def test_nvls_needs_more_than_two_gpus(gpus, algorithm):
    """NCCL turns NVLS off for a communicator of 2 GPUs or fewer (src/transport/nvls.cc,
    ncclNvlsInit: `gpuCount <= 2`), so a 2-GPU group of a DGX H100 runs ring even though its
    NVSwitch chips reduce (its NVLS estimate, 209 GB/s, was also below the ring's 369)."""
    g = blueprints.graph("std.devices.dgx")
    r = simulate(g, Opts(size_bytes=1 << 30, groups=(tuple(range(gpus)),)))
    assert r["nccl"]["algorithm"] == algorithm


def test_small_all_reduce_uses_ll_not_254_ring_steps(h100):
    r = simulate(h100, Opts(size_bytes=1024))
    assert r["nccl"]["protocol"] == "LL"
    # NCCL's model: 6.6 us base + 14 steps x 0.6 us; the engine within a few us of it
    assert r["collective_time_ns"] < 25_000
    assert abs(r["collective_time_ns"] - r["nccl"]["predicted_time_ns"]) < 5_000


def test_more_size_never_means_less_time(h100):
    times = [simulate(h100, Opts(size_bytes=s))["collective_time_ns"] for s in (1 << 10, 1 << 16, 1 << 20, 1 << 26)]
    assert times == sorted(times)


def test_nvls_is_named_and_may_exceed_the_nvlink_bandwidth(tmp_path):
    g = _graph(tmp_path, NVLS)
    r = simulate(g, Opts(size_bytes=1 << 30))
    assert r["nccl"]["algorithm"] == "nvls" and r["nccl"]["engine_collective"] == "all-to-all"
    assert r["bus_bandwidth_gb_per_s"] > 450
    assert [w["code"] for w in r["warnings"]] == ["in-switch-reduction"]
    small = simulate(g, Opts(size_bytes=1024))
    assert small["nccl"]["algorithm"] == "ring"  # NVLS' 25 us step latency loses on small messages


def test_nvls_moves_the_buffer_and_the_reduced_slice_over_each_gpus_nvlinks(tmp_path):
    """NCCL's NVLS all-reduce: the switch reads all n slices from every GPU (S out) and writes the
    reduced slices back to every GPU (S in), and each GPU reads and stores its own reduced slice
    (S/n each way): S (n + 1) / n per GPU and direction. The engine moved S (busbw 547.5 GB/s on
    the HGX H100, +15 % over NVIDIA's 476 GB/s; now 487)."""
    g = _graph(tmp_path, NVLS)
    size, n = 1 << 30, 8
    r = simulate(g, Opts(size_bytes=size, links="all"))
    sent = sum(x["bytes"] for x in r["links"] if x["src"] == "dgx.0.gpu.0")
    received = sum(x["bytes"] for x in r["links"] if x["dst"] == "dgx.0.gpu.0")
    assert sent == pytest.approx(size * (n + 1) / n, rel=1e-9) and received == pytest.approx(sent, rel=1e-9)
    assert 476 < r["bus_bandwidth_gb_per_s"] < 476 * 1.05  # NVIDIA/nccl-tests issue 290


def test_all_to_all_default_is_not_ring(h100):
    r = simulate(h100, Opts(collective="all-to-all", size_bytes=1 << 20))
    assert r["algorithm"] == ["direct"] and r["nccl"]["algorithm"] == "send/recv"
    # abstract fabrics: direct as well; the astra models keep ASTRA-sim's ring
    assert simulate(simgraphs.switch(8), Opts(collective="all-to-all"))["algorithm"] == ["direct"]
    assert simulate(simgraphs.switch(8), Opts(collective="all-to-all", model="astra"))["algorithm"] == ["ring"]


def test_a_send_runs_at_nccls_per_link_figures_with_the_engines_latency(h100):
    """NCCL's send/recv has no tuning.cc model; src/graph/paths.cc (ncclTopoGetNchannels) gives a
    peer enough channels to fill its path, over the same transports and Simple FIFOs as a
    collective's. So GPU 0 -> GPU 1 of an HGX H100 moves at NCCL's 18 x 20.6 = 370.8 GB/s (NVIDIA,
    nccl-tests issue 212: ~370 GB/s effective NVLink bandwidth, seen as busbw of non-all-reduce
    operations; nccl issue 1264: a cudaMemcpy reaches 380 of the 450 GB/s one way), not the rated
    450, plus the engine's latency: two 100 ns NVLink hops and two endpoint delays."""
    s = 1 << 26
    r = simulate(h100, Opts(collective="point-to-point", size_bytes=s, groups=((0, 1),)))
    assert r["algorithm_requested"] == ["default"] and r["nccl"]["algorithm"] == "send/recv"
    assert r["collective_time_ns"] == pytest.approx(s / 370.8 + 2 * 100 + 2 * 10, rel=1e-12)  # 181,204 ns
    rated = simulate(h100, Opts(collective="point-to-point", size_bytes=s, groups=((0, 1),), algorithm=("direct",)))
    assert "nccl" not in rated and rated["collective_time_ns"] == pytest.approx(s / 450 + 220, rel=1e-12)
    slow = simulate(h100, Opts(collective="point-to-point", size_bytes=s, groups=((0, 1),), endpoint_delay_ns=50))
    assert slow["collective_time_ns"] == pytest.approx(r["collective_time_ns"] + 80, rel=1e-12)
    assert not any("did not use" in note for note in slow["nccl"]["notes"])  # a send uses the endpoint delay


def test_an_all_to_all_says_it_carries_no_latency(h100):
    """NCCL's all-to-all is send/recv, which tuning.cc does not model, and NCCL mode's links carry no
    latency: 1 KiB on 8 H100 is each GPU's 7 x 128 B over its NVLinks at 370.8 GB/s, 2.4 ns, where
    NCCL pays microseconds to launch it. Loud: the result says so."""
    r = simulate(h100, Opts(collective="all-to-all", size_bytes=1024, top_links=0))
    assert r["collective_time_ns"] == pytest.approx(7 * 128 / 370.8, rel=1e-9)
    assert [w["code"] for w in r["warnings"]] == ["nccl-all-to-all-latency"]


def test_abstract_fabrics_keep_their_defaults():
    r = simulate(simgraphs.torus((4, 4), annotate=True), Opts())
    assert set(r["algorithm"]) == {"ring"} and "nccl" not in r and r["algorithm_requested"] == ["default"]


def test_nccl_needs_servers_and_stands_alone(h100):
    with pytest.raises(InfraGraphError, match="GPUs in servers"):
        simulate(simgraphs.ring(4), Opts(algorithm=("nccl",)))
    g = blueprints.graph("std.fabrics.clos", radix=4, tiers=2, nics_per_host=2, rail_optimized=True)
    with pytest.raises(InfraGraphError, match="alone"):
        simulate(g, Opts(algorithm=("nccl", "ring")))


def test_multi_server_picks_tree_for_small_sizes_and_ring_for_large():
    two = Servers(nodes=2, ppn=8, arch="hopper", intra="NVL", nvswitch=True, scaleup_gbps=3600.0, nic_gbps=400.0,
                  nics=8, nvls=False, sharp=False)
    assert (choose("all-reduce", 1 << 30, two, 16).algorithm, choose("all-reduce", 1 << 30, two, 16).protocol) == \
        ("ring", "Simple")
    many = Servers(**{**two.__dict__, "nodes": 16})
    assert choose("all-reduce", 1 << 16, many, 128).algorithm == "tree"
    assert choose("all-gather", 1 << 16, many, 128).algorithm == "ring"  # tree is all-reduce only


def test_network_channel_speed_follows_the_search_list():
    assert inter_speed("hopper", 50.0) == 48.0  # 400 Gbit/s NIC
    assert inter_speed("ampere", 25.0) == 24.0  # 200 Gbit/s HDR
    assert inter_speed("blackwell", 100.0) == 96.0  # 800 Gbit/s


def test_multi_server_runs_two_levels_with_pipelining():
    g = blueprints.graph("std.fabrics.clos", radix=4, tiers=2, nics_per_host=4, rail_optimized=True,
                         host_device="dgx.dgx(gpus = 4, nvswitches = 2)")
    r = simulate(g, Opts(size_bytes=1 << 28))
    assert r["dims"][0] == 4 and len(r["dims"]) == 2 and r["chunks"] > 1
    assert r["dims_source"] == "graph"  # the graph states the same layout (GPUs per server, then servers)
    assert r["algorithm"] == ["ring", "ring"]


def test_rail_optimized_clos_within_10_percent_of_the_hand_bound():
    """16 H100 servers (450 GB/s NVLink, 8x 400 Gbit/s NICs, GPU i with NIC i), rail-optimized
    2-tier Clos; the bound of docs/simulate.md ('A bound by hand') with N = 16."""
    host = ("hosts.host(cpus = 2, gpus = 8, nics = 8, pcie_switches = 8, scaleup_switches = 4, "
            "scaleup_bandwidth = 450 GB/s)")
    g = blueprints.graph("std.fabrics.clos", radix=16, tiers=2, nics_per_host=8, rail_optimized=True, host_device=host)
    size, n_servers, ppn = float(1 << 30), 16, 8
    r = simulate(g, Opts(size_bytes=size, top_links=None))
    assert r["num_npus"] == 128 and r["dims"] == [8, 16]
    nvlink_ns = 2 * (ppn - 1) / ppn * size / 370.8  # 18 x 20.6 GB/s
    nic_ns = 2 * (n_servers - 1) / n_servers * size / ppn / 48.0  # 400 Gbit/s NIC, NCCL's 48 GB/s
    bound = max(nvlink_ns, nic_ns) + r["nccl"]["latency_ns"]
    assert bound <= r["collective_time_ns"] <= 1.10 * bound
    cables = [t for t in r["tiers"] if t["tier"] == "host–leaf"][0]
    assert cables["links_used"] == cables["links"]  # every NIC cable carries traffic
    loads = [x["bytes"] for x in r["links"] if x["tier"] == "host–leaf"]
    assert len(loads) == cables["links"] and max(loads) <= 1.1 * min(loads)  # busiest / least busy


def test_collnet_where_the_fabric_reduces_and_options_nccl_sets_itself_are_named(h100):
    sharp = Servers(nodes=16, ppn=8, arch="hopper", intra="NVL", nvswitch=True, scaleup_gbps=3600.0,
                    nic_gbps=400.0, nics=8, nvls=False, sharp=True)
    assert choose("all-reduce", 1 << 30, sharp, 128).algorithm == "collnet"
    assert choose("all-gather", 1 << 30, sharp, 128).algorithm == "ring"  # CollNet: all-reduce only here
    r = simulate(h100, Opts(size_bytes=1 << 20, chunks=4))
    assert any("did not use --chunks" in note for note in r["nccl"]["notes"])
    assert not any("did not use" in note for note in simulate(h100, Opts(size_bytes=1 << 20))["nccl"]["notes"])


def test_dgx_clos_every_nic_cable_loaded_and_within_10_percent_of_the_bound():
    """std.devices.dgx servers on a rail-optimized Clos: each GPU's traffic leaves through its own
    NIC (the routing's NIC affinity), so every NIC cable carries the same load; the time is the
    busier of NVLink and NIC (NCCL's per-link figures) plus NCCL's latency, within 10 %."""
    from infragraph.graph.ranks import npu_order
    from infragraph.simulate.nccl import NVLINK_GBPS, servers

    g = blueprints.graph("std.fabrics.clos", radix=16, tiers=2, nics_per_host=8, rail_optimized=True,
                         host_device="dgx.dgx()")
    size = float(1 << 30)
    r = simulate(g, Opts(size_bytes=size, top_links=None))
    s = servers(g, npu_order(g), list(range(r["num_npus"])))
    nvlink = s.scaleup_gbps / 8 * NVLINK_GBPS[s.arch][0] / NVLINK_GBPS[s.arch][1]  # GB/s per direction
    bound = max(2 * (s.ppn - 1) / s.ppn * size / nvlink,
                2 * (s.nodes - 1) / s.nodes * size / s.ppn / 48.0) + r["nccl"]["latency_ns"]
    assert bound <= r["collective_time_ns"] <= 1.10 * bound
    loads = [x["bytes"] for x in r["links"] if x["tier"] == "host–leaf"]
    assert len(loads) == 2 * 128 and max(loads) <= 1.1 * min(loads)


def test_a_partial_build_out_loads_every_nic_cable_and_every_uplink():
    """32 DGX on radix 32 (`hosts=32`: 2 rail groups, 16 leaves, 8 spines each taking 2 cables from
    every leaf, issue 24.5): the all-reduce loads every NIC cable equally and stays within 10 % of
    the NVLink/NIC bound; the all-to-all crosses the spines on every leaf-spine cable (the issue saw
    0 bytes there when GPUs forwarded each other's traffic)."""
    from infragraph.graph.ranks import npu_order
    from infragraph.simulate.nccl import NVLINK_GBPS, servers

    g = blueprints.graph("std.fabrics.clos", hosts=32, radix=32, tiers=2, nics_per_host=8, rail_optimized=True,
                         host_device="dgx.dgx()")
    size = float(1 << 30)
    r = simulate(g, Opts(size_bytes=size, top_links=None))
    s = servers(g, npu_order(g), list(range(r["num_npus"])))
    assert (s.nodes, s.ppn) == (32, 8)
    nvlink = s.scaleup_gbps / 8 * NVLINK_GBPS[s.arch][0] / NVLINK_GBPS[s.arch][1]
    bound = max(2 * (s.ppn - 1) / s.ppn * size / nvlink,
                2 * (s.nodes - 1) / s.nodes * size / s.ppn / 48.0) + r["nccl"]["latency_ns"]
    assert bound <= r["collective_time_ns"] <= 1.10 * bound
    loads = [x["bytes"] for x in r["links"] if x["tier"] == "host–leaf"]
    assert len(loads) == 2 * 256 and max(loads) <= 1.1 * min(loads)
    a2a = simulate(g, Opts(size_bytes=float(1 << 26), collective="all-to-all", top_links=None))
    assert a2a["algorithm"] == ["direct"]
    uplinks = [t for t in a2a["tiers"] if t["tier"] == "leaf–spine"][0]
    assert uplinks["links"] == 2 * 16 * 16 and uplinks["links_used"] == uplinks["links"]


@pytest.mark.slow
@pytest.mark.skipif(__import__("os").environ.get("INFRAGRAPH_SLOW") != "1",
                    reason="the issue's 1,024-GPU design (20 s): INFRAGRAPH_SLOW=1 pytest -m slow tests/simulate/test_nccl.py")
def test_the_issues_1024_gpu_design_meets_the_hand_bound_of_docs_simulate():
    """Issue 24's Show item, as docs/simulate.md ('A bound by hand') states it: `std.fabrics.clos -D
    hosts=128 -D radix=64 -D tiers=2 -D nics_per_host=8 -D rail_optimized=true -D
    'host_device=dgx.dgx()'`: 1,024 GPUs, 32 leaves, 16 spines; a 1 GiB all-reduce loads every NIC
    cable (busiest / least <= 1.1) and takes within 10 % of 5.81 ms (measured: 6.126 ms)."""
    g = blueprints.graph("std.fabrics.clos", hosts=128, radix=64, tiers=2, nics_per_host=8, rail_optimized=True,
                         host_device="dgx.dgx()")
    assert {i.name: i.count for i in g.instances} == {"host": 128, "leaf": 32, "spine": 16}
    r = simulate(g, Opts(size_bytes=float(1 << 30), top_links=None))
    assert r["num_npus"] == 1024
    assert 5.81e6 <= r["collective_time_ns"] <= 1.10 * 5.81e6
    loads = [x["bytes"] for x in r["links"] if x["tier"] == "host–leaf"]
    assert len(loads) == 2 * 1024 and max(loads) <= 1.1 * min(loads)


def test_nvswitch_reduction_of_servers_outside_the_group_is_not_fabric_sharp():
    """std.devices.dgx chips reduce (NVLink SHARP). A group spanning 2 of 4 such servers sees the
    other servers' NVSwitch chips, which are still servers' chips, not SHARP fabric switches: no
    CollNet (before, any reducing switch outside the group's servers counted as the fabric's)."""
    from infragraph.graph.ranks import npu_order
    from infragraph.simulate.nccl import servers

    g = blueprints.graph("std.fabrics.clos", hosts=4, radix=8, tiers=2, nics_per_host=4, rail_optimized=True,
                         host_device="dgx.dgx(gpus = 4, nvswitches = 2)")
    order = npu_order(g)
    assert len(order) == 16
    two = servers(g, order, list(range(8)))
    assert (two.nodes, two.nvls, two.sharp) == (2, True, False)
    r = simulate(g, Opts(size_bytes=1 << 30, groups=(tuple(range(8)),)))
    assert r["nccl"]["algorithm"] == "ring"  # NVLS across servers and CollNet: neither applies
    one = simulate(g, Opts(size_bytes=1 << 30, groups=(tuple(range(4)),)))
    assert one["nccl"]["algorithm"] == "nvls"  # one server of reducing NVSwitch chips


# A broadcast (or reduce) is NCCL's ring chain: each rank forwards a chunk of BROADCAST_CHUNKSTEPS = 1
# step (Simple: 512 KiB a channel; collectives.h, src/device/broadcast.h) as it arrives, so a chain of n
# ranks and k stages takes (k + n - 2) stage times. One DGX H100, 1 GiB, ring/Simple on 14 channels:
# k = floor(2^30 / (14 x 512 KiB)) = 146 stages of 7 MiB at NCCL's 18 x 20.6 = 370.8 GB/s, n = 8, plus
# NCCL's ring latency: (146 + 6) / 146 x 2^30 / 370.8 + 35,600 = 3,050,347 ns, 352.0 GB/s busbw. NVIDIA
# puts the busbw of non-all-reduce operations on H100 NVLink at ~370 GB/s (NVIDIA/nccl-tests issue 212);
# NCCL's own model says 2.93 ms. With the engine's former 16 chunks the fill was 6/16 of the transfer:
# 4.02 ms, 267 GB/s.
S_BCAST = 1 << 30


@pytest.mark.parametrize("collective", ["broadcast", "reduce"])
def test_a_chain_pipelines_in_nccls_own_stages(collective):
    r = simulate(blueprints.graph("std.devices.dgx"), Opts(collective=collective, size_bytes=S_BCAST, top_links=0))
    assert (r["nccl"]["algorithm"], r["nccl"]["protocol"], r["nccl"]["channels"], r["chunks"]) == ("ring", "Simple", 14, 146)
    assert r["nccl"]["latency_ns"] == 35_600
    assert r["collective_time_ns"] == pytest.approx((146 + 6) / 146 * S_BCAST / 370.8 + 35_600, rel=1e-9)
    assert abs(r["bus_bandwidth_gb_per_s"] / 370 - 1) < 0.05 and abs(r["collective_time_ns"] / 2.93e6 - 1) < 0.05
    assert not r["warnings"] and not r["nccl"]["cautions"]


def test_a_chain_past_the_engines_cap_says_so():
    """8 GiB: 1,170 NCCL stages, the engine runs 1,024 (MAX_CHAIN_CHUNKS): the fill is 6/1,024 of the
    transfer instead of 6/1,170, which the result states."""
    r = simulate(blueprints.graph("std.devices.dgx"), Opts(collective="broadcast", size_bytes=8 * S_BCAST, top_links=0))
    assert r["chunks"] == 1024
    assert r["collective_time_ns"] == pytest.approx((1024 + 6) / 1024 * 8 * S_BCAST / 370.8 + 35_600, rel=1e-9)
    (w,) = r["warnings"]
    assert w["code"] == "nccl-chain-chunks" and "1024 engine chunks where NCCL pipelines 1170 stages" in w["message"]
    assert f"{6 * (1 / 1024 - 1 / 1170) * 100:.2f} %" in w["message"]


# Across servers NCCL's ring channels each cross servers on their own NIC, so every rail carries
# 1/ppn of the buffer. The engine's rail chains: 2 DGX H100 (rail-optimized Clos), 1 GiB broadcast:
# the root's server passes each GPU its 1/8 shard, every rail chains its shard to the other server
# (S/8 = 128 MiB per host cable at 48 GB/s: 2.80 ms), and each server all-gathers (7/8 S per GPU over
# NVLink at 370.8 GB/s: 2.53 ms); a GPU's NVLinks carry about S in all: 2.90 ms. Chunk pipelining adds
# the fill of 128 stages; NCCL's modelled time is 3.128 ms (latency 232.4 us). A reduce runs the
# reverse. Until 26 Nov 2026 the root's rail carried all of S: 1 GiB / 48 GB/s = 22.4 ms alone.
@pytest.mark.parametrize("collective", ["broadcast", "reduce"])
@pytest.mark.parametrize("model", ["fair", "aware"])
def test_a_chain_across_servers_uses_every_rail(collective, model):
    g = blueprints.graph("std.fabrics.clos", hosts=2, radix=16, tiers=2, nics_per_host=8, rail_optimized=True,
                         host_device="dgx.dgx()")
    r = simulate(g, Opts(collective=collective, size_bytes=S_BCAST, model=model, top_links=0))
    assert not r["warnings"] and r["chunks"] == 128
    transfer = r["collective_time_ns"] - r["nccl"]["latency_ns"]
    assert S_BCAST / 370.8 < transfer < S_BCAST / 370.8 * 1.01
    assert abs(r["collective_time_ns"] / r["nccl"]["predicted_time_ns"] - 1) < 0.01
    cables = {t["tier"]: t for t in r["tiers"]}["host–leaf"]
    assert cables["links_used"] == 16 and cables["bytes"] == pytest.approx(2 * S_BCAST)  # S/8 on each of 8 rails


@pytest.mark.parametrize("group", [None, tuple(range(8))])
def test_collectives_in_an_nvl72_domain_say_nvls_is_not_modelled(group):
    """GB200 NVL72: 72 GPUs in one NVLink domain, whose NVLS the model does not run (its chips state no
    in-switch reduction: ring). Every NCCL-mode collective of GPUs in it says so, with the published
    measurement, the whole rack and an 8-GPU group alike; an 8-GPU DGX does not."""
    groups = None if group is None else (group,)
    r = simulate(blueprints.graph("std.devices.gb200_nvl72"), Opts(size_bytes=1 << 30, groups=groups, top_links=0))
    assert r["nccl"]["algorithm"] == "ring"
    (w,) = [w for w in r["warnings"] if w["code"] == "nccl-mnnvl"]
    assert "NVLink domain of 72 GPUs" in w["message"] and "681-724 GB/s busbw at 1 GiB" in w["message"]
    dgx = simulate(blueprints.graph("std.devices.dgx"), Opts(size_bytes=1 << 30, top_links=0))
    assert not any(w["code"].startswith("nccl-") for w in dgx["warnings"])


@pytest.fixture(scope="module")
def dgx4():
    """4 DGX H100 on a rail-optimized two-tier Clos (32 GPUs; NIC i of every server on leaf i)."""
    return blueprints.graph("std.fabrics.clos", hosts=4, radix=8, tiers=2, nics_per_host=8, rail_optimized=True,
                            host_device="dgx.dgx()")


@pytest.mark.parametrize("collective,size,group", [
    ("all-reduce", 1 << 28, None),                          # two levels: rings in and across servers
    ("all-reduce", 1 << 28, (0, 8, 16, 24)),                # a DP ring, one GPU per server, through its NIC
    ("reduce-scatter", 1 << 27, tuple(range(8))),           # a TP ring inside one server
])
def test_aware_pipelines_nccls_rings_through_switches_and_nics(dgx4, collective, size, group):
    """Found by the review of 26 Nov 2026: under `aware` every NVSwitch, PCIe switch, NIC and leaf
    stored and forwarded whole messages in NCCL mode, so a ring across servers paid its
    serialization at each of ~6 hops (an 8-server DP all-reduce: 394 ms against its 60.6 ms NIC
    bound). NCCL's data crosses them in packets: a ring's messages, which never meet on a link,
    now take exactly `fair`'s time."""
    groups = None if group is None else (group,)
    fair = simulate(dgx4, Opts(collective=collective, size_bytes=size, groups=groups, model="fair", top_links=0))
    aware = simulate(dgx4, Opts(collective=collective, size_bytes=size, groups=groups, model="aware", top_links=0))
    assert fair["nccl"]["algorithm"] in ("ring", "tree") and aware["nccl"] == fair["nccl"]
    assert aware["collective_time_ns"] == pytest.approx(fair["collective_time_ns"], rel=1e-9)
    if group == (0, 8, 16, 24):  # the hand bound: 2 (n-1)/n S over one NIC at NCCL's 48 GB/s, plus NCCL's latency
        bound = 2 * 3 / 4 * size / 48.0 + aware["nccl"]["latency_ns"]
        assert aware["collective_time_ns"] == pytest.approx(bound, rel=1e-6)


@pytest.fixture(scope="module")
def dgx8():
    return blueprints.graph("std.fabrics.clos", hosts=8, radix=16, tiers=2, nics_per_host=8, rail_optimized=True,
                            host_device="dgx.dgx()")


def test_one_gpu_per_server_gets_its_own_nic_not_the_servers_eight(dgx8):
    """A DP group, GPU 0 of each of 8 DGX H100. NCCL's topology of a communicator holds only its
    GPUs of a server (topo.cc ncclTopoGetSystem), so the ring's channels leave through the GPU's
    nearest NIC (ncclTopoGetLocalNet) at search.cc's 48 GB/s, duplicated into 2 channels of 24
    (ncclTopoDupChannels): bus 48 GB/s, not the 8 NICs' 384 (the model predicted 5.18 ms, ring
    16 channels, against the engine's 39.43 ms). By hand, 1 GiB all-reduce, ring/Simple:
    2 x 7/8 x 2^30 B / 48 GB/s = 39.147 ms, plus tuning.cc's latency 1.4 x (8.4 + 14 steps x
    14 us) = 0.286 ms: 39.433 ms, NCCL's predicted time and the engine's alike."""
    group = (tuple(range(0, 64, 8)),)
    r = simulate(dgx8, Opts(size_bytes=1 << 30, groups=group, top_links=0))
    n = r["nccl"]
    assert (n["algorithm"], n["protocol"], n["channels"]) == ("ring", "Simple", 2)
    hand = 2 * 7 / 8 * (1 << 30) / 48.0 + 1.4 * (8.4 + 14 * 14.0) * 1000
    assert n["predicted_time_ns"] == pytest.approx(hand, rel=1e-4)
    assert r["collective_time_ns"] == pytest.approx(hand, rel=0.01)
    # 64 MiB: with 8 NICs the model picked ring/LL128 (0.47 ms predicted, 2.79 run); NCCL's one
    # NIC makes Simple the faster: 2 x 7/8 x 2^26 / 48 GB/s + 0.286 ms = 2.733 ms.
    r = simulate(dgx8, Opts(size_bytes=1 << 26, groups=group, top_links=0))
    assert (r["nccl"]["algorithm"], r["nccl"]["protocol"]) == ("ring", "Simple")
    assert r["nccl"]["predicted_time_ns"] == pytest.approx(2 * 7 / 8 * (1 << 26) / 48.0 + 286_160, rel=1e-4)
    assert r["collective_time_ns"] == pytest.approx(r["nccl"]["predicted_time_ns"], rel=0.01)


def test_all_gather_is_tuned_on_all_n_shards(dgx8):
    """NCCL tunes an all-gather on its receive buffer, n shards (enqueue.cc ncclGetAlgoInfo:
    ncclFuncMaxSendRecvCount); the size here is one shard. 64 MiB shards on the DP group above:
    7 x 2^26 B / 48 GB/s = 9.787 ms plus ring/Simple latency 8.4 + 7 x 14 us: 9.893 ms predicted,
    as the engine runs (before, the model predicted 1/8 of that, 1.33 ms)."""
    r = simulate(dgx8, Opts(collective="all-gather", size_bytes=1 << 26, groups=(tuple(range(0, 64, 8)),),
                            top_links=0))
    hand = 7 * (1 << 26) / 48.0 + (8.4 + 7 * 14.0) * 1000
    assert r["nccl"]["predicted_time_ns"] == pytest.approx(hand, rel=1e-4)
    assert r["collective_time_ns"] == pytest.approx(hand, rel=0.01)


@pytest.mark.parametrize("collective", ["reduce-scatter", "all-gather"])
def test_nvls_reduce_scatter_and_all_gather_are_candidates_ring_wins_on_8_h100(collective):
    """NCCL >= 2.19 considers NVLS for reduce-scatter and all-gather on one server (tuning.cc;
    enqueue.cc: at most NCCL_MAX_NVLS_ARITY = 32 GPUs). Its busbw there is not converted to algbw:
    14 channels x 26.49 GB/s x 0.85 x 13/14 x 7/8 = 256.1 GB/s, latency 25 us. On 8 H100 it never
    wins: ring/LL (6.6 + 7 x 0.6 = 10.8 us) below, ring/LL128 and Simple above, as NVIDIA says
    NCCL prefers ring for them (NVIDIA/nccl issues 1083, 1670). 1 MiB of all-gather output
    (or reduce-scatter input): NVLS 25 + 1,048,576 B / 256.1 GB/s = 29.09 us."""
    g = blueprints.graph("std.devices.dgx")
    for e in range(10, 31, 4):
        size = (1 << e) // (8 if collective == "all-gather" else 1)  # all-gather: one rank's shard
        r = simulate(g, Opts(collective=collective, size_bytes=size, top_links=0))
        algos = {c["algorithm"] for c in r["nccl"]["candidates"]}
        assert r["nccl"]["algorithm"] == "ring" and "nvls" in algos
    r = simulate(g, Opts(collective=collective, size_bytes=(1 << 20) // (8 if collective == "all-gather" else 1)))
    nvls = [c for c in r["nccl"]["candidates"] if c["algorithm"] == "nvls"][0]
    bus = 370.8 / 14 * 0.85 * 13 / 14 * 7 / 8 * 14
    assert nvls["predicted_time_ns"] == pytest.approx(25_000 + (1 << 20) / bus, abs=1.0)


@pytest.fixture(scope="module")
def nvls16(tmp_path_factory):
    text = H100.replace("gpus = 8, nics = 8, pcie_switches = 4", "gpus = 16, nics = 16, pcie_switches = 8").replace(
        "scaleup_bandwidth = 450 GB/s)", "scaleup_bandwidth = 450 GB/s, scaleup_reduction = true)")
    return _graph(tmp_path_factory.mktemp("nvls16"), text)


@pytest.mark.parametrize("collective, size", [("all-gather", 1 << 19), ("reduce-scatter", 1 << 23)])
def test_nvls_reduce_scatter_and_all_gather_on_16_gpus_by_hand(nvls16, collective, size):
    """16 H100 on reducing NVSwitch chips (a multi-node NVLink domain's part): the ring's 15 steps
    cost more latency than NVLS's flat 25 us, and NCCL's model picks NVLS for 8 MiB of all-gather
    output (512 KiB shards) or reduce-scatter input. NCCL's prediction: 14 channels x 26.49 GB/s x
    0.85 x 13/14 x 15/16 = 274.4 GB/s: 25 us + 8,388,608 B / 274.4 GB/s = 55.57 us. The engine
    moves the busier direction (all-gather: 16 shards in, from the switch's multicast;
    reduce-scatter: the whole input out, for the switch's reductions) at 450 x 20.6/25 x 0.85 =
    315.2 GB/s: 25 us + 8,388,608 B / 315.2 GB/s = 51.62 us (-7 % from NCCL's model, whose
    (n_ch - 1)/n_ch and (n - 1)/n factors the link loads do not have)."""
    r = simulate(nvls16, Opts(collective=collective, size_bytes=size, top_links=0))
    n = r["nccl"]
    assert (n["algorithm"], n["protocol"], n["channels"]) == ("nvls", "Simple", 14)
    assert n["engine_collective"] == "all-to-all"
    nbytes = 1 << 23
    assert n["predicted_time_ns"] == pytest.approx(25_000 + nbytes / (370.8 * 0.85 * 13 / 14 * 15 / 16), rel=1e-6)
    assert r["collective_time_ns"] == pytest.approx(25_000 + nbytes / (450 * 20.6 / 25 * 0.85), rel=1e-3)
    assert "in-switch-reduction" not in {w["code"] for w in r["warnings"]}
