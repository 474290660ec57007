"""What a replay reports: the per-NPU breakdown, the text summary, the Perfetto trace, the picture.

Per NPU, over [0, its finish time], parts that never overlap and sum to the finish time:
- compute: time some compute node (GPU or CPU) runs (the union of their intervals);
- communication: time some collective, send or receive moves data on it (union), from the time
  its data could start moving (waits.py: a receive from its matching send's issue, a collective
  from its last member's issue) to its end;
- overlapped: communication while compute runs; exposed: communication while nothing computes;
- memory: time a memory load/store runs outside compute and communication;
- waiting: time a posted receive or an issued collective waits for its peer (the send's issue,
  the group's last member) while nothing else runs: a pipeline bubble or a late peer;
- idle: the rest (nothing issued: waiting on a local dependency that is not communication, or
  finished before the step ends: the step time is the last NPU's finish, and every NPU's idle
  runs to it).
compute + exposed + memory + waiting + idle = the NPU's finish time. ASTRA-sim's own "exposed
communication" (finish - GPU compute ticks) is exposed + memory + waiting + idle here.
"""

from __future__ import annotations

from typing import Any


import numpy as np

# span classes of the breakdown, by Chakra NodeType number (trace.KINDS): 0 compute, 1 communication,
# 2 memory, 3 none (invalid, metadata)
SPAN_CLASS = np.array([3, 3, 2, 2, 0, 1, 1, 1], dtype=np.uint8)


def breakdowns(finish_ns: list[float], npu_ptr: np.ndarray, kind: np.ndarray, start: np.ndarray,
               end: np.ndarray, moving: np.ndarray | None = None) -> list[dict[str, Any]]:
    """Every NPU's compute / communication / overlapped / exposed / memory / waiting / idle time (ns),
    from its nodes' Chakra kinds, [start, end) spans (NaN: never ran) and, per node, the time its
    data could start moving (`moving`, waits.data_start; None: its start), rows `npu_ptr[r]:npu_ptr[r + 1]`.
    The engine takes the unions of the spans (workload_span_unions), twice: communication from
    `moving`, then from `start` counted with memory (so its union with everything else grows by
    the waiting alone). overlapped = |compute| + |communication| - |compute or communication| (the
    busy time), memory = |busy or memory| - |busy|, waiting = |busy or memory or whole communication
    spans| - |busy or memory|."""
    from .._simengine import workload_span_unions

    cls = SPAN_CLASS[np.asarray(kind)]
    start = np.asarray(start, dtype="<f8")
    comm = cls == 1
    moving = start if moving is None else np.asarray(moving, dtype="<f8")

    def unions(classes: np.ndarray, begin: np.ndarray) -> np.ndarray:
        return np.frombuffer(workload_span_unions(npu_ptr=np.asarray(npu_ptr, dtype="<u4").tobytes(),
                                                  class_=classes.astype(np.uint8).tobytes(),
                                                  start=np.ascontiguousarray(begin, dtype="<f8").tobytes(),
                                                  end=np.asarray(end, dtype="<f8").tobytes()),
                             dtype="<f8").reshape(-1, 5)

    u = unions(cls, np.where(comm, moving, start))
    whole = unions(np.where(comm, 2, cls), start)[:, 4]
    out = []
    for rank, ((comp, comm_ns, mem, busy, every), posted) in enumerate(zip(u.tolist(), whole.tolist())):
        overlapped = comp + comm_ns - busy
        memory_only = every - busy
        waiting = max(posted - every, 0.0)
        out.append({"rank": rank, "finish_ns": finish_ns[rank], "compute_ns": comp, "communication_ns": comm_ns,
                    "overlapped_ns": overlapped, "exposed_ns": comm_ns - overlapped, "memory_ns": memory_only,
                    "waiting_ns": waiting, "idle_ns": finish_ns[rank] - every - waiting})
    return out


def with_step_idle(report: dict[str, Any]) -> None:
    """Idle measured to the step's end (the last NPU's finish), the way a training step waits."""
    for n in report["npus"]:
        n["idle_to_step_ns"] = n["idle_ns"] + report["step_time_ns"] - n["finish_ns"]


def _ns(x: float) -> str:
    return f"{x:,.0f} ns" if x < 1e6 else f"{x / 1e6:,.3f} ms"


