"""`infragraph simulate`: output, JSON/trace files, sweeps, and errors without tracebacks."""

from __future__ import annotations

import json

import pytest

from infragraph import schemas
from infragraph.cli import main
from infragraph.cli.simulate import parse_group, parse_sizes
from infragraph.errors import InfraGraphError
from tests.simgraphs import write_ring


@pytest.fixture
def ring8(tmp_path):
    return write_ring(tmp_path / "ring8.yaml", 8)


def test_calibration_from_the_command_line(ring8, tmp_path, capsys):
    out_json, out_trace = tmp_path / "r.json", tmp_path / "t.json"
    rc = main(["simulate", ring8, "--chunks", "4", "--local-mem-bw", "50", "--endpoint-delay", "10ns",
               "--model", "astra", "--json", str(out_json), "--trace", str(out_trace)])
    assert rc == 0
    printed = capsys.readouterr().out
    assert "(117780 ns)" in printed and "117.78 us" in printed
    result = json.loads(out_json.read_text())
    schemas.validate("simulation-result", result)
    assert result["collective_time_ns"] == 117_780
    trace = json.loads(out_trace.read_text())
    assert sum(e["ph"] == "b" for e in trace["traceEvents"]) == result["flows"]["count"]


def test_scheduling_option(ring8, tmp_path):
    # The astra models admit chunks in arrival order by default (ASTRA-sim's order).
    def time(*argv):
        out = tmp_path / "s.json"
        assert main(["simulate", ring8, "--dims", "4,2", "--chunks", "4", "--active-chunks", "2",
                     "--model", "astra", "--json", str(out), *argv]) == 0
        return json.loads(out.read_text())["collective_time_ns"]

    assert time() == time("--scheduling", "arrival")
    assert time("--scheduling", "fifo") > 0
    with pytest.raises(SystemExit):
        main(["simulate", ring8, "--scheduling", "greedy"])
    # ASTRA-sim's two system options, spelled as in its system.json.
    assert time("--intra-dimension-scheduling", "SCF", "--inter-dimension-scheduling", "themis") > 0
    with pytest.raises(SystemExit):
        main(["simulate", ring8, "--inter-dimension-scheduling", "greedy"])


def test_sweep_prints_a_table(ring8, capsys):
    assert main(["simulate", ring8, "--size", "1KiB..8KiB", "--model", "aware"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0].split() == ["size", "time", "algbw", "GB/s", "busbw", "GB/s", "bottleneck", "tier"]
    assert [line.split()[0] for line in lines[1:]] == ["1", "2", "4", "8"]


def test_groups_and_hierarchy_flags(ring8, tmp_path):
    out = tmp_path / "g.json"
    assert main(["simulate", ring8, "--group", "0-3", "--group", "4,5,6,7", "--dims", "2,2",
                 "--algorithm", "ring,direct", "--json", str(out), "--links", "all"]) == 0
    r = json.loads(out.read_text())
    assert r["groups"] == [[0, 1, 2, 3], [4, 5, 6, 7]] and r["dims"] == [2, 2]
    assert len(r["links"]) == r["links_used"]


@pytest.mark.parametrize("argv, words", [
    (["--algorithm", "halving-doubling", "--group", "0-5"], "power-of-two"),
    (["--size", "1.5B"], "whole number of bytes"),
    (["--size", "8KiB..1KiB"], "bad size range"),
    (["--group", "0-x"], "bad --group"),
    (["--dims", "3,3"], "multiply to 9"),
    (["--local-mem-bw", "fast"], "bad --local-mem-bw"),
    (["--model", "astra", "--collective", "all-gather", "--size", "3B", "--chunks", "4"], "0 bytes per chunk"),
])
def test_user_errors_exit_1_without_traceback(ring8, capsys, argv, words):
    assert main(["simulate", ring8, *argv]) == 1
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


def test_unreachable_nodes_are_named(tmp_path, capsys):
    import yaml

    from tests.simgraphs import _npu_dict

    path = tmp_path / "islands.yaml"
    path.write_text(yaml.safe_dump(_npu_dict("islands", 4, [(0, 1), (2, 3)], 100.0, 100.0)))
    assert main(["simulate", str(path)]) == 1
    assert "no path from 'npu." in capsys.readouterr().err


def test_argument_parsers():
    assert parse_sizes("1KiB..4KiB") == [1024, 2048, 4096]
    assert parse_sizes("1MiB,1GiB") == [1 << 20, 1 << 30]
    assert parse_group("0-2,7") == (0, 1, 2, 7)
    with pytest.raises(InfraGraphError):
        parse_sizes("0B")


def test_warnings_come_first_and_tiers_are_printed(tmp_path, capsys):
    import yaml

    from tests.simgraphs import _npu_dict

    path = tmp_path / "pair.yaml"
    path.write_text(yaml.safe_dump(_npu_dict("pair", 2, [(0, 1)], 100.0, 100.0)))
    out_json = tmp_path / "r.json"
    argv = ["simulate", str(path), "--collective", "point-to-point", "--group", "0,1", "--group", "0,1",
            "--model", "unaware", "--json", str(out_json)]
    assert main(argv) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("WARNING: 1 directed link(s) above 100 % utilization")
    assert any(line.strip().startswith("npu–npu ") for line in out)  # the tier table
    assert json.loads(out_json.read_text())["warnings"][0]["code"] == "over-capacity"
    assert main(argv[:-2] + ["--size", "1MiB,2MiB"]) == 0
    sweep = capsys.readouterr().out.splitlines()
    assert sweep[0].startswith("WARNING (1 MiB, 2 MiB): 1 directed link(s) above 100 %")
    assert sweep[-1].endswith("!")


def test_links_option(ring8, tmp_path, capsys):
    from infragraph.cli.simulate import _links

    assert _links("cables") == {"top_links": 100, "links": "cables"}
    assert _links("cables,all") == {"top_links": None, "links": "cables"}
    assert _links("7") == {"top_links": 7, "links": "all"}
    assert main(["simulate", ring8, "--links", "wires"]) == 1
    assert "bad --links 'wires'" in capsys.readouterr().err
    out = tmp_path / "r.json"
    assert main(["simulate", ring8, "--links", "cables,3", "--json", str(out)]) == 0
    assert "busiest cables" in capsys.readouterr().out
    r = json.loads(out.read_text())
    assert r["links_listed"] == "cables" and len(r["links"]) == 3
