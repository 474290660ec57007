"""A schedule as ASTRA-sim's custom-collective ETs: one send per receiver and one receive per sender
per step, sized from --size, tagged with the step, chained by the rank's steps, reductions as
COMP nodes."""
from __future__ import annotations

import pytest

from infragraph.collectives.chakra_et import chunk_bytes, write_ets
from infragraph.collectives.ring import ring_schedule
from infragraph.collectives.schedule import read_schedule
from infragraph.errors import InfraGraphError
from infragraph.workload.chakra import decode_stream, schema

TYPES = {5: "send", 6: "recv", 4: "compute"}


def read_et(path):
    S = schema()
    out = []
    for raw in list(decode_stream(open(path, "rb").read(), path))[1:]:
        node = S.Node()
        node.ParseFromString(raw)
        attrs = {a.name: a.int64_val for a in node.attr}
        out.append((node.id, TYPES[node.type], tuple(node.data_deps), node.duration_micros, attrs))
    return out


def test_ring_all_reduce_ets(tmp_path):
    schedule = read_schedule(ring_schedule("all-reduce", 8))
    paths = write_ets(schedule, str(tmp_path / "ring"), 1 << 20, 50.0)
    assert len(paths) == 8 and paths[3].endswith("ring.3.et")
    nodes = read_et(paths[0])
    sends = [n for n in nodes if n[1] == "send"]
    recvs = [n for n in nodes if n[1] == "recv"]
    comps = [n for n in nodes if n[1] == "compute"]
    assert len(sends) == len(recvs) == 14 and len(comps) == 7
    assert {n[4]["comm_dst"] for n in sends} == {1} and {n[4]["comm_src"] for n in recvs} == {7}
    assert {n[4]["comm_size"] for n in sends + recvs} == {131072}
    assert [n[4]["comm_tag"] for n in sends] == list(range(14))
    # 3 x floor(131,072 B / 50 GB/s) = 7,863 ns: 7 us, whole microseconds cut down as the ET stores
    # them (ASTRA-sim's shipped ring ETs hold 7 too)
    assert {n[3] for n in comps} == {7}
    # step s's send waits for step s-1's reduction (RS) or receive (AG)
    by_id = {n[0]: n for n in nodes}
    assert sends[0][2] == () and by_id[sends[1][2][0]][1] == "compute" and by_id[sends[8][2][0]][1] == "recv"


def test_all_gather_chunk_is_the_shard():
    ag = read_schedule(ring_schedule("all-gather", 4))
    assert chunk_bytes(ag, 1000) == 1000
    assert chunk_bytes(read_schedule(ring_schedule("all-reduce", 4)), 1000) == 250


def test_too_small_a_size_is_refused(tmp_path):
    with pytest.raises(InfraGraphError, match="leaves chunks of 0 B"):
        write_ets(read_schedule(ring_schedule("all-reduce", 8)), str(tmp_path / "r"), 7)


def test_chunk_dependencies_give_one_node_per_transfer(tmp_path):
    doc = ring_schedule("all-gather", 4)
    doc["dependencies"] = "chunks"
    nodes = read_et(write_ets(read_schedule(doc), str(tmp_path / "ag"), 4096, None)[1])
    by_id = {n[0]: n for n in nodes}
    sends = [n for n in nodes if n[1] == "send"]
    assert len(sends) == 3 and len(nodes) == 6
    # rank 1 first sends its own chunk (no dependency), then each chunk after its receipt
    assert sends[0][2] == () and sends[0][4]["comm_tag"] == 0 * 4 + 1
    for send in sends[1:]:
        (dep,) = send[2]
        assert by_id[dep][1] == "recv" and by_id[dep][4]["comm_tag"] % 4 == send[4]["comm_tag"] % 4


def test_chunk_dependencies_wait_for_every_receipt_of_the_chunks_latest_step(tmp_path):
    """A reduce-scatter on 3 ranks where rank 0 reduces chunk 0 from ranks 1 and 2 in one step and
    then sends it on: its send waits for both reductions (the engine's per-chunk step waits for
    both messages), not only the last one written."""
    doc = {"collective": "all-reduce", "ranks": 3, "chunks_per_rank": 1, "dependencies": "chunks", "steps": [
        [{"src": 1, "dst": 0, "chunk": 0, "op": "reduce"}, {"src": 2, "dst": 0, "chunk": 0, "op": "reduce"},
         {"src": 0, "dst": 1, "chunk": 1, "op": "reduce"}, {"src": 2, "dst": 1, "chunk": 1, "op": "reduce"},
         {"src": 0, "dst": 2, "chunk": 2, "op": "reduce"}, {"src": 1, "dst": 2, "chunk": 2, "op": "reduce"}],
        [{"src": 0, "dst": 1, "chunk": 0, "op": "copy"}, {"src": 0, "dst": 2, "chunk": 0, "op": "copy"},
         {"src": 1, "dst": 0, "chunk": 1, "op": "copy"}, {"src": 1, "dst": 2, "chunk": 1, "op": "copy"},
         {"src": 2, "dst": 0, "chunk": 2, "op": "copy"}, {"src": 2, "dst": 1, "chunk": 2, "op": "copy"}]]}
    nodes = read_et(write_ets(read_schedule(doc), str(tmp_path / "ar"), 3 << 20, 50.0)[0])
    by_id = {n[0]: n for n in nodes}
    later = [n for n in nodes if n[1] == "send" and n[4]["comm_tag"] // 3 == 1]
    assert len(later) == 2
    for send in later:
        assert sorted(by_id[d][1] for d in send[2]) == ["compute", "compute"]
        assert sorted(by_id[by_id[d][2][0]][4]["comm_src"] for d in send[2]) == [1, 2]
