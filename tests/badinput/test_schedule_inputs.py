"""`infragraph schedule` and `synthesize` with bad inputs: exit 1, a message located at the file or
option, found vs expected, no traceback (issue 22 review)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.badinput.input_cases import cli

ROOT = Path(__file__).parents[2]
RING_XML = ROOT / "examples" / "schedules" / "ring8_allreduce.msccl.xml"


def test_chakra_export_into_a_missing_folder_names_the_file_and_says_how(tmp_path, capsys):
    """It said "-o: error: the folder of -o out/ring does not exist", unlike every other output."""
    prefix = tmp_path / "nowhere" / "ring"
    code, out = cli(capsys, "schedule", "export", RING_XML, "--to", "chakra", "-o", prefix, "--size", "1MiB")
    assert code == 1, out
    assert out.startswith(f"{prefix}.0.et: error: cannot write -o output: the folder '{prefix.parent}' does not exist")
    assert f"hint: create it first: mkdir -p {prefix.parent}" in out and "Traceback" not in out


def test_chakra_export_writes_every_rank(tmp_path, capsys):
    code, out = cli(capsys, "schedule", "export", RING_XML, "--to", "chakra", "-o", tmp_path / "ring", "--size", "1MiB")
    assert code == 0, out
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"ring.{r}.et" for r in range(8)]


def test_an_msccl_program_claiming_more_gpus_than_it_has_is_an_error_not_an_oom(tmp_path, capsys):
    """ngpus="99999999999" built a set of range(ngpus) and was killed for memory (exit 137)."""
    xml = tmp_path / "p.xml"
    xml.write_text(RING_XML.read_text().replace('ngpus="8"', 'ngpus="99999999999"', 1))
    code, out = cli(capsys, "schedule", "validate", xml)
    assert code == 1, out
    assert out.startswith(f"{xml}:1:1: error: <algo ngpus=99999999999> has 8 <gpu> elements; none for id(s) "
                          "[8, 9, 10, 11, 12, 13, 14, 15] ..."), out
    xml.write_text(RING_XML.read_text().replace('ngpus="8"', 'ngpus="9"', 1))
    code, out = cli(capsys, "schedule", "validate", xml)
    assert code == 1 and "<algo ngpus=9> has 8 <gpu> elements; none for id(s) [8]\n" in out + "\n", out


ALLPAIRS = ROOT / "examples" / "schedules" / "allpairs8_allreduce.mscclpp.json"


def _plan(tmp_path: Path, change) -> Path:
    import json

    doc = json.loads(ALLPAIRS.read_text())
    change(doc)
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(doc))
    return path


def _all_gpus(**counts):
    def change(doc):
        for gpu in doc["gpus"]:
            gpu.update(counts)
    return change


def test_an_mscclpp_plan_with_huge_buffers_is_refused_not_run_for_hours(tmp_path, capsys):
    """input_chunks=10**12 (or 10**9 on every GPU) ran the plan's chunk loops without end."""
    for change, where, message in (
            (lambda d: d["gpus"][0].update(input_chunks=10**12), "/gpus/0/input_chunks", "expected 1..524288"),
            (_all_gpus(input_chunks=10**9, output_chunks=10**9), "/gpus/0/input_chunks", "expected 1..524288"),
            (lambda d: d["gpus"][0].update(scratch_chunks=10**12), "/gpus/0/scratch_chunks", "expected 0..524288"),
            # one collective: GPU 3 stating other input chunks than GPU 0 was taken from GPU 0 alone
            (lambda d: d["gpus"][3].update(input_chunks=16), "/gpus/3/input_chunks",
             "GPU 3 has 16 input chunks, GPU 0 8; expected the same on every GPU"),
            (lambda d: d.update(num_threads_per_block=float("nan")), "/num_threads_per_block", "expected int")):
        path = _plan(tmp_path, change)
        code, out = cli(capsys, "schedule", "validate", path)
        assert code == 1 and out.startswith(f"{path}: {where}: error: ") and message in out, out
        assert "Traceback" not in out


RING_JSON = ROOT / "examples" / "schedules" / "ring8_allreduce.json"


@pytest.mark.parametrize("key, value, found", [
    ("ranks", 99999999999, "99,999,999,999 ranks x 1 chunks per rank make 9,999,999,999,800,000,000,001"),
    ("chunks_per_rank", 1000000000, "8 ranks x 1,000,000,000 chunks per rank make 64,000,000,000")])
def test_a_schedule_too_large_to_prove_is_an_error_not_an_abort(tmp_path, capsys, key, value, found):
    """Review: "ranks": 99999999999 aborted validate for memory (exit 134) in schedule_proof::prove."""
    import json

    doc = json.loads(RING_JSON.read_text())
    doc[key] = value
    path = tmp_path / "big.json"
    path.write_text(json.dumps(doc))
    for argv, where in ((["schedule", "validate", path], f"{path}: error: the schedule does not implement its all-reduce: "),
                        (["simulate", "std.fabrics.torus", "-D", "sizes=[4,2]", "--algorithm", f"schedule:{path}"],
                         f"--algorithm: error: schedule {path} does not implement its all-reduce: ")):
        code, out = cli(capsys, *argv)
        assert code == 1, out
        assert out.startswith(where) and f"/ranks, /chunks_per_rank: {found} (rank, chunk) pairs to prove for 112 " \
               "transfers; expected at most 67,108,864" in out, out
        assert "Traceback" not in out


