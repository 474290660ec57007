"""`infragraph simulate FILE`: time a collective on the graph (one size, or a sweep of sizes).

    infragraph simulate fabric.igl --collective all-reduce --size 1GiB --algorithm ring --chunks 4 \\
        --model aware [--dims 8,4] [--group 0-7 --group 8-15] [--json OUT] [--trace OUT]
    infragraph simulate fabric.igl --size 1KiB..1GiB        # table of time and bus bandwidth
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace

from ..errors import error
from ..simulate import ALGORITHMS, COLLECTIVES, MODELS, ROUTINGS, SimulationOptions, chrome_trace, parse_dims
from ..units import Quantity, UnitError, format_quantity, parse_quantity, parse_size_bytes, to_ns
from .common import add_failure_arguments, add_source_arguments, failure_spec, load_graph_with_progress, progress
from .sim_progress import SimProgress


def register(sub) -> None:
    p = sub.add_parser("simulate", help="simulate a collective (all-reduce, all-to-all, ...) on the graph",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_source_arguments(p)
    p.add_argument("--collective", default="all-reduce", choices=COLLECTIVES)
    p.add_argument("--size", default="1MiB",
                   help="per-NPU buffer (all-gather: shard), e.g. 1GiB; a sweep: 1KiB..1GiB (doubling) or 1KiB,1MiB")
    p.add_argument("--algorithm", default="ring",
                   help=f"one of {', '.join(ALGORITHMS)}, or auto (per dimension: ring on RI, direct on FC, "
                        "halving-doubling on a power-of-two SW, else direct); comma-separated for one per dimension")
    p.add_argument("--dims", help="logical dimensions, dimension 0 fastest, e.g. 8,4 or RI(8)_SW(4) (default: the "
                                  "graph's 'dims' annotation when it covers the group, else flat; --dims N forces flat)")
    p.add_argument("--group", action="append", default=[], metavar="RANKS",
                   help="a process group: 0-7 or 0,2,4,6 (repeatable: groups run concurrently; default all NPUs)")
    p.add_argument("--root", type=int, default=0, help="root member of each group (broadcast, reduce, "
                                                         "point-to-point source; the other member is the destination)")
    p.add_argument("--chunks", type=int, default=1, help="preferred dataset splits (default 1)")
    p.add_argument("--active-chunks", type=int, default=1, help="chunks in flight per dimension (default 1)")
    p.add_argument("--endpoint-delay", default="10ns", help="per-receive endpoint delay (default 10ns)")
    p.add_argument("--local-mem-bw", default="1600",
                   help="local memory bandwidth for reductions in GB/s (1e9 B/s), or 'none' (default 1600)")
    p.add_argument("--optimization", default="localBWAware", choices=("localBWAware", "baseline"))
    p.add_argument("--scheduling", default=None, choices=("fifo", "arrival", "lifo"),
                   help="order of chunks waiting on a dimension: fifo = (phase, chunk) order, never deadlocks "
                        "(default for unaware/aware/fair); arrival = ASTRA-sim's order (default for astra, "
                        "astra-aware); lifo = newest first. arrival and lifo can deadlock on asymmetric fabrics")
    p.add_argument("--model", default="fair", choices=MODELS,
                   help="fair (max-min sharing between concurrent flows; default), unaware (alpha-beta, no "
                        "contention: a lower bound), aware (FIFO links, store-and-forward), astra (ASTRA-sim "
                        "compatible: integer ns and its chunking), astra-aware")
    p.add_argument("--routing", default=None, choices=ROUTINGS,
                   help="shortest paths by hops or latency, or dimension-order over --dims (default: hops; "
                        "dor for astra/astra-aware on a graph stating its ASTRA-sim topology, as ASTRA-sim routes)")
    p.add_argument("--no-ecmp", action="store_true", help="always take the first of equal-cost paths")
    p.add_argument("--top", type=int, default=5, help="busiest links to print (default 5)")
    p.add_argument("--links", default="100", metavar="N|all[,cables]",
                   help="busiest links kept in the JSON result (default 100; 'all' for every used link); "
                        "'cables' lists inter-device links only, in the JSON and the printed busiest links "
                        "(e.g. --links cables or --links cables,all)")
    p.add_argument("--json", metavar="OUT", help="write the result (sweep: a list of results) as JSON")
    p.add_argument("--trace", metavar="OUT", help="write a Chrome/Perfetto trace of every message")
    p.add_argument("--progress", action="store_true",
                   help="show the progress line (simulated time, events/s, ETA) even when stderr is not a terminal")
    add_failure_arguments(p)
    p.set_defaults(func=run)


def parse_sizes(text: str) -> list[int]:
    """'1MiB' -> [1048576]; '1KiB..4KiB' -> [1024, 2048, 4096]; '1KiB,1MiB' -> both."""
    try:
        if ".." in text:
            lo, _, hi = text.partition("..")
            a, b = parse_size_bytes(lo), parse_size_bytes(hi)
            if a <= 0 or b < a:
                raise error(f"bad size range '{text}'; expected LOW..HIGH with 0 < LOW <= HIGH")
            sizes = [a]
            while sizes[-1] * 2 <= b:
                sizes.append(sizes[-1] * 2)
            return sizes
        sizes = [parse_size_bytes(s) for s in text.split(",") if s.strip()]
    except UnitError as e:
        raise error(f"bad --size '{text}': {e}") from None
    if not sizes or min(sizes) <= 0:
        raise error(f"bad --size '{text}'; sizes must be positive")
    return sizes


MAX_GROUP_RANKS = 10_000_000  # more ranks than any fabric here has NPUs: a typo, refused before a list is built


def parse_group(text: str) -> tuple[int, ...]:
    ranks: list[int] = []
    try:
        for part in text.split(","):
            lo, dash, hi = part.strip().partition("-")
            first, last = (int(lo), int(hi)) if dash else (int(lo), int(lo))
            if len(ranks) + last - first + 1 > MAX_GROUP_RANKS:
                raise error(f"bad --group '{text}': {len(ranks) + last - first + 1:,} ranks, more than "
                            f"{MAX_GROUP_RANKS:,}; a group names NPU ranks of the fabric")
            ranks.extend(range(first, last + 1))
    except ValueError:
        raise error(f"bad --group '{text}'; expected ranks like 0-7 or 0,2,4,6") from None
    return tuple(ranks)


def _ns(text: str, what: str) -> float:
    try:
        return float(text) if text.replace(".", "", 1).isdigit() else to_ns(parse_quantity(text))
    except UnitError as e:
        raise error(f"bad {what} '{text}': {e}") from None


def options(args) -> SimulationOptions:
    lmb = None if args.local_mem_bw.lower() == "none" else args.local_mem_bw
    try:
        lmb = None if lmb is None else float(lmb)
    except ValueError:
        raise error(f"bad --local-mem-bw '{args.local_mem_bw}'; give GB/s as a number, or 'none'") from None
    return SimulationOptions(
        collective=args.collective,
        algorithm=tuple(a.strip() for a in args.algorithm.split(",")),
        dims=parse_dims(args.dims) if args.dims else None,
        groups=tuple(parse_group(g) for g in args.group) or None,
        root=args.root,
        chunks=args.chunks,
        active_chunks=args.active_chunks,
        endpoint_delay_ns=_ns(args.endpoint_delay, "--endpoint-delay"),
        local_mem_bw_gb_per_s=lmb,
        optimization=args.optimization,
        scheduling=args.scheduling,
        model=args.model,
        routing=args.routing,
        ecmp=not args.no_ecmp,
        trace=bool(args.trace),
        **_links(args.links),
    )


def _links(text: str) -> dict:
    """'--links 20', 'all', 'cables', 'cables,all' -> the top_links and links options."""
    out: dict = {"top_links": 100, "links": "all"}
    for part in (p.strip() for p in text.split(",")):
        if part == "cables":
            out["links"] = "cables"
        elif part == "all":
            out["top_links"] = None
        elif part.isdigit():
            out["top_links"] = int(part)
        else:
            raise error(f"bad --links '{text}'; give a number of links or 'all', and/or 'cables' "
                        "(inter-device links only), e.g. --links cables,all")
    return out


def _time(ns: float) -> str:
    return format_quantity(Quantity(ns * 1e-9, (0, 1)))


def _size(nbytes: float) -> str:
    return format_quantity(Quantity(nbytes * 8.0, (1, 0)))


def partial_note(r: dict) -> str:
    """The banner of a run stopped early (Ctrl-C)."""
    p = r["partial"]
    return (f"PARTIAL RESULT: interrupted at {_time(p['stopped_at_ns'])} of simulated time, "
            f"{p['ranks_finished']} of {p['ranks']} ranks finished; the time below is a lower bound "
            "and the bandwidths are upper bounds")


def format_result(r: dict, top: int) -> str:
    lines = [partial_note(r)] if "partial" in r else []
    lines += [f"WARNING: {w['message']}" for w in r["warnings"]]
    lines += [
        f"{r['collective']} of {_size(r['size_bytes'])} on {r['num_npus']} NPUs "
        f"({len(r['groups'])} group(s) of {len(r['groups'][0])}), algorithm {','.join(r['algorithm'])}"
        + (" (auto)" if "auto" in r.get("algorithm_requested", ()) else "")
        + f", model {r['model']}, {r['chunks']} chunk(s) of {_size(r['chunk_bytes'])}",
        f"  dimensions      {describe_dims(r)}",
        f"  time            {_time(r['collective_time_ns'])}  ({r['collective_time_ns']:.0f} ns)",
        f"  algbw / busbw   {r['algorithm_bandwidth_gb_per_s']:.3f} / {r['bus_bandwidth_gb_per_s']:.3f} GB/s",
        f"  flows           {r['flows']['count']}, completion min/avg/max "
        f"{_time(r['flows']['fct_min_ns'])} / {_time(r['flows']['fct_avg_ns'])} / {_time(r['flows']['fct_max_ns'])}",
        f"  links           {r['links_used']} used, busiest {r['max_link_utilization'] * 100:.1f} % utilized"
        + (f", in tier {r['bottleneck_tier']}" if r["bottleneck_tier"] else ""),
        "  busiest " + ("cables" if r.get("links_listed") == "cables" else "links"),
    ]
    for link in r["links"][:top]:
        lines.append(f"    {link['src']} -> {link['dst']} ({link['tier']}): {_size(link['bytes'])}, "
                     f"{link['utilization'] * 100:.1f} %")
    lines.append("  load per tier (utilization of the links that carried traffic)")
    lines += format_tiers(r["tiers"])
    lines.append(f"  engine          {r['events']} events in {r['wall_time_s']:.3f} s")
    return "\n".join(lines)


def describe_dims(r: dict) -> str:
    """'SW(8)_SW(16) from the graph's dims annotation', 'flat (...)': what the run used, and why."""
    if not r["dims"]:
        return "flat: one dimension of the whole group" + (f" ({r['dims_note']})" if r.get("dims_note") else
                                                           " (the graph has no dims annotation)")
    kinds = r.get("dim_kinds") or [None] * len(r["dims"])
    shape = "_".join(f"{k}({n})" if k else str(n) for k, n in zip(kinds, r["dims"]))
    where = {"graph": "from the graph's dims annotation", "option": "from --dims"}.get(r.get("dims_source", ""), "")
    return f"{shape} {where}".rstrip()


