"""Replay a workload on one shared network: collectives and messages in flight at once share links.

Used for the contention-aware models (`fair`, `aware`, `astra-aware`). The replay's event loop and
the collective engine's network run in one event queue (simengine/src/workload_session.rs): a
collective joins the network when its first member issues it, each member starts its part at its
own issue (as `CollectiveTimer` does alone), its members' finishes release their dependents, and a
send is one message on the network (the astra models: the network's time alone, as ASTRA-sim's
sends carry no endpoint delay; the others: plus two endpoint delays, the sender's and the
receiver's, as the engine's point-to-point collective charges them; with --chunks above 1, a
point-to-point job of its two ranks instead, cut into those chunks as when timed alone, except in
NCCL mode, below). Each collective is planned as `CollectiveTimer.collective_options`
plans it alone (sub-group rings, endpoint delays, chunks), and every message takes the route the
whole system's collective would (ASTRA-sim's routes under the astra models).

NCCL mode (`--algorithm nccl`, the default on GPU servers) plans each collective alone on links
derated to NCCL's per-link figures times its protocol's payload share, with no link latency, and
adds NCCL's modelled latency of the call to every member's finish (simulate/nccl.py). On the shared
network the links are NCCL's per-link figures at full payload (one fabric: the GPU generation is
rank 0's, and every group must have the same), with no latency; each collective carries its
protocol's overhead as bytes on the wire (its size / payload share: LL twice its payload) and its
NCCL latency as a delay of each member's finish. Alone and shared then give the same time to a
collective that shares no link. A message crosses the same links and adds its route's link
latencies and the two endpoint delays (docs/workloads.md, "Contention between concurrent
collectives").

Every job routes as it would alone: an all-to-all's messages between servers with PXN (the
default, `--pxn auto`), the rest without (the network's own routing is the whole system's
all-reduce's; `Session::add_job` takes each job's setting).

`--model astra` keeps timing each collective alone (timing.py), which is exact there: ASTRA-sim's
congestion-unaware backend has no contention; so does `--network alone` (`ReplayOptions.shared_network`).

Not shared (the replay then times each collective alone, and the report says why,
`network: alone (...)`): a workload that mixes NCCL-mode groups with others or GPU generations, and
any collective whose engine inputs would change the fabric's links.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..simulate.engine import engine_error, engine_error_type, simulate_arrays
from ..simulate.lanes import nvswitch_planes, spread_bundles
from ..simulate.load import link_tiers
from ..simulate.nccl import Servers, bus_factor, derated_bandwidth
from ..simulate.run import ENGINE_COLUMNS, EngineCall, PreparedGraph, engine_call
from .timing import CollectiveTimer
from .trace import COLLECTIVE_TYPES, KIND_CODES, Workload

# the engine's node index of a member that has not issued a collective (workload_session.rs)
UNISSUED = 2**32 - 1
# a send that is one raw message, not a point-to-point job (workload_session.rs, `RAW`)
RAW = 2**32 - 1

CONTENTION_MODELS = ("fair", "aware", "astra-aware")
# The engine inputs that are the fabric itself: every collective on the shared network must agree.
FABRIC_KEYS = ("num_nodes", "edge_src", "edge_dst", "edge_bandwidth_gbps", "edge_latency_ns", "npu_nodes")


class SharedNetwork:
    """The workload `w` on the fabric of `timer` as one shared network; `plan` first, then `run`."""

    def __init__(self, timer: CollectiveTimer, w: Workload) -> None:
        self.timer, self.w = timer, w
        self.reason: str | None = None

    def plan(self, arrays: dict[str, Any], collectives: np.ndarray, p2p_keys: np.ndarray) -> bool:
        """Decide the engine inputs for the replay's `arrays` (replay.py), whose collective nodes are
        the rows `collectives` and whose message keys are `p2p_keys` (tag, src, dst, size): the
        whole system's run as the base (fabric, routing, common options) and one shape per distinct
        (collective, group, size). False (with `reason`) when the network cannot be shared."""
        c, timer, p = self.w.cols, self.timer, self.timer.p
        if timer.sim.schedules:  # the network's jobs carry no schedule programs (workload_session.rs)
            self.reason = "a custom schedule (--algorithm schedule:FILE) runs each collective alone"
            return False
        everyone = tuple(range(timer.num_npus))
        base = engine_call(p, timer.collective_options("all-reduce", everyone, 1 << 20))
        self.base, self.planes = dict(base.kwargs), base.planes
        nccl = base.plan is not None
        fabric_keys = FABRIC_KEYS
        if nccl:
            # NCCL mode: the links at NCCL's per-link figures with no protocol overhead and no
            # latency; each collective brings its protocol's overhead as bytes and NCCL's latency
            # as a delay of its finish (module doc; docs/workloads.md).
            self.base["edge_bandwidth_gbps"] = nccl_links(p, base, p.servers_of(everyone))
            fabric_keys = tuple(k for k in FABRIC_KEYS if k not in ("edge_bandwidth_gbps", "edge_latency_ns"))
        shapes: dict[tuple, int] = {}
        spec_of = np.zeros(c.kind.size, dtype="<u4")
        for row in collectives.tolist():
            key = (int(c.comm_type[row]), int(c.group[row]), int(c.comm_size[row]))
            if key not in shapes:
                shapes[key] = len(shapes)
            spec_of[row] = shapes[key]
        self.shapes = []
        for (ctype, group, size) in shapes:
            members = self.w.members(group)
            call = engine_call(p, timer.collective_options(COLLECTIVE_TYPES[ctype], members, size))
            what = f"the {COLLECTIVE_TYPES[ctype]} on group {group}"
            if (call.plan is not None) != nccl:
                self.reason = f"{what} {'does not run' if nccl else 'runs'} in NCCL mode, unlike the whole system's"
                return False
            if nccl and p.servers_of(members).arch != p.servers_of(everyone).arch:
                self.reason = f"{what} spans GPUs of another generation than rank 0's (NCCL's per-link figures differ)"
                return False
            if any(not _same(call.kwargs[k], base.kwargs[k]) for k in fabric_keys):
                self.reason = f"{what} changes the fabric's links"
                return False
            efficiency, latency = (call.plan.payload_efficiency, call.plan.latency_ns) if nccl else (1.0, 0.0)
            for _, message in call.plan.cautions if nccl else ():
                timer.note_caution(COLLECTIVE_TYPES[ctype], message)
            self.shapes.append(_shape(call.kwargs, efficiency, latency))
        astra = timer.sim.model.startswith("astra")
        # Sends: one raw message each, or, where the engine would cut it into --chunks pieces
        # (our own models outside NCCL mode: timing.py's point-to-point run), a point-to-point job.
        send_spec = np.full(len(p2p_keys), RAW, dtype="<u4")
        if not astra and not nccl and timer.sim.chunks > 1:
            by_size: dict[int, int] = {}
            for i, (_, src, dst, size) in enumerate(p2p_keys.tolist()):
                if size not in by_size:
                    call = engine_call(p, timer.collective_options("point-to-point", (int(src), int(dst)), int(size)))
                    if any(not _same(call.kwargs[k], base.kwargs[k]) for k in fabric_keys):
                        self.reason = f"a {size}-byte send changes the fabric's links"
                        return False
                    by_size[size] = len(self.shapes)
                    self.shapes.append(_shape(call.kwargs, 1.0, 0.0))
                send_spec[i] = by_size[size]
        self.workload = {key: arrays[key] for key in ("npu_ptr", "op", "resource", "duration", "dep_ptr", "deps",
                                                      "channel", "group_ptr", "members", "p2p_keys")}
        self.workload.update(shapes=self.shapes, spec_of=spec_of.tobytes(), send_spec=send_spec.tobytes(),
                             p2p=[(int(s), int(d), float(b)) for _, s, d, b in p2p_keys.tolist()],
                             send_extra_ns=0.0 if astra else 2 * float(timer.sim.endpoint_delay_ns),
                             edge_latency_ns=np.nan_to_num(np.asarray(p.arrays["edge_latency_ns"], dtype=np.float64),
                                                           nan=0.0).tolist() if nccl else [])
        return True

    def run(self) -> dict[str, Any]:
        """Run the replay; fills the timer's records and tier bytes, returns the engine's arrays."""
        try:
            raw = simulate_arrays()(**self.base, workload=self.workload)
        except engine_error_type() as exc:
            raise engine_error(self.timer.p.g, exc) from None
        self._record(raw)
        return raw

    def _record(self, raw: dict[str, Any]) -> None:
        c, timer = self.w.cols, self.timer
        for nodes, issue, finish in raw["collectives"]:
            if UNISSUED in nodes:  # a member never issued it (a stall): the replay's finish check reports it
                continue
            row = nodes[0]
            group, size = int(c.group[row]), int(c.comm_size[row])
            collective = COLLECTIVE_TYPES[int(c.comm_type[row])]
            start, end = min(issue), max(finish)
            n = len(nodes)
            moved = size * n if collective == "all-gather" else size
            busbw = moved / (end - start) * bus_factor(collective, n) if end > start else 0.0
            timer.record_collective(group, n, collective, size, c.name(row), start, end, max(issue), busbw)
        start, end = np.frombuffer(raw["start"], dtype="<f8"), np.frombuffer(raw["end"], dtype="<f8")
        sends = np.flatnonzero((c.kind == KIND_CODES["send"]) & ~np.isnan(end))
        for row in sends[np.argsort(start[sends], kind="stable")].tolist():
            timer.record_message(int(c.src[row]), int(c.dst[row]), int(c.tag[row]), int(c.comm_size[row]),
                                 float(start[row]), float(end[row]))
        link_bytes, busy = raw["link_bytes"], raw["link_busy_ns"]
        if self.planes is not None:
            link_bytes, busy = spread_bundles(self.planes, link_bytes, busy)
        p = timer.p
        if p.tiers is None:
            p.tiers = link_tiers(p.g)
        per_link = np.repeat(p.tiers.edge_tier, 2)
        b = np.asarray(link_bytes, dtype=np.float64)
        for t, name in enumerate(p.tiers.names):
            timer.tier_bytes[name] += float(b[per_link == t].sum())


def nccl_links(p: PreparedGraph, call: EngineCall, s: Servers) -> bytes:
    """Per edge of the engine's fabric (`call`'s, NVSwitch chips merged where it merges them), the
    bandwidth NCCL credits it with on the servers `s` (`nccl.derated_bandwidth` at full payload), as
    the engine takes it (little-endian f64 bytes: simulate.run.ENGINE_COLUMNS)."""
    bw = derated_bandwidth(p.g, np.asarray(p.arrays["edge_bandwidth_gbps"]), p.npu_nodes, s, 1.0)
    merged = bw if call.planes is None else nvswitch_planes(p.g, bw).bandwidth_gbps
    return np.ascontiguousarray(merged, dtype=ENGINE_COLUMNS["edge_bandwidth_gbps"]).tobytes()


def _shape(k: dict[str, Any], efficiency: float, latency_ns: float) -> tuple:
    """What a job of the engine call `k` brings to the shared network (workload_python.rs, `Shape`),
    its bytes over the wire at `efficiency` payload and `latency_ns` added to its members' finishes,
    and its routing's PXN (an all-to-all's by default: simulate.run._routing), which the network's
    own routing (the whole system's all-reduce's) does not have."""
    return (k["collective"], float(k["size_bytes"]) / efficiency, list(k["algorithms"]), list(k["dims"]),
            int(k["chunks"]), float(k["endpoint_delay_ns"]), bool(k["local_ring"]), int(k["root"]), float(latency_ns),
            bool(k.get("pxn", False)))


def _same(a: Any, b: Any) -> bool:
    return a is b or a == b  # engine arguments: numbers, or arrays as bytes (simulate.run.ENGINE_COLUMNS)
