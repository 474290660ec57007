"""`infragraph analyze`: bisection, diameter, path diversity, single points of failure, random trials."""

from __future__ import annotations

import json

import numpy as np
import pytest

from infragraph.analyze import analyze
from infragraph.analyze.bisection import bisection, random_trials
from infragraph.cli import main
from infragraph.errors import InfraGraphError
from infragraph.graph.failures import FailureSpec, with_failures
from infragraph.sources import load_graph
from tests.helpers import graph_file


@pytest.fixture(scope="module")
def clos8():
    return load_graph("std.fabrics.clos", {"radix": "8"})  # 8 leaves x 4 hosts, 4 spines, 400 Gbit/s


@pytest.fixture(scope="module")
def clos8_file(clos8, tmp_path_factory):
    return graph_file(clos8, tmp_path_factory, "clos8.json")


def test_clos_one_spine_down_by_hand(clos8):
    """16 hosts per half at 400 Gbit/s: 6,400 Gbit/s. Each of the 4 sending leaves has 4 uplinks, one
    per spine; with a spine down 3 are left: 4 x 3 x 400 = 4,800 Gbit/s."""
    r = analyze(clos8)
    assert r["bisection"]["gbps"] == 6400 and r["bisection"]["exact"]
    failed, f = with_failures(clos8, FailureSpec(fail=("spine.1",)))
    r2 = analyze(failed, f, clos8)
    assert r2["bisection"]["gbps"] == 4800
    assert [x["min_paths"] for x in r2["path_diversity"]] == [1, 3]
    assert r2["failures"]["failed_nodes"] == 9


def test_diameter_diversity_and_single_points(clos8):
    r = analyze(clos8)
    assert r["diameter"]["cable_hops"] == 4 and r["diameter"]["exact"]
    assert r["diameter"]["sources_searched"] == 4  # settled by the sweep bounds (4 = 2 x 2 from a spine)
    assert [(x["cable_hops"], x["min_paths"], x["max_paths"]) for x in r["path_diversity"]] == [(2, 1, 1), (4, 4, 4)]
    spof = r["single_points_of_failure"]
    assert spof["parts"] == 8 and spof["cables"] == 32  # every leaf; every host's one cable
    assert spof["part_examples"][0] == {"part": "leaf.0", "npus_cut_off": 4}
    assert {"parts": ["leaf.0", "host.1"], "npus_cut_off": 1} in spof["cable_examples"]


def test_torus_by_hand():
    """4x4 torus, 800 Gbit/s links: ranks 0-7 (rows 0, 1) against 8-15 (rows 2, 3) are joined by
    4 links between rows 1 and 2 and 4 wrap-around links: 8 x 800 = 6,400 Gbit/s. No single
    point of failure; diameter 2 + 2 = 4. Shortest paths: 2 to a node 2 hops away (either way round a
    ring of 4, or x-then-y / y-then-x); to the opposite corner (2, 2): 2 x 2 directions x 6 orders = 24."""
    g = load_graph("std.fabrics.torus", {"sizes": "[4,4]"})
    r = analyze(g)
    assert r["bisection"]["gbps"] == 6400
    assert r["diameter"]["cable_hops"] == 4 and r["diameter"]["sources_searched"] == 16  # one search per NPU
    assert r["single_points_of_failure"]["parts"] == 0 and r["single_points_of_failure"]["cables"] == 0
    hops = {x["cable_hops"]: (x["min_paths"], x["max_paths"]) for x in r["path_diversity"]}
    assert hops[1] == (1, 1) and hops[2] == (2, 2) and hops[3] == (6, 6) and hops[4] == (24, 24)


def test_random_trials_reproducible_by_seed(clos8):
    b = bisection(clos8)
    one = random_trials(b, 5, 30, first := 7, workers=1)
    two = random_trials(b, 5, 30, first, workers=2)
    assert np.array_equal(one, two)
    assert np.array_equal(random_trials(b, 5, 10, 12, workers=1), one[5:15])
    assert one.min() >= 6400 - 5 * 400 and one.max() <= 6400


def test_cli_text_json_and_picture(clos8_file, tmp_path, capsys):
    out, png = tmp_path / "a.json", tmp_path / "a.png"
    assert main(["analyze", clos8_file, "-q", "--random-failures", "3", "--trials", "20",
                 "--json", str(out), "--plot", str(png), "--fail", "spine.1"]) == 0
    text = capsys.readouterr().out
    assert "bisection          4.8 Tbit/s" in text and "3 cable(s) cut, 20 trials (seeds 0..19)" in text
    r = json.loads(out.read_text())
    assert len(r["random_failures"]["values_gbps"]) == 20 and r["random_failures"]["worst_gbps"] >= 4800 - 3 * 400
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_worst_trial_is_reproduced_by_fail_random(clos8_file, capsys):
    assert main(["analyze", clos8_file, "-q", "--random-failures", "5", "--trials", "40"]) == 0
    text = capsys.readouterr().out
    worst = text.split("bisection worst ")[1].split(" (seed")[0]  # e.g. "4.4 Tbit/s"
    flags = text.split("add ")[1].split(" to this")[0].split()
    assert flags[:2] == ["--fail-random", "5"]  # the same count of cables, not a rounded fraction
    assert main(["analyze", clos8_file, "-q"] + flags) == 0
    assert f"bisection          {worst} per direction (" in capsys.readouterr().out


@pytest.mark.parametrize("args, expected", [
    (["--random-failures", "0.001"], "--random-failures: that fraction of the 64 cables rounds to 0"),
    (["--random-failures", "2", "--trials", "0"], "--trials must be at least 1"),
    (["--first-seed", "-1"], "the seed must be an integer >= 0"),
    (["--random-failures", "2", "--workers", "0"], "--workers must be at least 1"),
    (["--random-failures", "999"], "cannot fail 999 of 64 cables"),
    (["--plot", "/nonexistent/dir/a.png"], "cannot write --plot output"),
    (["--fail", "spine.9"], "no node named 'spine.9'"),
])
def test_cli_bad_input(clos8_file, args, expected, capsys):
    assert main(["analyze", clos8_file, "-q"] + args) == 1
    err = capsys.readouterr().err
    assert expected in err and "Traceback" not in err


def test_a_graph_without_npus_is_an_error():
    g = load_graph("std.fabrics.clos", {"radix": "4"})
    g.type_names[g.type_names.index("xpu")] = "gpu"
    with pytest.raises(InfraGraphError, match="no NPUs"):
        analyze(g)
