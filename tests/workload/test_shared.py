"""The workload replay's shared network (infragraph/workload/shared.py): under the contention-aware
models, collectives and messages of different groups in flight at once share links.

The bounds are derived by hand. S = 1 MiB over 50 GiB/s links (S / B = 19,531.25 ns):
- RI(5), groups {0, 2} and {1, 3}: each all-gather member sends its S-byte shard two hops the only
  short way round (0->1->2 and 1->2->3, back 2->1->0 and 3->2->1), so the two groups share link 1->2
  one way and 2->1 the other. Under `fair` the two flows on each shared link get half its bandwidth
  from the start to the end: together each takes S / B longer than alone. Under `aware` (store and
  forward) group {1, 3}'s message is on link 1->2 during the time {0, 2}'s crosses its first hop, so
  they never meet: together = alone.
- SW(4), NPUs 0 and 1 both send S bytes to NPU 2 at 0: both messages need link switch->2 at once.
  `fair`: each at B / 2, both arrive S / B later than one alone; `aware` (a FIFO link): the first
  arrives as alone, the second S / B later.
"""

from __future__ import annotations

import pytest

from infragraph import blueprints
from infragraph.simulate import SimulationOptions, prepare, simulate
from infragraph.workload.replay import ReplayOptions, replay
from infragraph.workload.trace import read_et_set
from tests.workload.etsets import coll, comp, recv, send, write_set

S = 1 << 20
S_OVER_B = S / (50 * 2**30 / 1e9)  # ns
IDLE = [comp(1, 1)]


def sim(model: str) -> SimulationOptions:
    return SimulationOptions(model=model, chunks=1, endpoint_delay_ns=10, local_mem_bw_gb_per_s=None)


@pytest.fixture(scope="module")
def ring5():
    return prepare(blueprints.graph("std.fabrics.stack", shape="RI(5)", bandwidth="[50.0 GiB/s]", latency="[500.0 ns]"))


@pytest.fixture(scope="module")
def switch4():
    return prepare(blueprints.graph("std.fabrics.stack", shape="SW(4)", bandwidth="[50.0 GiB/s]", latency="[500.0 ns]"))


def run(p, tmp_path, model, per_rank, groups=None):
    prefix, cg = write_set(tmp_path, per_rank, groups)
    return replay(p, read_et_set(prefix, len(per_rank), cg), ReplayOptions(sim=sim(model)))


def finish(r):
    return [n["finish_ns"] for n in r["npus"]]


@pytest.mark.parametrize("model", ["fair", "aware", "astra-aware"])
def test_a_lone_collective_on_the_shared_network_takes_the_engines_time(ring5, tmp_path, model):
    a = [coll(1, "all-gather", S, group=1)]
    r = run(ring5, tmp_path, model, [a, IDLE, a, IDLE, IDLE], {1: [0, 2]})
    assert r["network"] == "shared"
    alone = simulate(ring5, SimulationOptions(**{**sim(model).__dict__, "collective": "all-gather", "size_bytes": S,
                                                 "groups": ((0, 2),), "top_links": 0}))
    if model == "astra-aware":  # ASTRA-sim's sub-group ring: 10 ns in place of the endpoint delay (timing.py)
        alone = simulate(ring5, SimulationOptions(**{**sim(model).__dict__, "collective": "all-gather", "size_bytes": S,
                                                     "groups": ((0, 2),), "top_links": 0, "dims": (2,),
                                                     "astra_communicator_group": True}))
    assert finish(r)[0] == finish(r)[2] == alone["collective_time_ns"] > S_OVER_B
    (c,) = r["collectives"]
    assert (c["start_ns"], c["end_ns"], c["ranks"]) == (0, alone["collective_time_ns"], 2)


def test_fair_two_groups_on_one_link_each_get_half_of_it(ring5, tmp_path):
    a, b = [coll(1, "all-gather", S, group=1)], [coll(1, "all-gather", S, group=2)]
    groups = {1: [0, 2], 2: [1, 3]}
    alone = finish(run(ring5, tmp_path, "fair", [a, IDLE, a, IDLE, IDLE], groups))[0]
    together = finish(run(ring5, tmp_path, "fair", [a, b, a, b, IDLE], groups))
    assert together[:4] == [pytest.approx(alone + S_OVER_B, abs=1e-6)] * 4
    assert together[4] == 1000


