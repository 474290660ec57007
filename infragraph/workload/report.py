"""What a replay reports: the per-NPU breakdown, the text summary, the Perfetto trace, the picture.

Per NPU, over [0, its finish time]:
- compute: time some compute node (GPU or CPU) runs (the union of their intervals);
- communication: time some collective, send or receive is in flight on it (union);
- overlapped: communication while compute runs; exposed: communication while nothing computes;
- memory: time a memory load/store runs outside compute and communication;
- idle: the rest (waiting for a late peer's dependency, or finished before the step ends:
  the step time is the last NPU's finish, and every NPU's idle runs to it).
ASTRA-sim's own "exposed communication" (finish - GPU compute ticks) is exposed + memory + idle here.
"""

from __future__ import annotations

from typing import Any

from .trace import Node

COMPUTE = ("compute",)
COMMUNICATION = ("collective", "send", "recv")
MEMORY = ("mem-load", "mem-store")


def _union(spans: list[tuple[float, float]]) -> list[tuple[float, float]]:
    out: list[list[float]] = []
    for a, b in sorted(s for s in spans if s[1] > s[0]):
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return [(a, b) for a, b in out]


def _length(spans: list[tuple[float, float]]) -> float:
    return sum(b - a for a, b in spans)


def _intersection(x: list[tuple[float, float]], y: list[tuple[float, float]]) -> list[tuple[float, float]]:
    out, i, j = [], 0, 0
    while i < len(x) and j < len(y):
        a, b = max(x[i][0], y[j][0]), min(x[i][1], y[j][1])
        if b > a:
            out.append((a, b))
        if x[i][1] < y[j][1]:
            i += 1
        else:
            j += 1
    return out


def breakdown(rank: int, finish_ns: float, nodes: dict[int, Node], spans: dict[int, list[float]]) -> dict[str, Any]:
    """One NPU's compute / communication / overlapped / exposed / memory / idle time (ns)."""
    def of(kinds: tuple[str, ...]) -> list[tuple[float, float]]:
        return _union([(s[0], s[1]) for i, s in spans.items() if nodes[i].kind in kinds])

    comp, comm, mem = of(COMPUTE), of(COMMUNICATION), of(MEMORY)
    overlapped = _length(_intersection(comp, comm))
    busy = _union(comp + comm)
    memory_only = _length(mem) - _length(_intersection(mem, busy))
    return {"rank": rank, "finish_ns": finish_ns, "compute_ns": _length(comp), "communication_ns": _length(comm),
            "overlapped_ns": overlapped, "exposed_ns": _length(comm) - overlapped, "memory_ns": memory_only,
            "idle_ns": finish_ns - _length(busy) - memory_only}


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
             f"step time: {_ns(r['step_time_ns'])} ({r['step_time_ns']:,.0f} ns)"]
    npus = r["npus"]
    if npus:
        def avg(k: str) -> float:
            return sum(n[k] for n in npus) / len(npus)
        lines.append(f"per NPU (mean of {len(npus)}): compute {_ns(avg('compute_ns'))}, exposed communication "
                     f"{_ns(avg('exposed_ns'))}, overlapped communication {_ns(avg('overlapped_ns'))}, memory "
                     f"{_ns(avg('memory_ns'))}, idle {_ns(avg('idle_to_step_ns'))} (to the step's end)")
        lines.append(f"  {'rank':>5} {'finish':>14} {'compute':>14} {'exposed':>14} {'overlapped':>14} {'idle':>14}")
        for n in npus[:top]:
            lines.append(f"  {n['rank']:>5} {_ns(n['finish_ns']):>14} {_ns(n['compute_ns']):>14} "
                         f"{_ns(n['exposed_ns']):>14} {_ns(n['overlapped_ns']):>14} {_ns(n['idle_to_step_ns']):>14}")
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


def chrome_trace(r: dict[str, Any], ranks: tuple[int, ...] | None = None) -> dict[str, Any]:
    """Perfetto / Chrome trace: one process per NPU (every NPU, or `ranks`) with a compute lane, a
    communication lane and a memory lane; one complete slice per node (times in µs, as the format wants)."""
    if "timeline" not in r:
        raise ValueError("the report has no timeline; replay with keep_timeline=True")
    lanes = {"compute": 0, "collective": 1, "send": 1, "recv": 2, "mem-load": 3, "mem-store": 3}
    names = {0: "compute", 1: "communication", 2: "receives", 3: "memory"}
    events: list[dict[str, Any]] = []
    keep = None if ranks is None else set(ranks)
    for rank, spans in enumerate(r["timeline"]):
        if keep is not None and rank not in keep:
            continue
        events.append({"name": "process_name", "ph": "M", "pid": rank, "args": {"name": f"NPU {rank}"}})
        for tid, lane in names.items():
            events.append({"name": "thread_name", "ph": "M", "pid": rank, "tid": tid, "args": {"name": lane}})
        for nid, kind, name, start, end in spans:
            if kind not in lanes:
                continue
            events.append({"name": name or f"{kind} {nid}", "cat": kind, "ph": "X", "pid": rank,
                           "tid": lanes[kind], "ts": start / 1e3, "dur": (end - start) / 1e3,
                           "args": {"node": nid}})
    return {"traceEvents": events, "displayTimeUnit": "ns",
            "otherData": {"workload": r["workload"], "step_time_ns": r["step_time_ns"], "model": r["model"]}}


def breakdown_picture(r: dict[str, Any], path: str, max_bars: int = 64) -> None:
    """A stacked bar per NPU (compute, overlapped, exposed, memory, idle to the step's end), in ms.
    More than `max_bars` NPUs: evenly spaced ranks are drawn and the title says so."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    npus = r["npus"]
    pick = npus if len(npus) <= max_bars else [npus[i * len(npus) // max_bars] for i in range(max_bars)]
    parts = [("compute (no comm.)", lambda n: n["compute_ns"] - n["overlapped_ns"], "#4c72b0"),
             ("overlapped comm.", lambda n: n["overlapped_ns"], "#55a868"),
             ("exposed comm.", lambda n: n["exposed_ns"], "#c44e52"),
             ("memory", lambda n: n["memory_ns"], "#8172b2"),
             ("idle", lambda n: n["idle_to_step_ns"], "#cccccc")]
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
