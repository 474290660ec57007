"""Simulate a collective on a fully qualified graph: FQG + options in, a JSON-ready result out.

This is the library function behind `infragraph simulate`. It turns the graph into the arrays the
Rust engine takes (edge endpoints, Gbit/s, ns, NPU node ids in rank order), runs the engine, and
turns its raw measurements into a result dict that validates against
schemas/simulation-result.schema.json. Engine errors come back as `InfraGraphError`s that name
graph nodes, never as tracebacks.

Units: sizes in bytes, times in ns, bandwidths of results in GB/s with GB = 1e9 bytes (NCCL's
convention), link bandwidth as the graph states it (Gbit/s).
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field, replace
from typing import Any, Callable, NamedTuple, Protocol, Sequence

import numpy as np

from ..errors import InfraGraphError, error
from ..graph import FQG
from ..graph.failures import with_failures
from ..graph.ranks import npu_order
from ..units import gbps_to_gib_per_s
from .affinity import Affinity, affinity
from .engine import engine_error, engine_error_type, simulate_arrays
from .checks import injection_bound_gbps, warnings
from .policy import TIERS, describe as describe_policy, edge_policies, parse_policy, scale_up_edges
from .dims import SELECTORS, Dims, algorithms, resolve
from .schedule_paths import resolve_paths
from .lanes import nvswitch_planes, spread_bundles
from .nccl import Servers, bus_factor, engine_plan, servers
from .load import LinkTiers, bottleneck_tier, link_tiers, tier_summary

COLLECTIVES = ("all-reduce", "reduce-scatter", "all-gather", "all-to-all", "broadcast", "reduce",
               "point-to-point")
ALGORITHMS = ("ring", "ring-bidirectional", "direct", "halving-doubling", "double-binary-tree")
MODELS = ("unaware", "aware", "fair", "astra", "astra-aware")
ROUTINGS = ("hops", "latency", "dor")
SCHEDULINGS = ("fifo", "arrival", "lifo")
# ASTRA-sim's `intra-dimension-scheduling` / `inter-dimension-scheduling` (its README's names; the
# engine's name after the colon where its code calls it otherwise). docs/simulate.md, "Scheduling".
INTRA_DIMENSION_SCHEDULINGS = ("FIFO", "SCF", "lessRemainingPhaseFirst")
INTER_DIMENSION_SCHEDULINGS = ("baseline", "ascending", "themis", "offlineGreedy", "offlineGreedyFlex")
_ENGINE_INTER = {"baseline": "ascending", "ascending": "ascending", "themis": "offlineGreedy",
                 "offlineGreedy": "offlineGreedy", "offlineGreedyFlex": "offlineGreedyFlex"}
LINK_FILTERS = ("all", "cables")  # which directed links the result lists: every one, or inter-device only
# Node types a route never passes through (they are endpoints of memory traffic, not forwarders).
DEFAULT_NO_TRANSIT = ("memory",)
# Node types that only pass bits on: the congestion-aware model does not store and forward there.
DEFAULT_CUT_THROUGH = ("port",)
# Node types a message pipelines through in NCCL mode (engine_call): all but the GPUs.
NCCL_PIPELINED = ("switch", "nic", "pcie_switch", "pcie_endpoint", "cpu")


class EngineSchedule(Protocol):
    """A custom collective schedule as the engine runs it (infragraph.collectives.schedule.Schedule;
    a protocol so that simulate needs nothing from the collectives package)."""

    collective: str
    ranks: int
    name: str
    chunks_per_rank: int
    dependencies: str
    step_count: int
    transfers: int
    paths: tuple  # node names of the paths transfers name (empty: none)

    def engine_arrays(self, collective: str | None = None) -> tuple | None: ...


@dataclass(frozen=True)
class SimulationOptions:
    """What to simulate and how. Defaults follow ASTRA-sim's example system configuration.

    Give the fields below, or the command line's spellings (simulate.spellings): `size="1MiB"`,
    `local_mem_bw="1600 GB/s"`, `endpoint_delay="10ns"`, `group=["0-7", "8-15"]`, `no_ecmp=True`,
    `no_nic_affinity=True`, and text for `algorithm="ring,direct"`, `dims="8,4"`, `pxn="on"`. An
    unknown keyword, or one option given in two spellings, is an InfraGraphError naming it."""

    collective: str = "all-reduce"
    size_bytes: float = 1 << 20  # per-NPU buffer; All-Gather: each NPU's shard
    # One, or one per logical dimension. "default": `nccl` on GPU servers, else ring (all-to-all:
    # direct; the astra models: ring); "nccl": NCCL's own choice (simulate.nccl); "auto": simulate.dims.
    algorithm: tuple[str, ...] = ("default",)
    dims: tuple[int, ...] | None = None  # None: the graph's "dims" annotation if it fits, else flat
    # Per entry of `algorithm`: the schedule an entry "schedule" runs (docs/collectives.md), None for
    # the others; empty when no entry is "schedule". A single "schedule" runs flat unless dims are given.
    schedules: tuple[EngineSchedule | None, ...] = ()
    groups: tuple[tuple[int, ...], ...] | None = None  # ranks per process group; None: all NPUs
    root: int = 0  # member index in each group (broadcast/reduce root, point-to-point source)
    # Per group, when each member starts its part, in ns (>= 0): a workload's members issue a
    # collective at different times and ASTRA-sim starts each member's part at its own issue;
    # messages reaching a member before it starts wait for it. Empty: every member at 0.
    member_start_ns: tuple[tuple[float, ...], ...] = ()
    # The astra models: the group is an ASTRA-sim communicator group smaller than the system (a
    # workload's process group), whose ring ASTRA-sim builds as a `Local` ring: its direct
    # all-reduce reduces the second round's messages too (docs/workloads.md).
    astra_communicator_group: bool = False
    chunks: int = 1  # preferred-dataset-splits
    active_chunks: int = 1  # per dimension
    endpoint_delay_ns: float = 10.0
    local_mem_bw_gb_per_s: float | None = 1600.0  # reduction cost; None: free
    optimization: str = "localBWAware"  # or "baseline"
    # Order of chunks waiting on a dimension: "fifo" = (phase, chunk) order, "arrival" = ASTRA-sim's
    # (arrival order per NPU and dimension), "lifo" = newest first; None: arrival for the astra
    # models, fifo otherwise.
    scheduling: str | None = None
    # Where a chunk waits in a dimension's queue (FIFO, SCF = smallest chunk first,
    # lessRemainingPhaseFirst) and the order in which chunks visit the dimensions (baseline =
    # ascending; themis = offlineGreedy, least-loaded dimension first; offlineGreedyFlex also sizes each
    # chunk from the load gaps): ASTRA-sim's system options.
    # Other than FIFO / baseline they need arrival scheduling (the astra models' default).
    intra_dimension_scheduling: str = "FIFO"
    inter_dimension_scheduling: str = "baseline"
    model: str = "fair"  # contention-aware and pipelined: docs/simulate.md, "Which model for which question"
    # None: "dor" for the astra models on a graph that states its ASTRA-sim topology (ASTRA-sim's
    # routes: rings the short way, clockwise on a tie), else "hops".
    routing: str | None = None
    ecmp: bool = True
    # How traffic spreads over equally short ways, per tier: "spray", "scale-up=spray,scale-out=ecmp"
    # (simulate.policy). None: the graph's routing_policy annotation, else scale-up=spray,scale-out=ecmp.
    routing_policy: str | None = None
    # Traffic between servers leaves through the NIC NCCL would bind the GPU to (simulate.affinity).
    nic_affinity: bool = True
    # GPUs forward other GPUs' traffic: False (default) lets only GPUs cabled to GPUs (tori, rings)
    # forward; True lets every GPU forward, as routes did before (simulate.affinity).
    gpu_transit: bool = False
    # PXN (NCCL's PCI x NVLink): a message to another server first crosses NVLink to the GPU on the
    # destination's rail. None: on for all-to-all when GPUs have scale-up links (as NCCL enables it).
    pxn: bool | None = None
    no_transit_types: tuple[str, ...] = DEFAULT_NO_TRANSIT
    cut_through_types: tuple[str, ...] = DEFAULT_CUT_THROUGH
    trace: bool = False
    max_events: int | None = None
    # Simulate one representative member per symmetry class and expand, where the engine proves
    # that exact (docs/simulate.md, "Symmetric collectives"); the result's `symmetry` says which ran.
    symmetry: bool = True
    top_links: int | None = 100  # busiest directed links listed in the result; None: every used link
    links: str = "all"  # "cables": list only inter-device links (see simulate.load)
    # The result's warnings (simulate.checks). False: none, and no injection max-flow (nor scipy's
    # import) behind them; for callers that only read the times, such as the workload replay's timer.
    warnings: bool = True


def _accept_cli_spellings(init):
    """SimulationOptions(size="1MiB", local_mem_bw="1600 GB/s", no_ecmp=True, ...) as on the command
    line, beside the fields themselves: the keywords pass through simulate.spellings first."""
    from functools import wraps

    from .spellings import to_fields

    names = set(SimulationOptions.__dataclass_fields__)

    @wraps(init)
    def __init__(self, *args, **options):  # noqa: N807
        init(self, *args, **to_fields(options, names))

    return __init__


SimulationOptions.__init__ = _accept_cli_spellings(SimulationOptions.__init__)


@dataclass
class PreparedGraph:
    """The FQG as engine arrays, built once and reused across a size sweep."""

    g: FQG
    npu_nodes: np.ndarray  # node id per rank
    arrays: dict[str, Any] = field(default_factory=dict)
    unspecified_bandwidth_edges: int = 0
    tiers: LinkTiers | None = None  # link classes, built on first use
    injection: dict[tuple, tuple[float, int]] = field(default_factory=dict)  # cache of injection bounds
    affinity: Affinity | None = None  # NIC affinity and non-forwarding nodes, built on first use
    scale_up: np.ndarray | None = None  # per edge: a scale-up link (simulate.policy), built on first use
    servers: dict[tuple[int, ...], Servers | None] = field(default_factory=dict)  # cache: group -> its servers

    def built_affinity(self) -> Affinity:
        """The NIC affinity, built on first use: a run on a fabric without servers never needs it."""
        if self.affinity is None:
            self.affinity = affinity(self.g, self.npu_nodes)
        return self.affinity

    def servers_of(self, members: Sequence[int]) -> Servers | None:
        """The servers a group's GPUs sit in (None: not all on GPU servers), cached per group."""
        key = tuple(members)
        if key not in self.servers:
            self.servers[key] = servers(self.g, self.npu_nodes, list(members), self.built_affinity())
        return self.servers[key]