def test_aware_store_and_forward_keeps_the_offset_groups_apart(ring5, tmp_path):
    a, b = [coll(1, "all-gather", S, group=1)], [coll(1, "all-gather", S, group=2)]
    groups = {1: [0, 2], 2: [1, 3]}
    alone = finish(run(ring5, tmp_path, "aware", [a, IDLE, a, IDLE, IDLE], groups))[0]
    assert finish(run(ring5, tmp_path, "aware", [a, b, a, b, IDLE], groups))[:4] == [alone] * 4


@pytest.mark.parametrize("model, first_later", [("fair", 1.0), ("aware", 0.0), ("astra-aware", 0.0)])
def test_two_sends_into_one_npu_share_its_link(switch4, tmp_path, model, first_later):
    one = run(switch4, tmp_path, model, [[send(1, 0, 2, S)], IDLE, [recv(1, 0, 2, S)], IDLE])
    alone = one["messages"][0]["end_ns"]
    two = run(switch4, tmp_path, model, [[send(1, 0, 2, S)], [send(1, 1, 2, S)],
                                         [recv(1, 0, 2, S), recv(2, 1, 2, S, tag=0)], IDLE])
    wait = int(S_OVER_B) if model == "astra-aware" else S_OVER_B  # ASTRA-sim serializes in whole ns
    ends = sorted(m["end_ns"] for m in two["messages"])
    assert ends == [pytest.approx(alone + first_later * wait, abs=1e-6), pytest.approx(alone + wait, abs=1e-6)]
    assert finish(two)[2] == pytest.approx(alone + wait, abs=1e-6)


@pytest.mark.parametrize("model", ["fair", "aware"])
def test_chunks_cut_sends_and_collectives_as_when_timed_alone(ring5, tmp_path, model):
    """--chunks 4: a send 0 -> 2 (two hops) is a point-to-point job of four chunks, a collective
    runs its four chunks, both as timed alone. Under `aware` (store and forward) the chunks
    pipeline over the two hops: the send takes 500 + S/4B + 500 + S/B ns plus the two endpoint
    delays (10 ns each), where one message takes 2 (500 + S/B) + 20."""
    def both(per_rank, chunks, groups=None):
        prefix, cg = write_set(tmp_path, per_rank, groups)
        w = read_et_set(prefix, 5, cg)
        opts = SimulationOptions(model=model, chunks=chunks, endpoint_delay_ns=10, local_mem_bw_gb_per_s=None)
        return [replay(ring5, w, ReplayOptions(sim=opts, shared_network=s)) for s in (True, False)]

    message = [[send(1, 0, 2, S)], IDLE, [recv(1, 0, 2, S)], IDLE, IDLE]
    (one, _), (shared, alone) = both(message, 1), both(message, 4)
    assert shared["network"] == "shared"
    assert shared["messages"][0]["end_ns"] == alone["messages"][0]["end_ns"]
    if model == "aware":
        assert one["messages"][0]["end_ns"] == pytest.approx(2 * (500 + S_OVER_B) + 20, abs=1e-6)
        assert shared["messages"][0]["end_ns"] == pytest.approx(1000 + S_OVER_B / 4 + S_OVER_B + 20, abs=1e-6)
    a = [coll(1, "all-gather", S, group=1)]
    shared, alone = both([a, IDLE, a, IDLE, IDLE], 4, {1: [0, 2]})
    assert finish(shared) == finish(alone)


def test_astra_keeps_timing_each_collective_alone(ring5, tmp_path):
    a, b = [coll(1, "all-gather", S, group=1)], [coll(1, "all-gather", S, group=2)]
    groups = {1: [0, 2], 2: [1, 3]}
    alone = run(ring5, tmp_path, "astra", [a, IDLE, a, IDLE, IDLE], groups)
    together = run(ring5, tmp_path, "astra", [a, b, a, b, IDLE], groups)
    assert alone["network"] == together["network"] == "alone"
    assert finish(together)[0] == finish(alone)[0]


