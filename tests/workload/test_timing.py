"""How long collectives and messages take in a replay (infragraph/workload/timing.py): the stack's
symmetries must give the same answers as a run on every group itself, and every member of a
collective starts its part at its own issue time."""

from __future__ import annotations

from dataclasses import replace

import pytest

from infragraph import blueprints
from infragraph.graph.failures import FailureSpec, with_failures
from infragraph.simulate import SimulationOptions, prepare, simulate
from infragraph.workload.timing import CollectiveTimer, canonical_group, symmetric_dims

SW8_SW4 = [("Switch", 8), ("Switch", 4)]


def stack(shape: str):
    return blueprints.graph("std.fabrics.stack", shape=shape)


def test_groups_varying_in_one_dimension_map_to_one_image():
    assert canonical_group(SW8_SW4, tuple(range(8, 16))) == tuple(range(8))
    assert canonical_group(SW8_SW4, (15, 9, 12)) == (0, 1, 2)
    assert canonical_group(SW8_SW4, (3, 11, 19, 27)) == (0, 8, 16, 24)
    assert canonical_group(SW8_SW4, (27, 3)) == (0, 8)
    assert canonical_group([("Ring", 3), ("Switch", 2)], (4, 5, 3)) == (0, 1, 2)  # a rotation, not a relabelling
    assert canonical_group([("FullyConnected", 4)], (2, 0, 3)) == (0, 1, 2)


def test_groups_the_symmetry_cannot_prove_are_not_mapped():
    assert canonical_group(SW8_SW4, (0, 9)) is None  # two dimensions: two equally short routes
    assert canonical_group(SW8_SW4, (0, 1, 8)) is None
    assert canonical_group([("Ring", 4)], (0, 2)) is None  # half an even ring apart: two ways round


def test_only_an_intact_stack_is_symmetric():
    p = prepare(stack("SW(8)_SW(4)"))
    from infragraph.workload.timing import stack_dims

    assert symmetric_dims(p, stack_dims(p, 32)) == SW8_SW4
    assert symmetric_dims(prepare(stack("FC(4)_RI(3)")), stack_dims(prepare(stack("FC(4)_RI(3)")), 12)) == \
        [("FullyConnected", 4), ("Ring", 3)]
    failed = with_failures(stack("SW(8)_SW(4)"), FailureSpec(fail_random_count=1, seed=1))[0]
    pf = prepare(failed)
    assert symmetric_dims(pf, stack_dims(pf, 32)) is None


@pytest.mark.parametrize("model", ["fair", "astra-aware", "astra"])
def test_a_group_timed_through_its_image_gets_its_own_answer(model):
    p = prepare(stack("SW(8)_SW(4)"))
    sim = SimulationOptions(model=model, chunks=2, endpoint_delay_ns=10)
    tp = [tuple(range(8 * s, 8 * s + 8)) for s in range(4)]
    dp = [tuple(range(l, 32, 8)) for l in range(8)] + [(29, 5, 13)]
    pairs = [(0, 8), (9, 1), (7, 31), (3, 4)]
    folded, exact = CollectiveTimer(p, 32, sim), CollectiveTimer(p, 32, sim)
    exact._symmetric = None
    answers = []
    for timer in (folded, exact):
        answers.append([timer.collective_run(kind, g, 1 << 20, 0, [100.0 * i for i in range(len(g))])
                        for g in tp + dp for kind in ("all-reduce", "all-gather")]
                       + [timer.message_run(s, d, 65536) for s, d in pairs])
    assert answers[0] == answers[1]
    assert folded.tier_names == exact.tier_names
    assert folded.image((9, 1)) == (0, 8) and exact.image((9, 1)) == (9, 1)
    assert folded.engine_runs < exact.engine_runs


STAGGER_SIM = SimulationOptions(model="astra", chunks=1, endpoint_delay_ns=10, local_mem_bw_gb_per_s=1600)


@pytest.fixture(scope="module")
def ring4():
    return prepare(blueprints.graph("std.fabrics.stack", shape="RI(4)", bandwidth="[50.0 GiB/s]", latency="[500.0 ns]"))


def engine(p, model, starts=()):
    opts = replace(STAGGER_SIM, model=model, collective="all-gather", size_bytes=65536.0, top_links=0,
                   member_start_ns=(starts,) if starts else ())
    return [x["finish_ns"] for x in simulate(p, opts)["ranks"]]


@pytest.mark.parametrize("model", ["astra", "astra-aware", "fair", "aware"])
def test_finishes_are_the_engines_with_each_member_offset_from_the_first_issue(ring4, model):
    timer = CollectiveTimer(ring4, 4, replace(STAGGER_SIM, model=model))
    members = (0, 1, 2, 3)
    together, end, _, _ = timer.collective_run("all-gather", members, 65536)
    assert together == engine(ring4, model) and end == max(together)
    starts = [0.0, 2500.0, 0.0, 23000.0]
    staggered, end, _, _ = timer.collective_run("all-gather", members, 65536, 0, starts)
    assert staggered == engine(ring4, model, tuple(starts)) and end == max(staggered)
    assert staggered != [23000.0 + t for t in engine(ring4, model)]  # not "start when the last issues"
    assert all(f > s for f, s in zip(staggered, starts))
    # the same offsets again come from the cache
    assert timer.collective_run("all-gather", members, 65536, 0, starts)[0] == staggered and timer.engine_runs == 2