def prepare(g: FQG) -> PreparedGraph:
    """Check that `g` can be simulated and convert it to the engine's arrays (once per graph).
    Failure annotations in the graph are applied (graph.failures), never ignored."""
    g = with_failures(g)[0]
    bw = np.asarray(g.edge_bandwidth_gbps(), dtype=np.float64)
    lat = np.asarray(g.edge_latency_ns(), dtype=np.float64)
    if g.num_edges == 0:
        raise error(f"graph '{g.name}' has no edges; there is no network to simulate")
    if np.isnan(bw).all():
        raise error(f"no link in graph '{g.name}' states a bandwidth; the simulation needs link speeds",
                    hint="give links `physical: {bandwidth: ...}`")
    npus = npu_order(g)
    if npus.size < 2:
        raise error(f"graph '{g.name}' has {npus.size} NPU (xpu node); a collective needs at least 2")
    p = PreparedGraph(g=g, npu_nodes=npus, unspecified_bandwidth_edges=int(np.isnan(bw).sum()))
    p.arrays = dict(
        num_nodes=g.num_nodes,
        edge_src=np.asarray(g.edge_src),
        edge_dst=np.asarray(g.edge_dst),
        edge_bandwidth_gbps=bw,
        edge_latency_ns=lat,
        npu_nodes=npus,
        node_kind=np.asarray(g.node_type),
    )
    return p


# The engine's array arguments and their element types: they cross as little-endian bytes
# (simengine/src/python.rs), not as a Python object per value (16 M directed links at 1 M GPUs).
ENGINE_COLUMNS = {"edge_src": "<u4", "edge_dst": "<u4", "edge_bandwidth_gbps": "<f8", "edge_latency_ns": "<f8",
                  "npu_nodes": "<u4", "node_kind": "<i4", "no_transit_nodes": "<u4", "npu_nic": "<u4",
                  "npu_server": "<u4", "edge_policy": "u1"}
# The engine's per-rank and per-directed-link results, as it returns them (bytes) and their types.
RESULT_COLUMNS = {"rank_finish_ns": "<f8", "bytes_sent_per_rank": "<f8", "bytes_received_per_rank": "<f8",
                  "link_bytes": "<f8", "link_busy_ns": "<f8", "link_routes": "<u4"}


def _engine_columns(kwargs: dict[str, Any]) -> dict[str, Any]:
    """`kwargs` with its arrays (ENGINE_COLUMNS) as the little-endian bytes the engine reads."""
    return {k: np.ascontiguousarray(v, dtype=ENGINE_COLUMNS[k]).tobytes() if k in ENGINE_COLUMNS else v
            for k, v in kwargs.items()}


def _result_columns(raw: dict[str, Any]) -> dict[str, Any]:
    """The engine's result with its per-rank and per-link bytes (RESULT_COLUMNS) as numpy arrays; a
    rank that never finished has finish time NaN."""
    return {k: np.frombuffer(v, dtype=RESULT_COLUMNS[k]) if k in RESULT_COLUMNS else v for k, v in raw.items()}


