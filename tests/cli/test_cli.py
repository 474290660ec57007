"""The command line: exit codes, messages on stderr, no tracebacks."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from infragraph.cli import main
from infragraph.graph.export import read_fqg

MINI = str(Path(__file__).parent.parent / "data" / "mini.yaml")


def test_compile_writes_json_and_graphml(tmp_path, capsys):
    assert main(["compile", MINI, "-o", str(tmp_path / "g.json")]) == 0
    assert read_fqg(tmp_path / "g.json").num_edges == 12
    assert main(["compile", MINI, "-o", str(tmp_path / "g.graphml")]) == 0
    assert "<graphml" in (tmp_path / "g.graphml").read_text()[:400]
    assert "13 nodes, 12 edges" in capsys.readouterr().err


def test_validate_and_info(capsys):
    assert main(["validate", MINI]) == 0
    assert "valid (13 nodes, 12 edges)" in capsys.readouterr().out
    assert main(["info", MINI, "--json"]) == 0
    s = json.loads(capsys.readouterr().out)
    assert s["nodes_by_type"] == {"nic": 4, "port": 4, "switch": 1, "xpu": 4}
    assert s["edges_by_endpoint_types"] == {"nic--port": 4, "switch--port": 4, "xpu--nic": 4}
    assert s["bill_of_materials"]["cables"] == [{"tiers": [0, 1], "bandwidth_gbps": 400.0, "count": 4}]
    assert s["bisection"]["gbps"] == 800.0


def test_json_means_the_same_in_info_analyze_and_simulate(tmp_path, capsys):
    """--json OUT writes OUT and prints the text; --json alone (or -) prints only the JSON; the old
    `info --json FILE` still reads FILE."""
    for command in (["info", MINI], ["analyze", MINI], ["simulate", "std.fabrics.clos", "--size", "1KiB"]):
        out = tmp_path / f"{command[0]}.json"
        assert main([*command, "--json", str(out)]) == 0
        text = capsys.readouterr().out
        assert not text.lstrip().startswith("{") and json.loads(out.read_text())
        assert main([*command, "--json"]) == 0
        assert json.loads(capsys.readouterr().out).keys() == json.loads(out.read_text()).keys()  # timings differ
    assert main(["info", "--json", MINI]) == 0
    assert json.loads(capsys.readouterr().out)["name"] == "mini"


def test_info_reads_a_compiled_graph(tmp_path, capsys):
    main(["compile", MINI, "-o", str(tmp_path / "g.json"), "-q"])
    assert main(["info", str(tmp_path / "g.json")]) == 0
    assert "mini: 13 nodes, 12 edges" in capsys.readouterr().out


def test_invalid_input_exits_1_with_located_message(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text(Path(MINI).read_text().replace("link: eth, scheme: one2one}\n- ", "link: ethx, scheme: one2one}\n- "))
    assert main(["validate", str(bad)]) == 1
    err = capsys.readouterr().err
    assert f"{bad}:17:" in err and "unknown link 'ethx'" in err and "Traceback" not in err


def test_unknown_suffix_and_missing_file(tmp_path, capsys):
    assert main(["validate", str(tmp_path / "x.txt")]) == 1
    assert "unknown file type '.txt'" in capsys.readouterr().err
    assert main(["validate", str(tmp_path / "nope.yaml")]) == 1
    assert "cannot read document" in capsys.readouterr().err


def test_usage_errors_exit_2():
    with pytest.raises(SystemExit) as e:
        main(["compile", MINI])  # -o missing
    assert e.value.code == 2
    with pytest.raises(SystemExit) as e:
        main(["frobnicate"])
    assert e.value.code == 2


def test_defines_rejected_for_documents(capsys):
    assert main(["validate", MINI, "-D", "x=1"]) == 1
    assert "-D overrides apply to .igl programs only" in capsys.readouterr().err


def test_console_entry_point_runs_without_traceback(tmp_path):
    r = subprocess.run([sys.executable, "-m", "infragraph", "validate", str(tmp_path / "none.json")],
                       capture_output=True, text=True)
    assert r.returncode == 1 and "Traceback" not in r.stderr and "cannot read document" in r.stderr


def test_progress_reports_phases_with_timings(capsys):
    from infragraph.cli.common import Progress

    p = Progress(enabled=True)
    with p.phase("expanding"):
        pass
    err = capsys.readouterr().err
    assert err.startswith("expanding…") and err.rstrip().endswith(" s")
    with Progress(enabled=False).phase("quiet"):
        pass
    assert capsys.readouterr().err == ""


def test_link_loads_print_in_bytes_even_when_fractional():
    """A load spread over 18 NVLink lanes is a fraction of a byte per lane: it prints as MiB, not as
    bits in e-notation ('8.35133e+08 b', issue 24 Show run on an imported H100 server)."""
    from infragraph.cli.simulate import _size

    assert _size(448 * 2**20) == "448 MiB"
    assert _size(448 * 2**20 * 4 / 18) == "99.56 MiB"
    assert _size(1000.5) == "1000 B"
