"""How long a workload's collectives and messages take: the one place the replay asks.

The replay's event loop (the engine's, simengine/src/workload_replay.rs, set up by replay.py)
decides *when* each NPU issues a collective or a send; this module decides *how long* it takes
once issued, and keeps what the report needs from those answers (one record per collective and
per message, and the bytes every link tier carried). Alone (`--model astra`) the engine keeps a
cache of the runs answered here by shape (simengine/src/workload_timing.rs) and asks once per
distinct run; it times every collective and message from that cache and returns the records as
columns (`record_collectives`, `record_messages`).

- A collective: `CollectiveTimer.collective_run` answers every member's finish as an offset from
  the first issue, given every member's start offset. Each member starts its part at its own
  issue, as ASTRA-sim does (Workload::issue_comm -> Sys::generate_collective starts the member's
  streams at once; a message that reaches a member before it issued waits in the analytical
  network's callback tracker until the member posts the receive, CommonNetworkApi::sim_recv). The
  collective engine (every model, algorithm and dimension option of `infragraph simulate`) runs
  the group alone with each member's start offset (`SimulationOptions.member_start_ns`); the
  member's finish is its first issue plus its offset.
- A message: `CollectiveTimer.message_run` answers its time from send to arrival.
  Under the astra models it is ASTRA-sim's send (no endpoint delay; the congestion-unaware one on
  the first dimension where the NPUs differ, `astra_send_ns`); under the other models the
  collective engine's point-to-point time on the fabric.

Engine runs are cached by (type, group, size, root, start offsets): a training step repeats a
few shapes many times, and symmetric members issue together (offsets all 0). On an intact
std.fabrics.stack (`symmetric_dims`) groups that are images of each other under the fabric's
symmetries share one run (`canonical_group`, each member's start going with its image): a
1,024-NPU step's 192 TP and DP groups and 2,048 pipeline pairs need a handful of runs instead of
thousands. Collectives and messages timed here do not share links: each is timed alone on the
fabric, which is exact for `--model astra` (ASTRA-sim's congestion-unaware backend has no
contention). The contention-aware models replay on one shared network instead (shared.py), which
plans each collective with `collective_options` as here.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import replace
from typing import Any, Sequence

from ..simulate.run import PreparedGraph, SimulationOptions, simulate
from ..units import gbps_to_gib_per_s


# ASTRA-sim (518bd51) builds a sub-group's ring as a RingTopology of dimension Local
# (CommunicatorGroup::get_collective_plan), and its Ring, AllToAll (direct) and HalvingDoubling
# algorithms move such a ring's packets with MemBus's Fast transmission: a fixed 10 ns
# (MemBus::send_from_NPU_to_MA / send_from_MA_to_NPU) where the whole system's rings take the
# configured endpoint-delay. (The Local ring also changes the direct all-reduce's packet counts:
# SimulationOptions.astra_communicator_group.)
SUB_GROUP_ENDPOINT_DELAY_NS = 10.0


class CollectiveTimer:
    """Times collectives and messages on the prepared fabric `p` for a workload of `num_npus` ranks,
    with the collective options `sim`; owns the engine cache, the records and the tier bytes."""

    def __init__(self, p: PreparedGraph, num_npus: int, sim: SimulationOptions) -> None:
        self.p, self.num_npus, self.sim = p, num_npus, sim
        self.engine_cache: dict[tuple, dict[str, Any]] = {}
        self.tier_bytes: dict[str, float] = defaultdict(float)
        self.collectives: list[dict[str, Any]] = []
        self.messages: list[dict[str, Any]] = []
        # the dimensions' bandwidths (a walk over the fabric) only where a send needs them
        self._stack_dims = stack_dims(p, num_npus) if sim.model == "astra" else None
        self._symmetric = symmetric_dims(p, stack_shape(p, num_npus))
        self.tier_names: dict[str, int] = {}  # tier -> its index in `tier_vector`
        self._messages: dict[tuple, tuple[float, list[float]]] = {}  # (image, size) -> (engine ns, tier bytes)
        self._images: dict[tuple[int, ...], tuple[int, ...] | None] = {}
        # What NCCL mode knowingly gets wrong or leaves out for some collective of the step (its
        # plan's cautions, simulate.nccl.EnginePlan), once each: the report's cautions.
        self.cautions: dict[str, str] = {}

    def image(self, members: tuple[int, ...]) -> tuple[int, ...]:
        """The group whose run answers for `members` (member i for member i): its canonical image
        under the stack's symmetries, or the group itself."""
        if members not in self._images:  # a step repeats its groups: map each once
            self._images[members] = canonical_group(self._symmetric, members) if self._symmetric else None
        return self._images[members] or members

    def collective_run(self, collective: str, members: tuple[int, ...], size: int, root: int = 0,
                       starts: Sequence[float] = ()) -> tuple[list[float], float, float, list[float]]:
        """`root` is a member index (SimulationOptions.root). The collective on `members`, member i
        starting `starts[i]` ns after the first issue (empty: all together): (every member's finish,
        in `members` order, and the last finish, both in ns after the first issue; the bus bandwidth;
        the bytes per link tier, `tier_vector`). Runs on the group's image, cached."""
        canon = self.image(members)
        r = self._run(collective, canon, size, root, tuple(starts))
        offset = {x["rank"]: x["finish_ns"] for x in r["ranks"]}
        return [offset[m] for m in canon], max(offset.values()), r["bus_bandwidth_gb_per_s"], self.tier_vector(r)

    def message_run(self, src: int, dst: int, size: int) -> tuple[float, list[float]]:
        """A `size`-byte message from `src` to `dst`: (ns from its send to its arrival, bytes per tier)."""
        key = (self.image((src, dst)), size)
        if key not in self._messages:  # the pairs of a step share a few runs: read each run once
            r = self._run("point-to-point", key[0], size)
            self._messages[key] = (max(x["finish_ns"] for x in r["ranks"]), self.tier_vector(r))
        engine_ns, tiers = self._messages[key]
        return float(self._message_ns(src, dst, size, engine_ns)), tiers

    def tier_vector(self, r: dict[str, Any]) -> list[float]:
        """An engine result's bytes per link tier, by the tier's index in `tier_names` (added as seen)."""
        out = [0.0] * len(self.tier_names)
        for tier in r["tiers"]:
            i = self.tier_names.setdefault(tier["tier"], len(self.tier_names))
            out.extend([0.0] * (i + 1 - len(out)))
            out[i] = tier["bytes"]
        return out

    def record_collectives(self, group: Sequence[int], ranks: Sequence[int], collective: Sequence[str],
                           size: Sequence[int], name: Sequence[str], start: Sequence[float], end: Sequence[float],
                           last_issue: Sequence[float], busbw: Sequence[float]) -> None:
        """Collectives of the report, one per index (timed alone in the engine or on the shared
        network, shared.py)."""
        self.collectives.extend(
            {"group": g, "ranks": n, "collective": c, "size_bytes": b, "name": s, "start_ns": t0, "end_ns": t1,
             "time_ns": t1 - t0, "last_issue_ns": li, "bus_bandwidth_gb_per_s": bw}
            for g, n, c, b, s, t0, t1, li, bw in zip(group, ranks, collective, size, name, start, end, last_issue, busbw))

    def record_collective(self, group: int, ranks: int, collective: str, size: int, name: str, start: float,
                          end: float, last_issue: float, busbw: float) -> None:
        """One collective of the report (`record_collectives`)."""
        self.record_collectives([group], [ranks], [collective], [size], [name], [start], [end], [last_issue], [busbw])

    def record_messages(self, src: Sequence[int], dst: Sequence[int], tag: Sequence[int], size: Sequence[int],
                        start: Sequence[float], end: Sequence[float]) -> None:
        """Point-to-point messages of the report, one per index."""
        self.messages.extend({"src": a, "dst": b, "tag": t, "size_bytes": n, "start_ns": t0, "end_ns": t1}
                             for a, b, t, n, t0, t1 in zip(src, dst, tag, size, start, end))

    def record_message(self, src: int, dst: int, tag: int, size: int, start: float, end: float) -> None:
        """One point-to-point message of the report (`record_messages`)."""
        self.record_messages([src], [dst], [tag], [size], [start], [end])

    @property
    def engine_runs(self) -> int:
        return len(self.engine_cache)

    def tiers(self, step_ns: float) -> list[dict[str, Any]]:
        """Per link tier, the bytes every timed collective and message carried, and the mean load."""
        return link_load(self.p, self.tier_bytes, step_ns)

    def _run(self, collective: str, members: tuple[int, ...], size: int, root: int = 0,
             starts: tuple[float, ...] = ()) -> dict[str, Any]:
        """The engine's result for the group `members` (in order), each member starting at its entry
        of `starts` (ns; empty: together), from the cache or one run."""
        key = (collective, members, size, root, starts)
        if key not in self.engine_cache:
            sim = replace(self.collective_options(collective, members, size, root),
                          member_start_ns=(starts,) if starts else ())
            r = self.engine_cache[key] = simulate(self.p, sim)
            for message in r.get("nccl", {}).get("cautions", ()):
                self.note_caution(collective, message)
        return self.engine_cache[key]

    def note_caution(self, collective: str, message: str) -> None:
        """A caution of NCCL mode's plan for a `collective` of the step (simulate.nccl.EnginePlan),
        kept once for the report."""
        self.cautions.setdefault(message, f"{collective}: {message}")

    def collective_options(self, collective: str, members: tuple[int, ...], size: int, root: int = 0) -> SimulationOptions:
        """The collective engine's options for one collective of the workload on `members` (alone,
        or as a job of the shared network, infragraph/workload/shared.py)."""
        sim = replace(self.sim, collective=collective, size_bytes=float(size), groups=(members,),
                      root=root, top_links=0, trace=False, warnings=False)
        if len(members) < self.num_npus and not self._nccl_lays_out(collective, members):
            # ASTRA-sim's CommunicatorGroup: a group smaller than the whole system runs on one
            # logical ring over its members, with the configured algorithm when there is one
            # dimension, else Ring. (Not where NCCL mode lays the group out itself: GPUs in
            # servers under our own models, as `infragraph simulate --group` runs it.)
            sim = replace(sim, dims=(len(members),),
                          algorithm=sim.algorithm if len(sim.algorithm) == 1 else ("ring",))
            if collective != "point-to-point" and sim.model in ("astra", "astra-aware"):
                sim = replace(sim, endpoint_delay_ns=SUB_GROUP_ENDPOINT_DELAY_NS, astra_communicator_group=True)
        if collective == "point-to-point" and sim.schedules:
            # A send has no algorithm (docs/simulate.md); a collective's schedule is not one for it.
            sim = replace(sim, algorithm=("default",), schedules=())
        if collective == "point-to-point" and sim.model in ("astra", "astra-aware"):
            # ASTRA-sim's native send is one message of the whole size (Workload::issue_send_comm
            # -> sim_send), never cut into preferred-dataset-splits chunks.
            sim = replace(sim, chunks=1)
        return sim

    def _nccl_lays_out(self, collective: str, members: tuple[int, ...]) -> bool:
        """Whether NCCL mode times this collective or send (simulate.run.engine_call decides the same
        way): our own models, the algorithm left to the default (or auto, or nccl), no --dims, and the
        group's GPUs in servers. A send then runs as NCCL's send/recv, at NCCL's per-link figures, as
        on the shared network (shared.py)."""
        sim = self.sim
        if sim.model.startswith("astra") or sim.dims is not None:
            return False
        algorithm = (sim.algorithm,) if isinstance(sim.algorithm, str) else tuple(sim.algorithm)
        if algorithm not in (("default",), ("auto",), ("nccl",)):
            return False
        return self.p.servers_of(members) is not None

    def _message_ns(self, src: int, dst: int, size: int, engine_ns: float) -> float:
        """A send's time. ASTRA-sim's analytical sends (Workload -> Sys::front_end_sim_send ->
        sim_send) carry no endpoint delay, unlike its collectives' messages, which the engine's
        point-to-point run includes at both ends; and its congestion-unaware network times a send
        on the first dimension where source and destination differ alone (MultiDimTopology::send:
        hops x latency + size / bandwidth, cut to whole ns). The astra models follow both rules;
        the others keep the engine's time."""
        if self.sim.model == "astra" and self._stack_dims is not None:
            return astra_send_ns(self._stack_dims, src, dst, size)
        if self.sim.model in ("astra", "astra-aware"):
            return engine_ns - 2 * self.sim.endpoint_delay_ns
        return engine_ns


