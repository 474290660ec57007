"""A schedule runs in the engine: the ring written as a schedule times exactly like the built-in ring."""
from __future__ import annotations

import dataclasses

import json

import pytest

from infragraph.collectives.ring import ring_schedule
from infragraph.collectives.run import simulate_schedule
from infragraph.collectives.schedule import read_schedule
from infragraph.errors import InfraGraphError
from infragraph.simulate import SimulationOptions as Opts, prepare, simulate
from tests import simgraphs

MODELS = ("unaware", "aware", "fair", "astra", "astra-aware")


@pytest.fixture(scope="module")
def fabrics():
    return {"ring": prepare(simgraphs.ring(8)), "switch": prepare(simgraphs.switch(8))}


@pytest.mark.parametrize("fabric", ["ring", "switch"])
@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("collective", ["all-reduce", "reduce-scatter", "all-gather"])
def test_ring_schedule_times_like_the_builtin_ring(fabrics, fabric, model, collective):
    """Under the astra models with reductions charged a schedule's reductions are timed as ASTRA-sim
    times an exported one (the next tests), not as its built-in ring: compared without them."""
    p = fabrics[fabric]
    schedule = read_schedule(ring_schedule(collective, 8))
    mem_bw = None if model.startswith("astra") else 1600.0
    for chunks in (1, 4):
        opts = Opts(collective=collective, algorithm=("ring",), model=model, chunks=chunks,
                    local_mem_bw_gb_per_s=mem_bw)
        ours = simulate_schedule(p, schedule, 1 << 20, opts)
        ring = simulate(p, Opts(collective=collective, algorithm=("ring",), model=model, chunks=chunks,
                                size_bytes=1 << 20, local_mem_bw_gb_per_s=mem_bw))
        assert ours["collective_time_ns"] == ring["collective_time_ns"] > 0
        assert ours["algorithm"] == ["schedule"]
        assert ours["flows"]["count"] == ring["flows"]["count"]


@pytest.mark.parametrize("model", ["astra", "astra-aware"])
def test_astra_models_reduce_in_whole_microseconds_per_message_concurrently(fabrics, model):
    """ASTRA-sim's custom collectives: a COMP node of whole microseconds per reduced message
    (131,072 B at 50 GB/s: 7,863 ns built in, 7 us in the ET), the messages of a step reduced
    concurrently. The ring: 7 reduce steps, each reduction on the critical path. All-pairs: one
    reduce step of 7 messages, so one reduction's time, not 7."""
    from infragraph.collectives.msccl import read_msccl, to_schedule
    from tests.collectives import msccl_programs as mp

    p = fabrics["ring"]
    base = dict(model=model, endpoint_delay_ns=0.0)
    for schedule in (read_schedule(ring_schedule("all-reduce", 8)),
                     to_schedule(read_msccl(mp.allpairs_allreduce(8), "allpairs.xml"))):
        free = simulate_schedule(p, schedule, 1 << 20, Opts(local_mem_bw_gb_per_s=None, **base))["collective_time_ns"]
        charged = simulate_schedule(p, schedule, 1 << 20, Opts(local_mem_bw_gb_per_s=50.0, **base))
        reduce_steps = sum(any(t.op == "reduce" for t in step) for step in schedule.steps)
        assert charged["collective_time_ns"] == free + reduce_steps * 7_000
    assert reduce_steps == 1


@pytest.mark.parametrize("optimization", ["localBWAware", "baseline"])
def test_schedule_per_dimension(optimization):
    """On a 4x4 torus, a 4-rank ring all-reduce schedule on one or both dimensions; under
    localBWAware the engine runs its reduce-scatter and all-gather halves."""
    p = prepare(simgraphs.torus((4, 4)))
    s4 = read_schedule(ring_schedule("all-reduce", 4))
    base = dict(dims=(4, 4), model="fair", chunks=2, size_bytes=1 << 20, optimization=optimization)
    ring = simulate(p, Opts(algorithm=("ring", "ring"), **base))["collective_time_ns"]
    one = simulate(p, Opts(algorithm=("schedule", "ring"), schedules=(s4, None), **base))["collective_time_ns"]
    both = simulate(p, Opts(algorithm=("schedule", "schedule"), schedules=(s4, s4), **base))["collective_time_ns"]
    assert ring == one == both > 0


