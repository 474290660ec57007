"""Every bundle's README compares its run with `infragraph simulate`'s default run of the same graph,
item by item from simulate's own defaults, and gives the simulate command that runs the bundle's
configuration — which, for the engine bundle, is exactly what its run.sh runs."""

import json
import re
import shlex

import pytest

from infragraph import translators as T
from infragraph.cli import main
from infragraph.graph import expand
from infragraph.simulate import SimulationOptions, simulate
from tests import translator_graphs
from tests.translator_graphs import stack


def _section(readme: str) -> str:
    return readme.split("## Against `infragraph simulate`")[1].split("\n## ")[0]


def _row(section: str, item: str) -> list[str]:
    line = next(ln for ln in section.splitlines() if ln.startswith(f"| {item} |"))
    return [c.strip() for c in line.strip("|").split("|")]


@pytest.mark.parametrize("backend", ["astra-analytical", "ns3", "htsim", "simengine"])
def test_every_readme_states_what_simulate_runs_by_default(backend, tmp_path):
    """On GPU servers simulate's default is NCCL mode (its own layout, algorithm and chunking): the
    README's simulate column is what `simulate` itself reports for the same graph and workload."""
    g = translator_graphs.rails(tmp_path)
    b = T.get(backend).translate(g, T.Options(approximate=True))
    section = _section(b.files["README.md"])
    r = simulate(g, SimulationOptions(top_links=0))  # the bundle's workload: all-reduce of 1 MiB
    assert _row(section, "dimensions")[2].startswith(f"`{'_'.join(map(str, r['dims']))}` (NCCL mode")
    assert f"run as `{','.join(r['algorithm'])}`" in _row(section, "all-reduce algorithm per dimension")[2]
    assert _row(section, "chunks (preferred-dataset-splits)")[2] == str(r["chunks"])
    assert _row(section, "network model")[2] == f"`{r['model']}`"
    assert _row(section, "routing")[2] == f"`{r['routing_policy']}` (per tier)"
    assert re.search(r"```sh\ninfragraph simulate FILE --dims \S+ --algorithm \S+ --chunks 4 ", section)


def test_on_an_abstract_fabric_the_comparison_reads_simulates_options():
    g = expand(stack("RI(4)_SW(2)"))
    d = SimulationOptions()
    section = _section(T.get("simengine").translate(g).files["README.md"])
    r = simulate(g, SimulationOptions(top_links=0))
    assert _row(section, "all-reduce algorithm per dimension")[2] == f"`{','.join(r['algorithm'])}`"
    assert _row(section, "chunks (preferred-dataset-splits)")[1:] == ["4", str(r["chunks"]), "**differs**"]
    assert _row(section, "endpoint delay")[1:] == ["10 ns", f"{d.endpoint_delay_ns:g} ns", "same"]


def test_a_graph_without_dims_says_simulate_runs_it_flat():
    g = expand(stack("RI(4)_SW(2)"))
    assert "dims" not in g.graph_annotations
    b = T.get("ns3").translate(g, T.Options(settings={"forwarding-nodes": "true"}))
    row = _row(_section(b.files["README.md"]), "dimensions")
    assert row[1].startswith("`RI(4)_SW(2)` (detected: the graph is the RI/FC/SW product RI(4)_SW(2))")
    assert row[2].startswith("`flat (one dimension of all NPUs)` (the graph states no usable dims") and row[3] == "**differs**"
    assert any("runs such a graph flat unless given `--dims 4,2`" in n for n in b.notes)


def _readme_and_run_sh_times(src, out, tmp_path) -> list[float]:
    """The collective time of the bundle README's simulate command (on the translated file) and of
    its run.sh's command line (on the bundle's graph.json)."""
    section = _section((out / "README.md").read_text())
    readme_args = shlex.split(section.split("```sh\n")[1].split("\n```")[0])[2:]
    run_line = next(ln for ln in (out / "run.sh").read_text().splitlines() if ln.startswith("exec "))
    run_args = shlex.split(run_line.split('"$here/graph.json"')[1].replace('"$@"', ""))
    assert readme_args[0] == "FILE"
    times = []
    for graph, args in ((str(src), readme_args[1:]), (str(out / "graph.json"), run_args)):
        assert main(["simulate", graph, *args, "--json", str(tmp_path / "r.json"), "-q"]) == 0
        times.append(json.loads((tmp_path / "r.json").read_text())["collective_time_ns"])
    return times


def test_the_readme_command_runs_what_the_engine_bundles_run_sh_runs(tmp_path):
    src = tmp_path / "torus.json"
    assert main(["compile", "std.fabrics.torus", "-D", "sizes=[4,2]", "-o", str(src), "-q"]) == 0
    out = tmp_path / "bundle"
    assert main(["translate", str(src), "--to", "simengine", "-o", str(out), "-q"]) == 0
    times = _readme_and_run_sh_times(src, out, tmp_path)
    assert times[0] == times[1] > 0
    # a queue order off simulate's default: marked in the analytical README
    b = T.get("astra-analytical").translate(expand(stack("RI(4)_SW(2)")),
                                            T.Options(settings={"intra-dimension-scheduling": "SCF"}))
    section = _section(b.files["README.md"])
    assert _row(section, "chunk order in a dimension's queue")[1:] == ["SCF", "FIFO", "**differs**"]
    assert "--intra-dimension-scheduling SCF" in section
    # the engine bundle runs it in ASTRA-sim's arrival chunk order (the only order our engine models
    # these queues in), and its README's command says the same: both run, to the same time
    scf = tmp_path / "scf"
    assert main(["translate", str(src), "--to", "simengine", "-o", str(scf), "-q", "--set",
                 "intra-dimension-scheduling=SCF"]) == 0
    run_sh = (scf / "run.sh").read_text()
    assert "--scheduling arrival" in run_sh and "--intra-dimension-scheduling SCF" in run_sh
    scf_times = _readme_and_run_sh_times(src, scf, tmp_path)
    assert scf_times[0] == scf_times[1] > 0
