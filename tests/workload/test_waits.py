"""Waiting for a peer is not communication: a receive moves data from its send's issue, a
collective from its last member's issue (infragraph/workload/waits.py), and the per-NPU breakdown
counts the time before as waiting; its parts sum to every NPU's finish time."""

from __future__ import annotations

import numpy as np
import pytest

from infragraph import blueprints
from infragraph.simulate import SimulationOptions, prepare
from infragraph.workload.llm import Generator, LlmSpec
from infragraph.workload.replay import ReplayOptions, replay
from infragraph.workload.trace import KIND_CODES, read_et_set
from infragraph.workload.waits import data_start
from tests.workload.etsets import coll, comp, recv, send, write_set

SIM = SimulationOptions(model="astra", chunks=1, endpoint_delay_ns=10, local_mem_bw_gb_per_s=1600)
HOP = 500 + 65536 * 10**9 // (50 * 2**30)  # one hop of RI(4): latency + 64 KiB at 50 GiB/s, whole ns = 1,720
PARTS = ("compute_ns", "exposed_ns", "memory_ns", "waiting_ns", "idle_ns")


@pytest.fixture(scope="module")
def ring4():
    return prepare(blueprints.graph("std.fabrics.stack", shape="RI(4)", bandwidth="[50.0 GiB/s]", latency="[500.0 ns]"))


def run(p, tmp_path, per_rank, groups=None, model="astra", **kw):
    prefix, cg = write_set(tmp_path, per_rank, groups)
    sim = SIM if model == "astra" else SimulationOptions(model=model, chunks=1, endpoint_delay_ns=10,
                                                         local_mem_bw_gb_per_s=None)
    return replay(p, read_et_set(prefix, len(per_rank), cg), ReplayOptions(sim=sim, **kw))


def parts(n: dict) -> tuple[float, ...]:
    return tuple(n[k] for k in ("compute_ns", "communication_ns", "overlapped_ns", "exposed_ns", "waiting_ns",
                                "idle_ns"))


def test_data_start_pairs_the_kth_send_with_the_kth_receive_and_collective_members_by_instance():
    k = KIND_CODES
    # NPU 0: two sends on key 0 issued at 10, 30; a collective on group 0 issued at 5, another at 40.
    # NPU 1: two receives on key 0 posted at 0 and 35 (the second after its send), the collectives at 20, 25.
    kind = np.array([k["send"], k["send"], k["collective"], k["collective"],
                     k["recv"], k["recv"], k["collective"], k["collective"], k["compute"]], dtype=np.uint8)
    channel = np.array([0, 0, 0, 0, 0, 0, 0, 0, 0])
    start = np.array([30.0, 10.0, 5.0, 40.0, 0.0, 35.0, 25.0, 20.0, 3.0])
    got = data_start(np.array([0, 4, 9]), kind, channel, start)
    # the send issued at 10 is the first: receive 0 moves from 10, receive 1 (posted at 35) from 35;
    # instance 0 is NPU 0's issue at 5 with NPU 1's at 20 -> 20; instance 1 is 40 with 25 -> 40
    assert got.tolist() == [30.0, 10.0, 20.0, 40.0, 10.0, 35.0, 40.0, 20.0, 3.0]