def same_run(r: dict) -> dict:
    """A result without what depends on the machine (wall time)."""
    return {k: v for k, v in r.items() if k not in ("wall_time_s", "events_per_second")}


def as_columns(doc: dict, tmp_path) -> list:
    """The schedule of `doc` as the engine may get it: Transfer objects, columns read from the JSON
    document, and columns read from a .igsched file."""
    from infragraph.collectives.schedule import read_schedule_columns
    from infragraph.collectives.schedule_file import read_schedule_file, write_schedule_file

    path = str(tmp_path / "s.igsched")
    write_schedule_file(path, read_schedule_columns(doc))
    return [read_schedule(doc), read_schedule_columns(doc), read_schedule_file(path)]


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("dependencies", ["rank-steps", "chunks"])
def test_columns_run_exactly_as_transfers(fabrics, tmp_path, model, dependencies):
    """The engine takes a schedule's columns (from JSON or a .igsched file, no object per
    transfer) and gives the result it gives for the Transfer objects, to the bit."""
    doc = {**ring_schedule("all-reduce", 8), "dependencies": dependencies}
    runs = [same_run(simulate_schedule(fabrics["switch"], s, 1 << 20, Opts(model=model, chunks=2)))
            for s in as_columns(doc, tmp_path)]
    assert runs[0]["collective_time_ns"] > 0 and runs[0]["schedules"][0]["transfers"] == 8 * 14
    assert runs[1] == runs[0] and runs[2] == runs[0]


def test_columns_run_per_dimension_as_transfers(tmp_path):
    """Per dimension under localBWAware the engine also runs the columns' reduce-scatter and
    all-gather halves (ScheduleColumns.half): the same result as from Transfer objects."""
    p = prepare(simgraphs.torus((4, 4)))
    base = dict(dims=(4, 4), model="fair", chunks=2, size_bytes=1 << 20, optimization="localBWAware")
    runs = [same_run(simulate(p, Opts(algorithm=("schedule", "schedule"), schedules=(s, s), **base)))
            for s in as_columns(ring_schedule("all-reduce", 4), tmp_path)]
    assert runs[1] == runs[0] and runs[2] == runs[0]
    cols = as_columns(ring_schedule("all-reduce", 4), tmp_path)[1]
    rs, ag = cols.half("reduce-scatter"), cols.half("all-gather")
    assert (rs.steps, ag.steps, rs.reduce.all(), ag.reduce.any()) == (3, 3, True, False)
    assert cols.half("all-reduce") is None


def test_a_half_that_mixes_ops_is_none(tmp_path):
    """An all-reduce whose copy steps are followed by a reduce has no all-gather half to run."""
    doc = ring_schedule("all-reduce", 4)
    doc["steps"].append([{**doc["steps"][0][0], "op": "reduce"}])
    cols = as_columns(doc, tmp_path)[1]
    assert cols.half("all-gather") is None and cols.half("reduce-scatter") is None


def test_slower_schedule_takes_longer(fabrics):
    """A schedule that sends the ring's chunks two hops at a time (via the next-but-one rank) is
    not the ring: on the ring fabric it is slower, so the engine does read the transfers."""
    n = 8
    # ranks of one parity pass their chunks around their own ring of 4, then each hands the 4 it
    # holds to the next rank.
    doc = {"collective": "all-gather", "ranks": n, "chunks_per_rank": 1, "steps": []}
    for s in range(3):
        doc["steps"].append([{"src": r, "dst": (r + 2) % n, "chunk": (r - 2 * s) % n, "op": "copy"} for r in range(n)])
    doc["steps"].append([{"src": r, "dst": (r + 1) % n, "chunk": c, "op": "copy"}
                         for r in range(n) for c in range(r % 2, n, 2)])
    schedule = read_schedule(doc)
    ours = simulate_schedule(fabrics["ring"], schedule, 1 << 20, Opts(collective="all-gather"))
    ring = simulate(fabrics["ring"], Opts(collective="all-gather", algorithm=("ring",), size_bytes=1 << 20))
    assert ours["collective_time_ns"] > ring["collective_time_ns"]


