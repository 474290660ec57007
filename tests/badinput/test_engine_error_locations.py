"""Errors the engine raises during `infragraph simulate` point at what caused them: the fabric
file (two NPUs that must talk are not connected), or the option (`--algorithm` for a group size
the algorithm cannot take, `--scheduling` for a deadlock of arrival/LIFO chunk order,
`--inter-dimension-scheduling` without dimensions). Each said `<input>: error: ...` before."""

from __future__ import annotations

import argparse

import pytest

from infragraph.cli.common import about_simulation_options
from infragraph.errors import InfraGraphError
from infragraph.simulate.engine import engine_error, engine_error_type
from tests.badinput.input_cases import cli

RING = "examples/ring8.igl"
SPLIT = """\
link l {
    bandwidth = 50 GB/s
    latency = 500 ns
}
device npu { component xpu: xpu }
fabric split {
    instance npu[4]: npu
    npu[0].xpu -- npu[1].xpu one2one via l
    npu[2].xpu -- npu[3].xpu one2one via l
}
"""
MICRO = "MICRO\n1\nallreduce -1 1 NONE 0 1 NONE 0 1 ALLREDUCE 1048576 1\n"


def test_unconnected_npus_are_the_fabric_files(tmp_path, capsys):
    fabric = tmp_path / "split.igl"
    fabric.write_text(SPLIT)
    (tmp_path / "w.txt").write_text(MICRO)
    for extra in ([], ["--workload", tmp_path / "w.txt"]):
        code, out = cli(capsys, "simulate", fabric, "--no-cache", *extra)
        assert code == 1, out
        assert out.startswith(f"{fabric}: error: no path from 'npu.1.xpu.0' to 'npu.2.xpu.0'"), out


@pytest.mark.parametrize("argv, option, words", [
    (["-D", "npus=6", "--algorithm", "halving-doubling"], "--algorithm",
     "halving-doubling all-reduce on 6 members: halving-doubling needs a power-of-two group size"),
    (["-D", "npus=6", "--algorithm", "halving-doubling", "--model", "astra"], "--algorithm", "power-of-two"),
    (["--inter-dimension-scheduling", "offlineGreedy", "--model", "astra"], "--inter-dimension-scheduling",
     "needs logical dimensions covering every NPU"),
])
def test_engine_refusals_name_the_option(capsys, argv, option, words):
    code, out = cli(capsys, "simulate", RING, "--size", "1MiB", "--no-cache", *argv)
    assert code == 1 and out.startswith(f"{option}: error: "), out
    assert words in out and "<input>" not in out and "Traceback" not in out


def test_a_workload_on_a_group_the_algorithm_cannot_take_names_the_option(tmp_path, capsys):
    (tmp_path / "w.txt").write_text(MICRO)
    code, out = cli(capsys, "simulate", RING, "-D", "npus=6", "--workload", tmp_path / "w.txt",
                    "--algorithm", "halving-doubling", "--no-cache")
    assert code == 1 and out.startswith("--algorithm: error: cannot simulate: unsupported: halving-doubling"), out


@pytest.mark.parametrize("field, option", [("scheduling", "--scheduling"), ("routing_policy", "--routing-policy"),
                                           ("algorithm", "--algorithm")])
def test_the_engines_field_becomes_the_option(field, option):
    """The engine names the option at fault as a SimulationOptions field (SimError::About): a
    deadlock is the chunk order's (`--scheduling`), a spray of too many ways the routing policy's."""
    exc = engine_error_type()("deadlock", "simulation deadlocked: rank 3 ...", None, None, field)
    err = engine_error(None, exc)
    assert str(err.diagnostics[0].location) == field
    args = argparse.Namespace(scheduling=None, routing_policy=None, algorithm=None)
    with pytest.raises(InfraGraphError) as caught:
        with about_simulation_options(args):
            raise err
    assert str(caught.value).startswith(f"{option}: error: cannot simulate: simulation deadlocked")
