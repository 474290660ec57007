"""Output paths: every command's -o / --json / --trace refuses a path it cannot write with one
located line (the path, the option, what is wrong), exit 1, no traceback — checked before the
work where it can be — and a failed write never leaves a half-written file behind."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from infragraph.cli import main
from infragraph.errors import InfraGraphError
from infragraph.output import check_output, open_output, write_text
from tests.helpers import run_cli

ROOT = Path(__file__).parent.parent.parent
RING = str(ROOT / "examples" / "ring8.igl")
MINI = str(ROOT / "tests" / "data" / "mini.yaml")
FULL = Path("/dev/full")
needs_dev_full = pytest.mark.skipif(not FULL.exists(), reason="no /dev/full on this system")


def run(capsys, *argv: str) -> tuple[int, str]:
    code, _, err = run_cli(capsys, *argv)
    return code, err


def _commands(out: str) -> list[list[str]]:
    """Each command that writes a file, writing `out`."""
    return [
        ["compile", RING, "-o", out],
        ["compile", RING, "--emit", "document", "-o", out],
        ["decompile", MINI, "-o", out],
        ["lint", RING, "-o", out],
        ["simulate", RING, "--json", out],
        ["simulate", RING, "--trace", out],
        ["visualize", RING, "-o", out],
        ["import", RING, "--from", "astra-analytical", "-o", out],  # the output is checked before the input is read
    ]


def _suffixed(argv: list[str], out: str) -> list[str]:
    """argv with the output renamed to a suffix the command accepts."""
    suffix = {"decompile": ".igl", "lint": ".txt", "visualize": ".svg", "import": ".yaml"}.get(argv[0], ".json")
    if "document" in argv:
        suffix = ".yaml"
    return [a + suffix if a == out else a for a in argv]


def _exit_for(argv: list[str]) -> int:
    return 2 if argv[0] == "lint" else 1  # lint: 1 means findings, 2 an input or usage problem


@pytest.mark.parametrize("index", range(8))
def test_missing_folder_is_refused_before_the_work(tmp_path, capsys, index):
    out = str(tmp_path / "no" / "such" / "out")
    argv = _suffixed(_commands(out)[index], out)
    code, err = run(capsys, *argv)
    assert code == _exit_for(argv)
    line = err.splitlines()[0]
    assert line.startswith(str(tmp_path / "no" / "such" / "out")) and "does not exist" in line
    assert "mkdir -p" in err
    assert not (tmp_path / "no").exists()


@pytest.mark.parametrize("index", range(7))
def test_a_directory_is_refused(tmp_path, capsys, index):
    out = str(tmp_path)
    argv = _commands(out)[index]
    code, err = run(capsys, *argv)
    assert code == _exit_for(argv)
    assert err.startswith(f"{tmp_path}: error: cannot write") and "it is a directory" in err


@needs_dev_full
@pytest.mark.parametrize("argv, option", [
    (["compile", RING, "-o", "/dev/full"], ""),
    (["compile", RING, "-o", "/dev/full", "--format", "graphml"], ""),
    (["simulate", RING, "--json", "/dev/full"], "--json"),
    (["lint", RING, "-o", "/dev/full"], "-o"),
])
def test_a_full_disk_is_a_located_error(capsys, argv, option):
    code, err = run(capsys, *argv)
    assert code == _exit_for(argv)
    assert err.startswith("/dev/full: error: cannot write") and "No space left on device" in err
    assert option in err


def test_compile_refuses_an_unknown_suffix_instead_of_writing_json(tmp_path, capsys):
    code, err = run(capsys, "compile", RING, "-o", str(tmp_path / "g.txt"))
    assert code == 1 and "unknown output type '.txt'; expected .json, .graphml" in err and "--format" in err
    assert not (tmp_path / "g.txt").exists()
    assert main(["compile", RING, "-o", str(tmp_path / "g.txt"), "--format", "graphml"]) == 0
    assert "<graphml" in (tmp_path / "g.txt").read_text()[:300]


def test_emit_document_refuses_a_graph_suffix_and_format(tmp_path, capsys):
    code, err = run(capsys, "compile", RING, "--emit", "document", "-o", str(tmp_path / "d.graphml"))
    assert code == 1 and "expected .yaml, .yml, .json" in err
    code, err = run(capsys, "compile", RING, "--emit", "document", "--format", "json", "-o", str(tmp_path / "d.json"))
    assert code == 1 and err.startswith("--format: error:")


def test_translate_into_a_file_is_refused_before_the_work(tmp_path, capsys):
    target = tmp_path / "bundle"
    target.write_text("keep me")
    code, err = run(capsys, "translate", RING, "--to", "astra-analytical", "-o", str(target))
    assert code == 1 and err.startswith(f"{target}: error: cannot write -o output: it exists and is not a folder")
    assert target.read_text() == "keep me"


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path):
    target = tmp_path / "g.json"
    target.write_text("old")
    with pytest.raises(RuntimeError):
        with open_output(target) as fh:
            fh.write("half a fi")
            raise RuntimeError("the writer failed")
    assert target.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json"]


def test_a_write_replaces_the_file_whole_with_ordinary_permissions(tmp_path):
    target = tmp_path / "out.txt"
    write_text(target, "new text")
    assert target.read_text() == "new text"
    umask = os.umask(0)
    os.umask(umask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~umask
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_a_read_only_folder_is_named(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    with pytest.raises(InfraGraphError, match="no permission to create files"):
        check_output(ro / "g.json")


def test_output_that_is_a_file_used_as_a_folder(tmp_path, capsys):
    (tmp_path / "file").write_text("x")
    code, err = run(capsys, "compile", RING, "-o", str(tmp_path / "file" / "g.json"))
    assert code == 1 and "is not a folder" in err


def test_plot_and_page_outputs(tmp_path, capsys):
    result = tmp_path / "r.json"
    assert main(["simulate", RING, "--size", "1KiB..4KiB", "--json", str(result)]) == 0
    code, err = run(capsys, "plot", str(result), "-o", str(tmp_path / "no" / "p.png"))
    assert code == 1 and "does not exist" in err
    code, err = run(capsys, "plot", str(result), "-o", str(tmp_path / "p.txt"))
    assert code == 1 and "unknown output type '.txt'" in err
    code, err = run(capsys, "visualize", RING, "-o", str(tmp_path / "no" / "g.html"))
    assert code == 1 and "does not exist" in err


@pytest.mark.parametrize("workload", [False, True])
def test_a_trace_to_stdout_is_refused_at_trace(tmp_path, capsys, monkeypatch, workload):
    """Review: `simulate --trace -` wrote a file named "-" (with and without --workload)."""
    from tests.badinput.input_cases import cli
    from tests.workload.etsets import comp, write_set

    monkeypatch.chdir(tmp_path)
    argv = ["--workload", write_set(tmp_path, [[comp(1, 1)]] * 8)[0]] if workload else []
    code, out = cli(capsys, "simulate", str(Path(__file__).parents[2] / "examples" / "ring8.igl"), *argv, "--trace", "-")
    assert code == 1, out
    assert out.startswith("--trace: error: bad --trace '-': a trace is written to a file, not stdout; expected a file "
                          "name"), out
    assert "Traceback" not in out and not (tmp_path / "-").exists()
