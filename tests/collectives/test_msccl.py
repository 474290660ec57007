"""MSCCL XML import and export: hand-written 8-GPU rings and all-pairs import, validate and run;
XML -> schedule -> XML round trips; the executor's and msccl-tools' checker rules are enforced,
each violation located at file:line."""
from __future__ import annotations

import re

import pytest

from infragraph.collectives.msccl import from_schedule, read_msccl, to_schedule, write_msccl
from infragraph.collectives.ring import ring_schedule
from infragraph.collectives.run import simulate_schedule
from infragraph.collectives.schedule import read_schedule, validate
from infragraph.errors import InfraGraphError
from infragraph.simulate import SimulationOptions as Opts, prepare, simulate
from tests import simgraphs
from tests.collectives import msccl_programs as mp

PROGRAMS = {
    "ring_allreduce": (mp.ring_allreduce, "all-reduce", 14),
    "allpairs_allreduce": (mp.allpairs_allreduce, "all-reduce", 2),
    "allpairs_allgather": (mp.allpairs_allgather, "all-gather", 1),
    "ring_allgather": (mp.ring_allgather, "all-gather", 7),
}


def canonical(schedule):
    """The steps with each step's transfers in a fixed order (a step's transfers are unordered)."""
    return tuple(tuple(sorted(step)) for step in schedule.steps)


def imported(name: str):
    return to_schedule(read_msccl(PROGRAMS[name][0](8), f"{name}.xml"))


@pytest.mark.parametrize("name", PROGRAMS)
def test_hand_written_programs_import_and_validate(name):
    schedule = imported(name)
    validate(schedule)
    assert (schedule.collective, schedule.ranks, len(schedule.steps)) == (PROGRAMS[name][1], 8, PROGRAMS[name][2])
    assert schedule.name == f"{name}_8"


def test_ring_allreduce_reduces_then_copies():
    steps = imported("ring_allreduce").steps
    assert all(t.op == "reduce" for s in steps[:7] for t in s)
    assert all(t.op == "copy" for s in steps[7:] for t in s)
    assert all(t.dst == (t.src + 1) % 8 for s in steps for t in s)


def test_allpairs_scratch_receives_added_by_re_are_reductions():
    steps = imported("allpairs_allreduce").steps
    assert {t.op for t in steps[0]} == {"reduce"} and {t.op for t in steps[1]} == {"copy"}
    assert all(t.dst == t.chunk for t in steps[0]) and all(t.src == t.chunk for t in steps[1])


@pytest.mark.parametrize("name, fabric, builtin", [
    ("ring_allreduce", "ring", "ring"), ("ring_allgather", "ring", "ring"),
    ("allpairs_allreduce", "fc", "direct"), ("allpairs_allgather", "fc", "direct"),
])
@pytest.mark.parametrize("model", ["fair", "astra"])
def test_imported_programs_time_like_the_builtin_algorithm(name, fabric, builtin, model):
    """The ring programs are the engine's ring; the all-pairs programs are its direct algorithm,
    except that a schedule pays one reduction per reduce transfer received where the built-in
    direct all-reduce pays one for all n - 1: 6 x 3 x chunk / local-mem-bw more (tested exactly)."""
    g = prepare(simgraphs.ring(8) if fabric == "ring" else simgraphs.fully_connected(8))
    schedule = imported(name)
    ours = simulate_schedule(g, schedule, 1 << 20, Opts(model=model))
    ref = simulate(g, Opts(collective=schedule.collective, algorithm=(builtin,), model=model, size_bytes=1 << 20))
    if name.endswith("allgather") or (name == "ring_allreduce" and model == "fair"):
        assert ours["collective_time_ns"] == ref["collective_time_ns"] > 0
    elif model == "fair":
        extra = 6 * 3 * ((1 << 20) / 8) / 1600
        assert ours["collective_time_ns"] == pytest.approx(ref["collective_time_ns"] + extra, rel=1e-12)
    # (astra: a schedule's reductions are timed as ASTRA-sim times an exported one, in whole
    # microseconds per message (tests/collectives/test_run.py), not as its built-in algorithms;
    # free reductions make the two equal again, below.)
    free = Opts(model=model, local_mem_bw_gb_per_s=None)
    assert simulate_schedule(g, schedule, 1 << 20, free)["collective_time_ns"] == simulate(
        g, Opts(collective=schedule.collective, algorithm=(builtin,), model=model, size_bytes=1 << 20,
                local_mem_bw_gb_per_s=None))["collective_time_ns"]


