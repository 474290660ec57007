"""`infragraph simulate FABRIC --workload ...` end to end: text, JSON, trace and picture."""

from __future__ import annotations

import json

import pytest

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


def test_workload_command_writes_traces_that_simulate_replays(tmp_path, capsys):
    spec = tmp_path / "tiny.yaml"
    spec.write_text("model: {layers: 2, hidden: 64, heads: 4, seq: 16, vocab: 100}\n"
                    "batch: {global_batch: 8}\nparallel: {tp: 2, pp: 2, dp: 2}\n")
    code, text = cli(capsys, "workload", spec, "-o", tmp_path / "out" / "step", "--json", tmp_path / "s.json")
    assert code == 0 and "8 ranks (TP 2 x PP 2 x DP 2)" in text, text
    assert json.loads((tmp_path / "s.json").read_text())["ranks"] == 8
    assert sorted(p.name for p in (tmp_path / "out").iterdir())[:2] == ["step.0.et", "step.1.et"]
    code, text = cli(capsys, "simulate", "examples/ring8.igl", "--workload", tmp_path / "out" / "step",
                     "--comm-group", tmp_path / "out" / "step.json")
    assert code == 0 and "step time" in text, text


def test_workload_command_bad_spec_is_located(tmp_path, capsys):
    spec = tmp_path / "bad.yaml"
    spec.write_text("model: {layers: 2, hidden: 64, heads: 4, seq: 16, vocab: 100}\nbatch: {global_batch: 8}\n"
                    "parallel: {tp: 3}\n")
    code, text = cli(capsys, "workload", spec, "-o", tmp_path / "x")
    col = len("model: {layers: 2, hidden: 64, heads: 4")  # at the first key the message names
    assert code == 1 and f"bad.yaml:1:{col}: model.heads: error: workload spec: heads 4 must divide evenly over tp 3" \
        in text, text


def test_trace_ranks_keeps_only_the_named_npus(tmp_path, capsys):
    out = tmp_path / "r.trace.json"
    code, text = cli(capsys, "simulate", "examples/ring8.igl", "--workload", str(shared_file(MICRO) / "all_reduce"),
                     "--model", "astra", "--trace", out, "--trace-ranks", "0,5-6")
    assert code == 0, text
    events = json.loads(out.read_text())["traceEvents"]
    assert sorted({e["pid"] for e in events}) == [0, 5, 6]
    assert sum(e["ph"] == "X" for e in events) == 3


def test_trace_ranks_outside_the_fabric_or_without_trace_is_an_option_error(tmp_path, capsys):
    et = str(shared_file(MICRO) / "all_reduce")
    code, text = cli(capsys, "simulate", "examples/ring8.igl", "--workload", et, "--trace", tmp_path / "t.json",
                     "--trace-ranks", "0,8")
    assert code == 1 and "--trace-ranks" in text and "rank 8 is not an NPU of the fabric (ranks 0-7)" in text, text
    code, text = cli(capsys, "simulate", "examples/ring8.igl", "--workload", et, "--trace-ranks", "0")
    assert code == 1 and "give --trace OUT too" in text, text
    code, text = cli(capsys, "simulate", "examples/ring8.igl", "--workload", et, "--trace", tmp_path / "t.json",
                     "--trace-ranks", "3-1")
    assert code == 1 and "bad --trace-ranks '3-1'" in text, text


def test_the_tutorials_text_workload_gives_what_the_binary_prints(tmp_path, capsys):
    """ASTRA-sim 518bd51's analytical binary, run here on Chakra's conversion of the ASPLOS tutorial's
    MICRO all-reduce with its example Ring_8npus.yml and Ring_4chunks.json: `sys[i] finished, 64440
    cycles` on all 8 NPUs (43025 with preferred-dataset-splits 1). The tutorial's 45,681 ns came from
    an older ASTRA-sim and another network file (the next test)."""
    p = tmp_path / "micro.txt"
    p.write_text("MICRO\n1\nallreduce -1 1 NONE 0 1 NONE 0 1 ALLREDUCE 1048576 1\n")
    ring = ["std.fabrics.stack", "-D", 'shape="RI(8)"', "-D", "bandwidth=[50 GiB/s]", "-D", "latency=[500 ns]"]
    for chunks, want in ((4, 64440), (1, 43025)):
        out = tmp_path / f"r{chunks}.json"
        code, text = cli(capsys, "simulate", *ring, "--workload", p, "--model", "astra", "--chunks", str(chunks),
                         "--endpoint-delay", "10", "--local-mem-bw", "1600", "--scheduling", "lifo", "--json", out)
        assert code == 0, text
        assert [n["finish_ns"] for n in json.loads(out.read_text())["npus"]] == [want] * 8