def format_tiers(tiers: list[dict]) -> list[str]:
    """The per-tier table (tiers that carried traffic), utilization in percent."""
    rows = [("tier", "used/links", "bytes", "p50 %", "p90 %", "p99 %", "max %")]
    for t in tiers:
        if t["links_used"]:
            u = t["utilization"]
            rows.append((t["tier"], f"{t['links_used']}/{t['links']}", _size(t["bytes"]),
                         *(f"{u[k] * 100:.1f}" for k in ("p50", "p90", "p99", "max"))))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["    " + "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths)))
            for row in rows]


def format_sweep(results: list[dict]) -> str:
    """Warnings first (each once, with the sizes it applies to), then the table; a row with a
    warning is marked '!'."""
    sizes_of: dict[str, list[str]] = {}
    for r in results:
        for w in r["warnings"]:
            sizes_of.setdefault(w["code"], []).append(_size(r["size_bytes"]))
    first = {w["code"]: w["message"] for r in reversed(results) for w in r["warnings"]}
    lines = [partial_note(results[-1])] if "partial" in results[-1] else []
    lines += [f"WARNING ({', '.join(sizes_of[c])}): {first[c]}" for c in sizes_of]
    rows = [("size", "time", "algbw GB/s", "busbw GB/s", "bottleneck tier", "")]
    rows += [(_size(r["size_bytes"]), _time(r["collective_time_ns"]), f"{r['algorithm_bandwidth_gb_per_s']:.3f}",
              f"{r['bus_bandwidth_gb_per_s']:.3f}", r["bottleneck_tier"] or "-", ("!" if r["warnings"] else "") + ("partial" if "partial" in r else ""))
             for r in results]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines += ["  ".join(c.rjust(w) for c, w in zip(row, widths)).rstrip() for row in rows]
    return "\n".join(lines)


