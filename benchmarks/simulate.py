"""Benchmark the collective simulator against the ASTRA-sim analytical numbers of issue 5.

    python benchmarks/simulate.py            # every case, each in its own process, prints a table
    python benchmarks/simulate.py CASE ...   # one case in this process (prints one JSON line)

Cases:
- torus-c4 / torus-c16: 4,096-NPU 16x16x16 torus, NPUs linked directly (tests/simgraphs.torus:
  50 GiB/s = ASTRA-sim's 50 GB/s, 500 ns, one hop per neighbour, as ASTRA-sim's Ring dimensions),
  1 MiB all-reduce, hierarchical ring over dims 16,16,16, ASTRA-sim-compatible congestion-unaware
  mode, 4 / 16 chunks. ASTRA-sim's analytical binary: 12.1 s / 114.5 s.
- torus-size-*: the 4-chunk torus at 1 KiB, 1 MiB and 1 GiB (time must be flat in message size).
- stack-c4: the same shape from the std.fabrics.stack blueprint (NPUs with port nodes, 3 hops per
  neighbour); it must give the same answer as the directly linked torus.
- clos-a2a: 1,024 GPUs (128 DGX-like 8-GPU hosts, std.fabrics.clos radix 32, 2 tiers, 2 planes,
  8 NICs per host), 1 MiB all-to-all, direct, congestion-aware.

Scale cases (issue 13), each run by this engine and by the old one (/work/scratch/baseline, or
$OLD_ENGINE_PATH) side by side, the old one with a time limit (reported "> N s"):
- clos8k-ring-aware: 8,192 hosts (std.fabrics.clos radix 32, 3 tiers, 1 NIC + 1 GPU per host),
  1 GiB flat-ring all-reduce, congestion-aware. Target <= 60 s.
- clos32k-hier-{ring,hd}-aware: 32,768 GPUs (4,096 hosts of 8 GPUs on one scale-up switch and 2
  NICs, radix 32, 3 tiers), 1 GiB hierarchical all-reduce over dims 8 x 4,096, ring in the server,
  ring / halving-doubling across servers, congestion-aware. Target <= 60 s.
- clos131k-hier-hd-aware: 131,072 GPUs (16,384 such hosts with 4 NICs, radix 64, 3 tiers), the same
  all-reduce over 8 x 16,384. Target <= 5 min and <= 8 GB.
- clos32k-hier-hd-dmodk, clos131k-hier-hd-dmodk, clos1m-hier-hd-dmodk: the hierarchical
  halving-doubling cases routed by d-mod-k on the switch tiers (`--routing-policy
  scale-out=d-mod-k`), which the fold over link orbits covers (issue 23); the last on the
  1,048,576-GPU Clos (radix 128, 131,072 such hosts with 4 NICs), dims 8 x 131,072.
- clos-a2a-fair: the clos-a2a case with the fair-share model. Target <= 10 s.
- Smaller cases that both engines finish: clos1k-ring-aware (1,024 hosts, radix 16, 3 tiers, the
  8k case's collective), clos256-a2a-{aware,fair} (256 GPUs, radix 16, 2 tiers, DGX hosts).

    python benchmarks/simulate.py --scale [CASE ...]   # the scale cases, new and old engine
    python benchmarks/simulate.py --symmetry [CASE ...]   # symmetric vs full (issue 23), same engine
    python benchmarks/simulate.py --phases CASE ...   # CPU and memory per phase, in this process

--symmetry runs each case in two fresh processes of this engine, folded onto representative
members where the engine proves it exact (the default) and with `symmetry=False` (every member
simulated), and times each whole process (interpreter start, imports, graph build, simulation):
wall and CPU seconds (user + system, RUSAGE_CHILDREN) and peak resident memory. "same answer"
compares a digest of the whole result dict (every rank's finish time and bytes, flows, the 100
busiest links, per-tier load) except the engine's own effort (events, wall time, the `symmetry`
path report); simengine/tests/shortcuts.rs compares every link.

"simulate s" is the library call on a prepared graph (arrays to Rust, engine, result dict);
"engine s" is the Rust event loop alone; building the graph (document + expansion) and preparing
it (FQG to engine arrays, done once per graph, shared by a size sweep) are reported apart.
Peak MB is the whole process's maximum resident set (Python, numpy, the graph included).
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))  # after PYTHONPATH, so the old engine's run imports the old package

TORUS = dict(shape="RI(16)_RI(16)_RI(16)", bandwidth="[50 GiB/s, 50 GiB/s, 50 GiB/s]",
             latency="[500 ns, 500 ns, 500 ns]")
CLOS = dict(radix=32, tiers=2, nics_per_host=8, planes=2, host_device="dgx.dgx()")

SERVER = "hosts.host(cpus=1, gpus=8, nics={nics}, pcie_switches={nics}, scaleup_switches=1)"
CLOS32K = dict(radix=32, tiers=3, nics_per_host=2, host_device=SERVER.format(nics=2))
CLOS131K = dict(radix=64, tiers=3, nics_per_host=4, host_device=SERVER.format(nics=4))
CLOS1M = dict(radix=128, tiers=3, nics_per_host=4, host_device=SERVER.format(nics=4))
DMODK = "scale-out=d-mod-k"
OLD_ENGINE = Path(os.environ.get("OLD_ENGINE_PATH", "/work/scratch/baseline"))
OLD_LIMIT_S = float(os.environ.get("OLD_LIMIT_S", "300"))
NEW_LIMIT_S = float(os.environ["NEW_LIMIT_S"]) if "NEW_LIMIT_S" in os.environ else None

DIMS = (16, 16, 16)
# ASTRA-sim's configuration of the issue: LIFO ready list (greedy; fine on a symmetric torus).
AR = dict(collective="all-reduce", algorithm=("ring",), dims=DIMS, model="astra", endpoint_delay_ns=10,
          local_mem_bw_gb_per_s=1600, scheduling="lifo")
CASES = {
    "torus-c4": ("torus", None, dict(AR, chunks=4, size_bytes=1 << 20)),
    "torus-c16": ("torus", None, dict(AR, chunks=16, size_bytes=1 << 20)),
    "torus-size-1KiB": ("torus", None, dict(AR, chunks=4, size_bytes=1 << 10)),
    "torus-size-1MiB": ("torus", None, dict(AR, chunks=4, size_bytes=1 << 20)),
    "torus-size-1GiB": ("torus", None, dict(AR, chunks=4, size_bytes=1 << 30)),
    "stack-c4": ("stack", TORUS, dict(AR, chunks=4, size_bytes=1 << 20)),
    "clos-a2a": ("clos", CLOS, dict(collective="all-to-all", algorithm=("direct",), model="aware",
                                    size_bytes=1 << 20)),
}
HIER = dict(collective="all-reduce", model="aware", size_bytes=1 << 30)
SMALL_CLOS = dict(radix=16, tiers=2, nics_per_host=8, planes=2, host_device="dgx.dgx()")
SCALE = {
    "clos1k-ring-aware": ("clos", dict(radix=16, tiers=3), dict(HIER, algorithm=("ring",))),
    "clos256-a2a-aware": ("clos", SMALL_CLOS, dict(collective="all-to-all", algorithm=("direct",), model="aware",
                                                   size_bytes=1 << 20, dims=(256,))),
    "clos256-a2a-fair": ("clos", SMALL_CLOS, dict(collective="all-to-all", algorithm=("direct",), model="fair",
                                                  size_bytes=1 << 20, dims=(256,))),
    "clos-a2a-fair": ("clos", CLOS, dict(collective="all-to-all", algorithm=("direct",), model="fair",
                                         size_bytes=1 << 20, dims=(1024,))),
    "clos8k-ring-aware": ("clos", dict(radix=32, tiers=3), dict(HIER, algorithm=("ring",))),
    "clos32k-hier-hd-aware": ("clos", CLOS32K, dict(HIER, algorithm=("ring", "halving-doubling"), dims=(8, 4096))),
    "clos32k-hier-ring-aware": ("clos", CLOS32K, dict(HIER, algorithm=("ring", "ring"), dims=(8, 4096))),
    "clos131k-hier-hd-aware": ("clos", CLOS131K, dict(HIER, algorithm=("ring", "halving-doubling"), dims=(8, 16384))),
    # The same with d-mod-k routing on the switch tiers (issue 23): the run repeats with the servers.
    "clos32k-hier-hd-dmodk": ("clos", CLOS32K, dict(HIER, algorithm=("ring", "halving-doubling"), dims=(8, 4096),
                                                    routing_policy=DMODK)),
    "clos131k-hier-hd-dmodk": ("clos", CLOS131K, dict(HIER, algorithm=("ring", "halving-doubling"), dims=(8, 16384),
                                                      routing_policy=DMODK)),
    "clos1m-hier-hd-dmodk": ("clos", CLOS1M, dict(HIER, algorithm=("ring", "halving-doubling"), dims=(8, 131072),
                                                  routing_policy=DMODK)),
}


def build(kind: str, params: dict | None):
    if kind == "torus":
        from tests.simgraphs import ASTRA_50GB_GBPS, torus

        return torus(DIMS, gbps=ASTRA_50GB_GBPS, ns=500.0)
    from infragraph import blueprints

    return blueprints.graph(f"std.fabrics.{kind}", **params)


def run_case(name: str) -> dict:
    import hashlib

    import infragraph
    from infragraph.simulate import SimulationOptions, prepare, simulate

    print(f"engine: {Path(infragraph.__file__).parent}", file=sys.stderr)
    kind, params, opts = {**CASES, **SCALE}[name]
    startup_cpu = time.process_time()  # interpreter start and imports
    t0 = time.perf_counter()
    g = build(kind, params)
    build_s = time.perf_counter() - t0
    build_cpu = time.process_time() - startup_cpu
    t1 = time.perf_counter()
    prepared = prepare(g)
    prepare_s = time.perf_counter() - t1
    t1 = time.perf_counter()
    cpu0 = time.process_time()
    if "SYMMETRY" in os.environ:  # --symmetry: this engine, folded or not
        opts = dict(opts, symmetry=os.environ["SYMMETRY"] == "1")
    r = simulate(prepared, SimulationOptions(**opts))
    sim_s = time.perf_counter() - t1
    cpu_s = time.process_time() - cpu0
    effort = ("events", "wall_time_s", "events_per_second", "symmetry")
    digest = hashlib.sha256(json.dumps({k: v for k, v in r.items() if k not in effort}, sort_keys=True,
                                       default=str).encode()).hexdigest()[:16]
    return {
        "symmetry": r.get("symmetry"),
        "digest": digest,
        "startup_cpu_s": round(startup_cpu, 2),
        "build_cpu_s": round(build_cpu, 2),
        "case": name,
        "npus": r["num_npus"],
        "nodes": g.num_nodes,
        "edges": g.num_edges,
        "build_s": round(build_s, 2),
        "prepare_s": round(prepare_s, 3),
        "simulate_s": round(sim_s, 3),
        "simulate_cpu_s": round(cpu_s, 3),
        "engine_s": round(r["wall_time_s"], 3),
        "events": r["events"],
        "events_per_s": round(r["events_per_second"]),
        "collective_time_ns": r["collective_time_ns"],
        # Distinct rank finish times: a fold that copies representatives can only be exact where
        # this is at most the number of members it simulates.
        "distinct_finish_times": len({rank["finish_ns"] for rank in r["ranks"]}),
        "bus_bandwidth_gb_per_s": round(r["bus_bandwidth_gb_per_s"], 3),
        "peak_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
    }


def run_in_subprocess(name: str, pythonpath: Path, limit_s: float | None) -> dict | str:
    """One case in a fresh process on the engine at `pythonpath`: its row, or why there is none."""
    env = dict(os.environ, PYTHONPATH=str(pythonpath))
    try:
        out = subprocess.run([sys.executable, __file__, name], capture_output=True, text=True, cwd=ROOT, env=env,
                             timeout=limit_s)
    except subprocess.TimeoutExpired:
        return f"> {limit_s:.0f} s"
    if out.returncode != 0:
        return "failed: " + (out.stderr.strip().splitlines() or ["?"])[-1][:80]
    return json.loads(out.stdout.strip().splitlines()[-1])


def scale(names: list[str]) -> int:
    """The scale cases, new engine then old, one table row per case."""
    cols = ("case", "npus", "nodes", "events", "build s", "new s", "new cpu s", "new peak MB", "old s",
            "old cpu s", "old events", "collective ns", "same answer")
    print("| " + " | ".join(cols) + " |")
    print("|---|" + "---:|" * (len(cols) - 1), flush=True)
    for name in names or list(SCALE):
        new = run_in_subprocess(name, ROOT, NEW_LIMIT_S)
        old = run_in_subprocess(name, OLD_ENGINE, OLD_LIMIT_S)
        if isinstance(new, str):
            print(f"| {name} | {new} |", flush=True)
            continue
        # The whole result (digest), where the old engine reports one; else the collective time.
        key = "digest" if "digest" in new and not isinstance(old, str) and "digest" in old else "collective_time_ns"
        same = "-" if isinstance(old, str) else ("yes" if old[key] == new[key]
                                                 else f"no (old {old['collective_time_ns']})")
        row = (name, f"{new['npus']:,}", f"{new['nodes']:,}", f"{new['events']:,}", new["build_s"],
               new["simulate_s"], new["simulate_cpu_s"], f"{new['peak_mb']:,}",
               old if isinstance(old, str) else old["simulate_s"], "-" if isinstance(old, str) else old["simulate_cpu_s"],
               "-" if isinstance(old, str) else f"{old['events']:,}", new["collective_time_ns"], same)
        print("| " + " | ".join(map(str, row)) + " |", flush=True)
    return 0


def whole_process(name: str, symmetric: bool, limit_s: float | None) -> dict | str:
    """One case in a fresh process of this engine: its row plus the process's wall, CPU and peak memory."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), SYMMETRY="1" if symmetric else "0")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    try:
        out = subprocess.run([sys.executable, __file__, name], capture_output=True, text=True, cwd=ROOT, env=env,
                             timeout=limit_s)
    except subprocess.TimeoutExpired:
        return f"> {limit_s:.0f} s"
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if out.returncode != 0:
        return "failed: " + (out.stderr.strip().splitlines() or ["?"])[-1][:80]
    row = json.loads(out.stdout.strip().splitlines()[-1])
    row["process_s"] = round(wall, 2)
    row["process_cpu_s"] = round(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, 2)
    return row