def format_report(r: dict[str, Any], top: int = 8) -> str:
    """The text summary `infragraph simulate --workload` prints."""
    lines = [f"workload {r['workload']} on '{r['graph']}' ({r['num_npus']} NPUs, model {r['model']}"
             f"{', roofline' if r['roofline'] else ''})",
             f"step time: {_ns(r['step_time_ns'])}" + ("" if _ns(r["step_time_ns"]).endswith(" ns") else
                                                        f" ({r['step_time_ns']:,.0f} ns)")]
    if "network" in r:
        # Whether concurrent collectives contended: 'alone' times each by itself (optimistic where
        # groups share links), which a reader of the step time must know.
        lines.append(f"network: {r['network']}")
    for caveat in r.get("caveats", ()):
        lines.append(f"caution: {caveat}")
    npus = r["npus"]
    if npus:
        def avg(k: str) -> float:
            return sum(n[k] for n in npus) / len(npus)
        lines.append(f"per NPU (mean of {len(npus)}): compute {_ns(avg('compute_ns'))}, exposed communication "
                     f"{_ns(avg('exposed_ns'))}, overlapped communication {_ns(avg('overlapped_ns'))}, memory "
                     f"{_ns(avg('memory_ns'))}, waiting for peers {_ns(avg('waiting_ns'))}, idle "
                     f"{_ns(avg('idle_to_step_ns'))} (to the step's end)")
        lines.append(f"  {'rank':>5} {'finish':>14} {'compute':>14} {'exposed':>14} {'overlapped':>14} "
                     f"{'waiting':>14} {'idle':>14}")
        for n in npus[:top]:
            lines.append(f"  {n['rank']:>5} {_ns(n['finish_ns']):>14} {_ns(n['compute_ns']):>14} "
                         f"{_ns(n['exposed_ns']):>14} {_ns(n['overlapped_ns']):>14} {_ns(n['waiting_ns']):>14} "
                         f"{_ns(n['idle_to_step_ns']):>14}")
        if len(npus) > top:
            lines.append(f"  ... {len(npus) - top} more NPUs (--json for all)")
    colls = r["collectives"]
    lines.append(f"collectives: {len(colls)}; point-to-point messages: {len(r['messages'])}")
    for c in colls[:top]:
        lines.append(f"  group {c['group']} ({c['ranks']} ranks) {c['collective']} {c['size_bytes']:,} B: "
                     f"{_ns(c['start_ns'])} .. {_ns(c['end_ns'])}, busbw {c['bus_bandwidth_gb_per_s']:.2f} GB/s")
    if len(colls) > top:
        lines.append(f"  ... {len(colls) - top} more (--json for all)")
    lines.append("link load over the step, per tier (bytes; mean Gbit/s per directed link):")
    for t in r["tiers"]:
        lines.append(f"  {t['tier']}: {t['bytes']:,.0f} B over {t['directed_links']} directed links, "
                     f"{t['mean_gbit_per_s_per_link']:.3f} Gbit/s mean")
    return "\n".join(lines)


LANES = ("compute", "communication", "receives", "memory")  # a trace's lanes per NPU, in display order
LANE_OF = {"compute": 0, "collective": 1, "send": 1, "recv": 2, "mem-load": 3, "mem-store": 3}


def _rows(spans: list[tuple[float, float]]) -> list[int]:
    """Per span (start, end), the row of its lane it is drawn in: the first row free by its start.
    Perfetto draws one thread's slices as a stack and drops ones that overlap without nesting; an
    NPU posts several receives at once (1F1B's), so they need rows of their own."""
    free_at: list[float] = []
    rows = [0] * len(spans)
    for i in sorted(range(len(spans)), key=lambda i: spans[i]):
        start, end = spans[i]
        row = next((k for k, t in enumerate(free_at) if t <= start), len(free_at))
        if row == len(free_at):
            free_at.append(end)
        free_at[row] = end
        rows[i] = row
    return rows


