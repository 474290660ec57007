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
