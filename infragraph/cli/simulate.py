"""`infragraph simulate FILE`: time a collective on the graph (one size, or a sweep of sizes).

    infragraph simulate fabric.igl --collective all-reduce --size 1GiB --algorithm ring --chunks 4 \\
        --model aware [--dims 8,4] [--group 0-7 --group 8-15] [--json [OUT]] [--trace OUT]
    infragraph simulate fabric.igl --size 1KiB..1GiB        # table of time and bus bandwidth
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from dataclasses import replace

from ..errors import did_you_mean
from ..output import check_output, write_json
from ..units import Quantity, UnitError, format_quantity, parse_quantity, parse_size_bytes, to_ns
from .common import (about_failures, about_option, about_simulation_options, about_source, add_failure_arguments, add_json_argument, add_source_arguments,
                     at_least, emit, failure_spec, load_graph_with_progress, one_of, option_error, progress)
from .sim_progress import SimProgress
from .simulate_compare import run_compare, wants_comparison
from .simulate_workload import add_arguments as add_workload_arguments, refuse_without_workload, run_workload



def register(sub) -> None:
    p = sub.add_parser("simulate", help="simulate a collective (all-reduce, all-to-all, ...) on the graph",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_source_arguments(p)
    p.add_argument("--collective", default=None, type=one_of("infragraph.simulate", "COLLECTIVES", "collective"),
                   metavar="NAME",
                   help="all-reduce (default), reduce-scatter, all-gather, all-to-all, broadcast, reduce "
                        "or point-to-point")
    p.add_argument("--size", default=None,
                   help="per-NPU buffer (all-gather: shard), e.g. 1GiB; a sweep: 1KiB..1GiB (doubling) or 1KiB,1MiB "
                        "(default 1MiB)")
    p.add_argument("--algorithm", default="default",
                   help="nccl (NCCL's own choice: ring, tree or NVLS by size, with its channels, protocol and "
                        "chunking; the default on GPU servers), ring, ring-bidirectional, direct, halving-doubling "
                        "or double-binary-tree, or auto (nccl on GPU servers, else per dimension: ring on RI, direct "
                        "on FC, halving-doubling on a power-of-two SW, else direct), or schedule:FILE (a custom "
                        "schedule, docs/collectives.md); comma-separated for one per "
                        "dimension; a list naming 'synthesized' (ring,direct,synthesized) compares them side by side "
                        "against the lower bound instead. Default: nccl on GPU servers, else ring (all-to-all: direct; astra models: ring)")
    p.add_argument("--synth-chunks", default="auto", metavar="K",
                   help="with 'synthesized' in --algorithm (a side-by-side comparison): chunks per rank of the "
                        "synthesized schedule, or auto (default: as synthesize --chunks auto)")
    p.add_argument("--dims", help="logical dimensions, dimension 0 fastest, e.g. 8,4 or RI(8)_SW(4) (default: the "
                                  "graph's 'dims' annotation when it covers the group, else flat; --dims N forces flat)")
    p.add_argument("--group", action="append", default=[], metavar="RANKS",
                   help="a process group: 0-7 or 0,2,4,6 (repeatable: groups run concurrently; default all NPUs)")
    p.add_argument("--root", type=int, default=None, help="root member of each group (broadcast, reduce, "
                                                            "point-to-point source; the other member is the "
                                                            "destination; default 0)")
    p.add_argument("--chunks", type=int, default=1, help="preferred dataset splits (default 1)")
    p.add_argument("--active-chunks", type=int, default=1, help="chunks in flight per dimension (default 1)")
    p.add_argument("--endpoint-delay", default="10ns", help="per-receive endpoint delay (default 10ns)")
    p.add_argument("--local-mem-bw", default="1600",
                   help="local memory bandwidth for reductions: GB/s (1e9 B/s) as a number, a bandwidth with its "
                        "unit ('1600 GB/s'), or 'none' (default 1600)")
    p.add_argument("--optimization", default="localBWAware", choices=("localBWAware", "baseline"))
    p.add_argument("--scheduling", default=None, choices=("fifo", "arrival", "lifo"),
                   help="order of chunks waiting on a dimension: fifo = (phase, chunk) order, never deadlocks "
                        "(default for unaware/aware/fair); arrival = ASTRA-sim's order (default for astra, "
                        "astra-aware); lifo = newest first. arrival and lifo can deadlock on asymmetric fabrics")
    p.add_argument("--intra-dimension-scheduling", default="FIFO",
                   type=one_of("infragraph.simulate", "INTRA_DIMENSION_SCHEDULINGS", "intra-dimension scheduling"),
                   metavar="FIFO|SCF|lessRemainingPhaseFirst",
                   help="ASTRA-sim's intra-dimension-scheduling: where a chunk waits in a dimension's queue (FIFO; "
                        "SCF = smallest chunk first; lessRemainingPhaseFirst). Default FIFO")
    p.add_argument("--inter-dimension-scheduling", default="baseline",
                   type=one_of("infragraph.simulate", "INTER_DIMENSION_SCHEDULINGS", "inter-dimension scheduling"),
                   metavar="baseline|themis|ascending|offlineGreedy|offlineGreedyFlex",
                   help="ASTRA-sim's inter-dimension-scheduling: the order in which each chunk visits the dimensions "
                        "(baseline = ascending; themis = offlineGreedy: least-loaded dimension first; "
                        "offlineGreedyFlex: also each chunk's size from the load gaps). Default baseline")
    p.add_argument("--model", default="fair", type=one_of("infragraph.simulate", "MODELS", "model"), metavar="MODEL",
                   help="fair (max-min sharing between concurrent flows; default), unaware (alpha-beta, no "
                        "contention: a lower bound), aware (FIFO links, store-and-forward), astra (ASTRA-sim "
                        "compatible: integer ns and its chunking), astra-aware")
    p.add_argument("--routing", default=None, type=one_of("infragraph.simulate", "ROUTINGS", "routing"),
                   metavar="ROUTING",
                   help="hops or latency (shortest paths by either), or dor (dimension-order over --dims) "
                        "(default: hops; dor for astra/astra-aware on a graph stating its ASTRA-sim topology, "
                        "as ASTRA-sim routes)")
    p.add_argument("--no-ecmp", action="store_true", help="always take the first of equal-cost paths")
    p.add_argument("--routing-policy", metavar="SPEC",
                   help="how traffic spreads over equally short ways: ecmp (hash each connection onto one), "
                        "spray (split every message equally over all), adaptive (least-used way per connection) or "
                        "d-mod-k (the way is a digit of the destination's index, as InfiniBand fat-tree routing), "
                        "for every tier or per tier, e.g. scale-up=spray,scale-out=adaptive (scale-up: GPU to GPU or "
                        "switch chip; scale-out: the rest). Default: the graph's routing_policy annotation, else "
                        "scale-up=spray,scale-out=ecmp. The astra models always route as ASTRA-sim (one path)")
    p.add_argument("--gpu-transit", action="store_true",
                   help="let every GPU forward other GPUs' traffic (default: only GPUs cabled to GPUs, as in tori)")
    p.add_argument("--pxn", choices=("auto", "on", "off"), default="auto",
                   help="PXN (NCCL's PCI x NVLink): a message to another server first crosses NVLink to the GPU on "
                        "the destination's rail and leaves through that GPU's NIC (auto, default: on for all-to-all "
                        "when the GPUs have scale-up links, as NCCL enables it)")
    p.add_argument("--no-nic-affinity", action="store_true",
                   help="route between servers by plain shortest paths instead of through the NIC NCCL binds each "
                        "GPU to (the nearest on PCIe; default on)")
    p.add_argument("--no-symmetry", action="store_true",
                   help="simulate every member even where the engine can prove that one representative per "
                        "symmetry class gives the same answer (default: fold symmetric rings; the result's "
                        "'symmetry' says which path ran)")
    p.add_argument("--top", type=int, default=5, help="busiest links to print (default 5)")
    p.add_argument("--links", default="100", metavar="N|all[,cables]",
                   help="busiest links kept in the JSON result (default 100; 'all' for every used link); "
                        "'cables' lists inter-device links only, in the JSON and the printed busiest links "
                        "(e.g. --links cables or --links cables,all)")
    add_json_argument(p, "the result (sweep: a list of results)")
    p.add_argument("--json-ranks", choices=("rows", "columns"), default="rows",
                   help="how the --json result lists the ranks: rows, one object per rank (default), or columns, "
                        "one list per field (about half the size for a million ranks; schemas/simulation-result)")
    p.add_argument("--trace", metavar="OUT", help="write a Chrome/Perfetto trace of every message")
    p.add_argument("--progress", action="store_true",
                   help="show the progress line (simulated time, events/s, ETA) even when stderr is not a terminal")
    add_failure_arguments(p)
    add_workload_arguments(p)
    p.set_defaults(func=run)


def parse_sizes(text: str) -> list[int]:
    """'1MiB' -> [1048576]; '1KiB..4KiB' -> [1024, 2048, 4096]; '1KiB,1MiB' -> both."""
    try:
        if ".." in text:
            lo, _, hi = text.partition("..")
            a, b = parse_size_bytes(lo), parse_size_bytes(hi)
            if a <= 0 or b < a:
                raise option_error("--size", f"bad size range '{text}'; expected LOW..HIGH with 0 < LOW <= HIGH")
            sizes = [a]
            while sizes[-1] * 2 <= b:
                sizes.append(sizes[-1] * 2)
            return sizes
        sizes = [parse_size_bytes(s) for s in text.split(",") if s.strip()]
    except UnitError as e:
        raise option_error("--size", f"bad --size '{text}': {e}") from None
    if not sizes or min(sizes) <= 0:
        raise option_error("--size", f"bad --size '{text}'; sizes must be positive")
    return sizes


def parse_group(text: str, option: str = "--group") -> tuple[int, ...]:
    """Ranks like 0-7 or 0,2,4,6 (for --group, or another option naming NPU ranks): simulate.spellings."""
    from ..simulate.spellings import parse_ranks

    return parse_ranks(text, option)


_DIMS = re.compile(r"\s*\d+(\s*[x×,_]\s*\d+)*\s*|([A-Za-z]+\(\d+\)_?)+")


def parse_dims_option(text: str) -> tuple[int, ...]:
    """--dims: sizes like 8,4 or 16x16x16, or a stack shape RI(8)_SW(4); anything else is refused
    here (the library's parser skips stray letters, which would let '8,x' mean 8)."""
    from ..simulate import parse_dims

    if not _DIMS.fullmatch(text):
        raise option_error("--dims", f"bad --dims '{text}'; expected sizes like 8,4 or 16x16x16, or a stack shape "
                                     "like RI(8)_SW(4)")
    with about_option("--dims"):
        return parse_dims(text)


def _ns(text: str, option: str) -> float:
    """A time option in ns: a plain number is ns, else a quantity with a time unit; finite and ≥ 0."""
    try:
        ns = float(text) if text.replace(".", "", 1).isdigit() else to_ns(parse_quantity(text))
    except UnitError as e:
        raise option_error(option, f"bad {option} '{text}': {e}") from None
    if not math.isfinite(ns) or ns < 0:
        raise option_error(option, f"bad {option} '{text}'; expected a finite time ≥ 0, e.g. 10ns")
    return ns


def _mem_bw(text: str) -> float | None:
    """--local-mem-bw: GB/s (1e9 B/s) as a number, a bandwidth with its unit ('1600 GB/s', '12.8 Tbit/s'),
    or 'none' (simulate.spellings, shared with SimulationOptions(local_mem_bw=...))."""
    from ..simulate.spellings import mem_bw_gb_per_s

    return mem_bw_gb_per_s(text, "--local-mem-bw")


# Options whose parser default is None, so that `--workload` can refuse them even when given at
# their default value (the trace decides them per node); the value they stand for otherwise.
COLLECTIVE_DEFAULTS = {"collective": "all-reduce", "size": "1MiB", "root": 0}


def given_collective_options(args) -> list[str]:
    """The COLLECTIVE_DEFAULTS options the command line gave ('--size'), then each unset one set to
    its default in `args` (idempotent)."""
    given = [f"--{name}" for name in COLLECTIVE_DEFAULTS if getattr(args, name, None) is not None]
    for name, value in COLLECTIVE_DEFAULTS.items():
        if getattr(args, name, None) is None:
            setattr(args, name, value)
    return given


def options(args):
    """The SimulationOptions the command line asks for, every value checked and located at its option."""
    from ..simulate import SimulationOptions

    given_collective_options(args)
    algorithm, schedules = _algorithms(args.algorithm)
    for sc in schedules:
        if sc is not None and sc.collective != args.collective:
            raise option_error("--collective", f"--collective {args.collective}, but the schedule given with "
                                               f"--algorithm implements {sc.collective}; give --collective {sc.collective}")
    return SimulationOptions(
        collective=args.collective,
        algorithm=algorithm,
        schedules=schedules if any(sc is not None for sc in schedules) else (),
        dims=parse_dims_option(args.dims) if args.dims else None,
        groups=tuple(parse_group(g) for g in args.group) or None,
        root=at_least(args.root, "--root", 0),
        chunks=at_least(args.chunks, "--chunks", 1),
        active_chunks=at_least(args.active_chunks, "--active-chunks", 1),
        endpoint_delay_ns=_ns(args.endpoint_delay, "--endpoint-delay"),
        local_mem_bw_gb_per_s=_mem_bw(args.local_mem_bw),
        optimization=args.optimization,
        scheduling=args.scheduling,
        intra_dimension_scheduling=args.intra_dimension_scheduling,
        inter_dimension_scheduling=args.inter_dimension_scheduling,
        model=args.model,
        routing=args.routing,
        ecmp=not args.no_ecmp,
        routing_policy=_routing_policy(args.routing_policy),
        gpu_transit=args.gpu_transit,
        nic_affinity=not args.no_nic_affinity,
        pxn={"auto": None, "on": True, "off": False}[args.pxn],
        trace=bool(args.trace),
        symmetry=not args.no_symmetry,
        **_links(args.links),
    )


def _routing_policy(text: str | None) -> str | None:
    """--routing-policy, checked here so that a bad one is located at the option."""
    if text is None:
        return None
    from ..simulate.policy import parse_policy

    with about_option("--routing-policy"):
        parse_policy(text, "--routing-policy")
    return text


def _algorithms(text: str) -> tuple[tuple[str, ...], tuple]:
    """--algorithm: the names, and per name the schedule of a `schedule:FILE` entry (read and
    proven here, errors located at the file and at --algorithm), None for the others."""
    from ..simulate import ALGORITHMS

    names, schedules = [], []
    known = (*ALGORITHMS, "auto", "nccl", "default", "schedule:FILE")
    for name in (a.strip() for a in text.split(",")):
        if name.startswith("schedule:"):
            names.append("schedule")
            schedules.append(_schedule(name[len("schedule:"):]))
            continue
        if name not in known:
            raise option_error("--algorithm", f"unknown algorithm '{name}'; expected one of: {', '.join(known)}",
                               did_you_mean(name, known))
        names.append(name)
        schedules.append(None)
    return tuple(names), tuple(schedules)


def _schedule(path: str):
    """A schedule file given with --algorithm schedule:FILE (our JSON or binary file, MSCCL XML or
    an MSCCL++ plan, by content), read and proven; errors located at the file, or at --algorithm.
    Ours are read as columns (formats.load_any): the engine runs them without a Python object per
    transfer."""
    from ..collectives.formats import load_any
    from ..collectives.schedule import ScheduleError, validate

    if not path:
        raise option_error("--algorithm", "'schedule:' names no file; give --algorithm schedule:FILE")
    schedule = load_any(path, columns=True)
    try:
        validate(schedule)
    except ScheduleError as exc:
        raise option_error("--algorithm", f"schedule {path} does not implement its {schedule.collective}: {exc}") from None
    return schedule


def _algorithm_names(r: dict) -> str:
    """The algorithms run, a schedule named by its name: 'schedule (ring_allreduce_8),ring'."""
    schedules = r.get("schedules") or [None] * len(r["algorithm"])
    return ",".join(f"{a} ({sc['name']})" if a == "schedule" and sc and sc["name"] else a
                    for a, sc in zip(r["algorithm"], schedules + [None] * len(r["algorithm"])))


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
            raise option_error("--links", f"bad --links '{text}'; give a number of links (≥ 0) or 'all', and/or "
                                          "'cables' (inter-device links only), e.g. --links cables,all")
    return out


def _check_against_graph(opts, num_npus: int) -> None:
    """Options that can only be checked once the graph is known, located at their option."""
    for group in opts.groups or ():
        bad = [r for r in group if r >= num_npus]
        if bad:
            raise option_error("--group", f"process group names rank {bad[0]}, but the graph has ranks "
                                          f"0..{num_npus - 1}")
    smallest = min((len(gr) for gr in opts.groups), default=num_npus) if opts.groups else num_npus
    size = len(opts.groups[0]) if opts.groups else num_npus
    if opts.dims is not None and math.prod(opts.dims) != size:
        raise option_error("--dims", f"dims {'x'.join(map(str, opts.dims))} multiply to {math.prod(opts.dims)} but "
                                     f"the group has {size} ranks")
    if opts.dims is not None and len(opts.algorithm) > 1 and len(opts.algorithm) != len(opts.dims):
        raise option_error("--algorithm", f"{len(opts.algorithm)} algorithms for {len(opts.dims)} dimensions (--dims "
                                          f"{'x'.join(map(str, opts.dims))}); give one, or one per dimension")
    if opts.root >= smallest:
        raise option_error("--root", f"root member {opts.root} is outside the group of {smallest} "
                                     f"(members are numbered 0..{smallest - 1})")


def _time(ns: float) -> str:
    return format_quantity(Quantity(ns * 1e-9, (0, 1)))


def _size(nbytes: float) -> str:
    """Bytes in binary units: exact when whole (`448 MiB`), else 4 significant digits (`99.59 MiB`;
    a spread or shared load is fractional, and must not fall back to bits in e-notation)."""
    if float(nbytes).is_integer():
        return format_quantity(Quantity(nbytes * 8.0, (1, 0)))
    for sym, f in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if nbytes >= f:
            return f"{nbytes / f:.4g} {sym}"
    return f"{nbytes:.4g} B"


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
        f"({len(r['groups'])} group(s) of {len(r['groups'][0])}), algorithm {_algorithm_names(r)}"
        + (" (auto)" if "auto" in r.get("algorithm_requested", ()) else "")
        + f", model {r['model']}, {r['chunks']} chunk(s) of {_size(r['chunk_bytes'])}",
        f"  dimensions      {describe_dims(r)}",
        *_nccl_lines(r),
        f"  time            {_time(r['collective_time_ns'])}  ({r['collective_time_ns']:.0f} ns)",
        f"  algbw / busbw   {r['algorithm_bandwidth_gb_per_s']:.3f} / {r['bus_bandwidth_gb_per_s']:.3f} GB/s",
        f"  flows           {r['flows']['count']}, completion min/avg/max "
        f"{_time(r['flows']['fct_min_ns'])} / {_time(r['flows']['fct_avg_ns'])} / {_time(r['flows']['fct_max_ns'])}",
        f"  routing         {describe_routing(r)}",
        f"  links           {r['links_used']} used, busiest {r['max_link_utilization'] * 100:.1f} % utilized"
        + (f", in tier {r['bottleneck_tier']}" if r["bottleneck_tier"] else ""),
        "  busiest " + ("cables" if r.get("links_listed") == "cables" else "links"),
    ]
    for link in r["links"][:top]:
        lines.append(f"    {link['src']} -> {link['dst']} ({link['tier']}): {_size(link['bytes'])}, "
                     f"{link['utilization'] * 100:.1f} %")
    lines.append("  load per tier (utilization of the links that carried traffic)")
    lines += format_tiers(r["tiers"])
    lines.append(f"  engine          {r['events']} events in {r['wall_time_s']:.3f} s, {describe_symmetry(r)}")
    return "\n".join(lines)


