"""`simulate --algorithm ring,direct,synthesized`: algorithms side by side against the lower bound.

A comma list that names `synthesized` is a comparison, not one algorithm per dimension: each entry
runs alone with the same options (model, chunks, delays, failures) on the same graph, the
synthesized schedule (infragraph.collectives.synthesize, `--synth-chunks` chunks per rank) through
the engine as `--algorithm schedule:FILE` would run it. The table gives each one's time, bus
bandwidth and share of the lower bound (collectives.bound); an algorithm the fabric cannot run
(halving-doubling on a dimension that is not a power of two) is listed with the engine's reason.
"""

from __future__ import annotations

import json
from dataclasses import replace

from ..errors import InfraGraphError
from ..units import Quantity, format_quantity
from .common import about_failures, load_graph_with_progress, option_error, progress

SYNTHESIZED = "synthesized"


def wants_comparison(text: str) -> bool:
    return SYNTHESIZED in (a.strip() for a in text.split(","))


def run_compare(args, sizes: list[int], opts_of, spec) -> int:
    """Run every algorithm of --algorithm on the (failed) graph; print the table, write --json."""
    from ..collectives.bound import lower_bound
    from ..collectives.links import logical_links
    from ..collectives.run import simulate_schedule
    from ..collectives.synthesize import synthesize, synthesize_best
    from ..graph.failures import with_failures
    from ..output import check_output, open_output
    from ..simulate import prepare, simulate

    from ..collectives.columns import COLLECTIVES as SYNTHESIZABLE
    from .synthesize import chunks_option

    names = [a.strip() for a in args.algorithm.split(",")]
    chunks = chunks_option(args.synth_chunks, "--synth-chunks")
    if len(sizes) != 1:
        raise option_error("--size", "a comparison (--algorithm ...,synthesized) runs one size; give a single --size")
    if args.collective not in SYNTHESIZABLE:
        raise option_error("--algorithm", f"'synthesized' makes {', '.join(SYNTHESIZABLE)}; not {args.collective}")
    if args.trace:
        raise option_error("--trace", "--trace records one run; a comparison runs several")
    if args.json:
        check_output(args.json, option="--json")
    # Each textbook entry is checked as --algorithm NAME alone would be.
    runs = {name: opts_of(name) for name in names if name != SYNTHESIZED}
    g = load_graph_with_progress(args)
    with about_failures(args):
        g = with_failures(g, spec)[0]
    size = float(sizes[0])
    p = prepare(g)
    base = replace(next(iter(runs.values())) if runs else opts_of("ring"), size_bytes=size)
    links = logical_links(p.g, p.npu_nodes)
    n = links.npus
    bound = lower_bound(links, args.collective, size * n if args.collective == "all-gather" else size)
    results = []
    with progress(args).phase("simulating " + ", ".join(names)):
        for name in names:
            try:
                if name == SYNTHESIZED:
                    s = (synthesize_best(p.g, args.collective, size, links=links) if chunks is None else
                         synthesize(p.g, args.collective, chunks, size, links=links))
                    # Both dependency modes; the faster is the one a user would keep (synthesize --dependencies auto).
                    tried = [simulate_schedule(p, replace(s.cols, dependencies=mode), size, replace(base, collective=args.collective),
                                               check=mode == "rank-steps") for mode in ("rank-steps", "chunks")]
                    r = min(tried, key=lambda x: x["collective_time_ns"])
                    r["synthesis"] = {"predicted_time_ns": s.time_ns, "chunks_per_rank": s.chunks_per_rank,
                                      "dependencies": "rank-steps" if r is tried[0] else "chunks"}
                else:
                    r = simulate(p, replace(runs[name], size_bytes=size))
            except InfraGraphError as exc:
                results.append({"algorithm_requested": [name], "error": str(exc)})
                continue
            r["algorithm_requested"] = [name]
            results.append(r)
    if args.json:
        from ..simulate.rank_columns import ranks_as_columns

        listed = [ranks_as_columns(r) for r in results] if args.json_ranks == "columns" else results
        with open_output(args.json, option="--json") as fh:
            json.dump({"lower_bound_ns": bound.time_ns, "lower_bound": bound.reason, "results": listed}, fh, indent=1)
    print(format_comparison(args.collective, size, n, bound, results))
    return 0


def _time(ns: float) -> str:
    return format_quantity(Quantity(ns * 1e-9, (0, 1)))


def format_comparison(collective: str, size: float, n: int, bound, results: list[dict]) -> str:
    rows = [("algorithm", "time", "busbw GB/s", "of the bound", "note")]
    for r in results:
        name = r["algorithm_requested"][0]
        if "error" in r:
            rows.append((name, "-", "-", "-", r["error"].splitlines()[0][:90]))
            continue
        t = r["collective_time_ns"]
        note = ""
        if "synthesis" in r:
            note = (f"{r['synthesis']['chunks_per_rank']} chunk(s)/rank, {r['synthesis']['dependencies']}; "
                    f"synthesizer's model {_time(r['synthesis']['predicted_time_ns'])}")
        rows.append((name, _time(t), f"{r['bus_bandwidth_gb_per_s']:.2f}", f"{bound.time_ns / t * 100:.1f} %",
                     note))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = [f"{collective} of {size:,.0f} B per NPU on {n} NPUs; lower bound {_time(bound.time_ns)} "
             f"({bound.reason}; latency not counted)"]
    lines += ["  " + "  ".join(c.ljust(w) if i in (0, 4) else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))).rstrip()
              for row in rows]
    return "\n".join(lines)
