"""A schedule's transfers that name their path take it (infragraph/simulate/schedule_paths.py).

The fabric: NPUs 0 and 1, each linked to two switches (100 Gbit/s = 12.5 B/ns, 100 ns per link),
so two parallel ways join them. A chunk of C bytes over one way takes C / 12.5 ns plus 200 ns of
latency under the fair and unaware models (no endpoint delay, reductions free).
"""
from __future__ import annotations

import json

import pytest

from infragraph.collectives.msccl import read_msccl, to_schedule
from infragraph.collectives.run import simulate_schedule
from infragraph.collectives.schedule import ScheduleError, read_schedule, schedule_doc
from infragraph.errors import InfraGraphError
from infragraph.simulate import SimulationOptions as Opts, prepare
from tests import simgraphs

SHARD = 1 << 20  # all-gather: each NPU's shard, 2 chunks of 512 KiB
CHUNK_NS = SHARD / 2 / 12.5  # 41,943.04 ns for one chunk on one way
LATENCY_NS = 200.0
SW = ["sw.0.asic.0", "sw.1.asic.0"]


def _two_ways():
    sw = {"name": "sw", "components": [{"name": "asic", "choice": "switch", "count": 1}]}
    edges = [{"ep1": {"instance": f"npu[{i}]", "component": "xpu"}, "ep2": {"instance": f"sw[{s}]", "component": "asic"},
              "link": "l", "scheme": "one2one"} for i in range(2) for s in range(2)]
    return prepare(simgraphs._npu_doc("twoways", 2, [], 100.0, 100.0, [sw], [{"name": "sw", "device": "sw", "count": 2}],
                                      edges))


@pytest.fixture(scope="module")
def two_ways():
    return _two_ways()


def _gather(steps, paths=True, dependencies="rank-steps"):
    """All-gather of 2 ranks x 2 chunks; steps as (src, dst, chunk, way) tuples."""
    doc = {"collective": "all-gather", "ranks": 2, "chunks_per_rank": 2, "dependencies": dependencies,
           "steps": [[{"src": a, "dst": b, "chunk": c, **({"path": w} if paths else {})} for a, b, c, w in step]
                     for step in steps]}
    if paths:
        doc["paths"] = [[s] for s in SW]
    return read_schedule(doc)


ONE_STEP = [[(0, 1, 0, 0), (0, 1, 1, 1), (1, 0, 2, 0), (1, 0, 3, 1)]]
TWO_STEPS = [[(0, 1, 0, 0), (1, 0, 2, 0)], [(0, 1, 1, 1), (1, 0, 3, 1)]]  # chunk 1 does not need chunk 0


@pytest.mark.parametrize("model", ["fair", "unaware"])
@pytest.mark.parametrize("dependencies", ["rank-steps", "chunks"])
def test_two_chunks_over_two_named_ways_take_the_time_of_one(two_ways, model, dependencies):
    """Each rank sends its two chunks over the two switches in one step: one chunk's time. Routed
    (ECMP: one way per pair), the two share a way: two chunks' time (one message of both, or under
    fair two messages one after the other; unaware links never slow each other's messages)."""
    opts = Opts(model=model, endpoint_delay_ns=0.0, local_mem_bw_gb_per_s=None, routing_policy="ecmp")
    named = simulate_schedule(two_ways, _gather(ONE_STEP, dependencies=dependencies), SHARD, opts)
    routed = simulate_schedule(two_ways, _gather(ONE_STEP, paths=False, dependencies=dependencies), SHARD, opts)
    assert named["collective_time_ns"] == pytest.approx(CHUNK_NS + LATENCY_NS, rel=1e-12)
    shared = 1 if (model, dependencies) == ("unaware", "chunks") else 2
    assert routed["collective_time_ns"] == pytest.approx(shared * CHUNK_NS + LATENCY_NS, rel=1e-12)


def test_link_order_applies_per_named_way(two_ways):
    """With per-chunk dependencies under fair each link carries the schedule's transfers in step
    order: chunk 1 (step 1) waits for chunk 0 (step 0) only where they share links. Over two named
    ways they overlap (one chunk's time); routed over one way they queue (two chunks' time)."""
    opts = Opts(model="fair", endpoint_delay_ns=0.0, local_mem_bw_gb_per_s=None, routing_policy="ecmp")
    named = simulate_schedule(two_ways, _gather(TWO_STEPS, dependencies="chunks"), SHARD, opts)
    routed = simulate_schedule(two_ways, _gather(TWO_STEPS, paths=False, dependencies="chunks"), SHARD, opts)
    assert named["collective_time_ns"] == pytest.approx(CHUNK_NS + LATENCY_NS, rel=1e-12)
    assert routed["collective_time_ns"] == pytest.approx(2 * CHUNK_NS + LATENCY_NS, rel=1e-12)


