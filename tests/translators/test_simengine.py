"""Agreement: the engine's ASTRA-compatible mode on our graph == the engine on the translated YAML's dims.

For each RI/FC/SW stack, the graph is translated to ASTRA-sim's analytical YAML; that YAML is imported
back into a graph of exactly its dimensions; the engine (infragraph.simulate, model 'astra') runs on
both with the translator's logical dims and per-dimension algorithms. Same integer ns expected.
"""

import json

import pytest

from infragraph import translators as T
from infragraph.graph import expand
from infragraph.simulate import SimulationOptions, simulate
from infragraph.importers.astra_analytical import import_astra_analytical
from infragraph.translators.astra_system import ENGINE_ALGORITHM
from tests.translator_graphs import stack

STACKS = ["RI(4)_FC(8)_SW(32)", "RI(4)_RI(2)", "RI(4)_SW(2)", "FC(4)_SW(2)", "SW(4)_SW(2)", "RI(8)", "FC(4)_FC(2)_FC(2)", "SW(8)_RI(4)"]


@pytest.mark.parametrize("shape", STACKS)
def test_engine_on_graph_equals_engine_on_translated_yaml(tmp_path, shape):
    g = expand(stack(shape))
    b = T.get("astra-analytical").translate(g)
    (tmp_path / "network.yml").write_text(b.files["network.yml"])
    g_yaml = expand(import_astra_analytical(tmp_path / "network.yml"))
    system = json.loads(b.files["system.json"])
    engine = json.loads(T.get("simengine").translate(g).files["engine_input.json"])
    dims = tuple(engine["logical_dims"])
    algos = tuple(ENGINE_ALGORITHM[a] for a in system["all-reduce-implementation"])
    assert [d["algorithm"] for d in engine["dimensions"]] == list(algos)
    opts = SimulationOptions(model="astra", dims=dims, algorithm=algos, chunks=system["preferred-dataset-splits"],
                             endpoint_delay_ns=float(system["endpoint-delay"]),
                             local_mem_bw_gb_per_s=system["local-mem-bw"], size_bytes=1 << 20)
    t_graph = simulate(g, opts)["collective_time_ns"]
    t_yaml = simulate(g_yaml, opts)["collective_time_ns"]
    assert t_graph > 0 and int(t_graph) == int(t_yaml)


def test_bundle_runs_astra_sims_queue_options_in_arrival_order():
    # ASTRA-sim queues one collective's chunks in arrival order under either scheduling-policy; the
    # engine models the two queue options only there, so run.sh asks for it (and says so).
    g = expand(stack("RI(4)_FC(8)"))
    settings = {"inter-dimension-scheduling": "offlineGreedyFlex", "intra-dimension-scheduling": "SCF"}
    b = T.get("simengine").translate(g, T.Options(settings=settings))
    run = b.files["run.sh"]
    assert "--scheduling arrival --intra-dimension-scheduling SCF --inter-dimension-scheduling offlineGreedyFlex" in run
    assert any("--scheduling arrival" in n for n in b.notes)
    plain = T.get("simengine").translate(g).files["run.sh"]
    assert "--scheduling lifo --intra-dimension-scheduling FIFO --inter-dimension-scheduling baseline" in plain
    # and the engine runs it: flex cuts its own chunks (its time differs from baseline's and themis')
    opts = dict(model="astra", dims=(4, 8), algorithm=("ring", "direct"), chunks=8, size_bytes=1 << 24,
                scheduling="arrival")
    times = {inter: simulate(g, SimulationOptions(**opts, inter_dimension_scheduling=inter))["collective_time_ns"]
             for inter in ("baseline", "themis", "offlineGreedyFlex")}
    assert len(set(times.values())) == 3, times
