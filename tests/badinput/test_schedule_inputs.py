"""`infragraph schedule` and `synthesize` with bad inputs: exit 1, a message located at the file or
option, found vs expected, no traceback (issue 22 review)."""

from __future__ import annotations

from pathlib import Path

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