def test_a_pair_only_transfer_beside_named_ones_is_routed(two_ways):
    """Chunk 3 names no path: the engine routes it (ECMP picks one switch); the rest keep theirs."""
    doc = schedule_doc(_gather(ONE_STEP))
    del doc["steps"][0][3]["path"]
    opts = Opts(model="fair", endpoint_delay_ns=0.0, local_mem_bw_gb_per_s=None, routing_policy="ecmp")
    t = simulate_schedule(two_ways, read_schedule(doc), SHARD, opts)["collective_time_ns"]
    # 1 -> 0: chunk 2 over switch 0, chunk 3 routed: over switch 0 (shared, 2 chunks' time) or 1 (1).
    assert t in (pytest.approx(CHUNK_NS + LATENCY_NS, rel=1e-12), pytest.approx(2 * CHUNK_NS + LATENCY_NS, rel=1e-12))


def test_paths_round_trip_through_the_document():
    s = _gather(ONE_STEP)
    doc = schedule_doc(s)
    assert doc["paths"] == [[SW[0]], [SW[1]]] and doc["steps"][0][1]["path"] == 1
    assert read_schedule(json.loads(json.dumps(doc))) == s


def test_imported_msccl_programs_name_no_paths_and_time_as_before():
    """MSCCL programs are pair-only: no paths, the engine routes every transfer (the exact ring
    and direct times are pinned in tests/collectives/test_msccl.py)."""
    from tests.collectives import msccl_programs as mp

    s = to_schedule(read_msccl(mp.ring_allreduce(8), "ring.xml"))
    assert s.paths == () and all(t.path == -1 for step in s.steps for t in step)
    arrays = s.engine_arrays()
    assert arrays[10] is None and arrays[11] == ()
    assert "paths" not in schedule_doc(s)


@pytest.mark.parametrize("edit, message", [
    (lambda d: d.update(paths=[["sw.7.asic.0"]]), r"schedule 'p': /paths/0/0: no node named 'sw\.7\.asic\.0'"),
    (lambda d: d.update(paths=[["npu.1.xpu.0"]]), r"/paths/0/0: 'npu\.1\.xpu\.0' is an NPU"),
    (lambda d: d.update(paths=[[SW[0], SW[1]]]), r"/paths/0: no link from 'sw\.0\.asic\.0' to 'sw\.1\.asic\.0' "
                                                   r"on the way from rank 0 to rank 1"),
    (lambda d: d.update(paths=[[]]), r"/paths/0: no link from 'npu\.0\.xpu\.0' to 'npu\.1\.xpu\.0'"),
])
def test_bad_paths_are_located_errors(two_ways, edit, message):
    doc = {"collective": "all-gather", "ranks": 2, "chunks_per_rank": 1, "name": "p", "paths": [[SW[0]]],
           "steps": [[{"src": 0, "dst": 1, "chunk": 0, "path": 0}, {"src": 1, "dst": 0, "chunk": 1}]]}
    edit(doc)
    with pytest.raises(InfraGraphError, match=message):
        simulate_schedule(two_ways, read_schedule(doc), SHARD, Opts())


@pytest.mark.parametrize("edit, message", [
    (lambda d: d["steps"][0][0].update(path=2), r"s\.json: /steps/0/0/path: expected 0\.\.1, found 2"),
    (lambda d: d["steps"][0][0].update(path="a"), r"/steps/0/0/path: expected an integer, found 'a'"),
    (lambda d: d.pop("paths"), r"/steps/0/0/path: the schedule lists no paths \(/paths\)"),
    (lambda d: d.update(paths=[SW[0]]), r"s\.json: /paths/0: expected a list of node names, found 'sw\.0\.asic\.0'"),
    (lambda d: d.update(paths=[[""]]), r"/paths/0/0: expected a node name, found ''"),
    (lambda d: d.update(paths={}), r"/paths: expected a list of paths"),
])
def test_bad_path_fields_are_located(edit, message):
    doc = schedule_doc(_gather(ONE_STEP))
    edit(doc)
    with pytest.raises(ScheduleError, match=message):
        read_schedule(doc, "s.json")


