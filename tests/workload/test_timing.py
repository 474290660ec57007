"""How long collectives and messages take in a replay (infragraph/workload/timing.py): the stack's
symmetries must give the same answers as a run on every group itself."""

from __future__ import annotations

import pytest

from infragraph import blueprints
from infragraph.graph.failures import FailureSpec, with_failures
from infragraph.simulate import SimulationOptions, prepare
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
        answers.append([timer.collective_finish(kind, g, 1 << 20, 0, [100.0 * i for i in range(len(g))])
                        for g in tp + dp for kind in ("all-reduce", "all-gather")]
                       + [timer.message_arrival(s, d, 65536, 5.0) for s, d in pairs])
    assert answers[0] == answers[1]
    assert folded.collectives == exact.collectives and folded.messages == exact.messages
    assert dict(folded.tier_bytes) == dict(exact.tier_bytes)
    assert folded.engine_runs < exact.engine_runs
