"""The replay's rules, each against a hand-derived time (ASTRA-sim's workload layer, restated in
infragraph/workload/replay.py)."""

from __future__ import annotations

import pytest

from infragraph import blueprints
from infragraph.errors import InfraGraphError
from infragraph.simulate import SimulationOptions, prepare, simulate
from infragraph.workload.chakra import make_node
from infragraph.workload.replay import ReplayOptions, replay
from infragraph.workload.trace import read_et_set
from tests.workload.etsets import coll, comp, recv, send, write_set

SIM = SimulationOptions(model="astra", chunks=1, endpoint_delay_ns=10, local_mem_bw_gb_per_s=1600)


@pytest.fixture(scope="module")
def ring4():
    return prepare(blueprints.graph("std.fabrics.stack", shape="RI(4)", bandwidth="[50.0 GiB/s]", latency="[500.0 ns]"))


def run(p, tmp_path, per_rank, groups=None, **kw):
    prefix, cg = write_set(tmp_path, per_rank, groups)
    return replay(p, read_et_set(prefix, len(per_rank), cg), ReplayOptions(sim=SIM, **kw))


def coll_time(p, kind, size, group=(0, 1, 2, 3)):
    r = simulate(p, SimulationOptions(**{**SIM.__dict__, "collective": kind, "size_bytes": size,
                                         "groups": (group,), "top_links": 0}))
    return r["collective_time_ns"]


def test_a_lone_collective_takes_the_engines_time(ring4, tmp_path):
    r = run(ring4, tmp_path, [[coll(1, "all-reduce", 1 << 20)]] * 4)
    assert r["step_time_ns"] == coll_time(ring4, "all-reduce", 1 << 20) > 0
    (c,) = r["collectives"]
    assert (c["start_ns"], c["end_ns"], c["ranks"]) == (0, r["step_time_ns"], 4)


def test_compute_nodes_on_one_npu_run_one_at_a_time(ring4, tmp_path):
    r = run(ring4, tmp_path, [[comp(1, 3), comp(2, 4)]] * 4)
    assert r["step_time_ns"] == 7000
    assert r["npus"][0]["compute_ns"] == 7000 and r["npus"][0]["idle_ns"] == 0


def test_compute_and_communication_overlap(ring4, tmp_path):
    t = coll_time(ring4, "all-reduce", 1 << 20)
    r = run(ring4, tmp_path, [[comp(1, 10), coll(2, "all-reduce", 1 << 20)]] * 4)
    assert r["step_time_ns"] == max(t, 10_000)
    n = r["npus"][0]
    assert n["overlapped_ns"] == min(t, 10_000) and n["exposed_ns"] == t - min(t, 10_000)


def test_a_dependent_collective_is_exposed(ring4, tmp_path):
    t = coll_time(ring4, "all-gather", 65536)
    r = run(ring4, tmp_path, [[comp(1, 5), coll(2, "all-gather", 65536, deps=(1,))]] * 4)
    assert r["step_time_ns"] == 5000 + t
    assert r["npus"][2]["exposed_ns"] == t and r["npus"][2]["overlapped_ns"] == 0


def test_two_independent_collectives_on_one_npu_run_one_at_a_time(ring4, tmp_path):
    t1, t2 = coll_time(ring4, "all-reduce", 4096), coll_time(ring4, "reduce-scatter", 8192)
    r = run(ring4, tmp_path, [[coll(1, "all-reduce", 4096), coll(2, "reduce-scatter", 8192)]] * 4)
    assert r["step_time_ns"] == t1 + t2
    assert [c["collective"] for c in r["collectives"]] == ["all-reduce", "reduce-scatter"]  # ascending node id


def test_each_member_starts_its_part_at_its_own_issue(ring4, tmp_path):
    """Measured on ASTRA-sim's analytical binary (518bd51): a 1 MiB ring all-reduce on RI(4), 50 GB/s,
    500 ns takes 33,829 ns alone; one member late by 5 µs delays only the member two places after
    it, by exactly 5 µs; late by 50 µs, the members finish at 50 µs + T - k x 5,382 ns, k = 0..3
    counting back from two places after the late member."""
    t = coll_time(ring4, "all-reduce", 1 << 20)
    assert t == 33829
    early = [coll(1, "all-reduce", 1 << 20)]
    for late_us, want in [(5, [t, t, 5000 + t, t]), (50, [73065, 78447, 83829, 67683])]:
        late = [comp(1, late_us), coll(2, "all-reduce", 1 << 20, deps=(1,))]
        r = run(ring4, tmp_path, [late, early, early, early])
        assert [n["finish_ns"] for n in r["npus"]] == want
        (c,) = r["collectives"]
        assert (c["start_ns"], c["last_issue_ns"], c["end_ns"]) == (0, late_us * 1000, max(want))
        # rank 1 issued at 0 waits for the late member's issue, then communicates
        assert (r["npus"][1]["waiting_ns"], r["npus"][1]["communication_ns"]) == (late_us * 1000,
                                                                                  want[1] - late_us * 1000)