def _astra_direct_dims(p: PreparedGraph, dims: tuple[int, ...]) -> list[int] | None:
    """The graph's stated ASTRA-sim dimension kinds (std.fabrics.stack's `astra.topology`), when
    they describe `dims` over all NPUs: the dimensions that are not rings, which dimension-order
    routing crosses in one step. None when the graph states no such topology."""
    kinds = p.g.graph_annotations.get("astra.topology")
    if kinds is None or not dims or math.prod(dims) != int(p.npu_nodes.size):
        return None
    names = [k.strip() for k in str(kinds).split(",")]
    if len(names) != len(dims):
        return None
    return [d for d, k in enumerate(names) if k != "Ring"]


def _astra_stack_dims(p: PreparedGraph) -> tuple[list[int], list[int]] | None:
    """The graph's stated ASTRA-sim dimensions over all NPUs (std.fabrics.stack's `npus_count`,
    `astra.topology`): (NPUs per dimension, the dimensions that are not rings); None when the graph
    states none that cover its NPUs."""
    a = p.g.graph_annotations
    try:
        counts = tuple(int(x) for x in str(a["npus_count"]).split(","))
    except (KeyError, ValueError):
        return None
    direct = _astra_direct_dims(p, counts)
    return None if direct is None else (list(counts), direct)


def dim_bandwidths(p: PreparedGraph, dims: Sequence[int]) -> list[float]:
    """Per logical dimension, the narrowest link (Gbit/s) on a fewest-hops route from rank 0 to its
    neighbour in that dimension (rank `n_0 x ... x n_(d-1)`): what offlineGreedy weighs each
    dimension's load by (ASTRA-sim takes the network's per-dimension bandwidth)."""
    if not dims or math.prod(dims) != int(p.npu_nodes.size):
        raise error("inter-dimension scheduling other than baseline needs logical dimensions covering every NPU "
                    "(--dims or the graph's 'dims' annotation)", "inter_dimension_scheduling")
    src = np.asarray(p.arrays["edge_src"], dtype=np.int64)
    dst = np.asarray(p.arrays["edge_dst"], dtype=np.int64)
    bw = np.asarray(p.arrays["edge_bandwidth_gbps"], dtype=np.float64)
    # Links are full duplex: walk them both ways.
    heads, tails, rates = np.concatenate([src, dst]), np.concatenate([dst, src]), np.concatenate([bw, bw])
    order = np.argsort(heads, kind="stable")
    starts = np.searchsorted(heads[order], np.arange(p.arrays["num_nodes"] + 1))
    start = int(p.npu_nodes[0])
    # Breadth-first from rank 0, keeping the narrowest link of the path that reached each node: a
    # node is reached by the first edge (frontier order, then edge order) that finds it; a link
    # without a bandwidth (NaN) does not narrow the path (fmin). One level per numpy step.
    narrowest = np.full(int(p.arrays["num_nodes"]), np.nan)
    narrowest[start] = math.inf
    frontier = np.asarray([start], dtype=np.int64)
    while frontier.size:
        lo, counts = starts[frontier], starts[frontier + 1] - starts[frontier]
        at = np.repeat(lo - np.cumsum(counts) + counts, counts) + np.arange(int(counts.sum()))
        edges, parents = order[at], np.repeat(frontier, counts)
        heads_reached = tails[edges]
        fresh = np.isnan(narrowest[heads_reached])
        edges, parents, heads_reached = edges[fresh], parents[fresh], heads_reached[fresh]
        first = np.sort(np.unique(heads_reached, return_index=True)[1])
        frontier = heads_reached[first].astype(np.int64)
        narrowest[frontier] = np.fmin(narrowest[parents[first]], rates[edges[first]])
    out = []
    for d in range(len(dims)):
        peer = int(p.npu_nodes[math.prod(dims[:d])])
        rate = float(narrowest[peer])
        if not (rate > 0 and math.isfinite(rate)):
            raise error(f"dimension {d} has no rated route from rank 0 to its neighbour (rank {math.prod(dims[:d])}); "
                        "offlineGreedy weighs each dimension by its bandwidth")
        out.append(rate)
    return out


# Chunks x group members the engine holds (about 100 B each): far beyond it its allocations abort
# the process (--chunks 99999999 on 8 NPUs asked for 77 GB) instead of giving an error.
MAX_CHUNK_MEMBERS = 1 << 26