def test_broken_schedule_is_refused_before_it_runs(fabrics):
    doc = ring_schedule("all-gather", 8)
    doc["steps"].pop()
    with pytest.raises(InfraGraphError, match=r"does not implement its all-gather: .*rank \d ends with chunk"):
        simulate_schedule(fabrics["ring"], read_schedule(doc), 1 << 20)


def test_rank_count_must_match_the_group(fabrics):
    with pytest.raises(InfraGraphError, match="the schedule has 4 ranks but the group has 8 NPUs"):
        simulate_schedule(fabrics["ring"], read_schedule(ring_schedule("all-reduce", 4)), 1 << 20)


def test_schedule_entry_needs_its_schedule(fabrics):
    with pytest.raises(InfraGraphError, match="no schedule is given"):
        simulate(fabrics["ring"], Opts(algorithm=("schedule",)))


def test_a_schedule_of_another_collective_is_refused_before_the_engine_runs():
    p = prepare(simgraphs.torus((4, 4)))
    s4 = read_schedule(ring_schedule("all-gather", 4))
    with pytest.raises(InfraGraphError, match="implements all-gather, not all-reduce") as e:
        simulate(p, Opts(algorithm=("schedule", "ring"), schedules=(s4, None), dims=(4, 4)))
    assert e.value.diagnostics[0].location.path == "algorithm"


def test_a_phase_the_schedule_does_not_split_into_is_an_engine_error():
    p = prepare(simgraphs.torus((4, 4)))
    s4 = read_schedule(ring_schedule("all-reduce", 4))
    s4 = dataclasses.replace(s4, steps=s4.steps[::-1])  # no longer reduce steps, then copy steps
    with pytest.raises(InfraGraphError, match="the schedule implements all-reduce over 4 ranks, but this phase runs reduce-scatter"):
        simulate(p, Opts(algorithm=("schedule", "ring"), schedules=(s4, None), dims=(4, 4)))


def test_cli_runs_a_schedule_file(tmp_path, capsys):
    from infragraph.cli import main

    fabric = simgraphs.write_ring(tmp_path / "ring8.yaml", 8)
    path = tmp_path / "ring.json"
    path.write_text(json.dumps(ring_schedule("all-reduce", 8)))
    out = tmp_path / "r.json"
    assert main(["simulate", fabric, "--algorithm", f"schedule:{path}", "--json", str(out)]) == 0
    ours = json.loads(out.read_text())
    assert main(["simulate", fabric, "--algorithm", "ring", "--json", str(out)]) == 0
    assert ours["collective_time_ns"] == json.loads(out.read_text())["collective_time_ns"]
    assert ours["algorithm"] == ["schedule"]


@pytest.mark.parametrize("algorithm, collective, message", [
    ("schedule:", "all-reduce", "--algorithm: .*names no file"),
    ("schedule:{missing}", "all-reduce", "missing.json: error: cannot read the schedule"),
    ("schedule:{ring}", "all-gather", "--collective: .*implements all-reduce; give --collective all-reduce"),
    ("schedule:{broken}", "all-reduce", "--algorithm: .*broken.json.*rank \\d ends with chunk"),
])
def test_cli_schedule_errors_are_located(tmp_path, capsys, algorithm, collective, message):
    from infragraph.cli import main

    fabric = simgraphs.write_ring(tmp_path / "ring8.yaml", 8)
    (tmp_path / "ring.json").write_text(json.dumps(ring_schedule("all-reduce", 8)))
    broken = ring_schedule("all-reduce", 8)
    broken["steps"].pop()
    (tmp_path / "broken.json").write_text(json.dumps(broken))
    arg = algorithm.format(missing=tmp_path / "missing.json", ring=tmp_path / "ring.json", broken=tmp_path / "broken.json")
    assert main(["simulate", fabric, "--algorithm", arg, "--collective", collective]) == 1
    import re
    assert re.search(message, capsys.readouterr().err)


@pytest.mark.parametrize("collective", ["all-reduce", "all-gather"])
def test_ring_times_the_same_with_chunk_dependencies(fabrics, collective):
    """In a ring every send waits for exactly the receipt that brought its chunk: both kinds of
    dependencies give the ring's time."""
    doc = ring_schedule(collective, 8)
    steps = simulate_schedule(fabrics["ring"], read_schedule(doc), 1 << 20)
    doc["dependencies"] = "chunks"
    chunks = simulate_schedule(fabrics["ring"], read_schedule(doc), 1 << 20)
    assert chunks["collective_time_ns"] == steps["collective_time_ns"] > 0
    assert chunks["groups"] == [list(range(8))] and chunks["flows"]["count"] == steps["flows"]["count"]