def symmetry(names: list[str]) -> int:
    """Symmetric versus full on the same cases: one table row per case."""
    cols = ("case", "npus", "path (members simulated)", "events", "wall s", "cpu s", "peak MB", "full events",
            "full wall s", "full cpu s", "full peak MB", "collective ns", "distinct finish times", "same answer")
    print("| " + " | ".join(cols) + " |")
    print("|---|---:|---|" + "---:|" * (len(cols) - 4) + "---|", flush=True)
    for name in names or ["clos1k-ring-aware", "clos8k-ring-aware", "clos32k-hier-hd-aware", "clos131k-hier-hd-aware"]:
        sym = whole_process(name, True, NEW_LIMIT_S)
        if isinstance(sym, str):
            print(f"| {name} | {sym} |", flush=True)
            continue
        if sym["symmetry"]["path"] == "full" and os.environ.get("RERUN_REFUSED") != "1":
            full = sym  # the check refused the fold: that run was the full run (RERUN_REFUSED=1 reruns it)
        else:
            full = whole_process(name, False, float(os.environ.get("FULL_LIMIT_S", "600")))
        s = sym["symmetry"]
        path = (f"symmetric ({s['members_simulated']:,})" if s["path"] == "symmetric"
                else f"full: {s['reason']}")
        f = (full, "-", "-", "-", "-") if isinstance(full, str) else (
            f"{full['events']:,}", full["process_s"], full["process_cpu_s"], f"{full['peak_mb']:,}")
        same = "-" if isinstance(full, str) else ("yes" if full["digest"] == sym["digest"] else "NO")
        row = (name, f"{sym['npus']:,}", path, f"{sym['events']:,}", sym["process_s"], sym["process_cpu_s"],
               f"{sym['peak_mb']:,}", *f[:4], sym["collective_time_ns"], f"{sym['distinct_finish_times']:,}", same)
        print("| " + " | ".join(map(str, row)) + " |", flush=True)
    return 0