def _check_chunks(opts: SimulationOptions, members: int) -> None:
    """chunks and active_chunks: whole numbers, at least 1; chunks x members within MAX_CHUNK_MEMBERS."""
    for name, value in (("chunks", opts.chunks), ("active_chunks", opts.active_chunks)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise error(f"{name} must be a whole number, at least 1, got {value!r}", name)
    if opts.chunks * members > MAX_CHUNK_MEMBERS:
        raise error(f"{opts.chunks:,} chunks on {members:,} group members are {opts.chunks * members:,} chunk parts, "
                    f"more than the engine holds ({MAX_CHUNK_MEMBERS:,}); expected at most "
                    f"{max(1, MAX_CHUNK_MEMBERS // members):,} chunks", "chunks")


_SEQUENCES = (list, tuple, np.ndarray)


def _check_member_starts(starts: Any, groups: list[list[int]]) -> None:
    """member_start_ns: empty, or per group a sequence of one finite start >= 0 ns per member;
    anything else (a number, text, a bool) is an error located at the field, not a TypeError."""
    if not isinstance(starts, _SEQUENCES):
        raise error(f"member_start_ns = {starts!r}: expected one sequence of starts (ns) per process group, "
                    "e.g. ((0, 0, 5.0, 0),), or ()", "member_start_ns")
    if len(starts) == 0:
        return
    if len(starts) != len(groups):
        raise error(f"member_start_ns gives starts for {len(starts)} process groups, but there are {len(groups)}; "
                    "give one tuple per group (ns per member), or none", "member_start_ns")
    for g, (s, gr) in enumerate(zip(starts, groups)):
        if not isinstance(s, _SEQUENCES):
            raise error(f"member_start_ns[{g}] = {s!r}: expected a sequence of one start (ns) per member",
                        f"member_start_ns[{g}]")
        if len(s) != len(gr):
            raise error(f"member_start_ns[{g}] has {len(s)} starts for a group of {len(gr)} members; "
                        "expected one start (ns) per member", f"member_start_ns[{g}]")
        for m, t in enumerate(s):
            if isinstance(t, (bool, np.bool_)) or not (isinstance(t, numbers.Real) and 0 <= t < math.inf):
                raise error(f"member_start_ns[{g}][{m}] = {t!r}: expected a finite time >= 0 ns",
                            f"member_start_ns[{g}][{m}]")


def _check_group_shape(opts: SimulationOptions, groups: list[list[int]]) -> None:
    """What the engine would refuse as 'invalid input' without saying where, located at the field:
    dims that do not multiply to the group, a root outside a group, a point-to-point group that is
    not a pair."""
    size, smallest = len(groups[0]), min(len(gr) for gr in groups)
    # (a point-to-point pair has no dimensions of its own: dims then describe the fabric, for dor)
    if opts.dims and math.prod(opts.dims) != size and opts.collective != "point-to-point":  # (): flat
        raise error(f"dims {'x'.join(map(str, opts.dims))} multiply to {math.prod(opts.dims)} but the group has "
                    f"{size} ranks", "dims")
    if isinstance(opts.root, bool) or not isinstance(opts.root, int) or not 0 <= opts.root < smallest:
        raise error(f"root member {opts.root!r} is outside the group of {smallest} (members are numbered "
                    f"0..{smallest - 1})", "root")
    if opts.collective == "point-to-point" and any(len(gr) != 2 for gr in groups):
        raise error(f"point-to-point needs groups of exactly 2 ranks (source, destination), got "
                    f"{next(len(gr) for gr in groups if len(gr) != 2)}",
                    "groups" if opts.groups else "collective",
                    hint="give the pair as a group (--group 0,5)")


def greedy_bandwidths(p: PreparedGraph, dims: Sequence[int]) -> list[float]:
    """`dim_bandwidths` as offlineGreedy weighs them: ASTRA-sim divides network.yml's bandwidths
    (GB/s, GB = 2^30 B), so they are taken as the ASTRA-sim translator writes them there (rounded
    to its DIGITS). The greedy compares loads that can tie to the last bit, and ratios of the
    graph's Gbit/s differ from those of the GB/s values there, which flips dimension orders."""
    from ..importers.astra_analytical import DIGITS  # here: the importer loads YAML, which simulate never needs

    out = []
    for gbps in dim_bandwidths(p, dims):
        gib = gbps_to_gib_per_s(gbps)
        out.append(round(gib, DIGITS) or gib)
    return out


def _check_choice(what: str, value: str, choices: Sequence[str]) -> None:
    if value not in choices:
        from ..errors import did_you_mean

        raise error(f"unknown {what} '{value}'; expected one of: {', '.join(choices)}",
                    hint=did_you_mean(value, choices))


def check_scheduling(opts: SimulationOptions) -> str:
    """The queue order the run uses (`scheduling`, or the model's default), after checking that the
    ASTRA-sim scheduling options other than FIFO / baseline get the arrival order they model; the
    error is located at the one of the two that is not its default (the CLI and the sweep name it
    as their user typed it). Needs no graph: the sweep checks every point with it before running."""
    scheduling = opts.scheduling or ("arrival" if opts.model.startswith("astra") else "fifo")
    greedy = _ENGINE_INTER[opts.inter_dimension_scheduling] != "ascending"
    if (greedy or opts.intra_dimension_scheduling != "FIFO") and scheduling != "arrival":
        raise error(f"intra-dimension scheduling {opts.intra_dimension_scheduling} / inter-dimension scheduling "
                    f"{opts.inter_dimension_scheduling} model ASTRA-sim's dimension queues, which need arrival "
                    f"scheduling (the default of the astra models); got {scheduling} scheduling with model "
                    f"{opts.model}", "inter_dimension_scheduling" if greedy else "intra_dimension_scheduling",
                    hint="use the astra or astra-aware model, or arrival scheduling")
    return scheduling


def simulate(g: FQG | PreparedGraph, opts: SimulationOptions = SimulationOptions(), *,
             progress: Callable[[dict[str, float]], None] | None = None,
             keep_partial: bool = False, progress_interval_s: float = 0.2) -> dict[str, Any]:
    """Run one collective on `g` and return the result dict (see the result schema).

    `progress` is called about every `progress_interval_s` of wall time with `sim_time_ns`, `events`, `wall_s` and
    `fraction` (estimated share of the algorithm steps done). Ctrl-C during the run raises
    KeyboardInterrupt, or with `keep_partial` returns the result so far with a `partial` entry
    (stopped-at time; the collective time is then a lower bound)."""
    p = g if isinstance(g, PreparedGraph) else prepare(g)
    kwargs, opts, plan, planes, policy, used, algorithm, groups = engine_call(p, opts)
    try:
        raw = _result_columns(simulate_arrays()(**kwargs, progress=progress, progress_interval_s=progress_interval_s))
    except engine_error_type() as exc:
        raise engine_error(p.g, exc) from None
    except (TypeError, OverflowError) as exc:  # a negative count or a non-number option
        raise error(f"bad simulation option: {exc}") from None
    if raw["interrupted"] and not keep_partial:
        raise KeyboardInterrupt
    requested = opts
    if planes is not None:
        raw["link_bytes"], raw["link_busy_ns"] = spread_bundles(planes, raw["link_bytes"], raw["link_busy_ns"])
    if plan is not None:
        _apply_nccl(raw, plan, opts, len(groups[0]))
        opts = replace(opts, chunks=plan.chunks, active_chunks=plan.active_chunks,
                       endpoint_delay_ns=opts.endpoint_delay_ns if plan.engine_latency else 0.0,
                       optimization="localBWAware", local_mem_bw_gb_per_s=None)
    out = _result(p, replace(opts, algorithm=algorithm), groups, used, raw)
    out["algorithm_requested"] = list(opts.algorithm)
    if opts.schedules:
        out["schedules"] = [None if sc is None else {
            "name": sc.name, "collective": sc.collective, "ranks": sc.ranks, "chunks_per_rank": sc.chunks_per_rank,
            "steps": sc.step_count, "transfers": sc.transfers, "dependencies": sc.dependencies}
            for sc in opts.schedules]
    if opts.model.startswith("astra") and any(sc is not None and sc.paths for sc in opts.schedules):
        out["warnings"].append({"code": "paths-not-followed", "message": (
            "the schedule names paths; the astra models route as ASTRA-sim does (its ETs carry no path), so "
            "the engine routed every transfer (docs/collectives.md, \"Paths\")")})
    out["routing_policy"] = describe_policy(policy)
    out["routing_collisions"] = _collisions(p, policy, raw["link_routes"])
    if plan is not None:
        c = plan.choice
        out["nccl"] = {
            "algorithm": c.algorithm if c else "send/recv",
            "protocol": c.protocol if c else "Simple",
            "channels": c.channels if c else None,
            "predicted_time_ns": c.predicted_us * 1000.0 if c else None,
            "latency_ns": plan.latency_ns,
            "candidates": [{"algorithm": a, "protocol": pr, "predicted_time_ns": t * 1000.0}
                           for a, pr, t in (c.candidates if c else ())],
            "engine_collective": plan.collective,
            "notes": list(plan.notes) + _nccl_overrides(requested, plan.engine_latency),
        }
        # What NCCL mode knowingly gets wrong or leaves out is said with every result (also
        # without checks: a workload replay's runs report it as cautions, workload/timing.py).
        out["nccl"]["cautions"] = [message for _, message in plan.cautions]
        out["warnings"].extend({"code": code, "message": message} for code, message in plan.cautions)
        if c is not None and c.algorithm == "nvls" and opts.collective == "all-reduce":
            # in-switch reduction: above the NVLink bandwidth by design (NVLS reduce-scatter and
            # all-gather move more on the busier direction than the ring does, never above it)
            out["warnings"] = [w for w in out["warnings"] if w["code"] != "over-injection"]
            out["warnings"].append({"code": "in-switch-reduction", "message": (
                "NVLS: the NVSwitch reduces, so each GPU moves its buffer (and 1/n of it more) once each way and the "
                "bus bandwidth can exceed the GPU's NVLink bandwidth")})
    return out


class EngineCall(NamedTuple):
    """What `engine_call` decided for one run: the engine's keyword arguments and what the result
    needs to be read back (the options as resolved, NCCL's plan, merged NVSwitch planes, the
    routing policy, the dimensions used, the algorithm per dimension, the process groups)."""

    kwargs: dict[str, Any]
    opts: SimulationOptions
    plan: Any
    planes: Any
    policy: dict[str, str]
    used: Any
    algorithm: tuple[str, ...]
    groups: list[list[int]]


def engine_call(p: PreparedGraph, opts: SimulationOptions) -> EngineCall:
    """Check `opts` against the prepared graph and decide the engine's inputs for one run (shared
    by `simulate` and the workload replay's shared network, infragraph/workload/timing.py)."""
    if isinstance(opts.algorithm, str):  # a single name given where a tuple is expected
        opts = replace(opts, algorithm=(opts.algorithm,))
    _check_choice("collective", opts.collective, COLLECTIVES)
    for i, a in enumerate(opts.algorithm):
        if a == "schedule":
            if i >= len(opts.schedules) or opts.schedules[i] is None:
                raise error(f"algorithm entry {i + 1} is 'schedule' but no schedule is given for it",
                            hint="on the command line: --algorithm schedule:FILE")
            continue
        _check_choice("algorithm", a, ALGORITHMS + SELECTORS)
    if opts.schedules and len(opts.schedules) != len(opts.algorithm):
        raise error(f"{len(opts.schedules)} schedules for {len(opts.algorithm)} algorithm entries; give one "
                    "(or None) per entry")
    if len(opts.algorithm) > 1 and {"nccl", "default"} & set(opts.algorithm):
        raise error("'nccl' and 'default' choose the algorithm for the whole collective; give them alone, "
                    "not one per dimension")
    _check_choice("network model", opts.model, MODELS)
    if opts.routing is not None:
        _check_choice("routing", opts.routing, ROUTINGS)
    if opts.scheduling is not None:
        _check_choice("scheduling", opts.scheduling, SCHEDULINGS)
    _check_choice("intra-dimension scheduling", opts.intra_dimension_scheduling, INTRA_DIMENSION_SCHEDULINGS)
    _check_choice("inter-dimension scheduling", opts.inter_dimension_scheduling, INTER_DIMENSION_SCHEDULINGS)
    scheduling = check_scheduling(opts)
    greedy = _ENGINE_INTER[opts.inter_dimension_scheduling] != "ascending"
    _check_choice("link filter", opts.links, LINK_FILTERS)
    n_npus = int(p.npu_nodes.size)
    groups = [list(gr) for gr in opts.groups] if opts.groups else [list(range(n_npus))]
    for gr in groups:
        bad = [r for r in gr if not 0 <= r < n_npus]
        if bad:
            raise error(f"process group names rank {bad[0]}, but the graph has ranks 0..{n_npus - 1}")
    _check_member_starts(opts.member_start_ns, groups)
    _check_chunks(opts, sum(len(gr) for gr in groups))
    _check_group_shape(opts, groups)
    flat_schedule = opts.algorithm == ("schedule",) and opts.dims is None
    used = resolve(None if flat_schedule else p.g.graph_annotations.get("dims"), opts.dims, len(groups[0]))
    dims = used.sizes
    if len(opts.algorithm) > 1 and not dims:
        raise error(f"{len(opts.algorithm)} algorithms given but no logical dimensions; give --dims "
                    "(one size per algorithm) or a graph with a 'dims' annotation matching the group", "algorithm")
    if len(opts.algorithm) > 1 and len(opts.algorithm) != len(dims):
        stated = "the graph's dims annotation" if used.source == "graph" else "dims"
        raise error(f"{len(opts.algorithm)} algorithms for {len(dims)} dimensions ({'x'.join(map(str, dims))}: "
                    f"{stated}); give one, or one per dimension", "algorithm")
    _check_schedule_fits(opts, dims, len(groups[0]))
    where = p.servers_of(groups[0])
    # NCCL mode lays the group out itself (GPUs per server, then servers): explicit dims say otherwise.
    algorithm = algorithms(opts.algorithm, used, len(groups[0]), opts.collective, model=opts.model,
                           in_servers=where is not None and opts.dims is None)
    plan = None
    if algorithm == ("nccl",):
        if opts.dims is not None:
            raise error("the nccl algorithm lays the group out as NCCL does (GPUs per server, then servers); "
                        "drop --dims, or name per-dimension algorithms")
        if where is None:
            raise error("the nccl algorithm needs GPUs in servers (hosts with NICs); this graph's NPUs are not "
                        "inside such hosts", hint="use ring, direct, halving-doubling or double-binary-tree")
        plan = engine_plan(p.g, np.asarray(p.arrays["edge_bandwidth_gbps"]), p.npu_nodes, groups[0],
                           opts.collective, float(opts.size_bytes), where)
        algorithm = plan.algorithms
        if plan.dims != used.sizes:  # NCCL's layout, unless the graph states the same one
            used = Dims(plan.dims, (None,) * len(plan.dims), "nccl",
                        "NCCL mode: GPUs per server, then servers" if len(plan.dims) > 1 else "NCCL mode: flat")
        dims = plan.dims
    direct_dims = _astra_direct_dims(p, dims)
    auto_routing = opts.routing is None
    if opts.routing is None:
        routing = "dor" if opts.model.startswith("astra") and direct_dims is not None else "hops"
        opts = replace(opts, routing=routing)
    if opts.routing == "dor" and not dims:
        raise error("dimension-order routing needs logical dimensions (--dims)", "routing")
    if opts.routing == "dor" and math.prod(dims) != n_npus:
        raise error(f"dimension-order routing needs dims covering all {n_npus} NPUs; {dims} cover {math.prod(dims)}",
                    "routing")
    # ASTRA-sim's congestion-unaware network times every message on the first dimension where its
    # ends differ (MultiDimTopology::send); a group smaller than the system (its own logical ring)
    # may have members that differ in several, so its messages route that way over the stated stack.
    sub_group_dor = (_astra_stack_dims(p) if opts.model == "astra" and auto_routing
                     and direct_dims is None and len(groups[0]) < n_npus and len(groups) == 1 else None)
    type_names = list(p.g.type_names)
    no_transit = [type_names.index(t) for t in opts.no_transit_types if t in type_names]
    # NCCL mode: NCCL's transfers cross the NVSwitch, the PCIe bridges, the NIC and the fabric's
    # switches in packets, so a message pipelines through them; only GPUs store and forward it
    # (PXN's relay). Under `aware` each of them storing whole messages made a ring across servers
    # pay its serialization at every hop (a 1 GiB all-reduce on 64 DGX H100: 32.6 ms against the
    # 5.4 ms of its links' bounds, which `fair` gives). The other models do not look at this.
    pipelined = opts.cut_through_types + (NCCL_PIPELINED if plan is not None else ())
    cut_through = [type_names.index(t) for t in dict.fromkeys(pipelined) if t in type_names]
    model = {"astra": "unaware", "astra-aware": "aware"}.get(opts.model, opts.model)
    astra = opts.model.startswith("astra")
    routes, policy = _routing(p, opts) if not astra else ({}, {t: "ecmp" for t in TIERS})  # astra: ASTRA-sim's routes
    kwargs = dict(
        p.arrays,
        collective=opts.collective,
        size_bytes=float(opts.size_bytes),
        groups=groups,
        algorithms=list(algorithm),
        dims=list(dims),
        root=opts.root,
        chunks=opts.chunks,
        active_chunks=opts.active_chunks,
        endpoint_delay_ns=float(opts.endpoint_delay_ns),
        local_mem_bw_gb_per_s=opts.local_mem_bw_gb_per_s,
        optimization=opts.optimization,
        scheduling=scheduling,
        intra_dimension_scheduling=opts.intra_dimension_scheduling,
        inter_dimension_scheduling=_ENGINE_INTER[opts.inter_dimension_scheduling],
        dim_bandwidth=greedy_bandwidths(p, dims) if greedy else [],
        model=model,
        astra=astra,
        routing="hops" if opts.routing == "dor" else opts.routing,
        ecmp=opts.ecmp,
        dor_dims=list(dims) if opts.routing == "dor" else sub_group_dor[0] if sub_group_dor else None,
        dor_direct_dims=direct_dims or (sub_group_dor[1] if sub_group_dor else []),
        dor_first_dim_only=sub_group_dor is not None,
        trace=opts.trace,
        no_transit_kinds=no_transit,
        cut_through_kinds=cut_through,
        symmetry=opts.symmetry,
        schedules=_schedule_arrays(p, opts, dims, groups),
        starts=[[float(t) for t in s] for s in opts.member_start_ns],
        local_ring=astra and opts.astra_communicator_group,
        **routes,
    )
    if plan is not None:
        kwargs.update(collective=plan.collective, size_bytes=plan.size_bytes, chunks=plan.chunks,
                      active_chunks=plan.active_chunks, edge_bandwidth_gbps=plan.bandwidth_gbps,
                      optimization="localBWAware", local_mem_bw_gb_per_s=None)
        if plan.rail_chains:
            kwargs["rail_chains"] = True
        if not plan.engine_latency:  # NCCL's latency of the call stands for the links' and endpoints'
            kwargs.update(endpoint_delay_ns=0.0, edge_latency_ns=np.zeros(len(p.arrays["edge_latency_ns"])))
    planes = None
    bandwidth = kwargs["edge_bandwidth_gbps"]
    named_paths = any(a[10] for entry in kwargs["schedules"] for a in entry)
    if len(routes.get("edge_policy", ())) and policy["scale-up"] == "spray" and _alike(bandwidth, p.scale_up) and not named_paths:
        # Spraying over a server's NVSwitch chips and parallel NVLinks, with every lane alike, loads
        # each lane equally: the same as one link of their summed bandwidth per GPU (and far fewer
        # flows than one part per chip and lane). Parts remain where lanes differ.
        planes = nvswitch_planes(p.g, np.asarray(bandwidth, dtype=np.float64))
        if planes is not None:
            kwargs.update(edge_src=planes.edge_src, edge_dst=planes.edge_dst, edge_bandwidth_gbps=planes.bandwidth_gbps)
    if opts.max_events is not None:
        kwargs["max_events"] = int(opts.max_events)
    return EngineCall(_engine_columns(kwargs), opts, plan, planes, policy, used, tuple(algorithm), groups)


def _check_schedule_fits(opts: SimulationOptions, dims: Sequence[int], group_size: int) -> None:
    """A schedule is written for one collective over a fixed number of ranks: the group (flat) or
    each dimension it runs in must have that many members, and the collective must be the schedule's
    or a half it splits into. Checked here, naming the schedule, so that a mismatch is not the
    engine's 'unsupported: ... no schedule given for this dimension' at no location."""
    if not opts.schedules:
        return
    sizes = list(dims) or [group_size]
    for d, size in enumerate(sizes):
        entry = d if len(opts.algorithm) > 1 else 0
        sc = opts.schedules[entry] if entry < len(opts.schedules) else None
        if opts.algorithm[entry] != "schedule" or sc is None or size < 2:
            continue
        where = (f"dimension {d + 1} ({'x'.join(map(str, sizes))}) has {size}" if len(sizes) > 1
                 else f"the group has {size}")
        if sc.ranks != size:
            raise error(f"the schedule '{sc.name}' implements {sc.collective} over {sc.ranks} ranks, but {where} "
                        "members", "algorithm", hint=f"give a schedule for {size} ranks, or run it on a group of "
                                                    f"{sc.ranks} (--group, or --dims with a dimension of {sc.ranks})")
        if opts.collective != sc.collective and sc.engine_arrays(opts.collective) is None:
            raise error(f"the schedule '{sc.name}' implements {sc.collective}, not {opts.collective} (nor splits "
                        f"into it)", "algorithm", hint=f"give a schedule of {opts.collective}")


def _schedule_arrays(p: PreparedGraph, opts: SimulationOptions, dims: Sequence[int],
                     groups: list[list[int]]) -> list[list[tuple]]:
    """Per algorithm entry, the engine arrays of its schedule for each collective its phases may
    run: the schedule's own, and for a multi-dimensional all-reduce under localBWAware also its
    reduce-scatter and all-gather halves when it splits into them (the engine says which it lacks).
    Paths its transfers name are resolved on the graph over the (one) group's NPUs
    (schedule_paths); the engine refuses them where the schedule runs per dimension or per group.
    Not under the astra models, which route as ASTRA-sim does (ASTRA-sim takes no path per message)."""
    phases = [opts.collective]
    if opts.collective == "all-reduce" and opts.optimization == "localBWAware" and sum(d > 1 for d in dims) > 1:
        phases += ["reduce-scatter", "all-gather"]
    out: list[list[tuple]] = []
    for sc in opts.schedules:
        arrays = [] if sc is None else [sc.engine_arrays(c) for c in dict.fromkeys([sc.collective, *phases])]
        resolved = []
        for a in arrays:
            if a is None:
                continue
            if a[10] is not None and not opts.model.startswith("astra"):
                ends = [np.frombuffer(a[k], dtype=f"<u{a[7]}") for k in (4, 5)]  # src, dst: views, no copy
                way, routes = resolve_paths(p.g, p.npu_nodes, groups[0], a[10], *ends, a[11], sc.name)
                a = (*a[:10], way.astype("<u4").tobytes(), routes)
            else:
                a = (*a[:10], b"", [])
            resolved.append(a)
        out.append(resolved)
    return out


def _nccl_overrides(opts: SimulationOptions, endpoint_delay_used: bool = False) -> list[str]:
    """NCCL mode sets chunking, delays and reductions itself: say which options it did not use (a
    send uses the endpoint delay: `EnginePlan.engine_latency`)."""
    d = SimulationOptions()
    fields = (("--chunks", "chunks"), ("--active-chunks", "active_chunks"), ("--endpoint-delay", "endpoint_delay_ns"),
              ("--local-mem-bw", "local_mem_bw_gb_per_s"), ("--optimization", "optimization"))
    unused = [name for name, field_ in fields
              if not (endpoint_delay_used and field_ == "endpoint_delay_ns")
              and getattr(opts, field_) not in (getattr(d, field_), None if field_ == "local_mem_bw_gb_per_s" else 0)]
    return [f"NCCL mode sets these itself and did not use {', '.join(unused)}"] if unused else []


def _apply_nccl(raw: dict[str, Any], plan, opts: SimulationOptions, n: int) -> None:
    """NCCL mode: add NCCL's modelled latency of the call to every finish time, and state the
    bandwidths of the collective asked for (the engine may have run its link-load equivalent: NVLS)."""
    base = plan.latency_ns
    raw["rank_finish_ns"] = raw["rank_finish_ns"] + base  # NaN (never finished) stays NaN
    raw["collective_time_ns"] = float(raw["collective_time_ns"]) + base
    t = raw["collective_time_ns"]
    data = float(opts.size_bytes) * (n if opts.collective == "all-gather" else 1)
    raw["algorithm_bandwidth_gb_per_s"] = data / t if t > 0 else 0.0
    raw["bus_bandwidth_gb_per_s"] = raw["algorithm_bandwidth_gb_per_s"] * bus_factor(opts.collective, n)
    raw["chunk_bytes"] = float(opts.size_bytes) / raw["chunks"]


def _routing(p: PreparedGraph, opts: SimulationOptions) -> tuple[dict[str, Any], dict[str, str]]:
    """The engine's routing arrays (nodes that do not forward, NIC affinity, policy per edge) and
    the policy per tier, for our own models (simulate.affinity, simulate.policy)."""
    if p.scale_up is None:
        p.scale_up = scale_up_edges(p.g)
    a = p.built_affinity()
    bind = opts.nic_affinity and opts.routing != "dor"
    none = np.zeros(0, dtype=np.int64)
    routes: dict[str, Any] = dict(
        no_transit_nodes=np.concatenate([none if opts.gpu_transit else a.quiet_gpus, a.bound_nics if bind else none]),
        npu_nic=a.nic if bind else none,
        npu_server=a.server if bind else none,
    )
    if opts.routing_policy is not None:
        policy = parse_policy(opts.routing_policy, "routing policy (--routing-policy)")
    else:
        policy = parse_policy(str(p.g.graph_annotations.get("routing_policy", "")), "graph annotation 'routing_policy'")
    routes["edge_policy"] = edge_policies(p.scale_up, policy)
    pxn = opts.collective == "all-to-all" and bool(p.scale_up.any()) if opts.pxn is None else opts.pxn
    routes["pxn"] = bool(bind and pxn)
    return routes, policy


def _alike(bandwidth_gbps: np.ndarray, scale_up: np.ndarray) -> bool:
    """Every scale-up lane has the same bandwidth (spraying then loads them all equally)."""
    bw = np.asarray(bandwidth_gbps, dtype=np.float64)[scale_up]
    return bool(bw.size) and bool(np.all(bw == bw[0]))


def _collisions(p: PreparedGraph, policy: dict[str, str], link_routes: np.ndarray) -> dict[str, int]:
    """Over the directed links whose tier pins each connection to one way picked without regard to
    load (ecmp's hash, d-mod-k's destination digits): how many carried traffic, how many carried 2
    or more connections (collisions), and the most connections on one."""
    if p.scale_up is None:
        p.scale_up = scale_up_edges(p.g)
    static = ("ecmp", "d-mod-k")
    hashed = np.repeat(np.where(p.scale_up, policy["scale-up"] in static, policy["scale-out"] in static), 2)
    routes = np.asarray(link_routes, dtype=np.int64)[hashed]
    return {"links_used": int(np.count_nonzero(routes)), "links_with_2_or_more": int(np.count_nonzero(routes >= 2)),
            "max_per_link": int(routes.max()) if routes.size else 0}


def _result(p: PreparedGraph, opts: SimulationOptions, groups: list[list[int]], dims: Dims,
            raw: dict[str, Any]) -> dict[str, Any]:
    g = p.g
    t = float(raw["collective_time_ns"])
    link_bytes = np.asarray(raw["link_bytes"], dtype=np.float64)
    busy = np.asarray(raw["link_busy_ns"], dtype=np.float64)
    util = busy / t if t > 0 else np.zeros_like(busy)
    if p.tiers is None:
        p.tiers = link_tiers(g)
    listed = (link_bytes > 0) & np.repeat(p.tiers.is_cable, 2) if opts.links == "cables" else link_bytes > 0
    used = np.flatnonzero(listed)
    # most utilized first; on a tie a cable before the device-internal hop (NIC/switch port) feeding it
    busiest = used[np.lexsort((~np.repeat(p.tiers.is_cable, 2)[used], -util[used]))]
    if opts.top_links is not None:
        busiest = busiest[:opts.top_links]
    ends = np.stack([g.edge_src[busiest // 2], g.edge_dst[busiest // 2]])
    ends[:, busiest % 2 == 1] = ends[::-1, busiest % 2 == 1]  # directed link 2e + 1 runs dst -> src
    src_names, dst_names = g.names_of(ends[0]), g.names_of(ends[1])
    links = []
    for i, l in enumerate(busiest.tolist()):
        e = l // 2
        links.append({
            "edge": e,
            "src": src_names[i],
            "dst": dst_names[i],
            "link": g.links[int(g.edge_link[e])].name,
            "bytes": float(link_bytes[l]),
            "utilization": float(util[l]),
            "tier": p.tiers.names[int(p.tiers.edge_tier[e])],
        })
    finished = ~np.isnan(raw["rank_finish_ns"])
    finish = raw["rank_finish_ns"].tolist()
    npus = p.npu_nodes.tolist()
    npu_names = g.names_of(p.npu_nodes)
    sent, received = raw["bytes_sent_per_rank"].tolist(), raw["bytes_received_per_rank"].tolist()
    out: dict[str, Any] = {
        "graph": g.name,
        "collective": opts.collective,
        "algorithm": list(opts.algorithm),
        "model": opts.model,
        "routing": opts.routing,
        "size_bytes": float(opts.size_bytes),
        "num_npus": len(npus),
        "groups": groups,
        "dims": list(dims.sizes),
        "dim_kinds": list(dims.kinds),
        "dims_source": dims.source,
        "dims_note": dims.note,
        "chunks": int(raw["chunks"]),
        "chunk_bytes": float(raw["chunk_bytes"]),
        "active_chunks": opts.active_chunks,
        "endpoint_delay_ns": float(opts.endpoint_delay_ns),
        "local_mem_bw_gb_per_s": opts.local_mem_bw_gb_per_s,
        "optimization": opts.optimization,
        "collective_time_ns": t,
        "algorithm_bandwidth_gb_per_s": float(raw["algorithm_bandwidth_gb_per_s"]),
        "bus_bandwidth_gb_per_s": float(raw["bus_bandwidth_gb_per_s"]),
        "ranks": [
            {"rank": r, "node": npu_names[r], "finish_ns": finish[r],
             "bytes_sent": float(sent[r]), "bytes_received": float(received[r])}
            for r in np.flatnonzero(finished).tolist()
        ],
        "flows": {
            "count": int(raw["messages"]),
            "delivered": int(raw["delivered"]),
            "fct_min_ns": float(raw["fct_min_ns"]),
            "fct_avg_ns": float(raw["fct_avg_ns"]),
            "fct_max_ns": float(raw["fct_max_ns"]),
            "bytes": float(sum(sent)),
        },
        "links": links,
        "links_used": int(np.count_nonzero(link_bytes > 0)),
        "links_listed": opts.links,
        "link_bytes_total": float(link_bytes.sum()),
        "max_link_utilization": float(util.max()) if util.size else 0.0,
        "unspecified_bandwidth_edges": p.unspecified_bandwidth_edges,
        "events": int(raw["events"]),
        "symmetry": _symmetry(raw["symmetry"]),
        "wall_time_s": float(raw["wall_time_s"]),
        "events_per_second": float(raw["events"] / raw["wall_time_s"]) if raw["wall_time_s"] > 0 else 0.0,
    }
    if raw["stopped_at_ns"] is not None:
        out["partial"] = {"stopped_at_ns": float(raw["stopped_at_ns"]), "reason": "interrupted",
                          "ranks_finished": len(out["ranks"]), "ranks": len(set().union(*groups))}
    out["tiers"] = tier_summary(p.tiers, link_bytes, util)
    out["bottleneck_tier"] = bottleneck_tier(out["tiers"])
    # A partial run's time is only a lower bound: its bandwidth and utilization checks would cry wolf.
    out["warnings"] = []
    if opts.warnings and "partial" not in out:
        key = (opts.collective, tuple(groups[0]), opts.root)
        if key not in p.injection:
            p.injection[key] = injection_bound_gbps(g, p.npu_nodes, opts.collective, groups, opts.root)
        inj = p.injection[key]
        out["warnings"] = warnings(out, util, lambda l: _directed_name(g, l), inj, npu_names[inj[1]])
    if opts.trace:
        out["trace"] = [
            {"src_rank": sr, "dst_rank": dr, "bytes": b, "start_ns": s, "end_ns": e}
            for (_sn, _dn, sr, dr, b, s, e) in raw["trace"]
        ]
    return out


def _symmetry(s: dict[str, Any]) -> dict[str, Any]:
    """Which path the engine took: `symmetric` (members_simulated representatives stood for all
    members) or `full`, with the reason a full run could not be folded."""
    folded = s["simulated"] < s["members"]
    reason = None if folded else (s["reason"] if s["tried"] else "turned off with --no-symmetry")
    out = {"path": "symmetric" if folded else "full", "members_simulated": int(s["simulated"]),
           "members": int(s["members"]), "reason": reason}
    if folded and s.get("proof"):
        out["proof"] = s["proof"]  # a fold over link orbits: proved from the structure or the routes
    return out


def _directed(g: FQG, l: int) -> tuple[int, int]:
    """(from, to) node ids of directed link l: 2e runs edge e src -> dst, 2e + 1 back."""
    a, b = int(g.edge_src[l // 2]), int(g.edge_dst[l // 2])
    return (b, a) if l % 2 else (a, b)


def _directed_name(g: FQG, l: int) -> str:
    a, b = _directed(g, l)
    return f"{g.node_name(a)} -> {g.node_name(b)}"


def sweep(g: FQG, sizes: Sequence[float], opts: SimulationOptions = SimulationOptions()) -> list[dict[str, Any]]:
    """One result per message size, sharing the graph conversion."""
    p = prepare(g)
    return [simulate(p, replace(opts, size_bytes=float(s))) for s in sizes]


def chrome_trace(result: dict[str, Any]) -> dict[str, Any]:
    """The result's flows as a Chrome/Perfetto trace: one track per sending rank, one async slice
    per message (async, because messages from one rank overlap). Times in µs, as the format wants."""
    if "trace" not in result:
        raise error("the result has no flow trace; simulate with trace=True (--trace OUT)")
    events: list[dict[str, Any]] = []
    for r in sorted({f["src_rank"] for f in result["trace"]}):
        events.append({"name": "process_name", "ph": "M", "pid": r, "args": {"name": f"rank {r}"}})
    for i, f in enumerate(result["trace"]):
        common = {"cat": "flow", "id": i, "pid": f["src_rank"], "tid": f["src_rank"],
                  "name": f"→ rank {f['dst_rank']} ({int(f['bytes'])} B)"}
        events.append({**common, "ph": "b", "ts": f["start_ns"] / 1e3,
                       "args": {"bytes": f["bytes"], "dst_rank": f["dst_rank"]}})
        events.append({**common, "ph": "e", "ts": f["end_ns"] / 1e3})
    return {"traceEvents": events, "displayTimeUnit": "ns",
            "otherData": {"collective": result["collective"], "model": result["model"]}}
