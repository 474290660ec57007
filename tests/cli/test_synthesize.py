"""`infragraph synthesize`: writes a proven schedule that simulate runs; bad options are located."""
from __future__ import annotations

import json

import pytest

from infragraph.collectives.schedule import load_schedule, validate
from tests.helpers import run_cli as run

MESH = ["std.fabrics.mesh", "-D", "sizes=[3,3]"]


def test_writes_a_schedule_that_validates_and_states_its_times(capsys, tmp_path):
    out_file = tmp_path / "s.json"
    code, out, _ = run(capsys, "synthesize", *MESH, "--collective", "all-reduce", "--size", "16MiB", "-o", str(out_file))
    assert code == 0
    doc = json.loads(out_file.read_text())
    block = doc["synthesis"]
    assert block["lower_bound_ns"] <= block["predicted_time_ns"]
    assert block["engine"]["model"] == "fair" and block["engine"]["time_ns"] >= block["lower_bound_ns"]
    assert doc["dependencies"] == block["engine"]["dependencies"]
    validate(load_schedule(str(out_file)))
    assert "lower bound" in out and "synthesizer's model" in out and "engine (fair" in out
    # simulate runs it
    code, out, _ = run(capsys, "simulate", *MESH, "--algorithm", f"schedule:{out_file}", "--size", "16MiB")
    assert code == 0 and "time" in out


def test_chunks_auto(capsys, tmp_path):
    out_file = tmp_path / "s.json"
    code, out, _ = run(capsys, "synthesize", *MESH, "--collective", "all-gather", "--chunks", "auto", "--model", "none",
                       "-o", str(out_file))
    assert code == 0
    assert json.loads(out_file.read_text())["chunks_per_rank"] in (1, 2, 4, 8)


def test_failed_link_is_avoided(capsys, tmp_path):
    out_file = tmp_path / "s.json"
    code, _, _ = run(capsys, "synthesize", *MESH, "--collective", "all-gather", "--model", "none",
                     "--fail", "npu.0.port.0--npu.1.port.1", "-o", str(out_file))
    assert code == 0
    doc = json.loads(out_file.read_text())
    pairs = {frozenset((t["src"], t["dst"])) for step in doc["steps"] for t in step}
    assert frozenset((0, 1)) not in pairs and frozenset((0, 3)) in pairs
    assert "engine" not in doc["synthesis"]


@pytest.mark.parametrize("argv, where, message", [
    (["--chunks", "0"], "--chunks", "expected a whole number ≥ 1"),
    (["--chunks", "many"], "--chunks", "expected a whole number ≥ 1 or auto"),
    (["--chunks", "99999999"], "--chunks", "bad --chunks 99999999: on 9 NPUs at most 7,456,540 chunks per rank fit"),
    (["--size", "0"], "--size", "expected a size > 0"),
    (["--size", "lots"], "--size", "bad --size 'lots'"),
    (["--match-seed", "-1"], "--match-seed", "expected a whole number ≥ 0"),
    (["--fail", "nosuch"], "--fail nosuch", "no node named 'nosuch'"),
])
def test_bad_options_are_located(capsys, tmp_path, argv, where, message):
    out_file = tmp_path / "s.json"
    code, _, err = run(capsys, "synthesize", *MESH, "--collective", "all-gather", *argv, "-o", str(out_file))
    assert code == 1
    assert err.startswith(f"{where}: error:") and message in err
    assert not out_file.exists()


def test_disconnecting_failures_are_an_error(capsys, tmp_path):
    code, _, err = run(capsys, "synthesize", *MESH, "--collective", "all-gather", "--fail", "npu.0.*",
                       "-o", str(tmp_path / "s.json"))
    assert code == 1 and "not all connected" in err


def test_unwritable_output_is_refused_before_work(capsys, tmp_path):
    code, _, err = run(capsys, "synthesize", *MESH, "--collective", "all-gather", "-o", str(tmp_path / "no" / "s.json"))
    assert code == 1 and "does not exist" in err


def test_simulate_compares_algorithms_side_by_side(capsys, tmp_path):
    out_json = tmp_path / "c.json"
    code, out, _ = run(capsys, "simulate", "std.fabrics.torus", "-D", "sizes=[4,2,2]", "--algorithm",
                       "ring,direct,halving-doubling,synthesized", "--size", "64MiB", "--json", str(out_json))
    assert code == 0
    assert "lower bound" in out
    for name in ("ring", "direct", "halving-doubling", "synthesized"):
        assert f"\n  {name} " in out
    doc = json.loads(out_json.read_text())
    times = {r["algorithm_requested"][0]: r["collective_time_ns"] for r in doc["results"]}
    assert min(times.values()) >= doc["lower_bound_ns"]
    assert times["synthesized"] < times["ring"]  # a 4x2x2 torus: the ring leaves links idle


