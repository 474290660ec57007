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
  size) in order.
- A collective is issued on each member on its own; once every member has issued it, the timer
  (timing.py, `CollectiveTimer`: the single place collective and message times are decided) gets
  every member's issue time and answers every member's finish time. A message's arrival comes
  from the same timer.
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from dataclasses import dataclass
from typing import Any, Callable

from ..errors import error
from ..simulate.run import PreparedGraph, SimulationOptions
from .chakra import located
from .timing import CollectiveTimer
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
        self.timer = CollectiveTimer(p, w.num_npus, opts.sim)
        self.arrived: dict[tuple[int, int], list[tuple[int, Node, float]]] = defaultdict(list)
        self.issued_on: dict[tuple[int, int], int] = defaultdict(int)
        self.p2p: dict[tuple, dict[int, dict[str, Any]]] = defaultdict(dict)
        self.sent: dict[tuple, int] = defaultdict(int)
        self.posted: dict[tuple, int] = defaultdict(int)

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
        issue = {rank: t_issue for rank, _, t_issue in joined}
        finish = self.timer.collective_finish(n.collective, members, n.comm_size, 0, [issue[m] for m in members],
                                              group=n.group, name=n.name)
        at = dict(zip(members, finish))
        for rank, node, _ in joined:
            self.at(at[rank], self.finish, self.npus[rank], node)

    # -- point-to-point: ASTRA-sim's analytical send/recv matching --
    def _send(self, t: float, npu: _Npu, n: Node) -> None:
        key = (n.tag, n.src, n.dst, n.comm_size)
        chunk = self.sent[key]
        self.sent[key] += 1
        arrival = self.timer.message_arrival(n.src, n.dst, n.comm_size, t, n.tag)
        self.at(arrival, self._arrive, key, chunk, npu, n)

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
        tiers = self.timer.tiers(step)
        out: dict[str, Any] = {
            "workload": self.w.source, "graph": self.p.g.name, "model": self.opts.sim.model,
            "num_npus": self.w.num_npus, "step_time_ns": step,
            "roofline": self.opts.roofline, "npus": per_npu,
            "collectives": sorted(self.timer.collectives, key=lambda c: (c["start_ns"], c["group"])),
            "messages": self.timer.messages, "tiers": tiers, "engine_runs": self.timer.engine_runs,
        }
        with_step_idle(out)
        if self.opts.keep_timeline:
            out["timeline"] = [[(nid, npu.nodes[nid].kind, npu.nodes[nid].name, s[0], s[1])
                                for nid, s in sorted(npu.spans.items(), key=lambda kv: kv[1][0])]
                               for npu in self.npus]
        return out


def replay(p: PreparedGraph, w: Workload, opts: ReplayOptions = ReplayOptions()) -> dict[str, Any]:
    """Replay `w` on the prepared fabric and return the report dict (docs/workloads.md)."""
    return Replay(p, w, opts).run()
