"""`infragraph simulate FABRIC --workload ...` end to end: text, JSON, trace and picture."""

from __future__ import annotations

import json

from tests.badinput.input_cases import cli
from tests.helpers import shared_file

MICRO = "backends/astra-sim/examples/workload/microbenchmarks/all_reduce/8npus_1MB"


def test_shipped_et_set_replays_with_every_output(tmp_path, capsys):
    out = {k: tmp_path / f"r.{k}" for k in ("json", "trace", "png")}
    code, text = cli(capsys, "simulate", "examples/ring8.igl", "--workload", str(shared_file(MICRO) / "all_reduce"), "--model",
                     "astra", "--chunks", "4", "--json", out["json"], "--trace", out["trace"], "--breakdown", out["png"])
    assert code == 0, text
    r = json.loads(out["json"].read_text())
    assert r["num_npus"] == 8 and len(r["collectives"]) == 1 and r["step_time_ns"] > 0
    assert f"step time: {r['step_time_ns']:,.0f} ns" in text or f"({r['step_time_ns']:,.0f} ns)" in text
    trace = json.loads(out["trace"].read_text())
    assert sum(e["ph"] == "X" for e in trace["traceEvents"]) == 8
    assert out["png"].read_bytes()[:4] == b"\x89PNG"


def test_text_workload(tmp_path, capsys):
    p = tmp_path / "micro.txt"
    p.write_text("MICRO\n1\nallreduce -1 1 NONE 0 1 NONE 0 1 ALLREDUCE 1048576 1\n")
    code, text = cli(capsys, "simulate", "examples/ring8.igl", "--workload", p, "--model", "astra")
    assert code == 0 and "collectives: 1" in text, text