# NCCL mode (the default algorithm on GPU servers) on the shared network. The fabric: 12 one-GPU
# hosts (PCIe inside, one 400 Gb/s NIC each) on 4 leaves of 3, each leaf with ONE 400 Gb/s uplink to
# the spine (radix 4, down:up 3:1). Groups {0, 3} and {1, 4}: GPUs 0, 1 on leaf 0, GPUs 3, 4 on leaf 1.
# A 16 MiB all-gather on two GPUs in two servers: NCCL picks ring/Simple (payload efficiency 1),
# flat, 1 chunk; each GPU sends its 16 MiB shard to the other. Alone, the slowest link on the way is
# the host cable at NCCL's credit, 48 of its 50 GB/s (search.cc's per-channel speeds; the spine
# uplink is not a server cable and keeps 50 GB/s), so it takes S / 48 B/ns + NCCL's latency L.
# Together (fair): both groups' flows cross the one uplink each way, 25 B/ns each from start to
# end: S / 25 + L, i.e. S / 25 - S / 48 longer. Aware (FIFO links; in NCCL mode a message pipelines
# through the switches and NICs): the uplink carries one 16 MiB message at a time, the first as its
# host cable feeds it (S / 48), so the second starts there S / 48 after it and, then limited by its
# destination's host cable at 48 B/ns, finishes S / 48 later; one group finishes as alone. (Until
# 26 Nov 2026 every switch and NIC stored and forwarded whole messages: S / 50 later here, and a
# ring across servers paid its serialization at every hop, 6x its time on DGX H100 servers.)
NS = 1 << 24


@pytest.fixture(scope="module")
def clos12():
    return prepare(blueprints.graph("std.fabrics.clos", radix=4, tiers=2, oversubscription="[3]"))


def run_nccl(p, tmp_path, model, per_rank, shared=True):
    prefix, cg = write_set(tmp_path, per_rank + [IDLE] * (12 - len(per_rank)), {1: [0, 3], 2: [1, 4]})
    return replay(p, read_et_set(prefix, 12, cg), ReplayOptions(sim=SimulationOptions(model=model),
                                                                shared_network=shared))


def test_nccl_alone_is_the_host_cable_at_nccls_credit_plus_nccls_latency(clos12, tmp_path):
    a = [coll(1, "all-gather", NS, group=1)]
    r = run_nccl(clos12, tmp_path, "fair", [a, IDLE, IDLE, a])
    assert r["network"] == "shared"
    one = simulate(clos12, SimulationOptions(model="fair", collective="all-gather", size_bytes=NS, groups=((0, 3),),
                                             top_links=0))
    assert (one["nccl"]["algorithm"], one["nccl"]["protocol"]) == ("ring", "Simple")
    assert finish(r)[0] == finish(r)[3] == one["collective_time_ns"] == pytest.approx(NS / 48 + one["nccl"]["latency_ns"])


@pytest.mark.parametrize("model", ["fair", "aware"])
def test_nccl_two_groups_on_one_uplink_take_longer_than_alone_by_a_derivable_amount(clos12, tmp_path, model):
    a, b = [coll(1, "all-gather", NS, group=1)], [coll(1, "all-gather", NS, group=2)]
    alone = run_nccl(clos12, tmp_path, model, [a, b, IDLE, a, b], shared=False)
    together = run_nccl(clos12, tmp_path, model, [a, b, IDLE, a, b])
    assert (alone["network"], together["network"]) == ("alone (--network alone)", "shared")
    t = finish(alone)[0]
    assert finish(alone)[:5] == [t, t, 1000, t, t]
    if model == "fair":
        assert finish(together)[:5] == [pytest.approx(t + NS / 25 - NS / 48, abs=1e-6)] * 2 + [1000] + \
            [pytest.approx(t + NS / 25 - NS / 48, abs=1e-6)] * 2
    else:
        assert sorted(c["end_ns"] for c in together["collectives"]) == [t, pytest.approx(t + NS / 48, abs=1e-6)]


@pytest.mark.parametrize("model", ["fair", "aware"])
def test_nccl_collectives_that_never_overlap_take_their_alone_times(clos12, tmp_path, model):
    """Group 2's all-gather waits 10 ms of compute, long after group 1's has finished: the shared
    network gives every NPU the alone replay's finish (exactly under fair; aware accumulates the
    same sums in another order, absolute times instead of offsets from the first issue)."""
    a, late = [coll(1, "all-gather", NS, group=1)], [comp(1, 10_000), coll(2, "all-gather", NS, group=2, deps=[1])]
    alone = run_nccl(clos12, tmp_path, model, [a, late, IDLE, a, late], shared=False)
    shared = run_nccl(clos12, tmp_path, model, [a, late, IDLE, a, late])
    assert shared["network"] == "shared"
    assert finish(alone)[1] > 10_000_000 + finish(alone)[0] - 1
    if model == "fair":
        assert finish(shared) == finish(alone)
    else:
        assert finish(shared) == [pytest.approx(x, rel=1e-15) for x in finish(alone)]