def chrome_trace(r: dict[str, Any], ranks: tuple[int, ...] | None = None) -> dict[str, Any]:
    """Perfetto / Chrome trace: one process per NPU (every NPU, or `ranks`) with a compute lane, a
    communication lane, a receives lane and a memory lane; one complete slice per node (times in
    µs, as the format wants). Slices of a lane that overlap (receives posted together) go to extra
    rows of that lane ("receives 2", thread id lane + 4 x row), so that no two slices of one thread
    overlap without nesting. A timeline entry may carry a sixth field, the time its data could
    start moving (waits.py): a receive or collective that waited for its peer is drawn as a
    "wait: NAME" slice (category "wait") up to then and its own slice from then on, in one row."""
    if "timeline" not in r:
        raise ValueError("the report has no timeline; replay with keep_timeline=True")
    events: list[dict[str, Any]] = []
    keep = None if ranks is None else set(ranks)
    for rank, spans in enumerate(r["timeline"]):
        if keep is not None and rank not in keep:
            continue
        events.append({"name": "process_name", "ph": "M", "pid": rank, "args": {"name": f"NPU {rank}"}})
        shown = [sp for sp in spans if sp[1] in LANE_OF]
        tids = [0] * len(shown)
        for lane in range(len(LANES)):
            mine = [i for i, sp in enumerate(shown) if LANE_OF[sp[1]] == lane]
            for i, row in zip(mine, _rows([(shown[i][3], shown[i][4]) for i in mine])):
                tids[i] = lane + len(LANES) * row
        for tid in sorted(set(tids) | set(range(len(LANES)))):
            lane, row = tid % len(LANES), tid // len(LANES)
            events.append({"name": "thread_name", "ph": "M", "pid": rank, "tid": tid,
                           "args": {"name": LANES[lane] + (f" {row + 1}" if row else "")}})
            events.append({"name": "thread_sort_index", "ph": "M", "pid": rank, "tid": tid,
                           "args": {"sort_index": lane * 1000 + row}})
        for (nid, kind, name, start, end, *moving), tid in zip(shown, tids):
            label = name or f"{kind} {nid}"
            begin = min(max(moving[0], start), end) if moving else start
            if begin > start:  # waiting for the peer (the send's issue, the last member), then moving data
                events.append({"name": f"wait: {label}", "cat": "wait", "ph": "X", "pid": rank, "tid": tid,
                               "ts": start / 1e3, "dur": (begin - start) / 1e3, "args": {"node": nid}})
            events.append({"name": label, "cat": kind, "ph": "X", "pid": rank,
                           "tid": tid, "ts": begin / 1e3, "dur": (end - begin) / 1e3,
                           "args": {"node": nid}})
    return {"traceEvents": events, "displayTimeUnit": "ns",
            "otherData": {"workload": r["workload"], "step_time_ns": r["step_time_ns"], "model": r["model"]}}


def breakdown_picture(r: dict[str, Any], path: str, max_bars: int = 64) -> None:
    """A stacked bar per NPU (compute, overlapped, exposed, waiting for peers, memory, idle to the
    step's end), in ms.
    More than `max_bars` NPUs: evenly spaced ranks are drawn and the title says so."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    npus = r["npus"]
    pick = npus if len(npus) <= max_bars else [npus[i * len(npus) // max_bars] for i in range(max_bars)]
    parts = [("compute (no comm.)", lambda n: n["compute_ns"] - n["overlapped_ns"], "#4c72b0"),
             ("overlapped comm.", lambda n: n["overlapped_ns"], "#55a868"),
             ("exposed comm.", lambda n: n["exposed_ns"], "#c44e52"),
             ("waiting for peers", lambda n: n["waiting_ns"], "#dd8452"),
             ("memory", lambda n: n["memory_ns"], "#8172b2"),
             ("idle (to the step's end)", lambda n: n["idle_to_step_ns"], "#cccccc")]
    fig, ax = plt.subplots(figsize=(max(7.5, 0.18 * len(pick) + 3.5), 4.0))
    x = list(range(len(pick)))
    bottom = [0.0] * len(pick)
    for label, f, color in parts:
        h = [f(n) / 1e6 for n in pick]
        ax.bar(x, h, bottom=bottom, color=color, label=label, width=0.8)
        bottom = [b + v for b, v in zip(bottom, h)]
    ax.set_xticks(x if len(pick) <= 32 else x[::max(1, len(pick) // 16)])
    ax.set_xticklabels([str(pick[i]["rank"]) for i in (x if len(pick) <= 32 else x[::max(1, len(pick) // 16)])])
    ax.set_xlabel("NPU rank" + (f" ({len(pick)} of {len(npus)} shown)" if len(pick) < len(npus) else ""))
    ax.set_ylabel("time (ms)")
    ax.set_title(f"{r['workload']}: step {r['step_time_ns'] / 1e6:,.3f} ms on {r['graph']} ({r['model']})",
                 fontsize=9)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
