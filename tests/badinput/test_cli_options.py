"""Command-line option values: each bad value is refused with a message located at the option
("--chunks: error: …"), never "<input>:", never the engine binding's raw "can't convert negative
int to unsigned", and never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from infragraph import __version__
from infragraph.cli import main
from tests.helpers import run_cli as run

ROOT = Path(__file__).parent.parent.parent
RING = str(ROOT / "examples" / "ring8.igl")
MINI = str(ROOT / "tests" / "data" / "mini.yaml")


@pytest.mark.parametrize("argv, option, words", [
    (["--dims", "8,x"], "--dims", "expected sizes like 8,4"),
    (["--dims", "0"], "--dims", "at least 1"),
    (["--dims", "3,3"], "--dims", "multiply to 9"),
    # were "<input>: error: cannot simulate: invalid input: ..." (issue 23 review)
    (["--dims", "4,2", "--algorithm", "ring,direct,ring"], "--algorithm", "3 algorithms for 2 dimensions (--dims 4x2)"),
    (["--routing", "dor"], "--routing", "dimension-order routing needs logical dimensions (--dims)"),
    (["--chunks=-1"], "--chunks", "bad value -1; expected a whole number ≥ 1"),
    (["--chunks", "0"], "--chunks", "≥ 1"),
    (["--active-chunks=-2"], "--active-chunks", "≥ 1"),
    # checked by SimulationOptions against the group, still named as the option typed
    (["--chunks", "99999999"], "--chunks", "expected at most 8,388,608 chunks"),
    (["--group", "0-x"], "--group", "bad --group '0-x'"),
    (["--group=-3-2"], "--group", "non-negative"),
    (["--group", "5-2"], "--group", "LOW <= HIGH"),
    (["--group", "0-99"], "--group", "names rank 8, but the graph has ranks 0..7"),
    (["--root=-1"], "--root", "≥ 0"),
    (["--root", "99"], "--root", "outside the group of 8"),
    (["--local-mem-bw", "fast"], "--local-mem-bw", "bad --local-mem-bw 'fast'"),
    (["--local-mem-bw=-5"], "--local-mem-bw", "finite bandwidth > 0"),
    (["--local-mem-bw", "nan"], "--local-mem-bw", "finite bandwidth > 0"),
    (["--local-mem-bw", "inf"], "--local-mem-bw", "finite bandwidth > 0"),
    (["--endpoint-delay", "xyz"], "--endpoint-delay", "bad --endpoint-delay 'xyz'"),
    (["--endpoint-delay=-5ns"], "--endpoint-delay", "finite time ≥ 0"),
    (["--endpoint-delay", "400 Gbps"], "--endpoint-delay", "bad --endpoint-delay"),
    (["--size", "1e400B"], "--size", "not a finite, non-negative number of bytes"),
    (["--size=-1MiB"], "--size", "non-negative"),
    (["--size", "1.5B"], "--size", "whole number of bytes"),
    (["--size", "nan"], "--size", "expected a size such as '1MiB', '4 KB' or a number of bytes, got 'nan'"),
    (["--size", "8KiB..1KiB"], "--size", "bad size range"),
    (["--size", "0"], "--size", "sizes must be positive"),
    (["--top=-1"], "--top", "≥ 0"),
    (["--links=-3"], "--links", "a number of links (≥ 0) or 'all'"),
    (["--algorithm", "rng"], "--algorithm", "unknown algorithm 'rng'"),
    (["--size", "1KiB..4KiB", "--trace", "t.json"], "--trace", "records one run"),
    (["-D", "npus"], "-D", "expected NAME=VALUE"),
])
def test_simulate_option_errors_name_the_option(capsys, argv, option, words):
    code, out, err = run(capsys, "simulate", RING, *argv)
    assert code == 1, out
    first = err.splitlines()[0]
    assert first.startswith(f"{option}: error: "), err
    assert words in err
    assert "<input>" not in err and "can't convert" not in err


@pytest.mark.parametrize("argv, option, words", [
    (["simulate", RING, "--collective", "al-reduce"], "--collective", "did you mean 'all-reduce'?"),
    (["simulate", RING, "--model", "awre"], "--model", "unknown model 'awre'"),
    (["simulate", RING, "--routing", "x"], "--routing", "expected one of: hops, latency, dor"),
    (["simulate", RING, "--chunks", "two"], "--chunks", "invalid int value"),
    (["translate", RING, "--to", "ns4", "-o", "x"], "--to", "did you mean 'ns3'?"),
    (["lint", RING, "--for", "ns"], "--for", "unknown translator 'ns'"),
    (["import", RING, "--from", "y", "-o", "y.yaml"], "--from", "unknown format 'y'; expected one of: astra-analytical"),
])
def test_unknown_names_are_usage_errors_naming_the_option(capsys, argv, option, words):
    with pytest.raises(SystemExit) as info:
        main(argv)
    err = capsys.readouterr().err
    assert info.value.code == 2
    assert f"argument {option}" in err and words in err


def test_version(capsys):
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out.strip() == f"infragraph {__version__}"


def test_decompile_of_igl_says_it_expects_a_document(capsys):
    code, _, err = run(capsys, "decompile", RING)
    assert code == 1
    assert err.startswith(f"{RING}: error: decompile expects an InfraGraph document (.yaml, .yml or .json)")
    assert "compile --emit document" in err


def test_decompile_output_must_be_igl(tmp_path, capsys):
    code, _, err = run(capsys, "decompile", MINI, "-o", str(tmp_path / "x.yaml"))
    assert code == 1 and "expected .igl" in err


def _result(tmp_path: Path, *extra: str) -> Path:
    out = tmp_path / "r.json"
    assert main(["simulate", RING, "--json", str(out), *extra]) == 0
    return out


@pytest.mark.parametrize("change, where, words", [
    (lambda r: r["links"][0].update(utilization=float("nan")), "links[0].utilization", "must be a number ≥ 0"),
    (lambda r: r["links"][0].update(utilization=True), "links[0].utilization", "must be a number ≥ 0"),
    (lambda r: r["links"][1].update(edge=99), "links[1].edge", "is not an edge of"),
    (lambda r: r.update(links="x"), "links", "expected a list of links"),
    (lambda r: r.update(graph="other"), "graph", "for graph 'other'"),
])
def test_visualize_results_malformed(tmp_path, capsys, change, where, words):
    path = _result(tmp_path, "--links", "all")
    r = json.loads(path.read_text())
    change(r)
    path.write_text(json.dumps(r))
    code, _, err = run(capsys, "visualize", RING, "-o", str(tmp_path / "v.svg"), "--results", str(path))
    assert code == 1 and err.startswith(f"{path}: {where}: error:") and words in err
    assert not (tmp_path / "v.svg").exists()


def test_visualize_results_not_json(tmp_path, capsys):
    path = tmp_path / "r.json"
    path.write_text('{"links": [1,')
    code, _, err = run(capsys, "visualize", RING, "-o", str(tmp_path / "v.svg"), "--results", str(path))
    assert code == 1 and err.startswith(f"{path}:1:") and "not valid JSON" in err


def test_visualize_results_with_only_the_busiest_links_warns(tmp_path, capsys):
    path = _result(tmp_path, "--links", "3")
    code, _, err = run(capsys, "visualize", RING, "-o", str(tmp_path / "v.svg"), "--results", str(path))
    assert code == 0
    assert f"{path}: links: warning: the result kept only the 3 busiest of its 8 used links" in err
    assert "--links all" in err
    path = _result(tmp_path, "--links", "all")
    code, _, err = run(capsys, "visualize", RING, "-o", str(tmp_path / "v.svg"), "--results", str(path))
    assert code == 0 and "warning" not in err


def test_plot_of_a_result_with_a_bad_number(tmp_path, capsys):
    path = _result(tmp_path)
    r = json.loads(path.read_text())
    r["collective_time_ns"] = "fast"
    path.write_text(json.dumps(r))
    code, _, err = run(capsys, "plot", str(path), "-o", str(tmp_path / "p.png"))
    assert code == 1 and err.startswith(f"{path}: collective_time_ns: error: collective_time_ns must be a finite number")


@pytest.mark.parametrize("suffix", [".svg", ".html"])
def test_visualize_a_fabric_with_no_links(tmp_path, capsys, suffix):
    src = tmp_path / "alone.igl"
    src.write_text("device d {\n    component x: xpu\n}\n\nfabric alone {\n    instance a[5]: d\n}\n")
    code, _, err = run(capsys, "visualize", str(src), "-o", str(tmp_path / f"g{suffix}"))
    assert code == 0 and (tmp_path / f"g{suffix}").stat().st_size > 0


@pytest.mark.parametrize("value", [".nan", ".inf", "-.inf"])
def test_decompile_of_a_non_finite_number_is_located(tmp_path, capsys, value):
    doc = tmp_path / "nan.yaml"
    doc.write_text("name: lonely\ndevices:\n  - name: box\n    components:\n      - {name: xpu, choice: xpu, count: 2}\n"
                   "    links:\n      - name: pcie\n        physical:\n          bandwidth: {choice: gigabits_per_second, "
                   f"gigabits_per_second: {value}}}\ninstances:\n  - {{name: b, device: box, count: 1}}\n")
    code, out, err = run(capsys, "decompile", str(doc))
    assert code == 1 and out == ""
    first = err.splitlines()[0]
    # t15i's reader may refuse the number first; either way the error is located at the bandwidth
    assert first.startswith(f"{doc}:") and "devices[0].links[0].physical.bandwidth" in first


@pytest.mark.parametrize("value, column, why", [
    ("[nan GB/s]", 6, "syntax error: unexpected 'GB'"),
    ("[1e400 GB/s]", 2, "quantity too large"),
    ("[fast]", 2, "undefined name 'fast'"),
])
def test_a_bad_define_says_why_at_its_column(capsys, value, column, why):
    """It said only "-D bandwidth=[nan GB/s]: not a valid value for a list parameter" at column 1."""
    code, out, err = run(capsys, "simulate", "std.fabrics.stack", "-D", 'shape="RI(4)"', "-D", f"bandwidth={value}")
    assert code == 1
    assert err.startswith(f"-D bandwidth:1:{column}: error: -D bandwidth={value}: not a valid value for a list[bandwidth] "
                          f"parameter: {why}"), err


@pytest.mark.parametrize("name,message", [
    ("dgx.0", "--level: error: no device or instance named 'dgx.0'; the fabric has: hgx"),
    ("hgx.3", "--level: error: 'hgx.3': instance 'hgx' has copies 0..0"),
])
def test_visualize_level_names_a_device_that_is_not_there(capsys, tmp_path, name, message):
    """Was '<input>: error: ...': the name comes from --level, not from the input."""
    code, out, err = run(capsys, "visualize", "std.devices.hgx", "--level", "device", name, "-o", str(tmp_path / "v.svg"))
    assert code == 1 and err.startswith(message), err
