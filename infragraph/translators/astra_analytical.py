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
import math
from dataclasses import dataclass, replace
from typing import Any, Callable

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import dijkstra

from ..errors import Diagnostic, InfraGraphError, Location
from ..graph.fqg import FQG
from ..units import gbps_to_gib_per_s
from .chakra_et import Workload, workload_files
from .launch import ANALYTICAL, config_args, run_script
from .base import (Bundle, Options, Setting, Translator, choice, list_of, parse_float, parse_int,
                   parse_positive_int, refuse, render)
from .fat_tree import NotAFatTree, infer
from .server_tiers import server_tier_product
from .structure import (FC, RING, SW, Dimension, Fabric, NotAProduct, NotSplittable, Product, detect_product, fabric,
                        host_per_gpu_nic_pair, require_rated, scale_up_switches)

KIND_HINT_ANNOTATION = "astra.topology"  # graph annotation: "Ring,FullyConnected,Switch" (importer writes it)
DEFAULT_ALGORITHM = {RING: "ring", FC: "direct", SW: "halvingDoubling"}
# all-to-all has no halvingDoubling in ASTRA-sim: exit 1, "unknown communication type for HalvingDoubling"
ALGORITHMS = {
    "all-reduce-implementation": ("ring", "direct", "halvingDoubling", "doubleBinaryTree"),
    "reduce-scatter-implementation": ("ring", "direct", "halvingDoubling"),
    "all-gather-implementation": ("ring", "direct", "halvingDoubling"),
    "all-to-all-implementation": ("ring", "direct"),
}
COLLECTIVE_KEY = {"all-reduce": "all-reduce-implementation", "reduce-scatter": "reduce-scatter-implementation",
                  "all-gather": "all-gather-implementation", "all-to-all": "all-to-all-implementation"}
DIGITS = 6  # decimals written for bandwidth and latency (importer -> translator round trips exactly)

SYSTEM_SETTINGS: tuple[Setting, ...] = (
    Setting("scheduling-policy", "LIFO", "order in which ready chunks are served (LIFO|FIFO)", choice("LIFO", "FIFO")),
    Setting("endpoint-delay", "10", "ns an NPU spends per message endpoint (integer >= 1; 0 aborts ASTRA-sim)",
            parse_int),
    Setting("active-chunks-per-dimension", "1", "chunks in flight per dimension queue", parse_positive_int),
    Setting("preferred-dataset-splits", "4", "chunks per collective (missing -> ASTRA divides by zero)",
            parse_positive_int),
    *(Setting(key, "", f"one algorithm per dimension ({'|'.join(algs)}); empty = the backend's default "
              "(analytical and ns-3: Ring->ring, FullyConnected->direct, Switch->halvingDoubling, or direct "
              "when its size is not a power of two or the collective is all-to-all; HTSim: ring)",
              list_of(choice(*algs))) for key, algs in ALGORITHMS.items()),
    Setting("collective-optimization", "localBWAware",
            "localBWAware: reduce-scatter/all-gather around the last dimension; baseline: all-reduce per dimension",
            choice("baseline", "localBWAware")),
    Setting("local-mem-bw", "1600", "GB/s (GB = 1e9 here) for reductions; missing -> undefined delay", parse_float),
    Setting("intra-dimension-scheduling", "FIFO", "where a chunk waits in a dimension's queue (FIFO|SCF|"
            "lessRemainingPhaseFirst); ASTRA-sim 518bd51's JSON loader ignores it (runs FIFO)",
            choice("FIFO", "SCF", "lessRemainingPhaseFirst")),
    Setting("inter-dimension-scheduling", "baseline", "order in which chunks visit the dimensions (baseline|themis); "
            "ASTRA-sim 518bd51's JSON loader ignores it (runs baseline)", choice("baseline", "themis")),
)


