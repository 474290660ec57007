"""Synthesized collectives against the lower bound and the textbook algorithms (issue 22 targets).

Run: python benchmarks/collectives_synthesize.py quality [K [P]] # the table: bound, ring, RHD, direct, ours
     python benchmarks/collectives_synthesize.py quality 0      # ... with synthesize_best (chunks auto)
     python benchmarks/collectives_synthesize.py speed [N ...]  # synthesis CPU time (default 1024 4096)
     python benchmarks/collectives_synthesize.py gather N [keep]  # all-gather only, timeline not kept (16,384)

Quality: a 1 GiB all-reduce per NPU on 3-D Ring-FC-Switch stacks of 16-128 NPUs and 2-D/3-D tori
and meshes. Ring, halving-doubling (RHD) and direct run in the engine as `simulate --algorithm X`
does (per dimension on these graphs); ours is the synthesized schedule (K chunks per rank, default
2) in the synthesizer's own timing model and in the engine (collectives.run, the faster dependency
mode; `quality K P`: the all-reduce in P pipelined pieces, default 1). Every engine run: model fair, reductions free and no endpoint delay (the bound counts
neither). "% of bound" = bound / time. Speed: CPU seconds of `synthesize` (graph loaded before),
then of the proof (`validate`).
"""
from __future__ import annotations

import sys
import time

from infragraph.collectives.schedule import validate
from infragraph.collectives.synthesize import engine_time, synthesize, synthesize_best
from infragraph.errors import InfraGraphError
from infragraph.simulate import SimulationOptions, prepare, simulate
from infragraph.sources import load_graph

SIZE = float(1 << 30)
RFS = ["RI(2)_FC(2)_SW(4)", "RI(4)_FC(2)_SW(2)", "RI(4)_FC(2)_SW(4)", "RI(2)_FC(4)_SW(8)", "RI(4)_FC(4)_SW(4)",
       "RI(4)_FC(4)_SW(8)"]
GRIDS = [("torus", "[4,4]"), ("torus", "[8,8]"), ("torus", "[8,4]"), ("torus", "[4,4,4]"), ("torus", "[4,4,2]"),
         ("mesh", "[4,4]"), ("mesh", "[8,8]"), ("mesh", "[4,4,4]")]


def cases():
    for shape in RFS:
        yield f"RFS {shape}", "std.fabrics.stack", {"shape": f'"{shape}"'}
    for kind, sizes in GRIDS:
        yield f"{kind} {sizes}", f"std.fabrics.{kind}", {"sizes": sizes}


def quality(k: int | None, pieces: int) -> None:
    print("| fabric | NPUs | bound | ring | RHD | direct | ours (model) | ours (engine) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    model_eff, engine_eff = [], []
    for label, source, defines in cases():
        g = load_graph(source, defines)
        p = prepare(g)
        s = synthesize_best(g, "all-reduce", SIZE) if k is None else synthesize(g, "all-reduce", k, SIZE, pieces=pieces)
        bound = s.bound.time_ns
        cells = []
        for algorithm in ("ring", "halving-doubling", "direct"):
            try:
                r = simulate(p, SimulationOptions(size_bytes=SIZE, algorithm=(algorithm,), local_mem_bw_gb_per_s=None,
                                                  endpoint_delay_ns=0.0))
                t = r["collective_time_ns"]
                cells.append(f"{t / 1e6:.3f} ({bound / t * 100:.0f} %)")
            except InfraGraphError:
                cells.append("n/a")
        e = engine_time(g, s, "fair", "auto")
        model_eff.append(bound / s.time_ns)
        engine_eff.append(bound / e["time_ns"])
        print(f"| {label} | {s.ranks} | {bound / 1e6:.3f} | {' | '.join(cells)} | {s.time_ns / 1e6:.3f} "
              f"({model_eff[-1] * 100:.1f} %, {s.chunks_per_rank} chunks) | {e['time_ns'] / 1e6:.3f} ({engine_eff[-1] * 100:.0f} %, "
              f"{e['dependencies']}) |", flush=True)
    print(f"\naverage of the bound: ours (model) {sum(model_eff) / len(model_eff) * 100:.1f} %, "
          f"ours (engine) {sum(engine_eff) / len(engine_eff) * 100:.1f} % over {len(model_eff)} fabrics (K = {k or 'auto'}, P = {pieces if k else 'auto'})")


def speed(sizes: list[int]) -> None:
    for n in sizes:
        side = int(round(n ** 0.5))
        shapes = [("torus", f"[{side},{side}]"), ("stack", f'"RI(4)_FC(4)_SW({n // 16})"')]
        for kind, value in shapes:
            g = load_graph(f"std.fabrics.{kind}", {"sizes" if kind == "torus" else "shape": value})
            t0 = time.process_time()
            s = synthesize(g, "all-reduce", 1, SIZE)
            t1 = time.process_time()
            validate(s.schedule())
            t2 = time.process_time()
            print(f"{s.ranks} NPUs, {kind} {value}: all-reduce, 1 chunk/rank, {s.src.size:,} transfers: synthesis "
                  f"{t1 - t0:.1f} s CPU, proof {t2 - t1:.1f} s; {s.efficiency * 100:.1f} % of the bound", flush=True)


def gather(n: int, keep: bool = False) -> None:
    """All-gather synthesis at scale, the timeline not kept (`keep`: kept, as the engine's compact
    columns: 16 B per transfer); peak RSS and the load average say what the run cost and shared."""
    import os
    import resource

    from infragraph.collectives.links import logical_links
    from infragraph.collectives.matching import all_gather
    from infragraph.collectives.bound import lower_bound
    from infragraph.graph.ranks import npu_order

    side = int(round(n ** 0.5))
    g = load_graph("std.fabrics.torus", {"sizes": f"[{side},{side}]"})
    t0 = time.process_time()
    links = logical_links(g, npu_order(g))
    t1, w1 = time.process_time(), time.perf_counter()
    ag = all_gather(links, 1, SIZE / n, record=keep)
    t2, w2 = time.process_time(), time.perf_counter()
    bound = lower_bound(links, "all-gather", SIZE)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6  # kB -> GB
    print(f"{links.npus} NPUs, torus [{side},{side}]: all-gather of {SIZE:.0f} B, {ag.transfers:,} transfers "
          f"(timeline {'kept: ' + format(ag.link.nbytes + ag.chunk.nbytes + ag.start.nbytes, ',') + ' B' if keep else 'not kept'}): "
          f"links {t1 - t0:.1f} s, matching {t2 - t1:.1f} s CPU ({w2 - w1:.1f} s wall, "
          f"{(t2 - t1) / max(ag.transfers, 1) * 1e6:.2f} us per transfer); {bound.time_ns / ag.time_ns * 100:.1f} % of the "
          f"bound; peak RSS {peak:.2f} GB; load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "quality"
    rest = [int(a) for a in sys.argv[2:] if a != "keep"]
    if what == "quality":
        quality((rest[0] or None) if rest else 2, rest[1] if len(rest) > 1 else 1)
    elif what == "speed":
        speed(rest or [1024, 4096])
    else:
        gather(rest[0] if rest else 16384, "keep" in sys.argv[3:])
