"""Simulating failed fabrics: routing around cuts, split groups, slowdown against the healthy run."""

from __future__ import annotations

import json

import pytest

from infragraph import schemas
from infragraph.cli import main
from infragraph.errors import InfraGraphError
from infragraph.graph.failures import FailureSpec, resolve_failures
from infragraph.simulate import SimulationOptions
from infragraph.simulate.failures import simulate_with_failures
from infragraph.sources import load_graph
from tests.helpers import graph_file

MIB = 1 << 20
SERIAL_400G = MIB * 8 / 400  # ns to send 1 MiB at 400 Gbit/s


@pytest.fixture(scope="module")
def clos():
    return load_graph("std.fabrics.clos", {"radix": "4"})  # 4 leaves x 2 hosts, 2 spines, 400 Gbit/s


@pytest.fixture(scope="module")
def clos_file(clos, tmp_path_factory):
    return graph_file(clos, tmp_path_factory, "clos4.json")


def test_clos_with_one_spine_down_by_hand(clos):
    """Hosts 0, 1 on leaf 0 each send 1 MiB to hosts 2, 3 on leaf 1 (fair sharing), as NCCL's send/recv
    (the GPU hosts' default): the host cables at NCCL's 48 of their 50 GB/s, the spine cables at their
    rated 400 Gbit/s. Healthy, ECMP puts the two flows on different spines: time = L + S/48 GB/s.
    With spine 1 down both share leaf 0's one surviving uplink at 200 Gbit/s each: time = L + 2 S/B,
    the same latency L."""
    f = resolve_failures(clos, FailureSpec(fail=("spine.1",)))
    opts = SimulationOptions(collective="point-to-point", model="fair", groups=((0, 2), (1, 3)), top_links=None)
    r = simulate_with_failures(clos, f, [MIB], opts)[0]
    healthy, failed = r["failures"]["healthy_time_ns"], r["collective_time_ns"]
    latency = healthy - MIB / 48
    assert latency == pytest.approx(2 * 500 + 2 * 500 + 4 * 150 + 2 * 10)  # cables, PCIe hops, endpoint delay
    assert failed == pytest.approx(latency + 2 * SERIAL_400G)
    assert r["failures"]["slowdown"] == pytest.approx((latency + 2 * SERIAL_400G) / (latency + MIB / 48))
    assert not any("spine.1" in x["src"] or "spine.1" in x["dst"] for x in r["links"])
    assert r["failures"]["failed_nodes"] == 5 and r["failures"]["failed_edges"] == 8
    schemas.validate("simulation-result", r)


def test_torus_with_one_cut_link_dimension_order_routing_falls_back():
    """4x4 torus, 100 GB/s and 1 us per link. Rank 0 -> rank 1 is one hop; with that link cut,
    dimension-order routing takes the shortest detour (3 hops, e.g. 0 -> 4 -> 5 -> 1): +2 us."""
    g = load_graph("std.fabrics.torus", {"sizes": "[4,4]"})
    f = resolve_failures(g, FailureSpec(fail=("npu.0.port.0--npu.1.port.1",)))
    opts = SimulationOptions(collective="point-to-point", groups=((0, 1),), routing="dor", dims=(4, 4), top_links=None)
    r = simulate_with_failures(g, f, [MIB], opts)[0]
    serial = MIB / 100  # ns at 100 GB/s
    assert r["failures"]["healthy_time_ns"] == pytest.approx(1000 + serial + 2 * 10)  # + endpoint delays
    assert r["collective_time_ns"] == pytest.approx(3000 + serial + 2 * 10)
    torus_hops = [x for x in r["links"] if x["src"].split(".")[1] != x["dst"].split(".")[1]]
    assert len(torus_hops) == 3


def test_a_split_group_names_the_cut(clos):
    f = resolve_failures(clos, FailureSpec(fail=("host.0.nic.0.port.0--leaf.0.port.0",)))
    with pytest.raises(InfraGraphError) as e:
        simulate_with_failures(clos, f, [MIB], SimulationOptions())
    text = str(e.value)
    assert "process group 0 is disconnected" in text and "ranks 0 cannot reach ranks 1-7" in text
    assert "host.0.nic.0.port.0--leaf.0.port.0" in text
    # a group that does not need host 0 still runs
    r = simulate_with_failures(clos, f, [MIB], SimulationOptions(groups=((1, 2, 3),)))[0]
    assert r["failures"]["slowdown"] == pytest.approx(1.0)


def test_document_annotations_are_never_ignored_by_simulate(clos_file):
    from infragraph.simulate import prepare

    g = load_graph(clos_file)
    g.node_attrs["failed"] = {g.node_id("spine.1.asic.0"): True}
    assert prepare(g).g.num_edges == g.num_edges - 4  # the spine ASIC's 4 internal edges


def test_cli_reports_slowdown_and_json(clos_file, tmp_path, capsys):
    out = tmp_path / "r.json"
    assert main(["simulate", clos_file, "-q", "--collective", "point-to-point",
                 "--model", "fair", "--group", "0,2", "--group", "1,3", "--fail", "spine.1",
                 "--degrade", "leaf.3:bandwidth=0.5", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "slowdown x1.821" in text and "--fail spine.1: 8 edge(s), 5 node(s)" in text
    r = json.loads(out.read_text())
    schemas.validate("simulation-result", r)
    assert r["failures"]["degraded_edges"] == 7  # leaf 3: 4 internal + 4 cables, less the one to spine 1


@pytest.mark.parametrize("args, expected", [
    (["--fail", "spine.9"], "no node named 'spine.9'"),
    (["--fail-random", "100000"], "--fail-random: error: the number of cables to fail must be a whole number from 1 "
                                  "to the 16 cables left, got 100000"),
    (["--seed", "3"], "--seed only applies to --fail-random"),
    (["--fail-random", "0.5", "--seed", "-2"], "the seed must be an integer >= 0"),
    (["--degrade", "spine.0:bandwidth=0"], "in (0, 1]"),
    (["--degrade", "spine.0:latency=-1ns"], ">= 0"),
    (["--degrade", "spine.0"], "expected TARGET:bandwidth=FACTOR,latency=EXTRA"),
])
def test_cli_bad_failure_flags(clos_file, args, expected, capsys):
    assert main(["simulate", clos_file, "-q"] + args) == 1
    err = capsys.readouterr().err
    assert expected in err and "Traceback" not in err


@pytest.mark.parametrize("value,expected", [
    ("half", "expected K (a whole number of cables) or a fraction F such as 0.05 or 5%, got 'half'"),
    ("2.5", "a fraction of the cables must be in (0, 1] (0% < F <= 100%), got '2.5'"),
    ("nan", "a fraction of the cables must be in (0, 1] (0% < F <= 100%), got 'nan'"),
    ("150%", "a fraction of the cables must be in (0, 1] (0% < F <= 100%), got '150%'"),
    ("-3", "a number of cables must be 0 or more, got '-3'"),
])
def test_cli_bad_random_cuts_are_usage_errors(capsys, value, expected):
    with pytest.raises(SystemExit) as e:
        main(["simulate", "std.fabrics.clos", "--fail-random", value])
    assert e.value.code == 2
    assert f"argument --fail-random: {expected}" in capsys.readouterr().err