def test_a_sub_group_member_waits_in_the_collective_for_a_late_peer(ring4, tmp_path):
    late = [comp(1, 2), coll(2, "all-reduce", 4096, group=1, deps=(1,))]
    early = [comp(1, 1), coll(2, "all-reduce", 4096, group=1, deps=(1,))]
    idle = [comp(1, 1)]
    r = run(ring4, tmp_path, [early, late, idle, idle], {1: [0, 1]})
    together = coll_time(ring4, "all-reduce", 4096, (0, 1))
    f0, f1 = r["npus"][0]["finish_ns"], r["npus"][1]["finish_ns"]
    # neither finishes before the late member's data can reach it, nor later than waiting for it
    assert 2000 < f0 <= 2000 + together and 2000 < f1 <= 2000 + together
    # waiting in the collective for the late member is waiting, not communication
    assert (r["npus"][0]["waiting_ns"], r["npus"][0]["communication_ns"]) == (1000, f0 - 2000)
    assert r["npus"][3]["finish_ns"] == 1000 and r["npus"][3]["idle_to_step_ns"] == max(f0, f1) - 1000


def test_send_recv_chain(ring4, tmp_path):
    d = 500 + 65536 * 10**9 // (50 * 2**30)  # one hop: latency + size / 50 GiB/s, cut to whole ns (no endpoint delay)
    assert d == 1720
    early_recv = [recv(1, 0, 1, 65536), comp(2, 1, deps=(1,))]
    late_recv = [comp(1, 100), recv(2, 0, 1, 65536, deps=(1,))]
    r = run(ring4, tmp_path, [[comp(1, 2), send(2, 0, 1, 65536, deps=(1,))], early_recv, [comp(1, 1)], [comp(1, 1)]])
    assert r["npus"][0]["finish_ns"] == 2000 + d
    assert r["npus"][1]["finish_ns"] == 2000 + d + 1000  # the receive ends at arrival, then 1 µs of compute
    r = run(ring4, tmp_path, [[send(1, 0, 1, 65536)], late_recv, [comp(1, 1)], [comp(1, 1)]])
    assert r["npus"][1]["finish_ns"] == max(100_000, d)  # posted after the arrival: ends at once
    assert r["messages"] == [{"src": 0, "dst": 1, "tag": 0, "size_bytes": 65536, "start_ns": 0, "end_ns": d}]


@pytest.mark.parametrize("shape, bandwidth, latency, src, dst, want", [
    # every NPU's finish time the analytical binary (518bd51) printed for one 1 MiB send src -> dst
    ("RI(4)", "[50.0 GiB/s]", "[500.0 ns]", 0, 2, 20531),  # two hops either way round
    ("RI(4)", "[50.0 GiB/s]", "[500.0 ns]", 0, 3, 20031),  # the short way: one hop
    ("FC(4)", "[50.0 GiB/s]", "[500.0 ns]", 0, 2, 20031),
    # two dimensions: only the first one where the NPUs differ counts (MultiDimTopology::send)
    ("SW(4)_RI(2)", "[50.0 GiB/s, 25.0 GiB/s]", "[500.0 ns, 100.0 ns]", 0, 5, 20531),
    ("SW(4)_RI(2)", "[50.0 GiB/s, 25.0 GiB/s]", "[500.0 ns, 100.0 ns]", 0, 4, 39162),
])
def test_a_send_takes_astra_sims_time(tmp_path, shape, bandwidth, latency, src, dst, want):
    _one_send(tmp_path, shape, bandwidth, latency, src, dst, 1 << 20, want)


def test_a_large_send_takes_astra_sims_time_to_the_ns(tmp_path):
    """402,653,184 B over 50 GiB/s is 7,500,000 ns exactly: the bandwidth must be the link's, not the
    graph annotation's 6 significant digits (429.497 Gbit/s gave 7,501,995)."""
    _one_send(tmp_path, "SW(8)_SW(4)", "[900.0 GiB/s, 50.0 GiB/s]", "[100.0 ns, 1000.0 ns]", 0, 16, 402653184,
              7502000)