@pytest.mark.parametrize("shared", [True, False])
def test_nccl_send_runs_at_nccls_credit_alone_and_shared(clos12, tmp_path, shared):
    """A send 0 -> 3 (leaf 0 to leaf 1) is NCCL's send/recv both ways (simulate.nccl): 16 MiB at the
    host cable's NCCL credit, 48 GB/s, plus the route's latencies (2 x 500 ns host cables, 2 x 500 ns
    spine cables, 4 x 150 ns PCIe hops) and two 10 ns endpoint delays. Until 26 Nov 2026 the alone
    replay ran it at the rated 50 GB/s (4 % faster), the shared one at 48."""
    per_rank = [[send(1, 0, 3, NS)], IDLE, IDLE, [recv(1, 0, 3, NS)]]
    r = run_nccl(clos12, tmp_path, "fair", per_rank, shared=shared)
    assert r["network"] == ("shared" if shared else "alone (--network alone)")
    (m,) = r["messages"]
    assert m["end_ns"] - m["start_ns"] == pytest.approx(NS / 48 + 2600 + 20, rel=1e-12)  # 352,145.33 ns


def test_nccl_protocol_overhead_is_bytes_on_the_wire(tmp_path):
    """A small all-reduce NCCL runs with LL (half of every 8-byte line is flags): alone the links
    are derated to half; on the shared network the collective puts twice its bytes on full-credit
    links instead. Same time, twice the tier bytes (the wire's, flags included)."""
    p = prepare(blueprints.graph("std.fabrics.clos", radix=4, tiers=2, nics_per_host=2, rail_optimized=True))
    n = int(p.npu_nodes.size)
    one = simulate(p, SimulationOptions(model="fair", collective="all-reduce", size_bytes=S, top_links=0))
    assert one["nccl"]["protocol"] == "LL"
    prefix, cg = write_set(tmp_path, [[coll(1, "all-reduce", S)]] * n)
    w = read_et_set(prefix, n, cg)
    shared = replay(p, w, ReplayOptions(sim=SimulationOptions(model="fair")))
    alone = replay(p, w, ReplayOptions(sim=SimulationOptions(model="fair"), shared_network=False))
    assert shared["step_time_ns"] == alone["step_time_ns"] == one["collective_time_ns"]
    assert [t["bytes"] for t in shared["tiers"]] == [2 * t["bytes"] for t in alone["tiers"]]


# PXN (NCCL's PCI x NVLink, on by default since NCCL 2.12: NCCL_PXN_DISABLE=0): an all-to-all's message
# to a GPU of another server first crosses NVLink to the GPU of its own server on the destination's
# rail, which sends it through its NIC. The fabric: 2 servers of 2 H100-class GPUs (one 450 GB/s
# scale-up switch; GPU i and NIC i on PCIe switch i), rail-optimized (NIC i of both servers on leaf
# i), the leaves joined by 100 Gb/s = 12.5 GB/s spine cables (two per leaf). A 16 MiB all-to-all:
# each GPU sends S / 4 = 4 MiB to each of its 3 peers. With PXN every message between servers stays
# on its destination's rail: host cable i of a server carries the 4 MiB of both its GPUs to GPU i of
# the other server, 8 MiB per direction at NCCL's credit for a 400 Gb/s NIC, 48 GB/s: 174,762.67 ns
# (NCCL's modelled latency of an all-to-all is 0 here), and nothing crosses the spine. Without it the
# 4 cross-rail messages leaving each rail's leaf (8 MiB) go up its two 12.5 GB/s spine cables: at
# least 4 MiB / 12.5 GB/s = 335,544.32 ns. Shared and alone must route it alike.
PXN_S = 1 << 24


@pytest.fixture(scope="module")
def rails2():
    return prepare(blueprints.graph(
        "std.fabrics.clos", radix=4, tiers=2, hosts=2, nics_per_host=2, rail_optimized=True,
        fabric_link='link(100 Gbps, 500 ns, "switch to switch")',
        host_device="hosts.host(cpus=1, gpus=2, nics=2, pcie_switches=2, scaleup_switches=1, scaleup_bandwidth=450 GB/s)"))