def run(args) -> int:
    from ..graph.failures import resolve_failures
    from ..simulate import prepare, simulate
    from ..simulate_failures import format_failures, simulate_with_failures

    sizes = parse_sizes(args.size)
    opts = options(args)
    spec = failure_spec(args)
    if args.trace and len(sizes) > 1:
        raise error("--trace records one run; give a single --size")
    g = load_graph_with_progress(args)
    failures = resolve_failures(g, spec)
    label = "simulating" + (" (failed and healthy)" if failures.any() else "")
    show = SimProgress(label=label) if args.progress or (sys.stderr.isatty() and not args.quiet) else None
    with progress(args).phase(label):
        try:
            if failures.any():
                results = simulate_with_failures(g, failures, sizes, opts, progress=show)
            else:
                prepared = prepare(g)
                results = []
                for s in sizes:  # a sweep stops at the first interrupted size
                    results.append(simulate(prepared, replace(opts, size_bytes=float(s)), progress=show,
                                            keep_partial=True))
                    if "partial" in results[-1]:
                        break
        finally:
            if show is not None:
                show.clear()
    if args.trace:
        with open(args.trace, "w", encoding="utf-8") as fh:
            json.dump(chrome_trace(results[0]), fh)
        results[0].pop("trace", None)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(results[0] if len(results) == 1 else results, fh, indent=1)
    print(format_result(results[0], args.top) if len(results) == 1 else format_sweep(results))
    if "failures" in results[0]:
        print(format_failures(results[0]) if len(results) == 1 else
              "\n".join(f"slowdown at {_size(r['size_bytes'])}: x{r['failures']['slowdown']:.3f}" for r in results))
    return 130 if "partial" in results[-1] else 0
