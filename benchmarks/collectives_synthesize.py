"""Synthesized collectives against the lower bound and the textbook algorithms (issue 22 targets).

Run: python benchmarks/collectives_synthesize.py quality [K [P]] # the table: bound, ring, RHD, direct, ours
     python benchmarks/collectives_synthesize.py quality 0      # ... with synthesize_best (chunks auto)
     python benchmarks/collectives_synthesize.py speed [N ...]  # CPU time per phase (default 1024 4096)
     python benchmarks/collectives_synthesize.py gather N [keep]  # all-gather only, timeline not kept (16,384)
     python benchmarks/collectives_synthesize.py cli N [torus|stack] [--old DIR]  # the commands end to end

Cli: `infragraph synthesize` of an N-NPU all-reduce (1 chunk per rank, --model none) writing the
binary schedule file and (up to 8 million transfers) JSON, then `infragraph schedule validate` of
each file, every command a process of its own: wall and CPU seconds (user + system) and peak RSS
from os.wait4, and the 1-minute load average when it ends (the machine is shared: wall time is
waiting when the load exceeds the 2 cores). `--old DIR`: the same JSON commands run from another checkout (DIR, its engine
built in place) beside them.

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
        e = engine_time(g, s, "fair", "auto", free=True)
        model_eff.append(bound / s.time_ns)
        engine_eff.append(bound / e["time_ns"])
        print(f"| {label} | {s.ranks} | {bound / 1e6:.3f} | {' | '.join(cells)} | {s.time_ns / 1e6:.3f} "
              f"({model_eff[-1] * 100:.1f} %, {s.chunks_per_rank} chunks) | {e['time_ns'] / 1e6:.3f} ({engine_eff[-1] * 100:.0f} %, "
              f"{e['dependencies']}) |", flush=True)
    print(f"\naverage of the bound: ours (model) {sum(model_eff) / len(model_eff) * 100:.1f} %, "
          f"ours (engine) {sum(engine_eff) / len(engine_eff) * 100:.1f} % over {len(model_eff)} fabrics (K = {k or 'auto'}, P = {pieces if k else 'auto'})")


def speed(sizes: list[int]) -> None:
    """CPU seconds of each phase in one process: synthesize (matching, composition, replay and the
    step grouping, all in the engine), the proof, writing the binary schedule file, reading it
    back (every value checked) and proving it again; peak RSS of the process so far."""
    import os
    import resource
    import tempfile

    from infragraph.collectives.schedule_file import read_schedule_file, write_schedule_file

    for n in sizes:
        side = int(round(n ** 0.5))
        shapes = [("torus", f"[{side},{side}]"), ("stack", f'"RI(4)_FC(4)_SW({n // 16})"')]
        for kind, value in shapes:
            g = load_graph(f"std.fabrics.{kind}", {"sizes" if kind == "torus" else "shape": value})
            t0 = time.process_time()
            s = synthesize(g, "all-reduce", 1, SIZE)
            t1 = time.process_time()
            validate(s.cols)
            t2 = time.process_time()
            with tempfile.TemporaryDirectory(dir=os.environ.get("BENCH_TMP")) as tmp:
                path = os.path.join(tmp, "s.igsched")
                size = write_schedule_file(path, s.columns())
                t3 = time.process_time()
                validate(read_schedule_file(path))
                t4 = time.process_time()
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6
            print(f"{s.ranks} NPUs, {kind} {value}: all-reduce, 1 chunk/rank, {s.cols.transfers:,} transfers: synthesis "
                  f"{t1 - t0:.1f} s CPU, proof {t2 - t1:.2f} s, write {t3 - t2:.2f} s ({size / 1e6:,.0f} MB), read + proof "
                  f"{t4 - t3:.2f} s; {s.efficiency * 100:.1f} % of the bound; peak RSS {peak:.2f} GB", flush=True)
            del s


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


def command(label: str, argv: list[str], pythonpath: str | None = None) -> None:
    """Run `python -m infragraph ARGV` as a child process; print wall, CPU and peak RSS."""
    import os
    import subprocess

    env = dict(os.environ, **({"PYTHONPATH": pythonpath} if pythonpath else {}))
    w0 = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "infragraph", *argv], env=env, cwd=pythonpath or None,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    out = child.stdout.read()
    _, status, use = os.wait4(child.pid, 0)
    wall = time.perf_counter() - w0
    last = out.strip().splitlines()[-1] if out.strip() else ""
    print(f"| {label} | {wall:.1f} | {use.ru_utime + use.ru_stime:.1f} | {use.ru_maxrss / 1e6:.2f} | "
          f"{os.getloadavg()[0]:.1f} | {'ok' if status == 0 else 'exit ' + str(status >> 8)}: {last[:110]} |", flush=True)


def cli(n: int, kind: str = "torus", old: str | None = None) -> None:
    import os
    import tempfile

    from infragraph.collectives.synthesize import transfers

    side = int(round(n ** 0.5))
    source = (["std.fabrics.torus", "-D", f"sizes=[{side},{side}]"] if kind == "torus" else
              ["std.fabrics.stack", "-D", f'shape="RI(4)_FC(4)_SW({n // 16})"'])
    base = ["synthesize", *source, "--collective", "all-reduce", "--chunks", "1", "--model", "none"]
    print(f"{n:,} NPUs, {' '.join(source)}: all-reduce, {transfers(n, 'all-reduce', 1):,} transfers; load average "
          f"{os.getloadavg()[0]:.1f}\n")
    print("| command | wall s | CPU s | peak RSS GB | load average at the end | result |")
    print("|---|---:|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory(dir=os.environ.get("BENCH_TMP")) as tmp:
        files = [os.path.join(tmp, "s.igsched")]
        if transfers(n, "all-reduce", 1) <= 8_000_000:
            files.append(os.path.join(tmp, "s.json"))
        for out in files:
            command(f"synthesize -o {os.path.basename(out)}", [*base, "-o", out])
            size = os.path.getsize(out) / 1e6 if os.path.exists(out) else 0.0
            command(f"schedule validate {os.path.basename(out)} ({size:,.0f} MB)", ["schedule", "validate", out])
        if old and len(files) > 1:
            out = os.path.join(tmp, "old.json")
            command("old: synthesize -o old.json", [*base, "-o", out], old)
            command("old: schedule validate old.json", ["schedule", "validate", out], old)


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "quality"
    if what == "cli":
        args = sys.argv[2:]
        old_dir = args[args.index("--old") + 1] if "--old" in args else None
        plain = [a for a in args if a != "--old" and a != old_dir]
        cli(int(plain[0]) if plain else 1024, plain[1] if len(plain) > 1 else "torus", old_dir)
        sys.exit(0)
    rest = [int(a) for a in sys.argv[2:] if a != "keep"]
    if what == "quality":
        quality((rest[0] or None) if rest else 2, rest[1] if len(rest) > 1 else 1)
    elif what == "speed":
        speed(rest or [1024, 4096])
    else:
        gather(rest[0] if rest else 16384, "keep" in sys.argv[3:])