def test_failures_that_split_the_fabric_are_located_at_fail(tmp_path, capsys):
    """Review: `synthesize ... --fail 'npu.*'` said `<input>: error: the NPUs are not all connected`."""
    code, out = cli(capsys, "synthesize", "std.fabrics.torus", "-D", "sizes=[4,4]", "--collective", "all-reduce",
                    "--fail", "npu.*", "-o", tmp_path / "s.json")
    assert code == 1, out
    assert out.startswith("--fail: error: --fail 'npu.*': the NPUs are not all connected: rank 0 and rank 1 cannot "
                          "exchange chunks over the surviving links (16 separate parts); expected failures that leave "
                          "every NPU able to reach every other"), out
    assert "Traceback" not in out and not (tmp_path / "s.json").exists()


@pytest.mark.parametrize("argv,message", [
    (["--group", "0,1"], "the schedule 'ring_allreduce_8' implements all-reduce over 8 ranks, but the group has 2 "
                         "members"),
    (["--dims", "2,4", "--algorithm", "ring,schedule:examples/schedules/ring8_allreduce.msccl.xml",
      "--optimization", "baseline"],
     "the schedule 'ring_allreduce_8' implements all-reduce over 8 ranks, but dimension 2 (2x4) has 4 members"),
])
def test_a_schedule_for_another_rank_count_is_located_at_algorithm(capsys, argv, message):
    """Was '<input>: error: cannot simulate: unsupported: ... this phase runs all-reduce over 2 members (a
    multi-dimensional all-reduce under localBWAware ...)', unlocated and pointing at the wrong cause."""
    algorithm = [] if "--algorithm" in argv else ["--algorithm", "schedule:examples/schedules/ring8_allreduce.msccl.xml"]
    code, out = cli(capsys, "simulate", "examples/ring8.igl", *algorithm, *argv)
    assert code == 1 and out.startswith(f"--algorithm: error: {message}"), out


def _ring(tmp_path: Path, collective: str, n: int) -> Path:
    import json

    from infragraph.collectives.ring import ring_schedule

    path = tmp_path / f"ring{n}.json"
    path.write_text(json.dumps(ring_schedule(collective, n)))
    return path


@pytest.mark.parametrize("extra, option, message", [
    (["--size", "1e30B"], "--size", "--size 1e+30 B makes messages of up to 1 chunks x 250,000,000,000,000,004,971,156,"
                                    "209,664 B = 250,000,000,000,000,004,971,156,209,664 B; an ET's comm_size holds at "
                                    "most 18,446,744,073,709,551,615 B (uint64): expected --size at most 7.3787e+19 B"),
    (["--size", "1MiB", "--local-mem-bw", "1e-30"], "--local-mem-bw",
     "--local-mem-bw 1e-30 GB/s makes the reduction of 262,144 B take 7.86432e+35 ns; ASTRA-sim counts an ET's "
     "duration_micros in uint64 ns (at most 18,446,744,073,709,551 us): expected --local-mem-bw at least "
     "4.26326e-14 GB/s"),
])
def test_chakra_export_refuses_numbers_its_uint64_fields_cannot_hold(tmp_path, capsys, extra, option, message):
    """--size 1e25B was an internal error (protobuf: 'Value out of range'); --local-mem-bw 1e-30
    wrote a reduction of 2^64 - 1 us (the engine's conversion saturates): a wrong ET, silently."""
    code, out = cli(capsys, "schedule", "export", _ring(tmp_path, "all-reduce", 4), "--to", "chakra",
                    "-o", tmp_path / "r", *extra)
    assert code == 1, out
    assert out.startswith(f"{option}: error: {message}"), out
    assert not list(tmp_path.glob("r.*.et")) and "Traceback" not in out


@pytest.mark.parametrize("collective, n, message", [
    ("all-gather", 300, "rank 0 sends 299 chunks to rank 1, each a step of its thread block to rank 1; NCCL's MSCCL "
                        "executor takes at most 256 steps per thread block (msccl.h MSCCL_MAX_NUM_STEPS)"),
    ("all-pairs", 110, "rank 0 sends to or receives from peers in 218 (peer, direction) pairs, each a thread block; "
                       "NCCL's MSCCL executor takes at most 216 per GPU"),
])
def test_msccl_export_of_too_many_ranks_is_refused_up_front_naming_to(tmp_path, capsys, collective, n, message):
    """Checked before the program is built (a 1,024-rank ring built two million ops, then refused)."""
    import json

    if collective == "all-pairs":  # every rank sends its chunk straight to every other: one step
        path = tmp_path / "pairs.json"
        path.write_text(json.dumps({"collective": "all-gather", "ranks": n, "chunks_per_rank": 1, "steps": [
            [{"src": a, "dst": b, "chunk": a} for a in range(n) for b in range(n) if a != b]]}))
    else:
        path = _ring(tmp_path, collective, n)
    code, out = cli(capsys, "schedule", "export", path, "--to", "msccl", "-o", tmp_path / "p.xml")
    assert code == 1, out
    assert out.startswith(f"--to msccl: error: {message}"), out
    assert not (tmp_path / "p.xml").exists()