@pytest.mark.parametrize("name", PROGRAMS)
def test_round_trip_xml_schedule_xml(name):
    first = imported(name)
    xml = write_msccl(from_schedule(first))
    again = to_schedule(read_msccl(xml, "exported.xml"))
    assert canonical(again) == canonical(first) and again.collective == first.collective
    assert write_msccl(from_schedule(again)) == xml  # a fixed point


@pytest.mark.parametrize("collective", ["all-reduce", "reduce-scatter", "all-gather"])
def test_exported_ring_schedules_import_to_the_same_schedule(collective):
    schedule = read_schedule(ring_schedule(collective, 8))
    program = from_schedule(schedule, proto="LL128")
    assert program.proto == "LL128" and program.ngpus == 8
    assert canonical(to_schedule(read_msccl(write_msccl(program), "x.xml"))) == canonical(schedule)


def test_export_refuses_more_steps_than_the_executor_takes():
    with pytest.raises(InfraGraphError, match=r"rank 0 sends 258 chunks to rank 1, each a step of its thread block to "
                                              r"rank 1; NCCL's MSCCL executor takes at most 256 steps"):
        from_schedule(read_schedule(ring_schedule("all-reduce", 130)))


def _ring(**change):
    """The ring all-reduce XML with one textual change applied: {old: new} on the first match."""
    text = mp.ring_allreduce(4)
    for old, new in change.items():
        assert old in text, old
        text = text.replace(old, new, 1)
    return text


def _line_of(text: str, fragment: str) -> int:
    return text[:text.index(fragment)].count("\n") + 1


STEP0 = '<step s="0" type="s" srcbuf="i" srcoff="0"'
# Rules of NCCL's MSCCL executor (topo.cc mscclGetAlgoFromXMLAndSetAlgo, msccl.h limits) and of
# msccl-tools (tb_assignment.py, passes.py, collectives.py), each a broken program and the message.
RULES = [
    ("protocol", {'proto="Simple"': 'proto="LL64"'}, '<algo', r'proto="LL64": expected one of Simple, LL, LL128'),
    ("nthreads", {'inplace="1">': 'inplace="1" nthreads="100">'}, '<algo', "nthreads must be a multiple of 32"),
    ("collective", {'coll="allreduce"': 'coll="alltoall"'}, '<algo', 'coll="alltoall": a schedule implements'),
    ("chunks per loop", {'nchunksperloop="4"': 'nchunksperloop="5"'}, '<gpu id="0"', "disagree with nchunksperloop 5"),
    ("missing attribute", {' hasdep="0"/>': '/>'}, STEP0, "has no 'hasdep' attribute"),
    ("count limit", {'srcoff="0" dstbuf="i" dstoff="0" cnt="1"': 'srcoff="0" dstbuf="i" dstoff="0" cnt="72"'}, STEP0,
     r"cnt=72: expected 0..71"),
    ("step limit", {'<step s="0"': '<step s="256"'}, '<step s="256"', r"s=256: expected 0..255"),
    ("step numbering", {'<step s="1" type="rrs"': '<step s="2" type="rrs"'}, '<step s="2" type="rrs"',
     "steps are numbered 0, 1, ... in order"),
    ("thread block limit", {'<tb id="0" send="1"': '<tb id="216" send="1"'}, '<tb id="216"', r"id=216: expected 0..215"),
    ("peer is itself", {'<tb id="0" send="1"': '<tb id="0" send="0"'}, '<tb id="0" send="0"', "is the GPU itself"),
    ("peer out of range", {'<tb id="0" send="1"': '<tb id="0" send="4"'}, '<tb id="0" send="4"', r"send=4: expected -1..3"),
    ("send without peer", {'<tb id="0" send="1"': '<tb id="0" send="-1"'}, STEP0, "sends but the thread block has no send peer"),
    ("dependency target", {STEP0 + ' dstbuf="i" dstoff="0" cnt="1" depid="-1" deps="-1"':
                           STEP0 + ' dstbuf="i" dstoff="0" cnt="1" depid="5" deps="0"'}, STEP0, "which does not exist"),
    ("buffer bounds", {STEP0: '<step s="0" type="s" srcbuf="i" srcoff="9"'}, '<step s="0" type="s" srcbuf="i" srcoff="9"',
     r"i\[9:10\] is outside gpu 0's i_chunks = 4"),
    ("unpaired send", {'<step s="6" type="r" ': '<step s="6" type="s" '}, '<step s="6" type="s" ', "has no partner"),
    ("bad XML", {"</algo>": "</alg>"}, "</alg>", "invalid XML: mismatched tag"),
]