def _rss_mb() -> tuple[int, int]:
    """(resident, peak resident) of this process in MB, from /proc (Linux)."""
    status = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines() if ":" in line)
    return int(status["VmRSS"].split()[0]) // 1024, int(status["VmHWM"].split()[0]) // 1024


def phases(name: str) -> int:
    """One case in this process, CPU seconds (user + system) and memory after each phase of the
    library call: the graph build, `prepare`, the engine's inputs (`engine_call`: NIC affinity,
    servers, NVSwitch planes), the engine itself, the result dict (link tiers, injection bound,
    rank records) and a JSON text of the result (as the benchmark's digest makes it)."""
    import functools

    from infragraph.simulate import run

    depth = [0]

    def timed(module, attr: str) -> None:
        f = getattr(module, attr)

        @functools.wraps(f)
        def wrapper(*a, **k):
            cpu = time.process_time()
            depth[0] += 1
            try:
                return f(*a, **k)
            finally:
                depth[0] -= 1
                rss, peak = _rss_mb()
                print(f"{'  ' * depth[0]}{attr:24s} cpu {time.process_time() - cpu:7.2f} s  rss {rss:6,} MB  "
                      f"peak {peak:6,} MB", flush=True)
        setattr(module, attr, wrapper)

    for attr in ("prepare", "engine_call", "_result", "affinity", "servers", "nvswitch_planes", "link_tiers",
                 "injection_bound_gbps", "tier_summary", "_collisions"):
        timed(run, attr)
    holder = type("Engine", (), {"simulate": staticmethod(run.simulate_arrays())})
    timed(holder, "simulate")  # the Rust engine's call (inputs converted, run, outputs converted)
    run.simulate_arrays = lambda: holder.simulate
    kind, params, opts = {**CASES, **SCALE}[name]
    print(f"imports                  cpu {time.process_time():7.2f} s", flush=True)
    cpu = time.process_time()
    g = build(kind, params)
    print(f"build                    cpu {time.process_time() - cpu:7.2f} s  nodes {g.num_nodes:,} edges "
          f"{g.num_edges:,}", flush=True)
    r = run.simulate(run.prepare(g), run.SimulationOptions(**opts))
    cpu = time.process_time()
    text = json.dumps({k: v for k, v in r.items() if k not in ("events", "wall_time_s", "events_per_second", "symmetry")},
                      sort_keys=True, default=str)
    print(f"result as JSON           cpu {time.process_time() - cpu:7.2f} s  {len(text) / 1e6:.0f} MB", flush=True)
    use = resource.getrusage(resource.RUSAGE_SELF)
    print(f"process                  cpu {use.ru_utime + use.ru_stime:7.2f} s (user {use.ru_utime:.2f}, system "
          f"{use.ru_stime:.2f})  peak {use.ru_maxrss // 1024:,} MB  {r['symmetry']}  collective "
          f"{r['collective_time_ns']} ns  events {r['events']:,}", flush=True)
    return 0


def main(argv: list[str]) -> int:
    if argv[:1] == ["--phases"]:
        return max((phases(name) for name in argv[1:]), default=0)
    if argv[:1] == ["--scale"]:
        return scale(argv[1:])
    if argv[:1] == ["--symmetry"]:
        return symmetry(argv[1:])
    if argv:
        for name in argv:
            print(json.dumps(run_case(name)), flush=True)
        return 0
    rows = []
    for name in CASES:
        out = subprocess.run([sys.executable, __file__, name], capture_output=True, text=True, cwd=ROOT)
        if out.returncode != 0:
            print(out.stderr, file=sys.stderr)
            return out.returncode
        rows.append(json.loads(out.stdout.strip().splitlines()[-1]))
    cols = ["case", "npus", "nodes", "edges", "build_s", "prepare_s", "simulate_s", "engine_s", "events", "events_per_s",
            "collective_time_ns", "bus_bandwidth_gb_per_s", "peak_mb"]
    print("| " + " | ".join(cols) + " |")
    print("|" + "|".join("---:" if c != "case" else "---" for c in cols) + "|")
    for row in rows:
        print("| " + " | ".join(f"{row[c]:,}" if isinstance(row[c], int) else str(row[c]) for c in cols) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