def _one_send(tmp_path, shape, bandwidth, latency, src, dst, size, want):
    p = prepare(blueprints.graph("std.fabrics.stack", shape=shape, bandwidth=bandwidth, latency=latency))
    n = int(p.npu_nodes.size)
    per_rank = [[comp(1, 1)] for _ in range(n)]
    per_rank[src] = [send(1, src, dst, size)]
    per_rank[dst] = [recv(1, src, dst, size)]
    r = run(p, tmp_path, per_rank)
    assert [x["finish_ns"] for x in r["npus"]] == [want if i in (src, dst) else 1000 for i in range(n)]


def test_roofline_compute_and_memory_bound(ring4, tmp_path):
    nodes = [comp(1, 0, num_ops=10**9, tensor_size=10**6), comp(2, 0, deps=(1,), num_ops=10**9, tensor_size=10**9)]
    r = run(ring4, tmp_path, [nodes] * 4, roofline=True, peak_perf_tflops=900)
    # 1e9 ops at 900 TFLOP/s = 1,111 ns; intensity 1 op/B at 1,600 GB/s = 1.6 TFLOP/s -> 625,000 ns
    assert r["step_time_ns"] == 1111 + 625_000
    r = run(ring4, tmp_path, [nodes] * 4, roofline=False)
    assert r["step_time_ns"] == 2  # duration 0 µs counts as 1 ns each


def test_cpu_and_gpu_compute_overlap(ring4, tmp_path):
    nodes = [comp(1, 5, is_cpu_op=True), comp(2, 3)]
    assert run(ring4, tmp_path, [nodes] * 4)["step_time_ns"] == 5000


def test_memory_nodes_take_latency_plus_size_over_bandwidth(ring4, tmp_path):
    nodes = [make_node(1, "load", "mem-load", (), tensor_size=1000), comp(2, 1, deps=(1,))]
    r = run(ring4, tmp_path, [nodes] * 4, remote_mem_bw_gb_per_s=4.0, remote_mem_latency_ns=7)
    assert r["step_time_ns"] == 7 + 250 + 1000 and r["npus"][0]["memory_ns"] == 257
    with pytest.raises(InfraGraphError, match=r"node 1 'load' is a memory load but no remote memory is modelled"):
        run(ring4, tmp_path, [nodes] * 4)


def test_a_node_freed_only_by_a_skipped_node_is_a_located_stall(ring4, tmp_path):
    nodes = [make_node(1, "bad", "invalid"), comp(2, 1, deps=(1,))]
    with pytest.raises(InfraGraphError, match=r"rank 0 never finishes: node 2 'comp2' \(compute\) cannot start"):
        run(ring4, tmp_path, [nodes] * 4)


def test_workload_and_fabric_sizes_must_agree(ring4, tmp_path):
    prefix, _ = write_set(tmp_path, [[comp(1, 1)]] * 2)
    with pytest.raises(InfraGraphError, match=r"the workload has 2 ranks but the fabric 'stack' has 4 NPUs"):
        replay(ring4, read_et_set(prefix, 2), ReplayOptions(sim=SIM))


def test_link_load_per_tier_adds_up_every_collective(ring4, tmp_path):
    single = run(ring4, tmp_path, [[coll(1, "all-reduce", 1 << 20)]] * 4)
    double = run(ring4, tmp_path, [[coll(1, "all-reduce", 1 << 20), coll(2, "all-reduce", 1 << 20, deps=(1,))]] * 4)
    for a, b in zip(single["tiers"], double["tiers"]):
        assert b["bytes"] == 2 * a["bytes"]
    assert sum(t["bytes"] for t in single["tiers"]) > 0


