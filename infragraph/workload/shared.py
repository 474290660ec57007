"""Replay a workload on one shared network: collectives and messages in flight at once share links.

Used for the contention-aware models (`fair`, `aware`, `astra-aware`). The replay's event loop and
the collective engine's network run in one event queue (simengine/src/workload_session.rs): a
collective joins the network when its first member issues it, each member starts its part at its
own issue (as `CollectiveTimer` does alone), its members' finishes release their dependents, and a
send is one message on the network (the astra models: the network's time alone, as ASTRA-sim's
sends carry no endpoint delay; the others: plus two endpoint delays, the sender's and the
receiver's, as the engine's point-to-point collective charges them). Each collective is planned as `CollectiveTimer.collective_options`
plans it alone (sub-group rings, endpoint delays, chunks), and every message takes the route the
whole system's collective would (ASTRA-sim's routes under the astra models).

`--model astra` keeps timing each collective alone (timing.py), which is exact there: ASTRA-sim's
congestion-unaware backend has no contention.

Not shared (the replay then times each collective alone, and the report says why,
`network: alone (...)`): NCCL mode, whose plan derates the link bandwidths per collective, and any
collective whose engine inputs would change the fabric's links.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..simulate.engine import engine_error, engine_error_type, simulate_arrays
from ..simulate.lanes import spread_bundles
from ..simulate.load import link_tiers
from ..simulate.nccl import bus_factor
from ..simulate.run import engine_call
from .timing import CollectiveTimer
from .trace import COLLECTIVE_TYPES, KIND_CODES, Workload

# the engine's node index of a member that has not issued a collective (workload_session.rs)
UNISSUED = 2**32 - 1

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
        c, timer = self.w.cols, self.timer
        if timer.sim.schedules:  # the network's jobs carry no schedule programs (workload_session.rs)
            self.reason = "a custom schedule (--algorithm schedule:FILE) runs each collective alone"
            return False
        everyone = tuple(range(timer.num_npus))
        base = engine_call(timer.p, timer.collective_options("all-reduce", everyone, 1 << 20))
        if base.plan is not None:
            self.reason = "NCCL mode derates the links per collective"
            return False
        self.base, self.planes = base.kwargs, base.planes
        shapes: dict[tuple, int] = {}
        spec_of = np.zeros(c.kind.size, dtype="<u4")
        for row in collectives.tolist():
            key = (int(c.comm_type[row]), int(c.group[row]), int(c.comm_size[row]))
            if key not in shapes:
                shapes[key] = len(shapes)
            spec_of[row] = shapes[key]
        self.shapes = []
        for (ctype, group, size) in shapes:
            call = engine_call(timer.p, timer.collective_options(COLLECTIVE_TYPES[ctype], self.w.members(group), size))
            if call.plan is not None or any(not _same(call.kwargs[k], base.kwargs[k]) for k in FABRIC_KEYS):
                self.reason = f"the {COLLECTIVE_TYPES[ctype]} on group {group} changes the fabric's links (NCCL mode)"
                return False
            k = call.kwargs  # what a job brings to the shared network (workload_python.rs, `Shape`)
            self.shapes.append((k["collective"], float(k["size_bytes"]), list(k["algorithms"]), list(k["dims"]),
                                int(k["chunks"]), float(k["endpoint_delay_ns"]), bool(k["local_ring"]), int(k["root"])))
        astra = timer.sim.model.startswith("astra")
        self.workload = {key: arrays[key] for key in ("npu_ptr", "op", "resource", "duration", "dep_ptr", "deps",
                                                      "channel", "group_ptr", "members", "p2p_keys")}
        self.workload.update(shapes=self.shapes, spec_of=spec_of.tobytes(),
                             p2p=[(int(s), int(d), float(b)) for _, s, d, b in p2p_keys.tolist()],
                             send_extra_ns=0.0 if astra else 2 * float(timer.sim.endpoint_delay_ns))
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


def _same(a: Any, b: Any) -> bool:
    return a is b or list(a) == list(b)