def _slow_line():
    """NPUs 0 - 1 - 2; the link 1 - 2 is ten times slower (40 vs 400 Gbit/s)."""
    import yaml

    from infragraph.document import io
    from infragraph.graph import expand
    from tests.docparts import link

    doc = simgraphs._npu_dict("line3", 3, [(0, 1), (1, 2)], 400.0, 100.0)
    doc["links"].append(link("slow", 40.0, 100.0))
    doc["edges"][1]["link"] = "slow"
    return prepare(expand(io.loads(yaml.safe_dump(doc, sort_keys=False), "line3.yaml")))


def test_chunk_dependencies_do_not_wait_for_unrelated_receipts():
    """Rank 1 forwards chunk 0 (which came fast from rank 0) and chunk 2 (which came slowly from
    rank 2) in step 1. With rank-steps, chunk 0 waits for chunk 2's slow arrival; with chunks it
    leaves at once. Without contention (unaware) rank 2 then finishes after one slow transfer,
    not two; under fair, chunks 0 and 1 share the slow link either way (two slow transfers)."""
    doc = {"collective": "all-gather", "ranks": 3, "chunks_per_rank": 1, "steps": [
        [{"src": 0, "dst": 1, "chunk": 0}, {"src": 2, "dst": 1, "chunk": 2}, {"src": 1, "dst": 0, "chunk": 1},
         {"src": 1, "dst": 2, "chunk": 1}],
        [{"src": 1, "dst": 2, "chunk": 0}, {"src": 1, "dst": 0, "chunk": 2}]]}
    g = _slow_line()
    times = {}
    for dep in ("rank-steps", "chunks"):
        for model in ("unaware", "fair", "astra"):
            r = simulate_schedule(g, read_schedule({**doc, "dependencies": dep}), 1 << 20, Opts(model=model))
            times[dep, model] = r["collective_time_ns"]
    slow = (1 << 20) * 8 / 40.0  # ns for one chunk on the slow link
    assert times["rank-steps", "unaware"] > 2 * slow > times["chunks", "unaware"] > slow
    assert times["rank-steps", "astra"] > 2 * slow > times["chunks", "astra"] > slow
    assert 2 * slow < times["chunks", "fair"] <= times["rank-steps", "fair"]


@pytest.mark.parametrize("source, defines, overlap", [("std.fabrics.mesh", {"sizes": "[4,4]"}, False),
                                                      ("std.fabrics.mesh", {"sizes": "[4,4]"}, True),
                                                      ("std.fabrics.stack", {"shape": '"RI(2)_FC(2)_SW(4)"'}, False),
                                                      ("std.devices.dgx", {}, False)])
def test_chunk_dependencies_send_one_message_per_link_at_a_time_under_fair(source, defines, overlap):
    """Under fair sharing each link carries a schedule's transfers one at a time in step order
    (pairs behind one switch port take turns), the next one leaving as the last byte of the one
    before leaves: the engine then times a synthesized schedule exactly as the synthesizer's model
    does. (Sending every ready transfer at once, the first ones shared their link with later ones:
    45 % of the bound against 67 % on the mesh.) On the DGX every transfer takes the NVSwitch chip
    the schedule names (its path): routed, a GPU pair's chunks for four chips queued on one way
    (9.7 ms against the model's 4.5 ms)."""
    from infragraph.collectives.synthesize import engine_time, synthesize
    from infragraph.sources import load_graph

    g = load_graph(source, defines)
    s = synthesize(g, "all-reduce", 4, pieces=2 if overlap else 1, work_conserving=overlap)
    e = engine_time(g, s, "fair", "chunks", free=True)
    assert e["time_ns"] == pytest.approx(s.time_ns, rel=1e-9)