@pytest.mark.parametrize("algorithm", ["ring", "direct"])
def test_a_sub_group_collective_takes_astra_sims_fixed_10_ns_in_place_of_the_endpoint_delay(tmp_path, algorithm):
    """Measured on the analytical binary (518bd51), SW(4) 50 GB/s 100 ns, endpoint delay 1 ns,
    local-mem-bw 1600, 1 chunk: a 1,248,382 B all-reduce takes 12,614 ns on all four NPUs (direct) but
    24,852 ns on the group {0, 1} (ring or direct), 27 ns more than with the 1 ns endpoint delay: the sub-group's ring
    (dimension Local) moves packets with a fixed 10 ns (MemBus's Fast transmission)."""
    p = prepare(blueprints.graph("std.fabrics.stack", shape="SW(4)", bandwidth="[50.0 GiB/s]", latency="[100.0 ns]"))
    sim = SimulationOptions(model="astra", chunks=1, endpoint_delay_ns=1, local_mem_bw_gb_per_s=1600,
                            algorithm=(algorithm,))
    prefix, cg = write_set(tmp_path, [[coll(1, "all-reduce", 1248382, group=1)]] * 2 + [[comp(1, 1)]] * 2, {1: [0, 1]})
    r = replay(p, read_et_set(prefix, 4, cg), ReplayOptions(sim=sim))
    assert [n["finish_ns"] for n in r["npus"]] == [24852, 24852, 1000, 1000]
    if algorithm != "direct":
        return
    prefix, cg = write_set(tmp_path, [[coll(1, "all-reduce", 1248382)]] * 4)
    r = replay(p, read_et_set(prefix, 4, cg), ReplayOptions(sim=sim))
    assert [n["finish_ns"] for n in r["npus"]] == [12614] * 4


@pytest.mark.parametrize("kind, size, want", [("all-reduce", 13627, 4230), ("all-gather", 13627, 2282),
                                              ("all-to-all", 1362700, 15730)])
def test_a_sub_group_across_two_dimensions_times_each_message_on_the_first_dimension_that_differs(
        tmp_path, kind, size, want):
    """Measured on the congestion-unaware binary (518bd51), SW(4) x SW(3) at 100 / 50 GB/s, 500 ns,
    endpoint delay 10, ring, 1 chunk: the group {3, 4, 5} (coordinates (3, 0), (0, 1), (1, 1)) runs
    its ring with every message timed on the first dimension where its ends differ alone
    (MultiDimTopology::send), not over both switches."""
    p = prepare(blueprints.graph("std.fabrics.stack", shape="SW(4)_SW(3)", bandwidth="[100.0 GiB/s, 50.0 GiB/s]",
                                 latency="[500.0 ns, 500.0 ns]"))
    sim = SimulationOptions(model="astra", chunks=1, endpoint_delay_ns=10, local_mem_bw_gb_per_s=1600)
    per_rank = [[comp(1, 1)] for _ in range(12)]
    for r in (3, 4, 5):
        per_rank[r] = [coll(1, kind, size, group=1)]
    prefix, cg = write_set(tmp_path, per_rank, {1: [3, 4, 5]})
    r = replay(p, read_et_set(prefix, 12, cg), ReplayOptions(sim=sim))
    assert [r["npus"][i]["finish_ns"] for i in (3, 4, 5)] == [want] * 3


@pytest.mark.parametrize("members, size, late_us, want", [
    ((0, 1, 2, 3), 19328, (0, 0, 0, 0), [1650] * 4),  # the whole 4-NPU system (FC(4)): 1,362
    ((0, 1, 2, 3), 19328, (0, 3, 0, 1), [4650] * 4),
    ((0, 1, 2, 3, 4), 1932800, (0, 3, 0, 1, 0), [52016] + [54016] * 4),
])
def test_a_sub_group_direct_all_reduce_reduces_its_second_round_as_astra_sim_does(tmp_path, members, size, late_us, want):
    """Measured on the congestion-unaware binary (518bd51), FC(8) 200 GB/s 500 ns, endpoint delay 10,
    local-mem-bw 50, direct, 1 chunk: a communicator group's direct all-reduce (its Local ring)
    reduces the second round's messages too, one more reduction than on the whole system."""
    p = prepare(blueprints.graph("std.fabrics.stack", shape="FC(8)", bandwidth="[200.0 GiB/s]", latency="[500.0 ns]"))
    sim = SimulationOptions(model="astra", chunks=1, endpoint_delay_ns=10, local_mem_bw_gb_per_s=50, algorithm=("direct",))
    per_rank = [[comp(1, 1)] for _ in range(8)]
    for r, d in zip(members, late_us):
        per_rank[r] = [comp(1, d), coll(2, "all-reduce", size, group=1, deps=(1,))] if d else [coll(1, "all-reduce", size, group=1)]
    prefix, cg = write_set(tmp_path, per_rank, {1: list(members)})
    r = replay(p, read_et_set(prefix, 8, cg), ReplayOptions(sim=sim))
    assert [r["npus"][i]["finish_ns"] for i in members] == want


