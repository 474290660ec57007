"""The validator over columns (columns.py, simengine schedule_proof.rs): it proves what the exact
validator proves, refuses what it refuses, and locates the failure without the exact state."""
from __future__ import annotations

import numpy as np
import pytest

from infragraph.collectives import schedule as schedule_module
from infragraph.collectives.ring import ring_schedule as ring
from infragraph.collectives.schedule import ScheduleError, read_schedule, schedule_from_columns, validate, validate_exact


@pytest.mark.parametrize("collective", ["all-gather", "reduce-scatter", "all-reduce"])
def test_columns_round_trip_and_prove(collective):
    s = read_schedule(ring(collective, 6))
    cols = s.columns()
    assert cols.src.dtype == np.dtype("<u2") and cols.reduce.dtype == bool
    assert cols.steps == len(s.steps) and cols.transfers == sum(map(len, s.steps))
    cols.prove()
    assert schedule_from_columns(cols) == s


def broken_schedules():
    """(name, document): each wrong in one way the exact validator names."""
    missing = ring("all-gather", 8)
    missing["steps"][-1] = [t for t in missing["steps"][-1] if t["src"] != 3]
    double = ring("reduce-scatter", 4)
    double["steps"][1].append({"src": 0, "dst": 2, "chunk": 3, "op": "reduce"})
    unheld = ring("all-gather", 4)
    unheld["steps"][0].append({"src": 0, "dst": 2, "chunk": 2, "op": "copy"})
    twice = ring("all-gather", 4)
    twice["steps"][0].append(dict(twice["steps"][0][0]))
    # Rank 1's contribution to chunk 0 reaches rank 0 twice (directly, and through rank 2) and rank 2's
    # never: the count of contributions is right (3 of 3), only the fingerprint tells.
    swapped = {"collective": "reduce-scatter", "ranks": 3, "chunks_per_rank": 1, "steps": [
        [{"src": 1, "dst": 0, "chunk": 0, "op": "reduce"}, {"src": 2, "dst": 1, "chunk": 1, "op": "reduce"},
         {"src": 0, "dst": 1, "chunk": 1, "op": "reduce"}, {"src": 0, "dst": 2, "chunk": 2, "op": "reduce"},
         {"src": 1, "dst": 2, "chunk": 2, "op": "reduce"}],
        [{"src": 1, "dst": 0, "chunk": 0, "op": "reduce"}]]}
    return [("missing", missing), ("double", double), ("unheld", unheld), ("twice", twice), ("swapped", swapped)]


@pytest.mark.parametrize("name, doc", broken_schedules())
def test_broken_schedules_fail_both_proofs_with_the_exact_message(name, doc):
    s = read_schedule(doc)
    with pytest.raises(ScheduleError) as exact:
        validate_exact(s)
    with pytest.raises(ScheduleError) as fast:
        s.columns().prove()
    with pytest.raises(ScheduleError) as both:
        validate(s)
    assert str(both.value) == str(exact.value)  # small schedules: the exact validator says why
    if name in ("missing", "unheld", "twice"):  # the proof alone finds these where the exact one does
        assert str(fast.value) == str(exact.value)


@pytest.mark.parametrize("name, doc, message", [
    ("missing", broken_schedules()[0][1], r"after the last step \(6\): rank 4 ends with chunk 5 without it"),
    # The doubled contribution (step 1) shows when the count passes the 4 ranks, one step later.
    ("double", broken_schedules()[1][1], r"step 2: rank 3 reduces chunk 3 from rank 2 and would hold 5 contributions "
                                          r"of 4 ranks: some rank's twice"),
    ("unheld", broken_schedules()[2][1], r"step 0: rank 0 sends chunk 2 to rank 2 but does not hold it"),
    ("swapped", broken_schedules()[4][1], r"after the last step \(1\): rank 0 ends with chunk 0 holding 3 "
                                           r"contributions but not each rank's exactly once"),
])
def test_large_schedules_are_located_by_the_proof_alone(monkeypatch, name, doc, message):
    monkeypatch.setattr(schedule_module, "EXACT_MAX_PAIRS", 0)  # as for a schedule too large for bit masks
    with pytest.raises(ScheduleError, match=message):
        validate(read_schedule(doc))


def test_out_of_range_columns_are_refused():
    cols = read_schedule(ring("all-gather", 4)).columns()
    from dataclasses import replace

    with pytest.raises(ScheduleError, match=r"transfer 0: src 0, dst 7"):
        replace(cols, dst=np.full(cols.transfers, 7, dtype=np.uint32)).prove()
    with pytest.raises(ScheduleError, match="outside the 16-bit values"):
        replace(cols, chunk=np.full(cols.transfers, 1 << 16, dtype=np.uint32)).prove()
