"""Replay a workload (every NPU's Chakra DAG) on a fabric: the step time and where it went.

The rules for what may run when are ASTRA-sim's workload layer and hardware-resource model
(astra-sim/workload/Workload.cc and HardwareResource.cc at 518bd51), restated:
- A node is ready when every data and control dependency has finished. Whenever anything on an
  NPU finishes, its ready nodes are visited in ascending id order and each is issued if its
  resource is free: one CPU op, one GPU compute op and one GPU communication op (a collective, a
  send, a memory load/store, or an invalid/metadata node) at a time. Receives take no resource.
- Compute runs for `duration_micros` x 1,000 ns (0 counts as 1 ns); with the roofline on, a GPU
  compute node runs num_ops / min(local_mem_bw x num_ops / tensor_size, peak_perf) seconds, cut to
  whole ns, and one with tensor_size 0 is skipped (finished at once; what it frees waits for the
  NPU's next completion, as in ASTRA-sim).
- Memory load/store: remote-memory latency + tensor_size / remote-memory bandwidth, cut to whole ns
  (ASTRA-sim's per-NPU memory expansion).
- A send finishes when its message arrives; the receive finishes then, or at once when it is
  posted after the arrival (ASTRA-sim's analytical network). Messages pair by (src, dst, tag,
  size) in order. A message's time: under the astra models ASTRA-sim's send (no endpoint delay; the
  congestion-unaware one on the first dimension where the NPUs differ, `astra_send_ns`); under the
  other models the collective engine's point-to-point time on the fabric.
- A collective starts when the last member of its group issues it and finishes on each member
  after that member's time in the collective engine (every model, algorithm and dimension option
  of `infragraph simulate`), run for the group alone.

What this ignores (docs/workloads.md, "What the replay ignores"): ASTRA-sim starts a collective's
messages on each member as soon as that member issues it, so an early member's first sends may
overlap the wait for a late one; here a group waits for its last member. Collectives and messages
that run at the same time do not share links here: each is timed alone on the fabric. A
collective's engine run is cached by (type, group, size).
"""

from __future__ import annotations

import heapq
import math
from collections import defaultdict
from dataclasses import dataclass, replace
from typing import Any, Callable

from ..errors import error
from ..simulate.run import PreparedGraph, SimulationOptions, simulate
from .chakra import located
from .trace import Node, Workload


@dataclass(frozen=True)
class ReplayOptions:
    """How compute and memory nodes take time; collectives follow `sim` (SimulationOptions)."""

    sim: SimulationOptions = SimulationOptions(model="astra")
    roofline: bool = False  # ASTRA-sim's roofline-enabled
    peak_perf_tflops: float = 900.0  # ASTRA-sim's peak-perf (1e12 FLOP/s), its example system's value
    remote_mem_bw_gb_per_s: float | None = None  # GB/s = bytes per ns; None: a memory node is an error
    remote_mem_latency_ns: int = 0
    keep_timeline: bool = False  # every node's (start, end) for the trace and the picture

    def __post_init__(self) -> None:
        if self.roofline and not (self.peak_perf_tflops > 0 and self.peak_perf_tflops < float("inf")):
            raise error(f"--peak-perf {self.peak_perf_tflops!r}: expected a positive number of TFLOP/s")
        if self.roofline and not (self.sim.local_mem_bw_gb_per_s or 0) > 0:
            raise error("the roofline model needs a local memory bandwidth (--local-mem-bw, GB/s), not 'none'")
        if self.remote_mem_bw_gb_per_s is not None and not 0 < self.remote_mem_bw_gb_per_s < float("inf"):
            raise error(f"--remote-mem-bw {self.remote_mem_bw_gb_per_s!r}: expected a positive number of GB/s")
        if not 0 <= self.remote_mem_latency_ns < 2**63:
            raise error(f"--remote-mem-latency {self.remote_mem_latency_ns!r}: expected whole ns >= 0")


class _Npu:
    """One NPU's replay state: ASTRA-sim's dependency resolver and hardware resources."""

    def __init__(self, rank: int, nodes: dict[int, Node]) -> None:
        self.rank = rank
        self.nodes = nodes
        self.waiting = {i: len(n.deps) for i, n in nodes.items()}
        self.children: dict[int, list[int]] = defaultdict(list)
        for n in nodes.values():
            for d in n.deps:
                self.children[d].append(n.id)
        self.ready = {i for i, k in self.waiting.items() if k == 0}
        self.ongoing: set[int] = set()
        self.cpu = self.comp = self.comm = False
        self.done = 0
        self.finish_ns: float | None = None if nodes else 0
        self.spans: dict[int, list[float]] = {}

    def resource(self, n: Node) -> str | None:
        if n.is_cpu_op:
            return "cpu"
        if n.kind == "compute":
            return "comp"
        return None if n.kind == "recv" else "comm"

    def available(self, n: Node) -> bool:
        res = self.resource(n)
        return res is None or not getattr(self, res)

    def hold(self, n: Node, value: bool) -> None:
        res = self.resource(n)
        if res is not None:
            setattr(self, res, value)