def stack_shape(p: PreparedGraph, npus: int) -> list[tuple[str, int, float]] | None:
    """The ASTRA-sim dimensions a graph states (std.fabrics.stack's `astra.topology`, `npus_count`,
    `latency_ns` annotations): (kind, NPUs, latency ns) per dimension, dimension 0 first; None when
    the graph states none or they do not cover `npus`."""
    a = p.g.graph_annotations
    try:
        kinds = [k.strip() for k in str(a["astra.topology"]).split(",")]
        counts = [int(x) for x in str(a["npus_count"]).split(",")]
        lats = [float(x) for x in str(a["latency_ns"]).split(",")]
    except (KeyError, ValueError):
        return None
    if not len(kinds) == len(counts) == len(lats) or math.prod(counts) != npus:
        return None
    return list(zip(kinds, counts, lats))


def stack_dims(p: PreparedGraph, npus: int) -> list[tuple[str, int, float, float]] | None:
    """`stack_shape` with each dimension's bandwidth: (kind, NPUs, GB/s with GB = 2^30 B as ASTRA-sim
    reads them, ns). The bandwidth is the dimension's link as built (simulate.dim_bandwidths), not
    the annotation, which keeps 6 significant digits only (429.497 Gbit/s for 50 GiB/s: 5 ns off on a
    400 MB message)."""
    from ..simulate.run import dim_bandwidths

    shape = stack_shape(p, npus)
    if shape is None:
        return None
    gbps = dim_bandwidths(p, [c for _, c, _ in shape])
    # Gbit/s back to ASTRA-sim's GB/s (2^30 B), rounded to undo the float round trip
    return [(k, c, round(gbps_to_gib_per_s(b), 9), t) for (k, c, t), b in zip(shape, gbps)]


