"""Simulate on a fabric with failed or degraded links, against the same fabric healthy.

Failures are applied by the one graph transform (`graph.failures`), so routing simply never sees
a failed edge: ECMP sets shrink to the surviving shortest paths, and dimension-order routing
takes the shortest detour between two coordinate neighbours whose direct link is cut. Before
running, every process group is checked for connectivity on the failed graph; a split group is an
error that names the ranks on each side and the failed links and nodes that make the cut. Each
result gains a `failures` block with the healthy time and the slowdown (failed / healthy time).
What this ignores: failures hold from time 0 (static routes computed around them); a link failing
mid-run, the time routing takes to converge, and lost packets are not modelled.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Sequence

import numpy as np

from ..errors import Diagnostic, InfraGraphError, Location
from ..graph import FQG
from ..graph.failures import Failures, apply_failures, edge_name, healthy
from ..graph.query import connected_components
from .run import PreparedGraph, SimulationOptions, prepare, simulate


def check_groups_connected(failed: PreparedGraph, g: FQG, f: Failures,
                           groups: Sequence[Sequence[int]] | None) -> None:
    """A located error for every process group the failures split, naming the cut."""
    _, label = connected_components(failed.g)
    npus = failed.npu_nodes
    groups = groups or [range(npus.size)]
    diags = []
    for i, group in enumerate(groups):
        ranks = np.asarray(list(group), dtype=np.int64)
        parts = label[npus[ranks]]
        if np.unique(parts).size < 2:
            continue
        main = parts[0]
        near, far = ranks[parts == main], ranks[parts != main]
        member_parts = np.zeros(label.max() + 1, bool)
        member_parts[parts] = True
        cut = np.flatnonzero(f.failed_edge & (member_parts[label[g.edge_src]] | member_parts[label[g.edge_dst]]))
        cut = cut[label[g.edge_src[cut]] != label[g.edge_dst[cut]]]
        names = g.node_names
        shown = ", ".join(edge_name(g, int(e), names) for e in cut[:6])
        dead = [names[n] for n in np.flatnonzero(f.failed_node)[:6]]
        diags.append(Diagnostic(
            f"process group {i} is disconnected by the failures: ranks {_ranks(near)} cannot reach ranks "
            f"{_ranks(far)} (e.g. {names[int(npus[near[0]])]} and {names[int(npus[far[0]])]}); the cut: "
            f"{cut.size} failed link(s) {shown}{', …' if cut.size > 6 else ''}"
            + (f"; failed nodes {', '.join(dead)}" if dead else ""),
            Location(path="--fail"), "fail fewer links, or simulate a group that stays connected (--group)"))
    if diags:
        raise InfraGraphError(diags)


def _ranks(ranks: np.ndarray) -> str:
    """[0 1 2 3 7] -> '0-3,7'."""
    out, start = [], None
    values = ranks.tolist()
    for k, r in enumerate(values):
        if start is None:
            start = r
        if k + 1 == len(values) or values[k + 1] != r + 1:
            out.append(str(start) if start == r else f"{start}-{r}")
            start = None
    text = ",".join(out)
    return text if len(text) <= 60 else text[:57] + "…"


def simulate_with_failures(g: FQG, f: Failures, sizes: Sequence[float],
                           opts: SimulationOptions = SimulationOptions(),
                           progress: Callable[[dict[str, float]], None] | None = None) -> list[dict[str, Any]]:
    """One result per size on the failed graph, each with a `failures` block comparing it with the
    healthy graph (both simulated with the same options). `progress` is passed to the engine; a
    failed-fabric run stopped by Ctrl-C is returned as a partial result without the comparison (and
    ends a sweep), one stopped during the healthy run raises KeyboardInterrupt."""
    cut = apply_failures(g, f)
    if cut.num_edges == 0 and g.num_edges:
        raise InfraGraphError(Diagnostic(f"the failures cut all {g.num_edges:,} links of graph '{g.name}'; "
                                         "there is no network left to simulate", Location(path="--fail"),
                                         "fail fewer nodes or links (a glob like spine.* rather than *)"))
    failed = prepare(cut)
    check_groups_connected(failed, g, f, opts.groups)
    base = prepare(healthy(g))
    summary = f.summary(g)
    out = []
    for s in sizes:
        o = replace(opts, size_bytes=float(s))
        r = simulate(failed, o, progress=progress, keep_partial=True)
        if "partial" in r:
            out.append(r)
            break
        h = simulate(base, replace(o, trace=False), progress=progress)
        t, th = r["collective_time_ns"], h["collective_time_ns"]
        r["failures"] = {**summary, "healthy_time_ns": th, "slowdown": t / th if th > 0 else 1.0,
                         "healthy_bus_bandwidth_gb_per_s": h["bus_bandwidth_gb_per_s"]}
        out.append(r)
    return out


def format_failures(r: dict) -> str:
    """Text lines for a result's `failures` block."""
    f = r["failures"]
    lines = [f"  failures        {f['failed_edges']} link(s) cut, {f['failed_nodes']} node(s) down, "
             f"{f['degraded_edges']} link(s) degraded"]
    lines += [f"    {s}" for s in f["sources"]]
    lines.append("    (failures hold from time 0: routes are computed around them; no mid-run failure, "
                 "rerouting delay or packet loss is modelled)")
    lines.append(f"  healthy         {f['healthy_time_ns']:.0f} ns, busbw {f['healthy_bus_bandwidth_gb_per_s']:.3f} GB/s"
                 f"  -> slowdown x{f['slowdown']:.3f}")
    return "\n".join(lines)
