"""InfraGraph's own engine as a translation target, so `simulate` and `translate` share one path.

The engine input is exactly what `infragraph.simulate.prepare` hands the Rust engine (edge arrays in
Gbit/s and ns, NPU node ids in rank order, node kinds), plus the logical dimensions `infragraph
simulate` uses (the graph's `dims` annotation; else the RI/FC/SW product detected, said in the
README: logical_dims.bundle_dims) and the topology-aware per-dimension algorithms the ASTRA-sim
translator would use, so an engine run in ASTRA-compatible mode is the ASTRA-sim analytical run of
the same graph. The bundle holds `engine_input.json` (that data, documented below), `graph.json`
(the FQG, which `infragraph simulate` reads) and a run.sh with the matching `simulate` flags.

engine_input.json: {"format": "infragraph-engine-input/1", "graph", "num_npus", "npu_order" (node
name per rank), "logical_dims" (sizes, dimension 0 fastest; [] = flat), "dimensions" ([{kind, size,
bandwidth_gbps, latency_ns (null for stated dimensions: the engine reads the links), algorithm}]),
"system" (the ASTRA-style options) and "arrays" (num_nodes, edge_src, edge_dst, edge_bandwidth_gbps
(null = unstated), edge_latency_ns, npu_nodes, node_kind)}.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..graph.export import to_json_dict
from ..graph.fqg import FQG
from ..simulate import prepare
from .astra_system import COLLECTIVE_KEY, ENGINE_ALGORITHM, SYSTEM_SETTINGS, system_config
from .base import Bundle, Options, Translator, refuse, render
from .chakra_et import Workload
from .comparison import ENGINE_ASTRA, against_simulate, engine_scheduling
from .logical_dims import Chosen, bundle_dims
from .readme import readme
from .structure import fabric


def _null_nan(values: list) -> list:
    return [None if isinstance(v, float) and math.isnan(v) else v for v in values]


@dataclass
class EnginePlan:
    g: FQG
    arrays: dict[str, Any]
    npu_names: list[str]
    chosen: Chosen
    system: dict[str, Any]
    values: dict[str, Any]
    notes: list[str]
    workload: Workload
    scheduling: str  # run.sh's --scheduling (engine_scheduling)


class SimEngine(Translator):
    name = "simengine"
    description = "InfraGraph's native collective engine (infragraph simulate)"
    settings = SYSTEM_SETTINGS

    def plan(self, g: FQG, options: Options) -> EnginePlan:
        values = self.resolve_settings(options)
        prepared = prepare(g)
        fab = fabric(g)
        chosen = bundle_dims(fab, g, options.approximate)
        dims = chosen.dims
        notes = list(fab.notes) + chosen.notes
        system, diags = system_config(dims, values, options.workload) if dims else (
            {k: values[k] for k in ("scheduling-policy", "endpoint-delay", "active-chunks-per-dimension",
                                    "preferred-dataset-splits", "collective-optimization", "local-mem-bw")}, [])
        refuse(diags)
        scheduling, queue_notes = engine_scheduling(values)
        notes += queue_notes
        arrays = {k: v.tolist() if isinstance(v, np.ndarray) else v for k, v in prepared.arrays.items()}
        arrays["edge_bandwidth_gbps"] = _null_nan(arrays["edge_bandwidth_gbps"])
        arrays["edge_latency_ns"] = _null_nan(arrays["edge_latency_ns"])
        names = g.node_names
        return EnginePlan(g, arrays, [names[i] for i in prepared.npu_nodes.tolist()], chosen, system, values,
                          notes, options.workload, scheduling)

    def render(self, plan: EnginePlan) -> Bundle:
        dims = plan.chosen.dims
        key = COLLECTIVE_KEY[plan.workload.collective]
        algos = [ENGINE_ALGORITHM[a] for a in plan.system.get(key, ["ring"])] or ["ring"]
        data = {
            "format": "infragraph-engine-input/1",
            "graph": plan.g.name,
            "num_npus": len(plan.npu_names),
            "npu_order": plan.npu_names,
            "logical_dims": [d.size for d in dims],
            "dimensions": [{"kind": d.kind, "size": d.size, "bandwidth_gbps": _null_nan([d.bw_gbps])[0],
                            "latency_ns": _null_nan([d.lat_ns])[0], "algorithm": a} for d, a in zip(dims, algos)],
            "system": plan.system,
            "arrays": plan.arrays,
        }
        v = plan.values
        files = {
            "engine_input.json": json.dumps(data, separators=(",", ":")) + "\n",
            "graph.json": json.dumps(to_json_dict(plan.g), separators=(",", ":")) + "\n",
            "run.sh": render("simengine_run.sh.j2", dims=",".join(str(d.size) for d in dims),
                             algorithms=",".join(algos), chunks=v["preferred-dataset-splits"],
                             active_chunks=v["active-chunks-per-dimension"], endpoint_delay=v["endpoint-delay"],
                             local_mem_bw=_num(v["local-mem-bw"]), optimization=v["collective-optimization"],
                             scheduling=plan.scheduling, intra=v["intra-dimension-scheduling"],
                             inter=v["inter-dimension-scheduling"], collective=plan.workload.collective,
                             size=plan.workload.size_bytes),
        }
        summary = (f"logical dimensions {plan.chosen.shape() if dims else 'none (flat: one dimension of all NPUs)'} "
                   f"({plan.chosen.source}), {plan.workload.describe()}, algorithms {algos}; graph.json is the "
                   f"fully qualified graph `infragraph simulate` reads, and run.sh passes it these dimensions and "
                   f"algorithms explicitly")
        against = against_simulate(plan.g, dims, plan.chosen.shape(), plan.chosen.source, plan.chosen.stated,
                                   plan.system, plan.workload, ENGINE_ASTRA)
        files["README.md"] = readme(self, plan.g.name, len(plan.npu_names), summary,
                                    {**files, "graph.json": ""}, plan.notes, False, self.settings_table(plan.values),
                                    None, run_hint="./run.sh  # extra flags pass through, e.g. --size 64MiB",
                                    run_note="`run.sh` runs `infragraph simulate` (set INFRAGRAPH to use another "
                                             "installation) with this bundle's collective, size and options.",
                                    units=["edge_bandwidth_gbps: Gbit/s (1e9 bit/s); edge_latency_ns: ns",
                                           "dimensions[].bandwidth_gbps: Gbit/s of one link of the dimension "
                                           "(null where the dimensions are the graph's stated ones: the engine "
                                           "reads the real links)"], against=against,
                                    roles={"run.sh": "runs `infragraph simulate` on graph.json with this bundle's "
                                                     "dimensions, algorithms and options"})
        return Bundle(self.name, files, plan.notes, plan.npu_names)


def _num(x: float) -> str:
    return str(int(x)) if float(x) == int(x) else repr(float(x))