@pytest.mark.parametrize("model", ["fair", "aware"])
def test_nccl_all_to_all_keeps_pxn_on_the_shared_network(rails2, tmp_path, model):
    prefix, cg = write_set(tmp_path, [[coll(1, "all-to-all", PXN_S)]] * 4)
    w = read_et_set(prefix, 4, cg)
    shared = replay(rails2, w, ReplayOptions(sim=SimulationOptions(model=model)))
    alone = replay(rails2, w, ReplayOptions(sim=SimulationOptions(model=model), shared_network=False))
    assert (shared["network"], alone["network"]) == ("shared", "alone (--network alone)")
    assert finish(shared) == [pytest.approx(x, rel=1e-12) for x in finish(alone)]
    spine = {t["tier"]: t["bytes"] for t in shared["tiers"]}["leaf–spine"]
    assert spine == 0.0  # every message stayed on its destination's rail
    if model == "fair":
        assert finish(shared) == [pytest.approx(2 * PXN_S / 4 / 48, rel=1e-12)] * 4  # 174,762.67 ns


def test_pxn_off_crosses_the_spine_alike_shared_and_alone(rails2, tmp_path):
    prefix, cg = write_set(tmp_path, [[coll(1, "all-to-all", PXN_S)]] * 4)
    w = read_et_set(prefix, 4, cg)
    opts = SimulationOptions(model="fair", pxn=False)
    shared = replay(rails2, w, ReplayOptions(sim=opts))
    alone = replay(rails2, w, ReplayOptions(sim=opts, shared_network=False))
    assert finish(shared) == [pytest.approx(x, rel=1e-12) for x in finish(alone)]
    assert shared["step_time_ns"] >= PXN_S / 4 / 12.5 > 2 * PXN_S / 4 / 48
    assert {t["tier"]: t["bytes"] for t in shared["tiers"]}["leaf–spine"] > 0


@pytest.mark.parametrize("shared", [True, False])
def test_nccl_cautions_reach_the_workload_report(tmp_path, shared):
    """A step of a GB200 NVL72 (72 GPUs in one NVLink domain, whose NVLS the model does not run)
    says so in its report, shared and alone, once however many collectives: `caveats` and a
    `caution:` line."""
    from infragraph.workload.report import format_report

    p = prepare(blueprints.graph("std.devices.gb200_nvl72"))
    prefix, cg = write_set(tmp_path, [[coll(1, "all-reduce", S), coll(2, "all-reduce", S, deps=[1])]] * 72)
    r = replay(p, read_et_set(prefix, 72, cg), ReplayOptions(sim=SimulationOptions(model="fair"), shared_network=shared))
    (caveat,) = r["caveats"]
    assert caveat.startswith("all-reduce: the group's GPUs are in an NVLink domain of 72 GPUs")
    assert f"caution: {caveat}" in format_report(r)


# ASTRA-sim's congestion-aware binary (518bd51, 1-D topologies only) on the 1,024-NPU GPT-3-like step of
# benchmarks/workload.py (b = 1: TP 8, PP 8, DP 16) on one Switch(1024), 50 GB/s, 1,000 ns; 4 chunks,
# ring, LIFO, endpoint delay 10 ns, local-mem-bw 1600: every NPU's finish, by pipeline stage (rank // 128).
AWARE_1K_FINISH_BY_STAGE = (684180879, 651300703, 629446873, 607593043, 585739213, 563885383, 542031553, 531440443)


@pytest.mark.slow
@pytest.mark.skipif(__import__("os").environ.get("INFRAGRAPH_SLOW") != "1",
                    reason="writes and replays a 1,024-NPU step (about 25 s): INFRAGRAPH_SLOW=1 pytest -m slow")
def test_astra_aware_equals_the_congestion_aware_binary_on_a_1024_npu_step(tmp_path):
    import subprocess

    from benchmarks.workload import spec

    (tmp_path / "spec.yaml").write_text(spec(16, 8, 16, 1, 8), encoding="utf-8")
    subprocess.run(["infragraph", "workload", "spec.yaml", "-o", "et/step"], cwd=tmp_path, check=True, capture_output=True)
    p = prepare(blueprints.graph("std.fabrics.stack", shape="SW(1024)", bandwidth="[50 GiB/s]", latency="[1000 ns]"))
    w = read_et_set(str(tmp_path / "et" / "step"), 1024, str(tmp_path / "et" / "step.json"))
    opts = SimulationOptions(model="astra-aware", chunks=4, algorithm=("ring",), scheduling="lifo", endpoint_delay_ns=10,
                             local_mem_bw_gb_per_s=1600)
    r = replay(p, w, ReplayOptions(sim=opts))
    assert r["network"] == "shared"
    assert [int(n["finish_ns"]) for n in r["npus"]] == [AWARE_1K_FINISH_BY_STAGE[k // 128] for k in range(1024)]