def symmetric_dims(p: PreparedGraph, dims: list[tuple] | None) -> list[tuple[str, int]] | None:
    """The (kind, NPUs) of every dimension when the graph is an intact std.fabrics.stack, whose
    symmetries `canonical_group` uses; else None. Intact: the stated dimensions are Ring,
    FullyConnected or Switch (no line, `wrap: false`), and the graph has exactly the stack's edges
    (NPU ports, switch ports, one cable set per dimension: stack.igl's counts) with no link
    degraded by a failure (graph.failures renames those link classes `<link>~x<factor>...`), so
    no failed or degraded link breaks the symmetry."""
    if dims is None or any(k not in ("Ring", "FullyConnected", "Switch") for k, *_ in dims):
        return None
    if "LI(" in str(p.g.graph_annotations.get("dims", "")) or any("~" in x.name for x in p.g.links):
        return None
    n = math.prod(c for _, c, *_ in dims)
    ports = {"Ring": lambda k: 1 if k == 2 else 2, "FullyConnected": lambda k: k - 1, "Switch": lambda k: 1}
    cables = {"Ring": lambda k: n // 2 if k == 2 else n, "FullyConnected": lambda k: n * (k - 1) // 2,
              "Switch": lambda k: n}
    switch_ports = n * sum(k == "Switch" for k, *_ in dims)  # n/c switches of c ports per SW(c) dimension
    edges = n * sum(ports[k](c) for k, c, *_ in dims) + switch_ports + sum(cables[k](c) for k, c, *_ in dims)
    return [(k, c) for k, c, *_ in dims] if p.g.num_edges == edges else None