class Replay:
    """One replay of `w` on the prepared fabric `p` (see the module docstring for the rules)."""

    def __init__(self, p: PreparedGraph, w: Workload, opts: ReplayOptions) -> None:
        n_fabric = int(p.npu_nodes.size)
        if w.num_npus != n_fabric:
            raise located(w.source, f"the workload has {w.num_npus} ranks but the fabric '{p.g.name}' has "
                        f"{n_fabric} NPUs; expected one trace per NPU")
        self.p, self.w, self.opts = p, w, opts
        self.npus = [_Npu(r, nodes) for r, nodes in enumerate(w.nodes)]
        self.events: list[tuple[float, int, Callable, tuple]] = []
        self.seq = 0
        self.engine_cache: dict[tuple, dict[str, Any]] = {}
        self.arrived: dict[tuple[int, int], list[tuple[int, Node, float]]] = defaultdict(list)
        self.issued_on: dict[tuple[int, int], int] = defaultdict(int)
        self.collectives: list[dict[str, Any]] = []
        self.messages: list[dict[str, Any]] = []
        self.p2p: dict[tuple, dict[int, dict[str, Any]]] = defaultdict(dict)
        self.sent: dict[tuple, int] = defaultdict(int)
        self.posted: dict[tuple, int] = defaultdict(int)
        self.tier_bytes: dict[str, float] = defaultdict(float)
        self._stack_dims = stack_dims(p, n_fabric)

    # -- the event queue: same-time events run in the order they were scheduled, as ASTRA-sim's --
    def at(self, t: float, fn: Callable, *args: Any) -> None:
        heapq.heappush(self.events, (t, self.seq, fn, args))
        self.seq += 1

    def run(self) -> dict[str, Any]:
        for npu in self.npus:
            self.at(0, self.issue_ready, npu)
        now = 0.0
        while self.events:
            now, _, fn, args = heapq.heappop(self.events)
            fn(now, *args)
        self._check_all_finished()
        return self._report()

    # -- ASTRA-sim's Workload::issue_dep_free_nodes / issue / call --
    def issue_ready(self, t: float, npu: _Npu) -> None:
        for nid in sorted(npu.ready):
            if nid in npu.ready and npu.available(npu.nodes[nid]):
                self.issue(t, npu, npu.nodes[nid])
        self._check_done(t, npu)

    def issue(self, t: float, npu: _Npu, n: Node) -> None:
        npu.ready.discard(n.id)
        npu.ongoing.add(n.id)
        npu.hold(n, True)
        npu.spans[n.id] = [t, t]
        if n.kind == "compute":
            if self.opts.roofline and not n.is_cpu_op:
                if n.tensor_size == 0:
                    self.skip(t, npu, n)
                    return
                self.at(t + self._roofline_ns(n), self.finish, npu, n)
            else:
                self.at(t + n.duration_ns, self.finish, npu, n)
        elif n.kind in ("mem-load", "mem-store"):
            self.at(t + self._memory_ns(n, npu), self.finish, npu, n)
        elif n.kind == "collective":
            self._join_collective(t, npu, n)
        elif n.kind == "send":
            self._send(t, npu, n)
        elif n.kind == "recv":
            self._post_recv(t, npu, n)
        else:  # invalid / metadata: finished at once, what it frees waits for the next completion
            self.skip(t, npu, n)

    def skip(self, t: float, npu: _Npu, n: Node) -> None:
        self._release(t, npu, n)

    def finish(self, t: float, npu: _Npu, n: Node) -> None:
        self._release(t, npu, n)
        self.issue_ready(t, npu)

    def _release(self, t: float, npu: _Npu, n: Node) -> None:
        npu.hold(n, False)
        npu.ongoing.discard(n.id)
        npu.spans[n.id][1] = t
        npu.done += 1
        for c in npu.children.get(n.id, ()):
            npu.waiting[c] -= 1
            if npu.waiting[c] == 0:
                npu.ready.add(c)

    def _check_done(self, t: float, npu: _Npu) -> None:
        if npu.finish_ns is None and not npu.ready and not npu.ongoing and npu.done == len(npu.nodes):
            npu.finish_ns = t

    # -- compute and memory --
    def _roofline_ns(self, n: Node) -> int:
        bandwidth = self.opts.sim.local_mem_bw_gb_per_s * 1e9  # bytes/s, as ASTRA-sim's local-mem-bw * 1e9
        peak = self.opts.peak_perf_tflops * 1e12
        perf = min(bandwidth * (n.num_ops / n.tensor_size), peak)
        return int(n.num_ops / perf * 1e9)

    def _memory_ns(self, n: Node, npu: _Npu) -> int:
        bw = self.opts.remote_mem_bw_gb_per_s
        if bw is None:
            raise located(f"{self.w.source}.{npu.rank}.et", f"node {n.id} '{n.name}' is a memory {n.kind[4:]} but no "
                        "remote memory is modelled; give --remote-mem-bw (GB/s) [--remote-mem-latency ns]")
        return self.opts.remote_mem_latency_ns + int(n.tensor_size / bw)

    # -- collectives: a group starts when its last member issues --
    def _join_collective(self, t: float, npu: _Npu, n: Node) -> None:
        key = (n.group, self.issued_on[(n.group, npu.rank)])
        self.issued_on[(n.group, npu.rank)] += 1
        members = self.w.members(n.group)
        self.arrived[key].append((npu.rank, n, t))
        if len(self.arrived[key]) < len(members):
            return
        joined = self.arrived.pop(key)
        start = max(x[2] for x in joined)
        r = self._engine(n.collective, members, n.comm_size)
        offset = {x["rank"]: x["finish_ns"] for x in r["ranks"]}
        for rank, node, _ in joined:
            self.at(start + offset[rank], self.finish, self.npus[rank], node)
        end = start + max(offset.values())
        self.collectives.append({
            "group": n.group, "ranks": len(members), "collective": n.collective, "size_bytes": n.comm_size,
            "name": n.name, "start_ns": start, "end_ns": end, "time_ns": end - start,
            "first_issue_ns": min(x[2] for x in joined),
            "bus_bandwidth_gb_per_s": r["bus_bandwidth_gb_per_s"]})

    def _engine(self, collective: str, members: tuple[int, ...], size: int, root: int = 0) -> dict[str, Any]:
        key = (collective, members, size, root)
        if key not in self.engine_cache:
            sim = replace(self.opts.sim, collective=collective, size_bytes=float(size), groups=(members,), root=root,
                          top_links=0, trace=False)
            if len(members) < self.w.num_npus:
                # ASTRA-sim's CommunicatorGroup: a group smaller than the whole system runs on one
                # logical ring over its members, with the configured algorithm when there is one
                # dimension, else Ring.
                sim = replace(sim, dims=(len(members),),
                              algorithm=sim.algorithm if len(sim.algorithm) == 1 else ("ring",))
            self.engine_cache[key] = simulate(self.p, sim)
        r = self.engine_cache[key]
        for tier in r["tiers"]:
            self.tier_bytes[tier["tier"]] += tier["bytes"]
        return r

    # -- point-to-point: ASTRA-sim's analytical send/recv matching --
    def _send(self, t: float, npu: _Npu, n: Node) -> None:
        key = (n.tag, n.src, n.dst, n.comm_size)
        chunk = self.sent[key]
        self.sent[key] += 1
        r = self._engine("point-to-point", (n.src, n.dst), n.comm_size)
        arrival = t + self._message_ns(n.src, n.dst, n.comm_size, max(x["finish_ns"] for x in r["ranks"]))
        self.messages.append({"src": n.src, "dst": n.dst, "tag": n.tag, "size_bytes": n.comm_size,
                              "start_ns": t, "end_ns": arrival})
        self.at(arrival, self._arrive, key, chunk, npu, n)

    def _message_ns(self, src: int, dst: int, size: int, engine_ns: float) -> float:
        """A send's time. ASTRA-sim's analytical sends (Workload -> Sys::front_end_sim_send ->
        sim_send) carry no endpoint delay, unlike its collectives' messages, which the engine's
        point-to-point run includes at both ends; and its congestion-unaware network times a send
        on the first dimension where source and destination differ alone (MultiDimTopology::send:
        hops x latency + size / bandwidth, cut to whole ns). The astra models follow both rules;
        the others keep the engine's time."""
        if self.opts.sim.model == "astra" and self._stack_dims is not None:
            return astra_send_ns(self._stack_dims, src, dst, size)
        if self.opts.sim.model in ("astra", "astra-aware"):
            return engine_ns - 2 * self.opts.sim.endpoint_delay_ns
        return engine_ns

    def _arrive(self, t: float, key: tuple, chunk: int, npu: _Npu, n: Node) -> None:
        entry = self.p2p[key].setdefault(chunk, {})
        self.finish(t, npu, n)
        if "recv" in entry:
            del self.p2p[key][chunk]
            self.finish(t, *entry["recv"])
        else:
            entry["arrived"] = True

    def _post_recv(self, t: float, npu: _Npu, n: Node) -> None:
        key = (n.tag, n.src, n.dst, n.comm_size)
        chunk = self.posted[key]
        self.posted[key] += 1
        entry = self.p2p[key].setdefault(chunk, {})
        if entry.get("arrived"):
            del self.p2p[key][chunk]
            self.at(t, self.finish, npu, n)
        else:
            entry["recv"] = (npu, n)

    # -- results --
    def _check_all_finished(self) -> None:
        for npu in self.npus:
            if npu.finish_ns is None:
                never = sorted(set(npu.nodes) - set(npu.spans))
                stuck = sorted(npu.ready) or never or sorted(npu.ongoing)
                first = npu.nodes[stuck[0]] if stuck else None
                what = f"node {first.id} '{first.name}' ({first.kind})" if first else "its last node"
                raise located(f"{self.w.source}.{npu.rank}.et", f"rank {npu.rank} never finishes: {what} cannot start "
                            f"({len(npu.nodes) - npu.done} of {len(npu.nodes)} nodes left); a node freed only "
                            "by a skipped (invalid, metadata or zero-size roofline) node waits forever in ASTRA-sim")

    def _report(self) -> dict[str, Any]:
        from .report import breakdown, with_step_idle

        step = max((npu.finish_ns or 0.0) for npu in self.npus)
        per_npu = [breakdown(npu.rank, npu.finish_ns or 0.0, npu.nodes, npu.spans) for npu in self.npus]
        tiers = link_load(self.p, self.tier_bytes, step)
        out: dict[str, Any] = {
            "workload": self.w.source, "graph": self.p.g.name, "model": self.opts.sim.model,
            "num_npus": self.w.num_npus, "step_time_ns": step,
            "roofline": self.opts.roofline, "npus": per_npu,
            "collectives": sorted(self.collectives, key=lambda c: (c["start_ns"], c["group"])),
            "messages": self.messages, "tiers": tiers, "engine_runs": len(self.engine_cache),
        }
        with_step_idle(out)
        if self.opts.keep_timeline:
            out["timeline"] = [[(nid, npu.nodes[nid].kind, npu.nodes[nid].name, s[0], s[1])
                                for nid, s in sorted(npu.spans.items(), key=lambda kv: kv[1][0])]
                               for npu in self.npus]
        return out