def describe_symmetry(r: dict) -> str:
    """'symmetric: 256 of 8192 members simulated' or 'full run (why not symmetric)'."""
    s = r.get("symmetry")
    if not s:
        return "full run"
    if s["path"] == "symmetric":
        return f"symmetric: {s['members_simulated']} of {s['members']} members simulated, the rest copied"
    return f"full run ({s['reason']})"


def describe_routing(r: dict) -> str:
    """'hops, scale-up=spray,scale-out=ecmp; ECMP collisions: 3 of 2048 links carry 2+ connections
    (max 2)': collisions over the tiers whose connections each take one way (ecmp, d-mod-k)."""
    policy = r.get('routing_policy', 'scale-up=ecmp,scale-out=ecmp')
    text = f"{r['routing']}, {policy}"
    c = r.get("routing_collisions")
    if c and c["links_used"]:
        label = " and ".join(name for key, name in (("=ecmp", "ECMP"), ("=d-mod-k", "d-mod-k")) if key in policy)
        text += (f"; {label} collisions: {c['links_with_2_or_more']} of {c['links_used']} links carry 2+ "
                 f"connections (max {c['max_per_link']})")
    return text


def _nccl_lines(r: dict) -> list[str]:
    """NCCL mode: what NCCL picks and what the engine ran for it."""
    n = r.get("nccl")
    if not n:
        return []
    head = f"  nccl            {n['algorithm']}/{n['protocol']}"
    if n["channels"]:
        head += f", {n['channels']} channels, NCCL's own model predicts {_time(n['predicted_time_ns'])}"
    return [head] + [f"    note: {note}" for note in n["notes"]]