def canonical_group(dims: list[tuple[str, int]], members: tuple[int, ...]) -> tuple[int, ...] | None:
    """The group's image under the stack's symmetries, the same for every group that is such an
    image, or None when the group is not handled. Handled: members that differ in one dimension
    only (a TP group inside a server, a DP group along a rail, a pipeline pair). Every route
    between them then stays in that dimension and is the only shortest one (one switch, one direct
    link, or the shorter way round an odd ring), so no ECMP choice can tell two images apart.
    The image: the other coordinates set to 0 and the varying one relabelled, first member first:
    any permutation of a switch's or full mesh's coordinates, a rotation of a ring's, maps the
    stack onto itself, dimension by dimension."""
    stride, varying = 1, []
    for d, (kind, n) in enumerate(dims):
        coords = [(m // stride) % n for m in members]
        if len(set(coords)) > 1:
            varying.append((kind, n, stride, coords))
        stride *= n
    if len(varying) != 1:
        return None
    kind, n, stride, coords = varying[0]
    if kind == "Ring":
        if n > 2 and n % 2 == 0:
            return None  # two ways round are equally short for members half the ring apart
        return tuple(((c - coords[0]) % n) * stride for c in coords)
    label: dict[int, int] = {}
    return tuple(label.setdefault(c, len(label)) * stride for c in coords)


def astra_send_ns(dims: list[tuple[str, int, float, float]], src: int, dst: int, size: int) -> int:
    """ASTRA-sim's congestion-unaware send time (MultiDimTopology::send at 518bd51): on the first
    dimension where the two NPUs' coordinates differ, hops x latency + size / bandwidth, cut to whole
    ns; hops: Ring the shorter way round, FullyConnected 1, Switch 2."""
    a, b = src, dst
    for kind, n, gb_per_s, latency in dims:
        x, y = a % n, b % n
        if x != y:
            hops = min((y - x) % n, (x - y) % n) if kind == "Ring" else 1 if kind == "FullyConnected" else 2
            return int(hops * latency + size / (gb_per_s * (1 << 30) / 1e9))
        a, b = a // n, b // n
    raise ValueError(f"a send from NPU {src} to itself")


def link_load(p: PreparedGraph, tier_bytes: dict[str, float], step_ns: float) -> list[dict[str, Any]]:
    """Per link tier: bytes carried over the step and the mean load per directed link in Gbit/s
    (bytes x 8 / step / directed links of the tier)."""
    from ..simulate.load import link_tiers

    if p.tiers is None:
        p.tiers = link_tiers(p.g)
    out = []
    for t, name in enumerate(p.tiers.names):
        links = 2 * int((p.tiers.edge_tier == t).sum())
        b = tier_bytes.get(name, 0.0)
        out.append({"tier": name, "directed_links": links, "bytes": b,
                    "mean_gbit_per_s_per_link": b * 8 / step_ns / links if step_ns > 0 and links else 0.0})
    return out
