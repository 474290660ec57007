"""How a bundle's run differs from `infragraph simulate`'s default run of the same graph (its README).

A user who simulates a fabric and then runs its bundle must know whether the two numbers answer the
same question. Bundles keep the ASTRA-sim defaults that make the real tools complete (per-dimension
algorithms topology-aware as in ASTRA-sim's examples, i.e. simulate's `--algorithm auto`; 4 chunks;
LIFO), so the README lists, item by item, the bundle's value beside simulate's default, read from
simulate's own `SimulationOptions`, algorithm resolution and, on GPU servers, NCCL mode's plan
(never restated here, so a change of simulate's defaults shows up in every new bundle), and the
`infragraph simulate` command that runs the bundle's configuration in our engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..graph.fqg import FQG
from ..graph.ranks import npu_order
from ..simulate import SimulationOptions
from ..simulate.dims import algorithms as resolve_algorithms
from ..simulate.nccl import EnginePlan, engine_plan, servers
from ..simulate.policy import describe as describe_policy, parse_policy
from .astra_system import COLLECTIVE_KEY, ENGINE_ALGORITHM
from .chakra_et import Workload
from .logical_dims import Stated
from .structure import Dimension


@dataclass(frozen=True)
class Model:
    """The bundle's network model: its name, and the engine model that computes the same (None: none does)."""

    text: str
    engine: str | None
    routing: str  # how the backend routes a message
    nearest: str = "fair"  # the engine model to compare with when none is the same


NO_ROUTES = "none: each dimension has its own links"
ANALYTICAL_UNAWARE = Model("ASTRA-sim analytical, congestion-unaware (each message: latency + size / bandwidth)",
                           "astra", NO_ROUTES)
ANALYTICAL_AWARE = Model("ASTRA-sim analytical, congestion-aware (links shared in arrival order)", "astra-aware",
                         NO_ROUTES)
ENGINE_ASTRA = Model("our engine, ASTRA-sim-compatible (`--model astra`: latency + size / bandwidth on the real "
                     "graph)", "astra", "ASTRA-sim's: one path per message (ECMP), every tier")
NS3 = Model("ns-3 packet level (RDMA with DCQCN and PFC)", None,
            "ECMP per flow on every switch (scale-up switches too); only switches forward")
HTSIM = Model("HTSim packet level (TCP)", None, "ECMP per flow in the fat tree; no scale-up domain")


# ASTRA-sim's queue keys, named alike in system.json and SimulationOptions (dashes for underscores).
SCHEDULING_KEYS = (("chunk order in a dimension's queue", "intra-dimension-scheduling"),
                   ("order of dimensions per chunk", "inter-dimension-scheduling"))


QUEUE_DEFAULTS = {"intra-dimension-scheduling": "FIFO", "inter-dimension-scheduling": "baseline"}


def engine_scheduling(values: dict[str, Any]) -> tuple[str, list[str]]:
    """The chunk order our engine runs a bundle's configuration in (its run.sh and every README's
    simulate command), and a note when it is not the bundle's scheduling-policy. Our engine models ASTRA-sim's other queue orders (intra-/inter-dimension-scheduling) only in
    ASTRA-sim's arrival chunk order (`simulate --scheduling arrival`). That is what ASTRA-sim runs
    for one collective under either policy: `Sys::get_priority` numbers whole collectives, so all
    chunks of this bundle's one collective share a priority and queue in arrival order."""
    policy = values["scheduling-policy"].lower()
    changed = [f"{key}={values[key]}" for key, default in QUEUE_DEFAULTS.items() if values[key] != default]
    if not changed:
        return policy, []
    return "arrival", [f"{', '.join(changed)}: run.sh runs the engine with --scheduling arrival (ASTRA-sim's chunk "
                       f"order for one collective under scheduling-policy {values['scheduling-policy']}), the only "
                       f"order in which it models these queues"]


def _scheduling(model: str, given: str | None) -> str:
    return given or ("arrival" if model.startswith("astra") else "fifo")


@dataclass(frozen=True)
class SimulateDefault:
    """What `infragraph simulate` runs on a graph without --algorithm: the per-dimension algorithms,
    and on GPU servers NCCL mode's own plan (its layout, chunking and latency: simulate.nccl)."""

    algorithms: tuple[str, ...]
    plan: EnginePlan | None = None


def simulate_default(g: FQG, stated: Stated, workload: Workload) -> SimulateDefault:
    """simulate's own resolution (simulate.dims.algorithms), GPU servers told by its own rule."""
    d = SimulationOptions()
    npus = npu_order(g)
    group = list(range(npus.size))
    where = servers(g, npus, group) if d.dims is None else None
    algos = resolve_algorithms(d.algorithm, stated.dims, len(group), workload.collective, model=d.model,
                               in_servers=where is not None)
    if algos != ("nccl",) or where is None:
        return SimulateDefault(algos)
    plan = engine_plan(g, np.asarray(g.edge_bandwidth_gbps(), dtype=np.float64), npus, group, workload.collective,
                       float(workload.size_bytes), where)
    return SimulateDefault(plan.algorithms, plan)


def simulate_routing(g: FQG, d: SimulationOptions) -> str:
    """simulate's routing policy per tier for `g`: the option, else the graph's annotation, else the
    default (simulate.policy), as simulate chooses it for its own models."""
    given = d.routing_policy if d.routing_policy is not None else str(g.graph_annotations.get("routing_policy", ""))
    return describe_policy(parse_policy(given, "routing policy"))