@pytest.mark.parametrize("case, change, where, message", RULES, ids=[r[0] for r in RULES])
def test_executor_and_checker_rules_are_located(case, change, where, message):
    text = _ring(**change)
    with pytest.raises(InfraGraphError) as info:
        to_schedule(read_msccl(text, "p.xml"))
    diag = info.value.diagnostics[0]
    assert re.search(message, diag.message), diag.message
    assert (diag.location.file, diag.location.line) == ("p.xml", _line_of(text, where))


def _program(gpu_blocks: list[str], coll="allgather", n=2, chunks=2, inplace=1) -> str:
    return (f'<algo name="t" proto="Simple" nchannels="1" nchunksperloop="{chunks}" ngpus="{n}" coll="{coll}" '
            f'inplace="{inplace}">\n' + "\n".join(gpu_blocks) + "\n</algo>\n")


def _gpu(r, tbs, i=1, o=2, s=0):
    return f'  <gpu id="{r}" i_chunks="{i}" o_chunks="{o}" s_chunks="{s}">\n' + "\n".join(tbs) + "\n  </gpu>"


def _tb(i, send, recv, steps, chan=0):
    return f'    <tb id="{i}" send="{send}" recv="{recv}" chan="{chan}">\n' + "\n".join(steps) + "\n    </tb>"


def _st(s, t, off, depid=-1, deps=-1, hasdep=0, buf="o"):
    return (f'      <step s="{s}" type="{t}" srcbuf="{buf}" srcoff="{off}" dstbuf="{buf}" dstoff="{off}" cnt="1" '
            f'depid="{depid}" deps="{deps}" hasdep="{hasdep}"/>')


def test_dependency_cycle_is_located():
    """msccl-tools' check_dependency_cycles: two thread blocks waiting on each other never run."""
    g0 = _gpu(0, [_tb(0, 1, -1, [_st(0, "s", 0, depid=1, deps=0, hasdep=1)]),
                  _tb(1, -1, 1, [_st(0, "r", 1, depid=0, deps=0, hasdep=1)])])
    g1 = _gpu(1, [_tb(0, 0, 1 - 1 - 1, [_st(0, "s", 1)]), _tb(1, -1, 0, [_st(0, "r", 0)])])
    with pytest.raises(InfraGraphError, match="never runs: the dependencies and send/receive pairs form a cycle"):
        to_schedule(read_msccl(_program([g0, g1]), "c.xml"))


def test_two_thread_blocks_on_one_connection_are_refused():
    """msccl-tools gives each (peer, channel) one thread block, so sends and receives pair in order."""
    g0 = _gpu(0, [_tb(0, 1, -1, [_st(0, "s", 0)]), _tb(1, 1, -1, [_st(0, "s", 0)])])
    g1 = _gpu(1, [_tb(0, -1, 0, [_st(0, "r", 0), _st(1, "r", 0)])])
    with pytest.raises(InfraGraphError, match="thread blocks 0 and 1 both send to gpu 1 on channel 0"):
        read_msccl(_program([g0, g1]), "t.xml")


def test_dependency_on_a_step_without_hasdep_is_refused():
    g0 = _gpu(0, [_tb(0, 1, -1, [_st(0, "s", 0, depid=1, deps=0)]), _tb(1, -1, -1, [_st(0, "nop", -1)])])
    g1 = _gpu(1, [_tb(0, -1, 0, [_st(0, "r", 0)])])
    with pytest.raises(InfraGraphError, match="says hasdep=0, so it never signals"):
        read_msccl(_program([g0, g1]), "d.xml")


def test_wrong_output_is_msccl_tools_collective_check():
    """An all-gather whose second GPU never receives: its output slot 0 stays empty."""
    g0 = _gpu(0, [_tb(0, 1, -1, [_st(0, "s", 0)])])
    g1 = _gpu(1, [_tb(0, 0, -1, [_st(0, "s", 1)])])
    with pytest.raises(InfraGraphError, match="has no partner"):
        to_schedule(read_msccl(_program([g0, g1]), "o.xml"))
    g0 = _gpu(0, [_tb(0, -1, -1, [_st(0, "nop", -1)])])
    g1 = _gpu(1, [_tb(0, -1, -1, [_st(0, "nop", -1)])])
    with pytest.raises(InfraGraphError, match=r"gpu 0 ends with nothing in o\[1\]; allgather needs chunk 1 there"):
        to_schedule(read_msccl(_program([g0, g1]), "o.xml"))