def test_a_send_is_one_message_whatever_the_chunk_count(tmp_path):
    """Measured on the congestion-aware binary (518bd51, corpus case w2000178: SW(4) 50 GB/s 100 ns,
    endpoint delay 10, 4 chunks): two sends into NPU 2 at once, 18,071 B from NPU 1 and 3,017 B
    from NPU 3, arrive at 872 and 312 ns, each one message store-and-forwarded over two links
    (ASTRA-sim never cuts a native send into preferred-dataset-splits chunks)."""
    p = prepare(blueprints.graph("std.fabrics.stack", shape="SW(4)", bandwidth="[50.0 GiB/s]", latency="[100.0 ns]"))
    sim = SimulationOptions(model="astra-aware", chunks=4, endpoint_delay_ns=10, local_mem_bw_gb_per_s=1600)
    per_rank = [[comp(1, 1)], [send(1, 1, 2, 18071)], [recv(1, 1, 2, 18071), recv(2, 3, 2, 3017)],
                [send(1, 3, 2, 3017)]]
    prefix, cg = write_set(tmp_path, per_rank)
    r = replay(p, read_et_set(prefix, 4, cg), ReplayOptions(sim=sim))
    assert [n["finish_ns"] for n in r["npus"]] == [1000, 872, 872, 312]


def test_a_two_dimensional_all_reduce_gathers_the_other_way_round(tmp_path):
    """Measured on the congestion-unaware binary (518bd51), RI(4) x SW(2) at 200 / 25 GB/s, 100 /
    1,000 ns, endpoint delay 10, ring, 1 chunk, a 60,058 B all-reduce with NPU 0 late by 1 µs: the
    late NPU finishes last, its ring neighbours 169 ns before it, the NPU opposite 338 ns before it,
    because ASTRA-sim runs the all-gather phase anticlockwise (QueueLevelHandler::get_next_queue_id_last)."""
    p = prepare(blueprints.graph("std.fabrics.stack", shape="RI(4)_SW(2)", bandwidth="[200.0 GiB/s, 25.0 GiB/s]",
                                 latency="[100.0 ns, 1000.0 ns]"))
    sim = SimulationOptions(model="astra", chunks=1, endpoint_delay_ns=10, local_mem_bw_gb_per_s=1600)
    per_rank = [[comp(1, 1), coll(2, "all-reduce", 60058, deps=(1,))]] + [[coll(1, "all-reduce", 60058)]] * 7
    prefix, cg = write_set(tmp_path, per_rank)
    r = replay(p, read_et_set(prefix, 8, cg), ReplayOptions(sim=sim))
    assert [n["finish_ns"] for n in r["npus"]] == [6775, 6606, 6437, 6606] + [5775] * 4



def test_groups_timed_through_their_images_give_the_report_of_runs_on_every_group(tmp_path):
    """Under --model astra the engine times every collective from a cache of runs by shape (the
    group's image under the stack's symmetries, per member position, with every member's start
    offset) and every message by its (source, destination, size): the whole report, records and
    tier bytes included, is the one of a timer that runs every group itself. Groups {7, 1, 5} and
    {6, 0, 4} vary in the server dimension of SW(2)_SW(4) only (same image) and issue staggered."""
    from infragraph.workload.replay import Replay

    def member(group, us):
        return [comp(1, us), coll(2, "all-gather", 65536, group=group, deps=(1,))]

    per_rank = [member(2, 1), member(1, 1), [send(1, 2, 3, 4096)], [recv(1, 2, 3, 4096)], member(2, 2),
                member(1, 2), member(2, 3), member(1, 3)]
    prefix, cg = write_set(tmp_path, per_rank, {1: [7, 1, 5], 2: [6, 0, 4]})
    w = read_et_set(prefix, 8, cg)
    p = prepare(blueprints.graph("std.fabrics.stack", shape="SW(2)_SW(4)", bandwidth="[900 GiB/s, 50 GiB/s]",
                                 latency="[100 ns, 1000 ns]"))
    folded, exact = Replay(p, w, ReplayOptions(sim=SIM)), Replay(p, w, ReplayOptions(sim=SIM))
    exact.timer._symmetric = None
    a, b = folded.run(), exact.run()
    assert (a.pop("engine_runs"), b.pop("engine_runs")) == (2, 3)
    assert a == b
    assert [(c["group"], c["start_ns"], c["last_issue_ns"]) for c in a["collectives"]] == [(1, 1000, 3000), (2, 1000, 3000)]
    assert a["npus"][7]["finish_ns"] != a["npus"][1]["finish_ns"] and len(a["messages"]) == 1