def describe_dims(r: dict) -> str:
    """'SW(8)_SW(16) from the graph's dims annotation', 'flat (...)': what the run used, and why."""
    if not r["dims"]:
        return "flat: one dimension of the whole group" + (f" ({r['dims_note']})" if r.get("dims_note") else
                                                           " (the graph has no dims annotation)")
    kinds = r.get("dim_kinds") or [None] * len(r["dims"])
    shape = "_".join(f"{k}({n})" if k else str(n) for k, n in zip(kinds, r["dims"]))
    where = {"graph": "from the graph's dims annotation", "option": "from --dims",
             "nccl": f"({r.get('dims_note')})"}.get(r.get("dims_source", ""), "")
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
    # an error no option or document path claims is the graph's (no path between two NPUs that
    # must talk, no edges): located at the fabric FILE, not `<input>`
    with about_simulation_options(args), about_source(args.file):
        return _run(args)


def _run(args) -> int:
    from ..graph.failures import resolve_failures
    from ..graph.ranks import npu_order
    from ..simulate import chrome_trace, prepare, simulate
    from ..simulate.failures import format_failures, simulate_with_failures
    from ..simulate.rank_columns import ranks_as_columns

    given = given_collective_options(args)
    if args.json_ranks != "rows" and not args.json:
        raise option_error("--json-ranks", "--json-ranks says how the --json result lists the ranks; give --json too")
    if args.json_ranks != "rows" and args.workload:
        raise option_error("--json-ranks", "a workload's result lists its NPUs (`npus`), not a collective's "
                                           "`ranks`; --json-ranks applies to a collective's result")
    if args.trace == "-":  # it wrote a file named "-"; the trace would bury the summary on stdout
        raise option_error("--trace", "bad --trace '-': a trace is written to a file, not stdout; expected a file "
                                      "name", hint="e.g. --trace trace.json (or trace.json.gz), opened in Perfetto")
    if args.workload and wants_comparison(args.algorithm):
        raise option_error("--algorithm", "'synthesized' compares algorithms on one collective, not a workload's; "
                                          "give --algorithm NAME (or one per dimension)",
                           "synthesize a schedule first (infragraph synthesize FABRIC ... -o s.json), then "
                           "--algorithm schedule:s.json")
    if args.workload:
        opts = options(args)
        return run_workload(args, opts, given, lambda npus: _check_against_graph(opts, npus))
    refuse_without_workload(args)
    if wants_comparison(args.algorithm):  # ring,direct,synthesized: side by side (simulate_compare)
        return run_compare(args, parse_sizes(args.size),
                           lambda name: options(argparse.Namespace(**{**vars(args), "algorithm": name})),
                           failure_spec(args))
    sizes = parse_sizes(args.size)
    opts = options(args)
    at_least(args.top, "--top", 0)
    spec = failure_spec(args)
    if args.trace and len(sizes) > 1:
        raise option_error("--trace", "--trace records one run; give a single --size")
    for path, option in ((args.json, "--json"), (args.trace, "--trace")):
        if path and path != "-":
            check_output(path, option=option)
    g = load_graph_with_progress(args)
    failures = resolve_failures(g, spec)
    _check_against_graph(opts, int(npu_order(g).size))
    label = "simulating" + (" (failed and healthy)" if failures.any() else "")
    show = SimProgress(label=label) if args.progress or (sys.stderr.isatty() and not args.quiet) else None
    with progress(args).phase(label):
        try:
            if failures.any():
                with about_failures(args):
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
        write_json(args.trace, chrome_trace(results[0]), option="--trace")
        results[0].pop("trace", None)
    data = [ranks_as_columns(r) for r in results] if args.json_ranks == "columns" else results
    emit(args, data[0] if len(data) == 1 else data,
         format_result(results[0], args.top) if len(results) == 1 else format_sweep(results))
    if "failures" in results[0] and args.json != "-":
        print(format_failures(results[0]) if len(results) == 1 else
              "\n".join(f"slowdown at {_size(r['size_bytes'])}: x{r['failures']['slowdown']:.3f}" for r in results))
    return 130 if "partial" in results[-1] else 0
