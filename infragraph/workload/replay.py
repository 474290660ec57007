"""Replay a workload (every NPU's Chakra DAG) on a fabric: the step time and where it went.

The DAG goes to the engine as flat arrays (nodes in ascending id per NPU, dependencies in CSR);
the engine's event loop (simengine/src/workload_replay.rs) applies the rules below. Under
`--model astra` each collective and message is timed alone, from engine runs the timer decides
(timing.py) and the engine caches by shape (simengine/src/workload_timing.rs): it calls back
here once per distinct run, not per collective, and returns the report's records as columns.
Under the contention-aware models (`fair`, `aware`, `astra-aware`) collectives and messages run
on one shared network in the engine (shared.py), where whatever is in flight at once shares links.
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
- A collective is issued on each member on its own, and each member starts its part at its own
  issue. Alone (`--model astra`): once every member has issued it, every member's finish is the
  first issue plus its offset in the run of the collective's shape (type, the group's image under
  the fabric's symmetries, size) with every member's start offset (timing.py, `CollectiveTimer`);
  a message arrives its shape's time (source, destination, size) after its send. Shared: the collective joins the network at its
  first issue and each member's finish releases its dependents when it happens.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import InfraGraphError, error
from ..uniques import dense_ids, unique_rows
from ..simulate.run import PreparedGraph, SimulationOptions
from .chakra import located
from .shared import CONTENTION_MODELS, SharedNetwork
from .timing import CollectiveTimer
from .trace import COLLECTIVE_TYPES, KIND_CODES, KINDS, Workload


@dataclass(frozen=True)
class ReplayOptions:
    """How compute and memory nodes take time; collectives follow `sim` (SimulationOptions)."""

    sim: SimulationOptions = SimulationOptions(model="astra")
    roofline: bool = False  # ASTRA-sim's roofline-enabled
    peak_perf_tflops: float = 900.0  # ASTRA-sim's peak-perf (1e12 FLOP/s), its example system's value
    remote_mem_bw_gb_per_s: float | None = None  # GB/s = bytes per ns; None: a memory node is an error
    remote_mem_latency_ns: int = 0
    keep_timeline: bool = False  # every node's (start, end, data start) for the trace and the picture
    # The contention-aware models on one shared network (shared.py); False: each collective and
    # message timed alone, as `--model astra` is (no contention between them; `--network alone`).
    shared_network: bool = True

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
    for the run of every distinct collective and message shape."""

    def __init__(self, p: PreparedGraph, w: Workload, opts: ReplayOptions) -> None:
        n_fabric = int(p.npu_nodes.size)
        if w.num_npus != n_fabric:
            raise located(w.source, f"the workload has {w.num_npus} ranks but the fabric '{p.g.name}' has "
                        f"{n_fabric} NPUs; expected one trace per NPU")
        self.p, self.w, self.opts = p, w, opts
        self.timer = CollectiveTimer(p, w.num_npus, opts.sim)

    def _arrays(self) -> dict[str, Any]:
        """The engine's arrays from the workload's columns (every NPU's nodes in ascending id)."""
        c, opts = self.w.cols, self.opts
        k = c.kind
        compute, memory = k == KIND_CODES["compute"], (k == KIND_CODES["mem-load"]) | (k == KIND_CODES["mem-store"])
        coll, send, recv = k == KIND_CODES["collective"], k == KIND_CODES["send"], k == KIND_CODES["recv"]
        op = np.full(k.size, OP_SKIP, dtype=np.uint8)  # invalid / metadata: finished at once
        op[compute | memory] = OP_TIMED
        op[coll], op[send], op[recv] = OP_COLLECTIVE, OP_SEND, OP_RECV
        dur = np.where(compute, c.duration_ns, 0.0)
        if opts.roofline:
            gpu = np.flatnonzero(compute & ~c.is_cpu)
            zero = gpu[c.tensor_size[gpu] == 0]
            op[zero] = OP_SKIP
            dur[zero] = 0.0
            timed = gpu[c.tensor_size[gpu] != 0]
            dur[timed] = [self._roofline_ns(ops, size) for ops, size in
                          zip(c.num_ops[timed].tolist(), c.tensor_size[timed].tolist())]
        mem = np.flatnonzero(memory)
        if mem.size:
            bw = opts.remote_mem_bw_gb_per_s
            if bw is None:
                row = int(mem[0])
                n = c.node(row)
                rank = int(np.searchsorted(c.npu_ptr, row, side="right")) - 1
                raise located(f"{self.w.source}.{rank}.et", f"node {n.id} '{n.name}' is a memory {n.kind[4:]} but no "
                            "remote memory is modelled; give --remote-mem-bw (GB/s) [--remote-mem-latency ns]")
            dur[mem] = [opts.remote_mem_latency_ns + int(t / bw) for t in c.tensor_size[mem].tolist()]
        res = np.full(k.size, RES_COMM, dtype=np.uint8)
        res[compute], res[recv] = RES_COMP, RES_NONE
        res[c.is_cpu] = RES_CPU
        channel = np.zeros(k.size, dtype=np.int64)
        self.group_ids, channel[coll] = dense_ids(c.group[coll])
        p2p = np.flatnonzero(send | recv)
        key = np.stack([c.tag[p2p].astype(np.int64), c.src[p2p], c.dst[p2p], c.comm_size[p2p].astype(np.int64)], axis=1)
        keys, channel[p2p] = unique_rows(key)
        self.collective_rows, self.p2p_keys, self.channel = np.flatnonzero(coll), keys, channel
        members = [self.w.members(int(g)) for g in self.group_ids.tolist()]
        self.group_sizes = np.asarray([len(m) for m in members], dtype=np.int64)
        group_ptr = np.cumsum([0, *self.group_sizes.tolist()])
        u32 = lambda x: np.asarray(x, dtype="<u4").tobytes()
        return dict(npu_ptr=u32(c.npu_ptr), op=op.tobytes(), resource=res.tobytes(),
                    duration=np.asarray(dur, dtype="<f8").tobytes(), dep_ptr=u32(c.dep_ptr), deps=u32(c.deps),
                    channel=u32(channel), group_ptr=u32(group_ptr),
                    members=u32([r for m in members for r in m]), p2p_keys=len(keys))

    def _shapes(self) -> dict[str, bytes]:
        """The timing cache's shapes (simengine/src/workload_timing.rs): per node, its collective's
        (type, the group's image, size), per message key its (source, destination, size), numbered;
        `_coll_shapes` and `_msg_shapes` hold what each number stands for."""
        c, rows = self.w.cols, self.collective_rows
        coll_shape = np.zeros(c.kind.size, dtype="<u4")
        kinds, inverse = unique_rows(np.stack([c.comm_type[rows].astype(np.int64), self.channel[rows],
                                               c.comm_size[rows].astype(np.int64)], axis=1))
        numbers: dict[tuple, int] = {}
        per_kind = []
        for ctype, g, size in kinds.tolist():
            shape = (COLLECTIVE_TYPES[ctype], self.timer.image(self.w.members(int(self.group_ids[g]))), size)
            per_kind.append(numbers.setdefault(shape, len(numbers)))
        coll_shape[rows] = np.asarray(per_kind, dtype=np.int64)[inverse] if rows.size else []
        self._coll_shapes = list(numbers)
        self._msg_shapes, msg_shape = unique_rows(self.p2p_keys[:, 1:])
        return dict(coll_shape=coll_shape.tobytes(), msg_shape=np.asarray(msg_shape, dtype="<u4").tobytes())

    def _collective_run(self, shape: int, starts: list[float]) -> tuple[list[float], float, float, list[float]]:
        collective, members, size = self._coll_shapes[shape]
        return self.timer.collective_run(collective, members, size, 0, starts)

    def _message_run(self, shape: int) -> tuple[float, list[float]]:
        src, dst, size = self._msg_shapes[shape].tolist()
        return self.timer.message_run(src, dst, size)

    def _check_schedules(self) -> None:
        """`--algorithm schedule:FILE` runs every collective of the workload: each kind of collective on
        each group must fit the schedule (its collective, its rank count). A misfit is located at the
        first node that issues it, not the engine's unlocated 'unsupported' at its first run."""
        from ..simulate.run import engine_call

        if not self.opts.sim.schedules:
            return
        c, seen = self.w.cols, set()
        for row in np.flatnonzero(c.kind == KIND_CODES["collective"]).tolist():
            collective, group = COLLECTIVE_TYPES[int(c.comm_type[row])], int(c.group[row])
            if (collective, group) in seen:
                continue
            seen.add((collective, group))
            members = self.w.members(group)
            try:
                engine_call(self.p, self.timer.collective_options(collective, members, int(c.comm_size[row])))
            except InfraGraphError as exc:
                rank = int(np.searchsorted(c.npu_ptr, row, side="right")) - 1
                d = exc.diagnostics[0]
                raise located(f"{self.w.source}.{rank}.et", f"node {int(c.id[row])} '{c.name(row)}': {collective} on "
                              f"group {group} ({len(members)} ranks) with --algorithm schedule: {d.message}",
                              hint="the schedule runs every collective of the workload, so every group's collectives "
                                   "must fit it") from None

    def run(self) -> dict[str, Any]:
        import gc

        from .._simengine import workload_replay

        self._check_schedules()
        arrays = self._arrays()
        contention = self.opts.sim.model in CONTENTION_MODELS
        shared = SharedNetwork(self.timer, self.w) if contention and self.opts.shared_network else None
        self.network = "alone (--network alone)" if contention and shared is None else "alone"
        if shared is not None and shared.plan(arrays, self.collective_rows, self.p2p_keys):
            raw = shared.run()
            finish, start, end, state = raw["finish"], raw["start"], raw["end"], raw["state"]
            self.network = "shared"
        else:
            if shared is not None:
                self.network = f"alone ({shared.reason})"
            raw = workload_replay(**arrays, **self._shapes(), on_collective_run=self._collective_run,
                                  on_message_run=self._message_run)
            finish, start, end, state = raw["finish"], raw["start"], raw["end"], raw["state"]
            # The records add a dict per collective and message (hundreds of thousands at 16,384
            # NPUs) and nothing cyclic: the cyclic collector would only walk them again and again.
            enabled = gc.isenabled()
            gc.disable()
            try:
                self._record(raw)
            finally:
                if enabled:
                    gc.enable()
        self.finish = np.frombuffer(finish, dtype="<f8")
        self.start, self.end = np.frombuffer(start, dtype="<f8"), np.frombuffer(end, dtype="<f8")
        self.state = np.frombuffer(state, dtype=np.uint8)
        self._check_all_finished()
        return self._report()

    def _record(self, raw: dict[str, Any]) -> None:
        """The engine's records (columns) into the timer's report records and tier bytes."""
        c, timer = self.w.cols, self.timer
        col = lambda k, dt: np.frombuffer(raw[k], dtype=dt)
        rows = col("coll_node", "<u4").astype(np.int64)
        names = c.names
        bounds = c.name_ptr[rows].tolist(), c.name_ptr[rows + 1].tolist()
        timer.record_collectives(
            c.group[rows].tolist(), self.group_sizes[self.channel[rows]].tolist(),
            [COLLECTIVE_TYPES[t] for t in c.comm_type[rows].tolist()], c.comm_size[rows].tolist(),
            [names[a:b].decode("utf-8") for a, b in zip(*bounds)], col("coll_start", "<f8").tolist(),
            col("coll_end", "<f8").tolist(), col("coll_last_issue", "<f8").tolist(), col("coll_busbw", "<f8").tolist())
        sends = col("msg_node", "<u4").astype(np.int64)
        timer.record_messages(c.src[sends].tolist(), c.dst[sends].tolist(), c.tag[sends].tolist(),
                              c.comm_size[sends].tolist(), col("msg_start", "<f8").tolist(), col("msg_end", "<f8").tolist())
        sums = raw["tier_bytes"]
        for name, i in timer.tier_names.items():
            if i < len(sums):
                timer.tier_bytes[name] += sums[i]

    # -- compute and memory --
    def _roofline_ns(self, num_ops: int, tensor_size: int) -> int:
        bandwidth = self.opts.sim.local_mem_bw_gb_per_s * 1e9  # bytes/s, as ASTRA-sim's local-mem-bw * 1e9
        peak = self.opts.peak_perf_tflops * 1e12
        perf = min(bandwidth * (num_ops / tensor_size), peak)
        return int(num_ops / perf * 1e9)

    # -- results --
    def _check_all_finished(self) -> None:
        ptr = self.w.cols.npu_ptr
        for rank in np.flatnonzero(np.isnan(self.finish)).tolist():
            lo, hi = int(ptr[rank]), int(ptr[rank + 1])
            state = self.state[lo:hi]
            left = int((state != STATE_DONE).sum())
            waiting = np.flatnonzero(state == STATE_ONGOING)
            if waiting.size:  # only communication stays issued and unfinished: its peers never answer
                n = self.w.cols.node(lo + int(waiting[0]))
                raise located(f"{self.w.source}.{rank}.et", f"rank {rank} never finishes: node {n.id} '{n.name}' "
                            f"({n.kind}) was issued but never completes ({left} of {hi - lo} nodes left): the ranks "
                            "wait for each other (a receive whose send depends on it, or collectives issued in "
                            "a different order on different ranks)")
            stuck = (np.flatnonzero(state == STATE_READY) if (state == STATE_READY).any() else
                     np.flatnonzero(state <= STATE_READY))
            first = self.w.cols.node(lo + int(stuck[0])) if stuck.size else None
            what = f"node {first.id} '{first.name}' ({first.kind})" if first else "its last node"
            raise located(f"{self.w.source}.{rank}.et", f"rank {rank} never finishes: {what} cannot start "
                        f"({left} of {hi - lo} nodes left); a node freed only "
                        "by a skipped (invalid, metadata or zero-size roofline) node waits forever in ASTRA-sim")

    def _report(self) -> dict[str, Any]:
        from .report import breakdowns, with_step_idle
        from .waits import data_start

        c = self.w.cols
        self.moving = data_start(c.npu_ptr, c.kind, self.channel, self.start)
        finish = np.nan_to_num(self.finish, nan=0.0).tolist()
        step = max(finish, default=0.0)
        tiers = self.timer.tiers(step)
        out: dict[str, Any] = {
            "workload": self.w.source, "graph": self.p.g.name, "model": self.opts.sim.model,
            "num_npus": self.w.num_npus, "step_time_ns": step,
            "roofline": self.opts.roofline, "npus": breakdowns(finish, c.npu_ptr, c.kind, self.start, self.end, self.moving),
            "collectives": sorted(self.timer.collectives, key=lambda c: (c["start_ns"], c["group"])),
            "messages": self.timer.messages, "tiers": tiers, "engine_runs": self.timer.engine_runs,
            "network": self.network,
        }
        if self.timer.cautions:
            out["caveats"] = list(self.timer.cautions.values())
        with_step_idle(out)
        if self.opts.keep_timeline:
            out["timeline"] = [self._timeline(r) for r in range(self.w.num_npus)]
        return out

    def _timeline(self, rank: int) -> list[tuple[int, str, str, float, float, float]]:
        """Rank's issued nodes as (id, kind, name, start, end, data start), by start; the data start
        (waits.py) is later than the start for a receive or collective that waited for its peer."""
        c = self.w.cols
        lo, hi = int(c.npu_ptr[rank]), int(c.npu_ptr[rank + 1])
        rows = np.flatnonzero(self.state[lo:hi] >= STATE_ONGOING) + lo
        rows = rows[np.argsort(self.start[rows], kind="stable")]
        return [(int(c.id[i]), KINDS[int(c.kind[i])], c.name(i), float(self.start[i]), float(self.end[i]),
                 float(self.moving[i])) for i in rows.tolist()]


def replay(p: PreparedGraph, w: Workload, opts: ReplayOptions = ReplayOptions()) -> dict[str, Any]:
    """Replay `w` on the prepared fabric and return the report dict (docs/workloads.md)."""
    return Replay(p, w, opts).run()
