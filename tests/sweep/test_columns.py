"""check_row on workload rows (infragraph/sweep/columns.py): what a replayed step must hold before
a resumed sweep trusts it, and that a collective row is still checked as one."""

from __future__ import annotations

import math
import re

import pytest

from infragraph.sweep.columns import LOAD_PREFIX, RowError, check_row, is_output, reserved


def workload_row(**fields) -> dict:
    return {"point": 0, "key": "k", "tp": 2, "status": "ok", "error": None, "num_npus": 4,
            "step_time_ns": 1000.0, "compute_ns_mean": 600.0, "exposed_comm_ns_mean": 300.0,
            "overlapped_comm_ns_mean": 200.0, "waiting_ns_mean": 40.0, "idle_ns_mean": 60.0, "tflops_per_npu": 12.5, "collectives": 10,
            "messages": 4, "et_nodes": 40, "generated": True, "engine_wall_s": 0.1, "point_wall_s": 0.2,
            "compiled": True, "worker": "host:1", f"{LOAD_PREFIX}npu–sw]": 3.5, **fields}


def test_a_good_workload_row_passes():
    assert check_row(workload_row())["step_time_ns"] == 1000.0


@pytest.mark.parametrize("fields, message", [
    ({"step_time_ns": math.nan}, "step_time_ns must be a finite number"),
    ({"step_time_ns": math.inf}, "step_time_ns must be a finite number"),
    ({"step_time_ns": 0.0, "compute_ns_mean": 0.0, "exposed_comm_ns_mean": 0.0, "waiting_ns_mean": 0.0, "idle_ns_mean": 0.0,
      "overlapped_comm_ns_mean": 0.0}, "step_time_ns must be > 0"),
    ({"compute_ns_mean": -1.0}, "compute_ns_mean must be a finite number ≥ 0"),
    ({"idle_ns_mean": "1 ms"}, "idle_ns_mean must be a finite number"),
    ({"exposed_comm_ns_mean": 500.0}, "compute_ns_mean + exposed_comm_ns_mean + waiting_ns_mean + idle_ns_mean = "
                                       "1200.0 exceeds step_time_ns 1000.0"),
    ({"waiting_ns_mean": 41.0}, "compute_ns_mean + exposed_comm_ns_mean + waiting_ns_mean + idle_ns_mean = "
                                  "1001.0 exceeds step_time_ns 1000.0"),
    ({"waiting_ns_mean": -1.0}, "waiting_ns_mean must be a finite number ≥ 0"),
    ({"overlapped_comm_ns_mean": 700.0}, "overlapped_comm_ns_mean 700.0 exceeds compute_ns_mean"),
    ({"collectives": 1.5}, "collectives must be a whole number"),
    ({"et_nodes": -3}, "et_nodes must be a whole number"),
    ({"generated": "yes"}, "generated must be true or false"),
    ({f"{LOAD_PREFIX}npu–sw]": math.nan}, f"{LOAD_PREFIX}npu–sw] must be a finite number"),
    ({"tflops_per_npu": None}, "tflops_per_npu must be a finite number"),
    ({"worker": 7}, "worker must be text"),
])
def test_a_wrong_workload_row_is_refused_saying_what_is_wrong(fields, message):
    with pytest.raises(RowError, match="^" + re.escape(message)):
        check_row(workload_row(**fields))


def test_a_row_stored_before_the_waiting_column_is_refused_saying_why():
    row = workload_row()
    del row["waiting_ns_mean"]
    with pytest.raises(RowError, match="^waiting_ns_mean is missing: a row stored before 26 Nov 2026 counted"):
        check_row(row)


def test_rounding_in_the_per_npu_means_is_tolerated():
    check_row(workload_row(compute_ns_mean=600.0000001))


def test_a_failed_workload_point_needs_only_its_message():
    assert check_row({"point": 3, "key": "k", "status": "error", "error": "x", "step_time_ns": None})


def test_a_collective_row_without_a_step_time_is_checked_as_one():
    with pytest.raises(RowError, match="num_npus"):
        check_row({"point": 0, "key": "k", "status": "ok", "error": None})


def test_workload_columns_are_outputs_and_reserved_names():
    for name in ("step_time_ns", "exposed_comm_ns_mean", "generated", f"{LOAD_PREFIX}x]"):
        assert is_output(name) and reserved(name)
    assert not is_output("tp")