# The ASPLOS 2023 tutorial's exercise 1 (github:astra-sim/tutorials asplos2023/exercise_1: ring.json =
# Ring of 8, links-count 2, 50 GB/s, 500 ns; ring.txt = LIFO, endpoint delay 10, 1 active chunk, 4
# splits, localBWAware) on ASTRA-sim at tag tutorial-asplos2023 (3ad17ff) with the analytical backend
# 4ac1ddb, built and run here: `all passes finished at time: N` (docs/workloads.md). Varied: NPUs,
# links-count, splits, size, update time. (NPUs, links, splits, bytes, update ns, N)
ASPLOS2023_RUNS = [(8, 2, 4, 1048576, 1, 45681), (8, 2, 1, 1048576, 1, 24231), (16, 2, 4, 1048576, 1, 79481),
                   (8, 4, 4, 1048576, 1, 37113), (8, 2, 4, 1048576, 1000, 46680), (8, 2, 4, 4194304, 1, 96921),
                   (4, 2, 2, 1000000, 7, 20115)]


@pytest.mark.parametrize("npus,links,splits,size,update,want", ASPLOS2023_RUNS)
def test_the_asplos2023_tutorial_gives_45681_ns(tmp_path, capsys, npus, links, splits, size, update, want):
    """The old backend gives a ring message links-count x 50 GB/s (GB = 2^30 B) and its system layer
    charges no reduction; the old workload layer adds the update time after the collective."""
    p = tmp_path / "micro.txt"
    p.write_text(f"MICRO\n1\nallreduce -1 1 NONE 0 1 NONE 0 1 ALLREDUCE {size} {update}\n")
    out = tmp_path / "r.json"
    code, text = cli(capsys, "simulate", "std.fabrics.stack", "-D", f'shape="RI({npus})"', "-D",
                     f"bandwidth=[{50 * links} GiB/s]", "-D", "latency=[500 ns]", "--workload", p, "--model", "astra",
                     "--chunks", str(splits), "--endpoint-delay", "10", "--local-mem-bw", "none", "--scheduling", "lifo",
                     "--text-update-times", "--json", out)
    assert code == 0, text
    assert [n["finish_ns"] for n in json.loads(out.read_text())["npus"]] == [want] * npus


def test_text_update_times_is_for_text_workloads(capsys):
    et = str(shared_file(MICRO) / "all_reduce")
    code, text = cli(capsys, "simulate", "examples/ring8.igl", "--workload", et, "--text-update-times")
    assert code == 1 and "--text-update-times is for text workloads (FILE.txt)" in text, text


def test_the_superpod_example_is_what_its_readme_says(tmp_path, capsys):
    code, text = cli(capsys, "workload", "examples/workloads/gpt3_175b_superpod.yaml", "-o", tmp_path / "x",
                     "--summary-only")
    assert code == 0, text
    assert "1024 ranks (TP 8 x PP 8 x DP 16)" in text and "8 micro-batches per step" in text, text
    assert "3.3862e+18" in text and "6,687.2 ms" in text, text
    code, text = cli(capsys, "info", "examples/workloads/superpod_1k.igl")
    assert code == 0 and "xpu                     1,024" in text, text


def test_network_alone_times_each_collective_alone_and_a_bad_value_names_the_option(tmp_path, capsys):
    et = str(shared_file(MICRO) / "all_reduce")
    for network, said in (("shared", "shared"), ("alone", "alone (--network alone)")):
        code, text = cli(capsys, "simulate", "examples/ring8.igl", "--workload", et, "--model", "fair", "--network",
                         network, "--json", tmp_path / f"{network}.json")
        assert code == 0, text
        assert json.loads((tmp_path / f"{network}.json").read_text())["network"] == said
    code, text = cli(capsys, "simulate", "examples/ring8.igl", "--workload", et, "--network", "sideways")
    assert code == 2 and "argument --network" in text and "invalid choice: 'sideways'" in text, text