def test_a_two_stage_pipeline_with_one_micro_batch_by_hand(ring4, tmp_path):
    """Stage 0 (rank 0): forward 10 µs, send the activation to rank 1, backward 20 µs after the
    gradient's receive, posted at 0 as 1F1B posts it. Stage 1 (rank 1): receive the activation
    (posted at 0), forward 10 µs, backward 20 µs, send the gradient. Each message is one hop (1,720 ns).
    Rank 0: forward [0, 10,000], send [10,000, 11,720], gradient's send issued 41,720, arrives 43,440,
      backward [43,440, 63,440]: compute 30,000, communication 3,440 (all exposed), waiting
      [11,720, 41,720] = 30,000 (the bubble), idle 0; finish 63,440.
    Rank 1: activation's receive waits [0, 10,000], moves [10,000, 11,720], forward [11,720, 21,720],
      backward [21,720, 41,720], send [41,720, 43,440]: compute 30,000, communication 3,440,
      waiting 10,000, idle 0; finish 43,440; idle to the step's end 20,000."""
    stage0 = [comp(1, 10), send(2, 0, 1, 65536, tag=0, deps=(1,)), recv(3, 1, 0, 65536, tag=1),
              comp(4, 20, deps=(3,))]
    stage1 = [recv(1, 0, 1, 65536, tag=0), comp(2, 10, deps=(1,)), comp(3, 20, deps=(2,)),
              send(4, 1, 0, 65536, tag=1, deps=(3,))]
    assert HOP == 1720
    r = run(ring4, tmp_path, [stage0, stage1, [comp(1, 1)], [comp(1, 1)]], keep_timeline=True)
    n0, n1, n2, _ = r["npus"]
    assert (n0["finish_ns"], n1["finish_ns"]) == (63440, 43440)
    assert parts(n0) == (30000, 3440, 0, 3440, 30000, 0)
    assert parts(n1) == (30000, 3440, 0, 3440, 10000, 0)
    assert n1["idle_to_step_ns"] == 20000
    assert parts(n2) == (1000, 0, 0, 0, 0, 0) and n2["idle_to_step_ns"] == 62440
    # the timeline carries each node's data start: the gradient's receive on rank 0 moves from 41,720
    assert (3, "recv", "recv3", 0.0, 43440.0, 41720.0) in r["timeline"][0]


def test_an_early_collective_member_waits_for_the_last_one(ring4, tmp_path):
    """Ranks 0 and 1 all-reduce on group {0, 1}; rank 0 issues it at 1 µs, rank 1 at 2 µs: rank 0
    waits [1,000, 2,000] and communicates from 2,000 to its finish; rank 1 does not wait."""
    early = [comp(1, 1), coll(2, "all-reduce", 4096, group=1, deps=(1,))]
    late = [comp(1, 2), coll(2, "all-reduce", 4096, group=1, deps=(1,))]
    r = run(ring4, tmp_path, [early, late, [comp(1, 1)], [comp(1, 1)]], {1: [0, 1]})
    n0, n1 = r["npus"][:2]
    assert (n0["compute_ns"], n0["waiting_ns"], n0["communication_ns"]) == (1000, 1000, n0["finish_ns"] - 2000)
    assert (n1["compute_ns"], n1["waiting_ns"], n1["communication_ns"]) == (2000, 0, n1["finish_ns"] - 2000)
    assert n0["idle_ns"] == n1["idle_ns"] == 0


def _llm(tmp_path, **kw):
    s = LlmSpec(**{**dict(layers=4, hidden=64, heads=4, seq=32, vocab=100, global_batch=8), **kw})
    out = Generator(s).write(tmp_path / "step")
    return read_et_set(str(tmp_path / "step"), s.world, out["comm_group_file"])


@pytest.mark.parametrize("model", ["astra", "fair"])
@pytest.mark.parametrize("kw", [dict(pp=4), dict(pp=2, dp=2, micro_batch=2), dict(tp=2, dp=2, zero=1),
                                dict(dp=4, ep=2, experts=4, top_k=2)])
def test_the_parts_sum_to_every_npus_finish(ring4, tmp_path, model, kw):
    sim = SIM if model == "astra" else SimulationOptions(model=model, chunks=1, endpoint_delay_ns=10,
                                                         local_mem_bw_gb_per_s=None)
    r = replay(ring4, _llm(tmp_path, **kw), ReplayOptions(sim=sim))
    for n in r["npus"]:
        assert all(n[k] >= 0 for k in PARTS), n
        assert sum(n[k] for k in PARTS) == pytest.approx(n["finish_ns"], rel=1e-12, abs=1e-6), n
        assert n["overlapped_ns"] + n["exposed_ns"] == pytest.approx(n["communication_ns"], rel=1e-12, abs=1e-6)
    if kw.get("pp", 1) > 1:  # a pipeline waits for its neighbour stages
        assert sum(n["waiting_ns"] for n in r["npus"]) > 0