def _is_pow2(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


def default_algorithm(dim: Dimension, key: str) -> str:
    """Topology-aware: ring on a Ring, direct on a clique, halvingDoubling on a power-of-two Switch
    (system_config falls back to ring for an all-reduce too small for it)
    (direct otherwise, and always for all-to-all, which has no halvingDoubling)."""
    algo = DEFAULT_ALGORITHM[dim.kind]
    if algo == "halvingDoubling" and (not _is_pow2(dim.size) or "halvingDoubling" not in ALGORITHMS[key]):
        return "direct"
    return algo


def system_config(dims: list[Dimension], values: dict[str, Any], workload: Workload,
                  default: Callable[[Dimension, str], str] = default_algorithm) -> tuple[dict[str, Any], list[Diagnostic]]:
    """The system.json object for these dimensions (every key of the note, user overrides applied),
    and the refusals for inputs ASTRA-sim is known to abort or hang on with this workload."""
    out: dict[str, Any] = {
        "scheduling-policy": values["scheduling-policy"],
        "endpoint-delay": values["endpoint-delay"],
        "active-chunks-per-dimension": values["active-chunks-per-dimension"],
        "preferred-dataset-splits": values["preferred-dataset-splits"],
    }
    diags = []
    if values["endpoint-delay"] < 1:
        diags.append(Diagnostic(f"endpoint-delay {values['endpoint-delay']} ns: ASTRA-sim aborts with 0 (event queue "
                                f"assertion 'get_event_time() > current_time')", Location(path="--set endpoint-delay"),
                                "use --set endpoint-delay=1 or more"))
    npus = int(np.prod([d.size for d in dims])) if dims else 1
    too_small_for_hd = workload.size_bytes // values["preferred-dataset-splits"] < 2 * npus
    for key in ALGORITHMS:
        given = values[key]
        if not given:
            out[key] = [default(d, key) for d in dims]
            if key == "all-reduce-implementation" and too_small_for_hd:  # halvingDoubling would abort: ring
                out[key] = ["ring" if a == "halvingDoubling" else a for a in out[key]]
            continue
        if len(given) != len(dims):
            diags.append(Diagnostic(f"{key} lists {len(given)} algorithm(s) but the network has {len(dims)} "
                                    f"dimension(s)", Location(path=f"--set {key}"),
                                    f"give one per dimension, e.g. {','.join(default(d, key) for d in dims)}"))
            continue
        for i, (algo, d) in enumerate(zip(given, dims)):
            if algo == "halvingDoubling" and not _is_pow2(d.size):
                diags.append(Diagnostic(f"{key}: halvingDoubling on dimension {i} needs a power-of-two size, "
                                        f"the dimension has {d.size} NPUs", Location(path=f"--set {key}")))
        out[key] = list(given)
    out["collective-optimization"] = values["collective-optimization"]
    out["local-mem-bw"] = values["local-mem-bw"]
    out["intra-dimension-scheduling"] = values["intra-dimension-scheduling"]
    out["inter-dimension-scheduling"] = values["inter-dimension-scheduling"]
    diags += workload_refusals(out, dims, workload)
    return out, diags


def workload_refusals(system: dict[str, Any], dims: list[Dimension], w: Workload) -> list[Diagnostic]:
    """Collective sizes ASTRA-sim cannot chunk: it aborts (all-reduce halvingDoubling with fewer than
    2 bytes per NPU per chunk, 'chunk_size > 0') or never finishes (all-gather of fewer bytes than chunks)."""
    splits = system["preferred-dataset-splits"]
    npus = int(np.prod([d.size for d in dims])) if dims else 1
    where = Location(path="--size")  # the user's choice of halvingDoubling (a default falls back to ring)
    if w.collective == "all-reduce" and "halvingDoubling" in system.get("all-reduce-implementation", ()) \
            and w.size_bytes // splits < 2 * npus:
        return [Diagnostic(f"all-reduce of {w.size_bytes} bytes with halvingDoubling and {splits} chunks on {npus} NPUs: "
                           f"ASTRA-sim aborts ('chunk_size > 0') below 2 bytes per NPU per chunk", where,
                           f"use --size {2 * npus * splits}B or more, or --set all-reduce-implementation=ring,...")]
    if w.collective == "all-gather" and w.size_bytes < splits:
        return [Diagnostic(f"all-gather of {w.size_bytes} bytes in {splits} chunks: a 0-byte chunk, which ASTRA-sim "
                           f"never finishes", where, f"use --size {splits}B or more, or fewer "
                           f"preferred-dataset-splits")]
    return []


def network_yaml(dims: list[Dimension], shape: str, source: str) -> str:
    return render("astra_network.yml.j2", shape=shape, source=source,
                  topology=[d.kind for d in dims], npus_count=[d.size for d in dims],
                  bandwidth=[repr(round(gbps_to_gib_per_s(d.bw_gbps), DIGITS)) for d in dims],
                  latency=[repr(round(d.lat_ns, DIGITS)) for d in dims])


def rank_names(fab: Fabric, order: np.ndarray | None = None) -> list[str]:
    """The NPU node name of each rank (`order`: NPU vertex per rank when a model renumbers them)."""
    names = fab.g.node_names
    vertices = fab.vertex_node[:fab.num_npus] if order is None else fab.vertex_node[order]
    return [names[i] for i in vertices.tolist()]


def ranks_file(names: list[str]) -> str:
    """ranks.txt: the template's header, then one 'rank<TAB>node' line per NPU (joined here, not in a
    template loop, because it has one line per NPU: 262,144 in the Clos benchmark)."""
    return render("ranks.txt.j2", body="".join(f"{i}\t{n}\n" for i, n in enumerate(names)))


REMOTE_MEMORY = json.dumps({"memory-type": "NO_MEMORY_EXPANSION"}, indent=2) + "\n"


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
    from .simengine import ENGINE_ALGORITHM

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
        return detect_product(fab, False, hint)
    except NotAProduct as e:
        if options.approximate:
            try:
                return clos_approximation(fab)
            except (NotAFatTree, NotSplittable):
                pass
            try:
                return detect_product(fab, True, hint)
            except NotAProduct:
                return one_switch_approximation(fab, f"the graph is not an RI/FC/SW product ({e})")
        d = e.diagnostic()
        raise InfraGraphError(Diagnostic(
            f"the graph is not an RI/FC/SW product over its NPUs, which ASTRA-sim's analytical network needs: {d.message}",
            d.location, d.hint if d.hint and "--approximate" in d.hint
            else (d.hint + "; " if d.hint else "") + "or pass --approximate for the closest model (printed; a Clos "
            "becomes one Switch dimension per tier)")) from None


@dataclass
class AnalyticalPlan:
    g: FQG
    fab: Fabric
    product: Product
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
        fab = fabric(g)
        refuse(require_rated(fab, "ASTRA-sim"))
        product = detect_for_astra(fab, g, options)
        system, diags = system_config(product.dims, values, options.workload)
        if values["network-model"] == "aware":
            diags += aware_refusals(product.dims)
        refuse(diags)
        return AnalyticalPlan(g, fab, product, system, values, options.workload)

    def render(self, plan: AnalyticalPlan) -> Bundle:
        fab, product = plan.fab, plan.product
        ranks = rank_names(fab, product.order)
        notes = fab.notes + product.notes
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
        files["README.md"] = readme(self, plan.g.name, fab.num_npus, product.shape(), files, notes,
                                    not product.exact, self.settings_table(plan.values), plan.workload)
        files.update(workload_files(plan.workload, fab.num_npus))
        return Bundle(self.name, files, notes, ranks, not product.exact)


FILE_ROLES = {
    "network.yml": "ASTRA-sim analytical network: topology, npus_count, bandwidth (GB/s, GB = 2^30), latency (ns)",
    "system.json": "ASTRA-sim system layer: scheduling, chunking, per-dimension collective algorithms",
    "remote_memory.json": "no memory expansion (required by the binary)",
    "ranks.txt": "which graph node is each NPU id",
    "run.sh": "finds the backend binary and runs this bundle (output also in run.log; fails unless every NPU finishes)",
    "topology.txt": "ns-3 topology: nodes, switches, links with rate (Gbps = 1e9 bit/s) and delay",
    "logical_topology.json": "ASTRA-sim logical dimensions for collectives",
    "config.txt": "ns-3 network configuration (KEY value lines)",
    "flow.txt": "ns-3 flow list: empty (0 flows; ASTRA-sim's workload makes the traffic), read because config.txt names it",
    "trace.txt": "ns-3 nodes to trace: none (0), read because config.txt names it",
    "fat_tree.topo": "HTSim fat-tree description (passed with --htsim_opts -topo)",
    "engine_input.json": "InfraGraph engine input: NPU order, logical dimensions, fabric link arrays",
}


RUN_NOTE = ("`run.sh` needs only the backend binary: it takes the path from an environment variable, else finds "
            "it on PATH or under an ASTRA-sim checkout (see its header). It exits 0 only when every NPU finished; "
            "its last line is the collective's time.")


def readme(t: Translator, source: str, num_npus: int, summary: str, files: dict[str, str | bytes], notes: list[str],
           approximate: bool, settings: list, workload: Workload | None, run_hint: str = "./run.sh",
           units: list[str] | None = None, run_note: str = RUN_NOTE) -> str:
    """The bundle README (shared by every translator). `files` are the configuration files; the
    workload (one file per NPU) is listed as one line."""
    listed = [(f, FILE_ROLES.get(f, "")) for f in files if f != "README.md"]
    if workload is not None and workload.files:
        listed.append((f"workload/{workload.stem}.<npu>.et",
                       f"Chakra workload, one file per NPU: {workload.describe()} (`translate --collective/--size`)"))
    return render("README.md.j2", title=f"{t.description}", backend=t.name, source=source, num_npus=num_npus,
                  summary=summary, files=listed + [("README.md", "this file")], run_hint=run_hint, run_note=run_note,
                  notes=notes,
                  approximate=approximate, settings=settings, units=units or [
                      "bandwidth in network.yml: GB/s per link per direction, GB = 2^30 bytes "
                      "(graph Gbit/s x 1e9 / 8 / 2^30)",
                      "latency in network.yml: ns per hop; Switch dimensions cost 2 hops",
                      "local-mem-bw in system.json: GB/s with GB = 1e9 (ASTRA-sim's convention)"])


def round_trip_value(x: float) -> float:
    """How a bandwidth/latency is written (the importer's inverse must agree)."""
    return round(x, DIGITS) if math.isfinite(x) else x
