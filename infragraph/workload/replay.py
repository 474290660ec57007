"""Replay a workload (every NPU's Chakra DAG) on a fabric: the step time and where it went.

The DAG goes to the engine as flat arrays (nodes in ascending id per NPU, dependencies in CSR);
the engine's event loop (simengine/src/workload_replay.rs) applies the rules below and calls back
here only for the time of a collective or a message, which the timer decides.
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

from dataclasses import dataclass
from typing import Any

import numpy as np

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


# What issuing a node does and the resource it holds (simengine/src/workload_replay.rs)
OP_TIMED, OP_SKIP, OP_COLLECTIVE, OP_SEND, OP_RECV = range(5)
RES_NONE, RES_CPU, RES_COMP, RES_COMM = range(4)
STATE_WAITING, STATE_READY, STATE_ONGOING, STATE_DONE = range(4)


class Replay:
    """One replay of `w` on the prepared fabric `p` (see the module docstring for the rules): the
    DAG as flat arrays, run by the engine's event loop (`workload_replay`), which asks `timer`
    for every collective's and message's time."""

    def __init__(self, p: PreparedGraph, w: Workload, opts: ReplayOptions) -> None:
        n_fabric = int(p.npu_nodes.size)
        if w.num_npus != n_fabric:
            raise located(w.source, f"the workload has {w.num_npus} ranks but the fabric '{p.g.name}' has "
                        f"{n_fabric} NPUs; expected one trace per NPU")
        self.p, self.w, self.opts = p, w, opts
        self.timer = CollectiveTimer(p, w.num_npus, opts.sim)

    def _arrays(self) -> dict[str, Any]:
        """Every NPU's nodes in ascending id, one global index each; dependencies, groups and
        message keys as indices."""
        opts = self.opts
        self.flat: list[Node] = []
        self.npu_ptr = [0]
        op, res, dur, dep_ptr, deps, channel = [], [], [], [0], [], []
        group_index: dict[int, int] = {}
        p2p: dict[tuple, int] = {}
        for rank, nodes in enumerate(self.w.nodes):
            base = len(self.flat)
            order = sorted(nodes)
            local = {nid: base + k for k, nid in enumerate(order)}
            for nid in order:
                n = nodes[nid]
                self.flat.append(n)
                kind, ch, d = n.kind, 0, 0.0
                if kind == "compute":
                    if opts.roofline and not n.is_cpu_op:
                        o = OP_SKIP if n.tensor_size == 0 else OP_TIMED
                        d = self._roofline_ns(n) if n.tensor_size else 0.0
                    else:
                        o, d = OP_TIMED, n.duration_ns
                elif kind in ("mem-load", "mem-store"):
                    o, d = OP_TIMED, self._memory_ns(n, rank)
                elif kind == "collective":
                    o = OP_COLLECTIVE
                    ch = group_index.setdefault(n.group, len(group_index))
                elif kind in ("send", "recv"):
                    o = OP_SEND if kind == "send" else OP_RECV
                    ch = p2p.setdefault((n.tag, n.src, n.dst, n.comm_size), len(p2p))
                else:  # invalid / metadata: finished at once, what it frees waits for the next completion
                    o = OP_SKIP
                op.append(o)
                res.append(RES_CPU if n.is_cpu_op else RES_COMP if kind == "compute" else
                           RES_NONE if kind == "recv" else RES_COMM)
                dur.append(d)
                deps.extend(local[x] for x in n.deps)
                dep_ptr.append(len(deps))
                channel.append(ch)
            self.npu_ptr.append(len(self.flat))
        members: list[int] = []
        group_ptr = [0]
        for g in group_index:  # in index order (dicts keep insertion order)
            members.extend(self.w.members(g))
            group_ptr.append(len(members))
        u32 = lambda x: np.asarray(x, dtype="<u4").tobytes()
        return dict(npu_ptr=u32(self.npu_ptr), op=np.asarray(op, dtype=np.uint8).tobytes(),
                    resource=np.asarray(res, dtype=np.uint8).tobytes(), duration=np.asarray(dur, dtype="<f8").tobytes(),
                    dep_ptr=u32(dep_ptr), deps=u32(deps), channel=u32(channel), group_ptr=u32(group_ptr),
                    members=u32(members), p2p_keys=len(p2p))

    def _on_collective(self, node: int, issue_ns: list[float]) -> list[float]:
        n = self.flat[node]
        return self.timer.collective_finish(n.collective, self.w.members(n.group), n.comm_size, 0, issue_ns,
                                            group=n.group, name=n.name)

    def _on_send(self, node: int, t: float) -> float:
        n = self.flat[node]
        return self.timer.message_arrival(n.src, n.dst, n.comm_size, t, n.tag)

    def run(self) -> dict[str, Any]:
        from .._simengine import workload_replay

        finish, start, end, state = workload_replay(**self._arrays(), on_collective=self._on_collective,
                                                    on_send=self._on_send)
        self.finish = np.frombuffer(finish, dtype="<f8")
        self.start, self.end = np.frombuffer(start, dtype="<f8"), np.frombuffer(end, dtype="<f8")
        self.state = np.frombuffer(state, dtype=np.uint8)
        self._check_all_finished()
        return self._report()

    # -- compute and memory --
    def _roofline_ns(self, n: Node) -> int:
        bandwidth = self.opts.sim.local_mem_bw_gb_per_s * 1e9  # bytes/s, as ASTRA-sim's local-mem-bw * 1e9
        peak = self.opts.peak_perf_tflops * 1e12
        perf = min(bandwidth * (n.num_ops / n.tensor_size), peak)
        return int(n.num_ops / perf * 1e9)

    def _memory_ns(self, n: Node, rank: int) -> int:
        bw = self.opts.remote_mem_bw_gb_per_s
        if bw is None:
            raise located(f"{self.w.source}.{rank}.et", f"node {n.id} '{n.name}' is a memory {n.kind[4:]} but no "
                        "remote memory is modelled; give --remote-mem-bw (GB/s) [--remote-mem-latency ns]")
        return self.opts.remote_mem_latency_ns + int(n.tensor_size / bw)

    # -- results --
    def _check_all_finished(self) -> None:
        for rank in np.flatnonzero(np.isnan(self.finish)).tolist():
            lo, hi = self.npu_ptr[rank], self.npu_ptr[rank + 1]
            state = self.state[lo:hi]
            stuck = (np.flatnonzero(state == STATE_READY) if (state == STATE_READY).any() else
                     np.flatnonzero(state <= STATE_READY) if (state <= STATE_READY).any() else
                     np.flatnonzero(state == STATE_ONGOING))
            first = self.flat[lo + int(stuck[0])] if stuck.size else None
            what = f"node {first.id} '{first.name}' ({first.kind})" if first else "its last node"
            left = int((state != STATE_DONE).sum())
            raise located(f"{self.w.source}.{rank}.et", f"rank {rank} never finishes: {what} cannot start "
                        f"({left} of {hi - lo} nodes left); a node freed only "
                        "by a skipped (invalid, metadata or zero-size roofline) node waits forever in ASTRA-sim")

    def _spans(self, rank: int) -> dict[int, list[float]]:
        """Rank's issued nodes: Chakra id -> [start, end] (ns)."""
        lo, hi = self.npu_ptr[rank], self.npu_ptr[rank + 1]
        issued = np.flatnonzero(self.state[lo:hi] >= STATE_ONGOING) + lo
        return {self.flat[i].id: [s, e] for i, s, e in zip(issued.tolist(), self.start[issued].tolist(),
                                                             self.end[issued].tolist())}

    def _report(self) -> dict[str, Any]:
        from .report import breakdown, with_step_idle

        finish = [0.0 if np.isnan(f) else float(f) for f in self.finish.tolist()]
        step = max(finish, default=0.0)
        spans = [self._spans(r) for r in range(self.w.num_npus)]
        per_npu = [breakdown(r, finish[r], self.w.nodes[r], spans[r]) for r in range(self.w.num_npus)]
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
            out["timeline"] = [[(nid, nodes[nid].kind, nodes[nid].name, s[0], s[1])
                                for nid, s in sorted(sp.items(), key=lambda kv: kv[1][0])]
                               for nodes, sp in zip(self.w.nodes, spans)]
        return out


def replay(p: PreparedGraph, w: Workload, opts: ReplayOptions = ReplayOptions()) -> dict[str, Any]:
    """Replay `w` on the prepared fabric and return the report dict (docs/workloads.md)."""
    return Replay(p, w, opts).run()
