"""analyze under bad options (issue 21 item 3): a huge --trials is refused with the limit named
(it was a MemoryError), --workers above the CPUs is capped with a note (it started processes
until the machine stalled), and --json/--plot into a missing folder or a path under a file are
refused at the option before any work (they were internal errors)."""

from __future__ import annotations

import json

import pytest

from infragraph.cli.analyze import MAX_TRIALS, available_cpus
from tests.helpers import run_cli as run

CLOS = "std.fabrics.clos"


def test_huge_trials_refused_with_the_limit(capsys):
    code, _, err = run(capsys, "analyze", CLOS, "--random-failures", "2", "--trials", "99999999999")
    assert code == 1
    assert err.startswith("--trials: error: --trials 99,999,999,999 is above the limit of 1,000,000 trials")
    assert MAX_TRIALS == 1_000_000


def test_workers_capped_at_the_cpus_with_a_note(capsys, tmp_path):
    out_json = tmp_path / "r.json"
    code, _, err = run(capsys, "analyze", CLOS, "--random-failures", "2", "--trials", "4", "--workers", "100000",
                       "--json", str(out_json))
    assert code == 0
    assert f"--workers: note: 100,000 capped at {available_cpus()}, the CPUs this process may use" in err
    assert json.loads(out_json.read_text())["bisection"]


@pytest.mark.parametrize("option", ["--json", "--plot"])
def test_output_into_missing_folder(capsys, tmp_path, option):
    target = tmp_path / "nofolder" / ("r.json" if option == "--json" else "r.png")
    code, out, err = run(capsys, "analyze", CLOS, option, str(target))
    assert code == 1 and out == ""
    assert f"cannot write {option} output: the folder '{target.parent}' does not exist" in err


def test_json_under_a_file(capsys, tmp_path):
    (tmp_path / "file").write_text("x")
    code, _, err = run(capsys, "analyze", CLOS, "--json", str(tmp_path / "file" / "r.json"))
    assert code == 1
    assert "--json" in err and str(tmp_path / "file") in err


@pytest.mark.parametrize("components,message", [
    ("component asic: switch", "the graph has no NPUs: no node has type 'xpu' (node types present: switch)"),
    ("component xpu: xpu", "graph 'f' has 1 NPU; a bisection needs at least 2\n  hint: NPUs are the components of kind xpu")])
def test_too_few_npus_names_the_file(capsys, tmp_path, components, message):
    source = tmp_path / "small.igl"
    source.write_text(f"device d {{\n    {components}\n}}\nfabric f {{\n    instance a[1]: d\n}}\n")
    code, out, err = run(capsys, "analyze", str(source), "--no-cache")
    assert code == 1 and out == ""
    assert err.startswith(f"{source}: error: {message}")