def test_named_paths_do_not_run_per_dimension():
    """Per dimension the members differ from group to group; a path names one pair's nodes."""
    p = prepare(simgraphs.torus((2, 2)))
    doc = {"collective": "all-gather", "ranks": 2, "chunks_per_rank": 1, "paths": [[]],
           "steps": [[{"src": 0, "dst": 1, "chunk": 0, "path": 0}, {"src": 1, "dst": 0, "chunk": 1, "path": 0}]]}
    from infragraph.simulate import simulate

    with pytest.raises(InfraGraphError, match="name paths runs alone over one process group"):
        simulate(p, Opts(collective="all-gather", algorithm=("schedule", "ring"), schedules=(read_schedule(doc), None),
                         dims=(2, 2), size_bytes=SHARD))


def test_astra_models_route_and_say_so(two_ways):
    """ASTRA-sim takes no path per message: the astra models route every transfer, and warn."""
    opts = Opts(model="astra", endpoint_delay_ns=0.0, local_mem_bw_gb_per_s=None)
    named = simulate_schedule(two_ways, _gather(ONE_STEP), SHARD, opts)
    routed = simulate_schedule(two_ways, _gather(ONE_STEP, paths=False), SHARD, opts)
    assert named["collective_time_ns"] == routed["collective_time_ns"]
    assert [w["code"] for w in named["warnings"]] == ["paths-not-followed"]
    assert not routed["warnings"]


def test_symmetry_is_not_tried_on_named_paths(two_ways):
    opts = Opts(model="fair", endpoint_delay_ns=0.0, local_mem_bw_gb_per_s=None, symmetry=True)
    r = simulate_schedule(two_ways, _gather(ONE_STEP), SHARD, opts)
    assert r["collective_time_ns"] == pytest.approx(CHUNK_NS + LATENCY_NS, rel=1e-12)
    assert "names paths" in json.dumps(r.get("symmetry"))


def test_cli_refuses_a_path_through_a_missing_node_with_exit_code_1(tmp_path, capsys):
    from infragraph.cli import main

    fabric = simgraphs.write_ring(tmp_path / "ring4.yaml", 4)
    doc = {"collective": "all-gather", "ranks": 4, "chunks_per_rank": 1, "name": "bad", "paths": [["sw.9.asic.0"]],
           "steps": [[{"src": r, "dst": (r + 1) % 4, "chunk": (r - s) % 4, "path": 0} for r in range(4)] for s in range(3)]}
    (tmp_path / "bad.json").write_text(json.dumps(doc))
    assert main(["simulate", fabric, "--collective", "all-gather", "--algorithm", f"schedule:{tmp_path / 'bad.json'}"]) == 1
    assert "schedule 'bad': /paths/0/0: no node named 'sw.9.asic.0'" in capsys.readouterr().err


@pytest.mark.parametrize("dependencies", ["rank-steps", "chunks"])
def test_named_paths_run_from_columns_as_from_transfers(two_ways, tmp_path, dependencies):
    """The path column of a schedule read as columns (JSON, .igsched) takes the engine the ways the
    Transfer objects name: the same result to the bit."""
    from infragraph.collectives.schedule import read_schedule_columns
    from infragraph.collectives.schedule_file import read_schedule_file, write_schedule_file

    doc = schedule_doc(_gather(TWO_STEPS, dependencies=dependencies))
    write_schedule_file(str(tmp_path / "s.igsched"), read_schedule_columns(doc))
    opts = Opts(model="fair", endpoint_delay_ns=0.0, local_mem_bw_gb_per_s=None, routing_policy="ecmp")
    runs = [simulate_schedule(two_ways, s, SHARD, opts) for s in
            (read_schedule(doc), read_schedule_columns(doc), read_schedule_file(str(tmp_path / "s.igsched")))]
    for r in runs:
        del r["wall_time_s"], r["events_per_second"]
    assert runs[1] == runs[0] and runs[2] == runs[0]
    steps_in_series = 2 if dependencies == "rank-steps" else 1  # chunk 1 waits for step 0 only under rank-steps
    assert runs[0]["collective_time_ns"] == pytest.approx(steps_in_series * (CHUNK_NS + LATENCY_NS), rel=1e-12)
