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


def test_astra_keeps_timing_each_collective_alone(ring5, tmp_path):
    a, b = [coll(1, "all-gather", S, group=1)], [coll(1, "all-gather", S, group=2)]
    groups = {1: [0, 2], 2: [1, 3]}
    alone = run(ring5, tmp_path, "astra", [a, IDLE, a, IDLE, IDLE], groups)
    together = run(ring5, tmp_path, "astra", [a, b, a, b, IDLE], groups)
    assert alone["network"] == together["network"] == "alone"
    assert finish(together)[0] == finish(alone)[0]


def test_nccl_mode_times_each_collective_alone_and_says_so(tmp_path):
    """GPU servers: `fair`'s default algorithm is NCCL's, whose plan derates the links per
    collective, so no shared network; the report names the reason and the step still replays."""
    p = prepare(blueprints.graph("std.fabrics.clos", radix=4, tiers=2, nics_per_host=2, rail_optimized=True))
    n = int(p.npu_nodes.size)
    r = run(p, tmp_path, "fair", [[coll(1, "all-reduce", S)]] * n)
    assert r["network"] == "alone (NCCL mode derates the links per collective)"
    alone = simulate(p, SimulationOptions(model="fair", collective="all-reduce", size_bytes=S, chunks=1,
                                          endpoint_delay_ns=10, local_mem_bw_gb_per_s=None, top_links=0))
    assert r["step_time_ns"] == alone["collective_time_ns"] > 0


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