def stack_dims(p: PreparedGraph, npus: int) -> list[tuple[str, int, float, float]] | None:
    """The ASTRA-sim dimensions a graph states (std.fabrics.stack's `astra.topology`, `npus_count`,
    `latency_ns` annotations): (kind, NPUs, GB/s with GB = 2^30 B as ASTRA-sim reads them, ns) per
    dimension, dimension 0 first; None when the graph states none or they do not cover `npus`. The
    bandwidth is the dimension's link as built (simulate.dim_bandwidths), not the annotation, which
    keeps 6 significant digits only (429.497 Gbit/s for 50 GiB/s: 5 ns off on a 400 MB message)."""
    from ..simulate.run import dim_bandwidths

    a = p.g.graph_annotations
    try:
        kinds = [k.strip() for k in str(a["astra.topology"]).split(",")]
        counts = [int(x) for x in str(a["npus_count"]).split(",")]
        lats = [float(x) for x in str(a["latency_ns"]).split(",")]
    except (KeyError, ValueError):
        return None
    if not len(kinds) == len(counts) == len(lats) or math.prod(counts) != npus:
        return None
    gbps = dim_bandwidths(p, counts)
    # Gbit/s back to ASTRA-sim's GB/s (2^30 B), rounded to undo the float round trip
    return [(k, c, round(b * 1e9 / 8 / 2**30, 9), t) for k, c, b, t in zip(kinds, counts, gbps, lats)]


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


def replay(p: PreparedGraph, w: Workload, opts: ReplayOptions = ReplayOptions()) -> dict[str, Any]:
    """Replay `w` on the prepared fabric and return the report dict (docs/workloads.md)."""
    return Replay(p, w, opts).run()