def test_chunk_dependencies_run_alone():
    p = prepare(simgraphs.torus((4, 4)))
    doc = ring_schedule("all-reduce", 4)
    doc["dependencies"] = "chunks"
    with pytest.raises(InfraGraphError, match="per-chunk dependencies runs alone over one process group"):
        simulate(p, Opts(algorithm=("schedule", "ring"), schedules=(read_schedule(doc), None), dims=(4, 4)))


def test_result_names_the_schedule_and_validates_against_the_schema(fabrics):
    from infragraph import schemas

    doc = ring_schedule("all-reduce", 8)
    doc["name"] = "ring8"
    r = simulate_schedule(fabrics["ring"], read_schedule(doc), 1 << 20)
    assert r["schedules"] == [{"name": "ring8", "collective": "all-reduce", "ranks": 8, "chunks_per_rank": 1,
                               "steps": 14, "transfers": 112, "dependencies": "rank-steps"}]
    schemas.validate("simulation-result", r)


# What ASTRA-sim 518bd51's analytical binaries printed (max over `sys[i] finished`, ns) for these
# schedules exported by infragraph.collectives.chakra_et at local-mem-bw 50 GB/s, a 1 MiB all-reduce
# on its example Ring_8npus network, FIFO, 1 split (benchmarks/collectives_astra.py, run here):
# (schedule, ASTRA-sim unaware, ASTRA-sim aware).
ASTRA_SIM_EXPORTED_50GBPS = [("ring", 90_174, 90_174), ("all-pairs", 15_882, 57_320)]


@pytest.mark.parametrize("name,unaware,aware", ASTRA_SIM_EXPORTED_50GBPS)
def test_exported_schedules_time_as_astra_sim_printed(name, unaware, aware):
    """The astra model reproduces the unaware binary; astra-aware the aware one on the ring. On
    all-pairs it ends 500 ns later (57,820): the order of concurrent sends differs (ASTRA-sim issues
    them in its ET feeder's hash-set order), not the reductions (docs/collectives.md)."""
    from infragraph.collectives.msccl import read_msccl, to_schedule
    from infragraph.graph import expand
    from infragraph.importers.astra_analytical import import_astra_analytical
    from tests.collectives import msccl_programs as mp
    from tests.helpers import shared_file

    g = prepare(expand(import_astra_analytical(shared_file("backends/astra-sim/examples/network/Ring_8npus.yml"))))
    schedule = (read_schedule(ring_schedule("all-reduce", 8)) if name == "ring"
                else to_schedule(read_msccl(mp.allpairs_allreduce(8), "allpairs.xml")))
    times = [simulate_schedule(g, schedule, 1 << 20, Opts(model=model, endpoint_delay_ns=0.0, local_mem_bw_gb_per_s=50.0,
                                                          dims=(8,)))["collective_time_ns"]
             for model in ("astra", "astra-aware")]
    assert times == [unaware, aware if name == "ring" else 57_820]


def test_astra_models_finish_a_rank_when_its_own_sends_have_landed(fabrics):
    """An all-gather whose last step has rank 0 only send (chunk 0, four hops to rank 4), after
    receiving every other chunk in the first: ASTRA-sim completes a send node when its message
    arrives and ends a rank's custom collective when no node is left, so under the astra models
    rank 0 finishes when rank 4 receives (rank 4's only receipt of that step); under the other
    models at its last receipt, earlier."""
    n = 8
    first = [{"src": r, "dst": s, "chunk": r, "op": "copy"} for r in range(1, n) for s in range(n) if s != r]
    first.append({"src": 0, "dst": 1, "chunk": 0, "op": "copy"})
    second = [{"src": 1, "dst": s, "chunk": 0, "op": "copy"} for s in (2, 3, 5, 6, 7)]
    second.append({"src": 0, "dst": 4, "chunk": 0, "op": "copy"})
    schedule = read_schedule({"collective": "all-gather", "ranks": n, "chunks_per_rank": 1, "steps": [first, second]})
    for model in ("astra", "astra-aware", "unaware"):
        ranks = simulate_schedule(fabrics["ring"], schedule, 64, Opts(model=model, endpoint_delay_ns=0.0))["ranks"]
        finish = {r["rank"]: r["finish_ns"] for r in ranks}
        if model.startswith("astra"):
            assert finish[0] == finish[4], (model, finish)
        else:
            assert finish[0] < finish[4], (model, finish)
