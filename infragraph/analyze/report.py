"""`analyze`: one report of a fabric's resilience — bisection bandwidth (max-flow), diameter, path
diversity per distance, single points of failure, and the bisection after random cable failures —
as a JSON-ready dict, text, and a picture.

The fabric analysed is the graph with its failures applied (annotations and the command line's
`--fail`/`--degrade`/`--fail-random`, through `graph.failures`); random trials fail further cables
of that fabric. Units: Gbit/s (1e9 bit/s) for bandwidth, cable hops for distances.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from ..errors import error
from ..graph.failures import Failures
from ..graph.fqg import FQG
from ..units import format_bandwidth
from .bisection import bisection, random_trials
from .paths import diameter, part_name, parts, path_diversity, single_points


def analyze(g: FQG, failures: Failures | None = None, original: FQG | None = None, random_failures: int = 0,
            trials: int = 0, first_seed: int = 0, workers: int | None = None) -> dict[str, Any]:
    """The report for `g` (already failed, if `failures`; `original` is the graph they refer to)."""
    start = time.perf_counter()
    b = bisection(g)
    healthy = b.healthy()
    p = parts(g)
    spof = single_points(p)
    for x in spof["part_examples"]:
        x["part"] = part_name(g, p, x["part"])
    for x in spof["cable_examples"]:
        x["parts"] = [part_name(g, p, v) for v in x["parts"]]
    dia = diameter(p)
    if dia["between"] is not None:
        dia["between"] = [part_name(g, p, v) for v in dia["between"]]
    out: dict[str, Any] = {
        "graph": g.name,
        "npus": int(sum(b.halves)),
        "cables": int(b.cables.size),
        "bisection": {
            "gbps": healthy.gbps,
            "per_npu_gbps": healthy.gbps / b.halves[0] if b.halves[0] else 0.0,
            "exact": healthy.exact,
            "resolution_gbps": healthy.resolution_gbps,
            "halves": list(b.halves),
            "definition": "max-flow from the first to the second half of the NPUs in rank order, one direction, "
                          "full-duplex links at their bandwidth, unrated links unlimited",
        },
        "diameter": dia,
        "path_diversity": path_diversity(p),
        "single_points_of_failure": spof,
    }
    if failures is not None and failures.any():
        out["failures"] = failures.summary(original if original is not None else g)
    if random_failures:
        t0 = time.perf_counter()
        values = random_trials(b, random_failures, trials, first_seed, workers)
        worst = int(np.argmin(values))
        out["random_failures"] = {
            "cables_failed": random_failures,
            "trials": trials,
            "seeds": [first_seed, first_seed + trials - 1],
            "worst_gbps": float(values[worst]),
            "worst_seed": first_seed + worst,
            "reproduce_worst": f"--fail-random {random_failures} --seed {first_seed + worst}",
            "mean_gbps": float(values.mean()),
            "p5_gbps": float(np.percentile(values, 5)),
            "median_gbps": float(np.median(values)),
            "worst_fraction_of_healthy": float(values[worst] / healthy.gbps) if healthy.gbps else 0.0,
            "values_gbps": values.tolist(),
            "seconds": time.perf_counter() - t0,
        }
    out["seconds"] = time.perf_counter() - start
    return out


def _gbps(x: float) -> str:
    return format_bandwidth(x, 4)


def format_report(r: dict[str, Any]) -> str:
    bi, dia, spof = r["bisection"], r["diameter"], r["single_points_of_failure"]
    lines = [f"{r['graph']}: {r['npus']:,} NPUs, {r['cables']:,} cables"]
    if "failures" in r:
        f = r["failures"]
        lines.append(f"  failures applied   {f['failed_edges']} link(s) cut, {f['failed_nodes']} node(s) down, "
                     f"{f['degraded_edges']} degraded")
    lines += [
        f"  bisection          {_gbps(bi['gbps'])} per direction ({_gbps(bi['per_npu_gbps'])} per NPU of the sending "
        f"half, {bi['halves'][0]:,} | {bi['halves'][1]:,} NPUs)" + ("" if bi["exact"] else
                                                                   f", capacities rounded down by < "
                                                                   f"{format_bandwidth(bi['resolution_gbps'], 3)} each"),
        f"  diameter           {dia['cable_hops']} cable hops" + ("" if dia["exact"] else
                                                              f" at least (searched {dia['sources_searched']:,} sources)")
        + (f", e.g. {dia['between'][0]} to {dia['between'][1]}" if dia["between"] else "")
        + ("; SOME NPUs CANNOT REACH EACH OTHER" if dia["disconnected"] else ""),
        "  path diversity     shortest cable paths between NPU pairs, by distance:",
    ]
    for x in r["path_diversity"]:
        paths = str(x["min_paths"]) if x["min_paths"] == x["max_paths"] else f"{x['min_paths']}..{x['max_paths']}"
        lines.append(f"    {x['cable_hops']} hops: {paths} path(s) ({x['pairs_seen']:,} pairs seen)")
    lines.append(f"  single points      {spof['parts']} part(s) and {spof['cables']} cable(s) whose loss splits the NPUs")
    for x in spof["part_examples"][:3]:
        lines.append(f"    {x['part']}: cuts off {x['npus_cut_off']} NPU(s)")
    for x in spof["cable_examples"][:3]:
        lines.append(f"    the cable {x['parts'][0]} -- {x['parts'][1]}: cuts off {x['npus_cut_off']} NPU(s)")
    rf = r.get("random_failures")
    if rf:
        lines.append(f"  random failures    {rf['cables_failed']} cable(s) cut, {rf['trials']} trials (seeds "
                     f"{rf['seeds'][0]}..{rf['seeds'][1]}), {rf['seconds']:.1f} s:")
        lines.append(f"    bisection worst {_gbps(rf['worst_gbps'])} (seed {rf['worst_seed']}, "
                     f"{rf['worst_fraction_of_healthy'] * 100:.2f} % of {_gbps(bi['gbps'])}), 5th percentile "
                     f"{_gbps(rf['p5_gbps'])}, median {_gbps(rf['median_gbps'])}, mean {_gbps(rf['mean_gbps'])}")
        lines.append(f"    the worst trial's cables: add {rf['reproduce_worst']} to this command's options")
    return "\n".join(lines)


def plot_report(r: dict[str, Any], output: str) -> None:
    """A picture of the report: the bisection under random failures (histogram against the
    healthy value) and path diversity by distance."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.2), gridspec_kw={"width_ratios": [3, 2]})
    healthy = r["bisection"]["gbps"] / 1e3
    rf = r.get("random_failures")
    if rf:
        values = np.asarray(rf["values_gbps"]) / 1e3
        ax1.hist(values, bins=min(40, max(5, len(values) // 10)), color="#4e79a7")
        ax1.axvline(healthy, color="#59a14f", lw=2, label=f"no random failures: {healthy:,.1f} Tbit/s")
        ax1.axvline(values.min(), color="#e15759", lw=2, ls="--",
                    label=f"worst of {rf['trials']}: {values.min():,.1f} Tbit/s (seed {rf['worst_seed']})")
        ax1.set_title(f"bisection after {rf['cables_failed']} random cable failures")
        ax1.set_ylabel("trials")
        ax1.legend(loc="upper left", fontsize=8)
    else:
        ax1.bar(["bisection"], [healthy], color="#4e79a7")
        ax1.set_title("bisection (no random trials: --random-failures K --trials N)")
    ax1.set_xlabel("bisection bandwidth (Tbit/s, one direction)")
    pdv = r["path_diversity"]
    if pdv:
        hops = [str(x["cable_hops"]) for x in pdv]
        fewest, most = [x["min_paths"] for x in pdv], [x["max_paths"] for x in pdv]
        bars = ax2.bar(hops, fewest, color="#f28e2b", label="fewest")
        ax2.bar_label(bars, [str(v) if v == m else f"{v}..{m}" for v, m in zip(fewest, most)], fontsize=8)
        ax2.plot(hops, most, "o", color="#333333", label="most")
        if max(most) > 50 * max(1, min(fewest)):
            ax2.set_yscale("log")
            ax2.yaxis.set_major_formatter(matplotlib.ticker.ScalarFormatter())
        ax2.legend(fontsize=8, loc="upper left")
    ax2.set_title("shortest paths between NPU pairs")
    ax2.set_xlabel("distance (cable hops)")
    ax2.set_ylabel("paths")
    extra = []
    if "failures" in r:
        f = r["failures"]
        extra.append(f"failures applied: {f['failed_edges']} links cut, {f['failed_nodes']} nodes down, "
                     f"{f['degraded_edges']} degraded")
    spof = r["single_points_of_failure"]
    extra.append(f"diameter {r['diameter']['cable_hops']} cable hops; single points of failure: "
                 f"{spof['parts']} parts, {spof['cables']} cables")
    fig.suptitle(f"{r['graph']}: {r['npus']:,} NPUs — " + "; ".join(extra), fontsize=10)
    fig.tight_layout()
    try:
        fig.savefig(output, dpi=110)
    except (OSError, ValueError) as e:
        raise error(f"cannot write the picture '{output}': {e}", "--plot") from None
    finally:
        plt.close(fig)