def against_simulate(g: FQG, dims: list[Dimension], dims_shape: str, dims_from: str, stated: Stated,
                     system: dict[str, Any], workload: Workload, model: Model) -> list[str]:
    """Markdown lines: a table of the bundle's run against simulate's default run, then the command
    that runs the bundle's configuration in our engine. `dims_shape` is how the bundle's dimensions are
    written ('SW(8)_SW(128)'; 'flat' for none), `dims_from` says where the bundle's
    dimensions come from ("the graph's dims annotation", "detected: ...")."""
    d = SimulationOptions()
    default = simulate_default(g, stated, workload)
    plan = default.plan  # NCCL mode: its own layout, chunking and latency
    if plan is not None:
        sim_sizes = list(plan.dims)
        sim_dims = "_".join(map(str, plan.dims))
        sim_from = "NCCL mode: GPUs per server, then servers" if len(plan.dims) > 1 else "NCCL mode: flat"
        pick = (f"{plan.choice.algorithm}/{plan.choice.protocol} on {plan.choice.channels} channels"
                if plan.choice else "send/recv to every peer")
        sim_algos = f"`nccl`: NCCL picks {pick}, run as `{','.join(plan.algorithms)}`"
    else:
        sim_sizes = list(stated.dims.sizes)
        sim_dims = stated.shape() if sim_sizes else "flat (one dimension of all NPUs)"
        why_flat = f"; {stated.dims.note}" if stated.dims.note else ""
        sim_from = "the graph's dims annotation" if sim_sizes else f"the graph states no usable dims{why_flat}"
        sim_algos = f"`{','.join(default.algorithms)}`"
    chunks, active = (plan.chunks, plan.active_chunks) if plan else (d.chunks, d.active_chunks)
    delay = f"0 ns (NCCL's latency, {plan.latency_ns:,.0f} ns, added once)" if plan else f"{d.endpoint_delay_ns:g} ns"
    astra_algos = list(system.get(COLLECTIVE_KEY[workload.collective], [])) or ["ring"]
    engine_algos = [ENGINE_ALGORITHM[a] for a in astra_algos]
    sim_model = d.model
    sched = _scheduling(sim_model, d.scheduling)
    mem = d.local_mem_bw_gb_per_s
    rows = [  # item, this bundle, simulate's default, whether they agree
        ("dimensions", f"`{dims_shape}` ({dims_from})", f"`{sim_dims}` ({sim_from})",
         [x.size for x in dims] == sim_sizes),
        (f"{workload.collective} algorithm per dimension",
         f"`{','.join(astra_algos)}` (= `--algorithm {','.join(engine_algos)}`)", sim_algos,
         plan is None and tuple(engine_algos) == tuple(default.algorithms)),
        ("chunks (preferred-dataset-splits)", str(system["preferred-dataset-splits"]), str(chunks),
         system["preferred-dataset-splits"] == chunks),
        ("chunks in flight per dimension", str(system["active-chunks-per-dimension"]), str(active),
         system["active-chunks-per-dimension"] == active),
        ("chunk order", system["scheduling-policy"], sched, system["scheduling-policy"].lower() == sched),
        ("endpoint delay", f"{system['endpoint-delay']} ns", delay,
         plan is None and float(system["endpoint-delay"]) == d.endpoint_delay_ns),
        ("local memory bandwidth (reductions)", f"{system['local-mem-bw']:g} GB/s",
         "none (NCCL's bandwidths include reductions)" if plan else "none (free)" if mem is None else f"{mem:g} GB/s",
         plan is None and mem is not None and float(system["local-mem-bw"]) == mem),
        ("collective optimization", system["collective-optimization"], d.optimization,
         system["collective-optimization"] == d.optimization),
        *((item, str(system[key]), str(getattr(d, key.replace("-", "_"))),
           str(system[key]) == str(getattr(d, key.replace("-", "_")))) for item, key in SCHEDULING_KEYS),
        ("network model", model.text, f"`{sim_model}`", model.engine == sim_model),
        ("routing", model.routing, f"`{simulate_routing(g, d)}` (per tier)", False),
    ]
    lines = ["| | this bundle | `infragraph simulate` default | |", "|---|---|---|---|"]
    lines += [f"| {item} | {ours} | {theirs} | {'same' if same else '**differs**'} |"
              for item, ours, theirs, same in rows]
    engine_model = model.engine or model.nearest
    dims_flag = f" --dims {','.join(str(x.size) for x in dims)}" if dims else ""
    command = (f"infragraph simulate FILE{dims_flag} --algorithm {','.join(engine_algos)} "
               f"--chunks {system['preferred-dataset-splits']} --active-chunks {system['active-chunks-per-dimension']} "
               f"--scheduling {engine_scheduling(system)[0]} --endpoint-delay {system['endpoint-delay']}ns "
               f"--local-mem-bw {system['local-mem-bw']:g} --optimization {system['collective-optimization']} "
               + "".join(f"--{key} {system[key]} " for _, key in SCHEDULING_KEYS) +
               f"--model {engine_model} --collective {workload.collective} --size {workload.size_bytes}B")
    lines += ["", f"The same configuration in our engine (FILE = the file this bundle was translated from)"
                  f"{'' if model.engine else f'; no engine model is packet level, `{engine_model}` is the nearest'}:",
              "", f"```sh\n{command}\n```"]
    return lines
