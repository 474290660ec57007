"""The per-NPU breakdown, the Perfetto trace and the picture."""

from __future__ import annotations

import math

import numpy as np
import pytest

from infragraph.workload.report import breakdown_picture, breakdowns, chrome_trace, format_report
from infragraph.workload.trace import KIND_CODES


def test_breakdown_splits_time_into_disjoint_parts():
    kinds = np.array([KIND_CODES[k] for k in ("compute", "collective", "compute", "recv", "mem-load", "metadata",
                                              "compute", "mem-store", "compute")], dtype=np.uint8)
    start = [0, 5, 20, 22, 30, 0, math.nan, 8, 3]
    end = [10, 20, 25, 30, 34, 40, math.nan, 12, 3]
    # NPU 0: compute [0,10]+[20,25] = 15; comm [5,20]+[22,30] = 23; overlap [5,10]+[22,25] = 8; memory
    # [30,34] outside both; a metadata node counts nowhere, a node that never ran neither.
    # NPU 1: a memory store inside nothing, an empty compute span.
    b0, b1 = breakdowns([40.0, 20.0], np.array([0, 7, 9]), kinds, np.array(start, float), np.array(end, float))
    assert (b0["compute_ns"], b0["communication_ns"], b0["overlapped_ns"], b0["exposed_ns"]) == (15, 23, 8, 15)
    assert (b0["memory_ns"], b0["idle_ns"]) == (4, 40 - 30 - 4)
    assert (b1["rank"], b1["compute_ns"], b1["memory_ns"], b1["idle_ns"]) == (1, 0, 4, 16)


def _report():
    return {"workload": "w", "graph": "g", "model": "astra", "num_npus": 2, "step_time_ns": 30.0, "roofline": False,
            "npus": [{"rank": r, "finish_ns": 30.0, "compute_ns": 10.0, "communication_ns": 20.0, "overlapped_ns": 5.0,
                      "exposed_ns": 15.0, "memory_ns": 0.0, "waiting_ns": 2.0, "idle_ns": 3.0, "idle_to_step_ns": 3.0} for r in (0, 1)],
            "collectives": [{"group": 0, "ranks": 2, "collective": "all-reduce", "size_bytes": 64, "start_ns": 10.0,
                             "end_ns": 30.0, "bus_bandwidth_gb_per_s": 3.2}],
            "messages": [], "tiers": [{"tier": "t", "directed_links": 2, "bytes": 64.0,
                                       "mean_gbit_per_s_per_link": 8.5}],
            "timeline": [[(1, "compute", "c", 0.0, 10.0), (2, "collective", "ar", 10.0, 30.0)],
                         [(1, "compute", "c", 0.0, 10.0), (2, "recv", "r", 5.0, 30.0)]]}


def test_trace_has_compute_and_communication_lanes_per_npu():
    t = chrome_trace(_report())
    slices = [e for e in t["traceEvents"] if e["ph"] == "X"]
    assert {(e["pid"], e["tid"], e["cat"]) for e in slices} == {(0, 0, "compute"), (0, 1, "collective"),
                                                                 (1, 0, "compute"), (1, 2, "recv")}
    ar = next(e for e in slices if e["cat"] == "collective")
    assert (ar["ts"], ar["dur"]) == (0.01, 0.02)  # µs
    lanes = {e["args"]["name"] for e in t["traceEvents"] if e["name"] == "thread_name"}
    assert {"compute", "communication"} <= lanes


def test_receives_posted_together_get_rows_that_never_overlap():
    """1F1B posts several receives at once: in one Perfetto thread they would overlap without
    nesting (Perfetto drops such slices), so each gets the first row of the lane free at its start."""
    r = _report()
    r["timeline"] = [[(1, "recv", "a", 0.0, 10.0), (2, "recv", "b", 5.0, 20.0), (3, "recv", "c", 10.0, 15.0),
                      (4, "recv", "d", 12.0, 30.0), (5, "compute", "x", 0.0, 30.0)], []]
    t = chrome_trace(r)
    slices = {e["name"]: e["tid"] for e in t["traceEvents"] if e["ph"] == "X"}
    assert slices == {"a": 2, "b": 6, "c": 2, "d": 10, "x": 0}  # receives row 1, 2, 1, 3
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in t["traceEvents"] if e["name"] == "thread_name"}
    assert names[(0, 6)] == "receives 2" and names[(0, 10)] == "receives 3" and names[(0, 2)] == "receives"
    by_tid: dict = {}
    for e in t["traceEvents"]:
        if e["ph"] == "X":
            by_tid.setdefault((e["pid"], e["tid"]), []).append((e["ts"], e["ts"] + e["dur"]))
    for spans in by_tid.values():
        spans.sort()
        assert all(b[0] >= a[1] for a, b in zip(spans, spans[1:]))


def test_text_summary_names_the_step_and_the_parts():
    text = format_report(_report())
    assert "step time: 30 ns\n" in text and "exposed communication 15 ns" in text and "busbw 3.20 GB/s" in text
    assert "waiting for peers 2 ns, idle 3 ns (to the step's end)" in text


def test_text_summary_says_whether_collectives_shared_the_network():
    """docs/workloads.md: the report says `shared` or `alone (why)`; `--network alone` times each
    collective alone (optimistic where groups share links), which the text must not hide."""
    r = _report()
    r["network"] = "alone (--network alone)"
    assert "\nnetwork: alone (--network alone)\n" in format_report(r)


def test_picture_is_a_png(tmp_path):
    out = tmp_path / "b.png"
    breakdown_picture(_report(), str(out))
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 5000


def test_a_receive_that_waited_is_a_wait_slice_then_its_own_in_one_row():
    """A timeline entry's sixth field is its data start (waits.py): the receive posted at 5 whose
    send was issued at 12 is drawn as "wait: r" [5, 12) and "r" [12, 30) in the receives lane."""
    r = _report()
    r["timeline"][1][1] = (2, "recv", "r", 5.0, 30.0, 12.0)
    slices = [(e["name"], e["cat"], e["tid"], e["ts"], e["dur"]) for e in chrome_trace(r)["traceEvents"]
              if e["ph"] == "X" and e["pid"] == 1]
    assert [(n, c, t) for n, c, t, _, _ in slices] == [("c", "compute", 0), ("wait: r", "wait", 2), ("r", "recv", 2)]
    assert [(ts * 1e3, dur * 1e3) for *_, ts, dur in slices[1:]] == [pytest.approx((5.0, 7.0)),
                                                                     pytest.approx((12.0, 18.0))]


def test_breakdown_counts_the_wait_before_the_data_start_as_waiting():
    """One NPU: compute [0, 10); a receive posted at 0 whose send is issued at 25, done at 30; a
    collective issued at 32 whose last member issued at 40, done at 50; finish 60. Compute 10;
    communication [25, 30) + [40, 50) = 15, all exposed; waiting [10, 25) + [32, 40) = 23; idle
    [30, 32) + [50, 60) = 12; 10 + 15 + 23 + 12 = 60."""
    kinds = np.array([KIND_CODES[k] for k in ("compute", "recv", "collective")], dtype=np.uint8)
    start, end, moving = (np.array(x, float) for x in ([0, 0, 32], [10, 30, 50], [0, 25, 40]))
    (b,) = breakdowns([60.0], np.array([0, 3]), kinds, start, end, moving)
    assert (b["compute_ns"], b["communication_ns"], b["overlapped_ns"], b["exposed_ns"]) == (10, 15, 0, 15)
    assert (b["waiting_ns"], b["idle_ns"], b["memory_ns"]) == (23, 12, 0)
