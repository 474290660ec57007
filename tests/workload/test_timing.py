"""CollectiveTimer.collective_finish: every member starts its part at its own issue time."""

from __future__ import annotations

from dataclasses import replace

import pytest

from infragraph import blueprints
from infragraph.simulate import SimulationOptions, prepare, simulate
from infragraph.workload.timing import CollectiveTimer

SIM = SimulationOptions(model="astra", chunks=1, endpoint_delay_ns=10, local_mem_bw_gb_per_s=1600)


@pytest.fixture(scope="module")
def ring4():
    return prepare(blueprints.graph("std.fabrics.stack", shape="RI(4)", bandwidth="[50.0 GiB/s]", latency="[500.0 ns]"))


def engine(p, model, starts=()):
    opts = replace(SIM, model=model, collective="all-gather", size_bytes=65536.0, top_links=0,
                   member_start_ns=(starts,) if starts else ())
    return [x["finish_ns"] for x in simulate(p, opts)["ranks"]]


@pytest.mark.parametrize("model", ["astra", "astra-aware", "fair", "aware"])
def test_finishes_are_the_engines_with_each_member_offset_from_the_first_issue(ring4, model):
    timer = CollectiveTimer(ring4, 4, replace(SIM, model=model))
    members = (0, 1, 2, 3)
    together = timer.collective_finish("all-gather", members, 65536, 0, [7000.0] * 4)
    assert together == [7000.0 + t for t in engine(ring4, model)]
    issue = [7000.0, 9500.0, 7000.0, 30000.0]
    staggered = timer.collective_finish("all-gather", members, 65536, 0, issue)
    assert staggered == [7000.0 + t for t in engine(ring4, model, (0.0, 2500.0, 0.0, 23000.0))]
    assert staggered != [30000.0 + t for t in engine(ring4, model)]  # not "start when the last issues"
    assert all(f > i for f, i in zip(staggered, issue))
    first, second = timer.collectives
    assert (second["start_ns"], second["last_issue_ns"], second["end_ns"]) == (7000.0, 30000.0, max(staggered))
    assert first["start_ns"] == first["last_issue_ns"] == 7000.0
    # the same offsets again come from the cache; shifted issue times are the same offsets
    again = timer.collective_finish("all-gather", members, 65536, 0, [t + 1000.0 for t in issue])
    assert again == [f + 1000.0 for f in staggered] and timer.engine_runs == 2