@pytest.mark.parametrize("argv, where, message", [
    (["--size", "1MiB..4MiB"], "--size", "runs one size"),
    (["--collective", "all-to-all"], "--algorithm", "'synthesized' makes"),
    (["--synth-chunks", "0"], "--synth-chunks", "expected a whole number ≥ 1"),
    (["--synth-chunks", "x"], "--synth-chunks", "expected a whole number ≥ 1 or auto"),
])
def test_comparison_options_are_located(capsys, argv, where, message):
    code, _, err = run(capsys, "simulate", *MESH, "--algorithm", "ring,synthesized", *argv)
    assert code == 1
    assert err.startswith(f"{where}: error:") and message in err


def test_binary_schedule_file_is_written_validated_converted_and_run(capsys, tmp_path):
    """-o *.igsched writes the binary schedule file; `schedule validate` proves it, `schedule
    import` converts it to the same JSON schedule (and back), and simulate runs it."""
    binary, text, again = tmp_path / "s.igsched", tmp_path / "s.json", tmp_path / "t.igsched"
    code, out, _ = run(capsys, "synthesize", *MESH, "--collective", "all-reduce", "--chunks", "2", "--model", "none",
                       "--dependencies", "chunks", "-o", str(binary))
    assert code == 0 and f"wrote {binary}" in out
    code, out, _ = run(capsys, "schedule", "validate", str(binary))
    assert code == 0 and "valid all-reduce over 9 ranks, 2 chunk(s) per rank" in out
    assert run(capsys, "schedule", "import", str(binary), "-o", str(text))[0] == 0
    doc = json.loads(text.read_text())
    assert doc["dependencies"] == "chunks" and sum(map(len, doc["steps"])) == 2 * 9 * 8 * 2
    assert run(capsys, "schedule", "import", str(text), "-o", str(again))[0] == 0
    validate(load_schedule(str(text)))
    assert again.read_bytes()[:8] == binary.read_bytes()[:8]
    code, out, _ = run(capsys, "simulate", *MESH, "--algorithm", f"schedule:{binary}", "--size", "16MiB")
    assert code == 0 and "time" in out


def test_a_broken_binary_file_is_located(capsys, tmp_path):
    bad = tmp_path / "bad.igsched"
    bad.write_bytes(b"IGSCHED1" + (5).to_bytes(8, "little") + b"{nope")
    code, _, err = run(capsys, "schedule", "validate", str(bad))
    assert code == 1 and f"{bad}: error: header (from byte 16) is not JSON" in err


def test_json_output_of_a_huge_schedule_is_refused(capsys, tmp_path, monkeypatch):
    from infragraph.cli import synthesize as cli_synthesize

    monkeypatch.setattr(cli_synthesize, "JSON_MAX_TRANSFERS", 100)
    code, _, err = run(capsys, "synthesize", *MESH, "--collective", "all-gather", "--chunks", "2", "--model", "none",
                       "-o", str(tmp_path / "s.json"))
    assert code == 1 and "-o" in err and "144 transfers are too many for a JSON schedule (at most 100)" in err
    assert "name the output *.igsched" in err and not (tmp_path / "s.json").exists()


def test_the_engine_time_printed_is_the_one_simulate_gives(capsys, tmp_path):
    """Review: synthesize printed "engine (fair) 5.037 ms" for the 4x4 torus where simulate gave 5.100 ms
    (it timed free reductions and no endpoint delay without saying so); it now times with simulate's
    defaults and states them, in the line and in the JSON."""
    out_file, result = tmp_path / "s.json", tmp_path / "r.json"
    code, out, _ = run(capsys, "synthesize", *MESH, "--collective", "all-reduce", "--size", "16MiB", "-o", str(out_file))
    assert code == 0
    engine = json.loads(out_file.read_text())["synthesis"]["engine"]
    assert engine["endpoint_delay_ns"] == 10.0 and engine["local_mem_bw_gb_per_s"] == 1600.0
    assert "[as simulate: 10 ns endpoint delay, reductions at 1600 GB/s]" in out
    code, _, _ = run(capsys, "simulate", *MESH, "--algorithm", f"schedule:{out_file}", "--collective", "all-reduce",
                     "--size", "16MiB", "--json", str(result))
    assert code == 0
    assert json.loads(result.read_text())["collective_time_ns"] == pytest.approx(engine["time_ns"], rel=1e-12)
