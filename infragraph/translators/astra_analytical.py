"""ASTRA-sim analytical backend: network.yml + system.json + remote_memory.json + ranks.txt.

The network is ASTRA-sim's multi-dimensional RI/FC/SW model, so the graph must *be* such a product
over its NPUs in rank order (structure.detect_product); otherwise it is refused with the reason, or,
with `--approximate`, modelled as closely as the format allows and the approximation is printed.
Units: bandwidth in GB/s with GB = 2^30 bytes (our graph's Gbit/s x 1e9 / 8 / 2^30: 400 Gbps ->
46.566129), latency in ns per hop; `local-mem-bw` in system.json is GB/s with GB = 1e9 (ASTRA's
own inconsistency, kept).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import dijkstra

from ..errors import Diagnostic, InfraGraphError, Location
from ..graph.fqg import FQG
from ..units import gbps_to_gib_per_s
from ..importers.astra_analytical import DIGITS, KIND_HINT_ANNOTATION
from .astra_system import COLLECTIVE_KEY, ENGINE_ALGORITHM, REMOTE_MEMORY, SYSTEM_SETTINGS, rank_names, ranks_file, \
    system_config
from .base import Bundle, Options, Setting, Translator, choice, refuse, render
from .chakra_et import Workload, workload_files
from .fat_tree import NotAFatTree, infer
from .comparison import ANALYTICAL_AWARE, ANALYTICAL_UNAWARE, against_simulate
from .launch import ANALYTICAL, config_args, run_script
from .logical_dims import Stated, coarsen, same_groups, stated_dims
from .readme import readme
from .server_tiers import server_tier_product
from .structure import (RING, SW, Dimension, Fabric, NotAProduct, NotSplittable, Product, detect_product,
                        host_per_gpu_nic_pair, rated_fabric, scale_up_switches)
def network_yaml(dims: list[Dimension], shape: str, source: str) -> str:
    return render("astra_network.yml.j2", shape=shape, source=source,
                  topology=[d.kind for d in dims], npus_count=[d.size for d in dims],
                  bandwidth=[repr(round(gbps_to_gib_per_s(d.bw_gbps), DIGITS)) for d in dims],
                  latency=[repr(round(d.lat_ns, DIGITS)) for d in dims])


def one_switch_approximation(fab: Fabric, reason: str) -> Product:
    """The closest one-dimension model of any connected graph: all NPUs on one switch, link bandwidth =
    the smallest per-NPU injection bandwidth, per-hop latency = half the largest latency from NPU 0."""
    N, V = fab.num_npus, fab.num_vertices
    inj = np.bincount(fab.src, weights=fab.bw_gbps, minlength=V)[:N] + np.bincount(fab.dst, weights=fab.bw_gbps, minlength=V)[:N]
    w = coo_matrix((fab.lat_ns + 1e-9, (fab.src, fab.dst)), shape=(V, V)).tocsr()
    dist = dijkstra(w, directed=False, indices=0)[:N]
    if not np.all(np.isfinite(dist)):
        far = int(np.flatnonzero(~np.isfinite(dist))[0])
        raise InfraGraphError(Diagnostic(f"NPU '{fab.name(far)}' cannot reach NPU '{fab.name(0)}'; a disconnected "
                                         f"graph has no network model", Location(),
                                         "check the wiring: ASTRA-sim needs a path between every two NPUs"))
    lat = round(float(dist.max()) / 2.0, DIGITS)
    dim = Dimension(SW, N, 1, float(inj.min()), lat, exact=False)
    note = (f"APPROXIMATION: {reason}. Modelled as one Switch({N}) with {dim.bw_gbps:g} Gbit/s per NPU (smallest "
            f"injection bandwidth) and {lat:g} ns per hop (half the largest latency from NPU 0)")
    return Product([dim], [note])


def clos_approximation(fab: Fabric) -> Product:
    """A fat tree as one Switch dimension per tier (NotAFatTree / NotSplittable when it is not one).

    Dimension 0 is the NPUs of one ToR (its size Radix_Down0, the host link's bandwidth and latency);
    dimension t > 0 joins the blocks of dimension t-1 that meet at tier t: its bandwidth is each NPU's
    share of the uplinks of the tier t-1 switches above it (capped by the dimension below) and its
    per-hop latency the sum of the link latencies from an NPU up to tier t, so ASTRA-sim's two hops
    per Switch equal the real path's length. NPUs are numbered ToR by ToR, pod by pod (ranks.txt).
    Ignored: a tier's links are shared by every dimension above it (ASTRA-sim gives each dimension its
    own), and ECMP collisions."""
    if scale_up_switches(fab).any():  # servers with a scale-up domain: that dimension first
        return server_tier_product(fab)
    fab = host_per_gpu_nic_pair(fab)
    tree = infer(fab, whole=False)
    t = tree.tiers
    sizes = [t[0].radix_down] + ([tree.podsize // t[0].radix_down, tree.nodes // tree.podsize] if len(t) == 3
                                 else [tree.nodes // t[0].radix_down] if len(t) == 2 else [])
    bw, lat = [float(t[0].speed)], [float(t[0].latency)]
    for k in range(1, len(sizes)):  # the tier k-1 switches' uplinks into tier k, shared by all NPUs
        bw.append(min(bw[-1], t[k - 1].switches * t[k - 1].radix_up * float(t[k].speed) / tree.nodes))
        lat.append(lat[-1] + float(t[k].latency))
    dims = [Dimension(SW, n, 0, b, x, exact=False) for n, b, x in zip(sizes, bw, lat) if n > 1]
    if not dims:
        raise NotAFatTree("the fat tree has one NPU per ToR and one ToR")
    note = (f"APPROXIMATION: the {len(t)}-tier Clos is modelled as {Product(dims).shape()}: one Switch dimension "
            f"per tier (NPUs of one ToR, then ToRs of one pod{', then pods' if len(t) == 3 else ''}), bandwidth = "
            f"each NPU's share of the uplinks into that tier ({', '.join(f'{d.bw_gbps:g}' for d in dims)} Gbit/s), "
            f"latency per hop = the links from an NPU up to that tier ({', '.join(f'{d.lat_ns:g}' for d in dims)} ns); "
            f"ASTRA-sim gives each dimension its own links, where the real tiers share theirs")
    return Product(dims, fab.notes + [note], tree.host_order)


ERROR_CHECK_MAX_NPUS = 4096  # the README's error statement runs our engine twice; bigger Clos skip it


def approximation_error(g: FQG, product: Product, system: dict[str, Any], w: Workload) -> str:
    """Our engine, ASTRA-sim-compatible mode, on the approximate network and on the real graph (same
    logical dimensions, NPU order, algorithms and options): the error the README states."""
    from .. import blueprints  # lazily: only a Clos approximation needs the engine and a stack graph
    from ..simulate import SimulationOptions, simulate

    N = int(np.prod([d.size for d in product.dims]))
    if N > ERROR_CHECK_MAX_NPUS:
        return (f"error against the real graph not computed ({N:,} NPUs > {ERROR_CHECK_MAX_NPUS:,}); compare with "
                f"`infragraph simulate --model astra --dims {','.join(str(d.size) for d in product.dims)}`")
    stack = blueprints.graph("std.fabrics.stack", shape=product.shape(),
                             bandwidth=[f"{d.bw_gbps!r} Gbps" for d in product.dims],
                             latency=[f"{d.lat_ns!r} ns" for d in product.dims])
    algos = tuple(ENGINE_ALGORITHM[a] for a in system[COLLECTIVE_KEY[w.collective]])
    opts = SimulationOptions(collective=w.collective, size_bytes=float(w.size_bytes), algorithm=algos,
                             dims=tuple(d.size for d in product.dims), chunks=system["preferred-dataset-splits"],
                             active_chunks=system["active-chunks-per-dimension"],
                             endpoint_delay_ns=float(system["endpoint-delay"]),
                             local_mem_bw_gb_per_s=float(system["local-mem-bw"]),
                             optimization=system["collective-optimization"],
                             scheduling=system["scheduling-policy"].lower(), model="astra", top_links=0,
                             intra_dimension_scheduling=system["intra-dimension-scheduling"],
                             inter_dimension_scheduling=system["inter-dimension-scheduling"])
    order = product.order if product.order is not None else np.arange(N)
    group = (tuple(int(x) for x in order),)
    def timed(graph: FQG, o: SimulationOptions) -> tuple[float, str]:
        """Our engine's time, in FIFO chunk order where ASTRA-sim's order deadlocks it (said)."""
        try:
            return simulate(graph, o)["collective_time_ns"], ""
        except InfraGraphError as e:
            if "deadlock" not in e.diagnostics[0].message or o.scheduling == "fifo":
                raise
            return (simulate(graph, replace(o, scheduling="fifo"))["collective_time_ns"],
                    f" (in FIFO chunk order: with ASTRA-sim's {o.scheduling.upper()} order our engine deadlocks here)")

    try:
        approx, _ = timed(stack, opts)
        real, real_how = timed(g, replace(opts, groups=group))
        aware, aware_how = timed(g, replace(opts, groups=group, model="astra-aware"))
    except InfraGraphError as e:
        return f"error of this approximation not computed: our engine could not run the comparison ({e.diagnostics[0].message})"
    return (f"error of this approximation for its workload ({w.describe()}): {approx:,.0f} ns here vs {real:,.0f} ns "
            f"from our engine on the real graph with the same dimensions and algorithms{real_how} "
            f"({(approx - real) / real:+.1%}); with congestion (--model astra-aware) the real graph gives "
            f"{aware:,.0f} ns{aware_how} ({(approx - aware) / aware:+.1%})")


def detect_for_astra(fab: Fabric, g: FQG, options: Options) -> Product:
    """The product ASTRA-sim will get, or a located refusal (approximated with options.approximate:
    a fat tree as one Switch per tier, anything else by detect_product's or the one-switch model)."""
    hint_text = g.graph_annotations.get(KIND_HINT_ANNOTATION)
    hint = [x.strip() for x in str(hint_text).split(",")] if hint_text else None
    try:
        return _with_fabric_notes(fab, detect_product(fab, False, hint))
    except NotAProduct as e:
        if options.approximate:
            try:
                return clos_approximation(fab)  # its notes are those of the fabric it models
            except (NotAFatTree, NotSplittable):
                pass
            try:
                return _with_fabric_notes(fab, detect_product(fab, True, hint))
            except NotAProduct:
                return _with_fabric_notes(fab, one_switch_approximation(fab, f"the graph is not an RI/FC/SW product ({e})"))
        d = e.diagnostic()
        raise InfraGraphError(Diagnostic(
            f"the graph is not an RI/FC/SW product over its NPUs, which ASTRA-sim's analytical network needs: {d.message}",
            d.location, _approximate_hint(fab, d.hint))) from None


def _approximate_hint(fab: Fabric, hint: str | None) -> str:
    """The refusal's hint: what --approximate would make of this fabric. A Clos gets
    clos_approximation, so its shape is named (the detection's own '--approximate models each
    network as one switch' is then not what happens); on servers with scale-up switches (NVSwitch)
    that puts the scale-up domain first, which 'one Switch dimension per tier' left out."""
    try:
        clos = clos_approximation(fab)
    except (NotAFatTree, NotSplittable):
        if hint and "--approximate" in hint:
            return hint
        return (hint + "; " if hint else "") + "or pass --approximate for the closest model (printed)"
    if scale_up_switches(fab).any():
        how = ("the servers' scale-up domain as one Switch dimension, then one Switch dimension per tier that joins "
               "several servers or groups of them")
    else:
        how = "one Switch dimension per tier that joins several ToRs' NPUs or groups of them"
    return f"pass --approximate for the closest model, {clos.shape()}: {how} (printed, with its error)"


def _with_fabric_notes(fab: Fabric, product: Product) -> Product:
    """`product` with the fabric's notes first (hubs kept as forwarding nodes): they hold for a product
    detected on `fab`, where an approximation that folds the servers (clos_approximation) says its own."""
    return replace(product, notes=fab.notes + product.notes)


def honour_stated(product: Product, stated: Stated) -> tuple[Product, str]:
    """The product over the graph's stated dims where ASTRA-sim's network can take them (equal, or
    switch tiers merged: logical_dims.coarsen), and where the bundle's dimensions come from (for the
    README); a stated shape it cannot take is kept out, and a note says so."""
    sizes = [d.size for d in product.dims]
    if not stated.given:
        return product, ("approximation of the graph (see Notes); the graph states no dims" if not product.exact
                         else "detected: the graph is this RI/FC/SW product and states no dims")
    if sizes == list(stated.dims.sizes) and same_groups(sizes, product.order):
        return product, "the graph's dims annotation" + ("" if product.exact else ", approximated (see Notes)")
    merged = coarsen(product, stated)
    if merged is not None:
        return merged, "the graph's dims annotation, switch tiers merged (an approximation, see Notes)"
    note = (f"the graph states dims {stated.shape()}, which `infragraph simulate` runs over, but ASTRA-sim's "
            f"analytical dimensions are its network and this one is {product.shape()}: its collectives run over "
            f"{product.shape()}; `infragraph simulate --dims {','.join(map(str, sizes))}` runs those dimensions on "
            f"the real graph")
    return Product(product.dims, product.notes + [note], product.order), \
        f"the network (the graph's stated {stated.shape()} is not a product ASTRA-sim can model here)"


@dataclass
class AnalyticalPlan:
    g: FQG
    fab: Fabric
    product: Product
    dims_from: str
    stated: Stated
    system: dict[str, Any]
    values: dict[str, Any]
    workload: Workload


NETWORK_MODEL = Setting("network-model", "unaware",
                        "which analytical binary run.sh starts: unaware (any dimensions) or aware (congestion-aware; "
                        "ASTRA-sim accepts 1-D networks only)", choice("unaware", "aware"))


def aware_refusals(dims: list[Dimension]) -> list[Diagnostic]:
    """What the congestion-aware binary aborts on: more than one dimension ('only support 1-dim
    topology', exit 255) and a Ring of 2 NPUs (assertion '!connected(id)')."""
    where = Location(path="--set network-model")
    if len(dims) > 1:
        return [Diagnostic(f"ASTRA-sim's congestion-aware analytical binary accepts 1-D networks only ('only support "
                           f"1-dim topology'); this network has {len(dims)} dimensions "
                           f"({Product(dims).shape()})", where,
                           "use --set network-model=unaware, or simulate contention with `infragraph simulate "
                           "--model astra-aware` on the real graph")]
    if dims and dims[0].kind == RING and dims[0].size == 2:
        return [Diagnostic("ASTRA-sim's congestion-aware binary aborts on a Ring of 2 NPUs (assertion '!connected(id)')",
                           where, "use --set network-model=unaware")]
    return []


class AstraAnalytical(Translator):
    name = "astra-analytical"
    description = "ASTRA-sim analytical (congestion-aware or -unaware) network + system configuration"
    settings = (NETWORK_MODEL, *SYSTEM_SETTINGS)

    def plan(self, g: FQG, options: Options) -> AnalyticalPlan:
        values = self.resolve_settings(options)
        fab = rated_fabric(g, "ASTRA-sim")
        stated = stated_dims(g, fab.num_npus)
        product, dims_from = honour_stated(detect_for_astra(fab, g, options), stated)
        system, diags = system_config(product.dims, values, options.workload)
        if values["network-model"] == "aware":
            diags += aware_refusals(product.dims)
        refuse(diags)
        return AnalyticalPlan(g, fab, product, dims_from, stated, system, values, options.workload)

    def render(self, plan: AnalyticalPlan) -> Bundle:
        fab, product = plan.fab, plan.product
        ranks = rank_names(fab, product.order)
        notes = list(product.notes)
        if product.order is not None:
            notes.append(approximation_error(plan.g, product, plan.system, plan.workload))
        files: dict[str, str | bytes] = {
            "network.yml": network_yaml(product.dims, product.shape(), plan.g.name),
            "system.json": json.dumps(plan.system, indent=2) + "\n",
            "remote_memory.json": REMOTE_MEMORY,
            "ranks.txt": ranks_file(ranks),
            "run.sh": run_script(ANALYTICAL[plan.values["network-model"]], plan.workload, fab.num_npus,
                                 config_args(system_configuration="system.json",
                                             remote_memory_configuration="remote_memory.json",
                                             network_configuration="network.yml")),
        }
        model = ANALYTICAL_AWARE if plan.values["network-model"] == "aware" else ANALYTICAL_UNAWARE
        files["README.md"] = readme(self, plan.g.name, fab.num_npus, product.shape(), files, notes,
                                    not product.exact, self.settings_table(plan.values), plan.workload,
                                    against=against_simulate(plan.g, product.dims, product.shape(), plan.dims_from,
                                                             plan.stated, plan.system, plan.workload, model))
        files.update(workload_files(plan.workload, fab.num_npus))
        return Bundle(self.name, files, notes, ranks, not product.exact)
