"""MSCCL++ execution plans: hand-written 8-GPU ring and all-pairs plans import, validate and time like
the engine's ring and direct; MSCCL++'s own test plans import; errors name the document path."""
from __future__ import annotations

import json

import pytest

from infragraph.collectives.formats import detect, load_any
from infragraph.collectives.mscclpp import read_mscclpp
from infragraph.collectives.run import simulate_schedule
from infragraph.collectives.schedule import validate
from infragraph.errors import InfraGraphError
from infragraph.simulate import SimulationOptions as Opts, prepare, simulate
from tests import simgraphs
from tests.collectives import mscclpp_programs as mpp


@pytest.mark.parametrize("plan, fabric, builtin", [
    (mpp.ring_allreduce, "ring", "ring"), (mpp.allpairs_allreduce, "fc", "direct"),
    (mpp.allpairs_allreduce_packets, "fc", "direct"),
])
def test_hand_written_plans_import_validate_and_time_like_the_builtin(plan, fabric, builtin):
    schedule = read_mscclpp(plan(8), "plan.json")
    validate(schedule)
    assert schedule.collective == "all-reduce" and schedule.ranks == 8
    g = prepare(simgraphs.ring(8) if fabric == "ring" else simgraphs.fully_connected(8))
    free = dict(local_mem_bw_gb_per_s=None)  # (all-pairs: one reduction per transfer, see test_msccl)
    ours = simulate_schedule(g, schedule, 1 << 20, Opts(**free))["collective_time_ns"]
    assert ours == simulate(g, Opts(algorithm=(builtin,), size_bytes=1 << 20, **free))["collective_time_ns"] > 0


def test_ring_plan_reduces_then_copies():
    steps = read_mscclpp(mpp.ring_allreduce(8), "plan.json").steps
    assert len(steps) == 14
    assert {t.op for s in steps[:7] for t in s} == {"reduce"} and {t.op for s in steps[7:] for t in s} == {"copy"}


def test_mscclpp_plans_are_detected_by_content(tmp_path):
    path = tmp_path / "plan.json"
    path.write_text(mpp.ring_allreduce(4))
    assert detect(path.read_text()) == "mscclpp"
    assert load_any(str(path)).ranks == 4


def _broken(change):
    doc = json.loads(mpp.ring_allreduce(4))
    change(doc)
    return json.dumps(doc)


def _op(doc, g, o):
    return doc["gpus"][g]["threadblocks"][0]["ops"][o]


@pytest.mark.parametrize("case, change, where, message", [
    ("collective", lambda d: d.update(collective="alltoall"), "/collective", "a schedule implements"),
    ("NVLS op", lambda d: _op(d, 0, 0).update(name="glres"), "/gpus/0/threadblocks/0/ops/0/name", "is a NVLS (switch) op"),
    ("unknown op", lambda d: _op(d, 1, 1).update(name="shout"), "/gpus/1/threadblocks/0/ops/1/name", "unknown op"),
    ("missing key", lambda d: _op(d, 0, 0).pop("src_buff"), "/gpus/0/threadblocks/0/ops/0/src_buff", "missing"),
    ("remote buffer", lambda d: _op(d, 0, 0)["dst_buff"][0].update(buffer_id=5), "/gpus/0/threadblocks/0/ops/0/dst_buff/0/buffer_id",
     "has 2 memory remote buffer"),
    ("bounds", lambda d: _op(d, 0, 0)["src_buff"][0].update(index=4), "/gpus/0/threadblocks/0/ops/0/src_buff/0",
     r"i\[4:5\] is outside GPU 0's i buffer of 4 chunks"),
    ("channel", lambda d: _op(d, 0, 1).update(channel_ids=[7]), "/gpus/0/threadblocks/0/ops/1/channel_ids/0",
     "expected a memory channel of this thread block"),
    ("peer", lambda d: d["gpus"][2]["channels"][0].update(connected_to=[2, 1]), "/gpus/2/channels/0/connected_to/0",
     "other than 2"),
    ("unanswered wait", lambda d: _op(d, 0, 1).update(name="nop"), "/gpus/1/threadblocks/0/ops/",
     "this wait never ends"),
])
def test_errors_name_the_document_path(case, change, where, message):
    with pytest.raises(InfraGraphError) as info:
        read_mscclpp(_broken(change), "plan.json")
    diag = info.value.diagnostics[0]
    assert diag.location.file == "plan.json" and diag.location.path.startswith(where), diag.location
    assert message in diag.message or __import__("re").search(message, diag.message), diag.message


def test_a_read_of_an_empty_slot_is_refused():
    """Rank 0 adds scratch slot 3 before anything was put there: it waits on nothing first."""
    def change(doc):
        ops = doc["gpus"][0]["threadblocks"][0]["ops"]
        ops.insert(0, {"name": "re", "src_buff": [{"type": "i", "index": 3, "size": 1}, {"type": "s", "index": 3, "size": 1}],
                       "dst_buff": [{"type": "i", "index": 3, "size": 1}]})
    with pytest.raises(InfraGraphError, match=r"reads s\[3\] of GPU 0, which holds nothing"):
        read_mscclpp(_broken(change), "plan.json")


def test_not_json_is_located():
    with pytest.raises(InfraGraphError) as info:
        read_mscclpp('{"gpus": [,]}', "plan.json")
    assert (info.value.diagnostics[0].location.line, info.value.diagnostics[0].location.column) == (1, 11)


def test_packet_reads_follow_their_writes():
    """Without signals, the all-pairs packet plan still takes two steps: the reduction waits for
    the packets it adds, the unpacking for the result packets."""
    steps = read_mscclpp(mpp.allpairs_allreduce_packets(8), "plan.json").steps
    assert [len(s) for s in steps] == [56, 56]
    assert {t.op for t in steps[0]} == {"reduce"} and {t.op for t in steps[1]} == {"copy"}


def test_unwritten_packets_are_refused():
    def change(doc):
        ops = doc["gpus"][0]["threadblocks"][0]["ops"]
        ops.append({"name": "upkt", "src_buff": [{"type": "s", "index": 8, "size": 1}],
                    "dst_buff": [{"type": "i", "index": 1, "size": 1}]})
    doc = json.loads(mpp.allpairs_allreduce_packets(8))
    change(doc)
    with pytest.raises(InfraGraphError, match=r"reads packets from s\[8\], which no op writes"):
        read_mscclpp(json.dumps(doc), "plan.json")
