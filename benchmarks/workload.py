"""Workload replay speed (issue 20, "Speed"): the toolchain vs ASTRA-sim's analytical binary on the same ETs.

    ASTRA_UNAWARE=/path/AstraSim_Analytical_Congestion_Unaware python benchmarks/workload.py [--scale 1,8,64]
    python benchmarks/workload.py --fair-16k       # one step of a 16,384-GPU GPT-3-like job, --model fair
    python benchmarks/workload.py --nccl-1k        # the 1,024-GPU step in NCCL mode: shared network vs alone
    python benchmarks/workload.py --old /tmp/old   # start-up floor and b=1 step: an older checkout vs now
    ASTRA_UNAWARE=... python benchmarks/workload.py --scale 1,64 --with-old /tmp/old --runs 5  # all three

Case `gpt3-1k`: a GPT-3-like step on 1,024 NPUs (TP 8, PP 8, DP 16; 16 layers of GPT-3's width,
hidden 12,288, 96 heads, sequence 2,048; 8 micro-batches of `b` sequences per pipeline, 1F1B,
sequence parallelism, ZeRO 1), written once by `infragraph workload`, then replayed
- by `infragraph simulate <fabric> --workload ... --model astra` (a new process: start-up, fabric
  build, ET reading and replay all included), and
- by `AstraSim_Analytical_Congestion_Unaware` on the same ETs and comm-group file, with the network
  file of the same fabric: ASTRA-sim's `Switch(8)` inside a server, `Switch(128)` across servers
  (std.fabrics.stack "SW(8)_SW(128)": 900 GB/s and 50 GB/s per NPU and direction, 2^30 B GB as
  ASTRA-sim reads them), system: 4 chunks, ring, LIFO, endpoint delay 10 ns, local-mem-bw 1600.
Both report every NPU's finish time; the table says whether they agree. The installed infragraph
package is byte-compiled first, as a wheel install is (`compile_bytecode`). Ours runs three times,
each a new process with its own compile cache folder in a given state (CACHE_STATES): `first`, an
empty cache (the first run after an install: parse, elaborate and expand std.fabrics.stack);
`fabric`, a cache that holds another fabric of the same blueprint (SW(8)_SW(64)), so its parsed
modules but not this graph (a new -D set: elaborate and expand); `cached`, the fabric itself. The
three JSON outputs must be byte-identical. `--scale` multiplies the micro-batch `b` (every message
and compute node grows with it): the time must stay flat in message size.

Case `nccl-1k`: the same GPT-3-like step (b = 1) on 1,024 H100-class GPUs in DGX-like servers
(examples/workloads/superpod_1k.igl), `--model fair` with NCCL mode (the default on GPU servers),
replayed on the shared network (collectives of different groups contend) and with `--network
alone` (each collective timed alone), in fresh processes one after the other: wall, CPU, peak
memory (max RSS of the child) and step time of each.

Case `fair-16k`: 16,384 GPUs (TP 8, PP 16, DP 128; GPT-3 175B's shape, 2 micro-batches per
pipeline) on std.fabrics.stack "SW(8)_SW(2048)", `--model fair`: wall, CPU and peak memory (max RSS) of
the replay process. Target <= 60 s.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FINISHED = re.compile(r"sys\[(\d+)\] finished, (\d+) cycles")
STEP = re.compile(r"step time: [^(]*\(([\d,]+) ns\)")


def spec(npus_dp: int, pp: int, layers: int, micro: int, micro_batches: int) -> str:
    """A GPT-3-like `infragraph workload` spec (YAML)."""
    return (f"model: {{layers: {layers}, hidden: 12288, heads: 96, seq: 2048, vocab: 51200}}\n"
            f"batch: {{global_batch: {micro * micro_batches * npus_dp}, micro_batch: {micro}}}\n"
            f"parallel: {{tp: 8, pp: {pp}, dp: {npus_dp}, sequence_parallel: true, zero: 1}}\n"
            "gpu: {peak_tflops: 989, efficiency: 0.5, hbm_gb_per_s: 3350}\n")


def write_inputs(folder: Path, servers: int) -> dict[str, str]:
    """ASTRA-sim's network / system / remote-memory files for SW(8)_SW(servers)."""
    net = folder / "network.yml"
    net.write_text(f"topology: [ Switch, Switch ]\nnpus_count: [ 8, {servers} ]\n"
                   "bandwidth: [ 900.0, 50.0 ]\nlatency: [ 100.0, 1000.0 ]\n", encoding="utf-8")
    system = {"scheduling-policy": "LIFO", "endpoint-delay": 10, "active-chunks-per-dimension": 1,
              "preferred-dataset-splits": 4, "collective-optimization": "localBWAware", "local-mem-bw": 1600,
              "boost-mode": 0, "roofline-enabled": 0, "peak-perf": 900,
              **{f"{c}-implementation": ["ring", "ring"]
                 for c in ("all-reduce", "all-gather", "reduce-scatter", "all-to-all")}}
    sysf = folder / "system.json"
    sysf.write_text(json.dumps(system), encoding="utf-8")
    mem = folder / "memory.json"
    mem.write_text('{"memory-type": "NO_MEMORY_EXPANSION"}', encoding="utf-8")
    return {"network": str(net), "system": str(sysf), "memory": str(mem)}


def fabric_args(servers: int) -> list[str]:
    return ["std.fabrics.stack", "-D", f'shape="SW(8)_SW({servers})"', "-D", "bandwidth=[900 GiB/s, 50 GiB/s]",
            "-D", "latency=[100 ns, 1000 ns]"]


CACHE_STATES = ("first", "fabric", "cached")


def cache_folder(folder: Path, state: str, servers: int) -> dict[str, str]:
    """The environment of our run in compile-cache `state` (CACHE_STATES), its cache under `folder`:
    `first` and `cached` share one folder (empty before `first`, which fills it); `fabric`'s holds
    SW(8)_SW(servers // 2) of the same blueprint, compiled here first (not timed)."""
    env = dict(os.environ, INFRAGRAPH_CACHE_DIR=str(folder / f"cache-{'fabric' if state == 'fabric' else 'own'}"))
    env.pop("INFRAGRAPH_NO_CACHE", None)
    if state == "fabric":
        subprocess.run(["infragraph", "info", *fabric_args(servers // 2)], cwd=folder, env=env, check=True,
                       capture_output=True)
    return env


CPU_S: dict[str, float] = {}  # command name -> CPU seconds (user + system) of its last run


def timed(cmd: list[str], cwd: str, limit_s: float, env: dict[str, str] | None = None) -> tuple[float, str]:
    """Wall seconds and stdout of `cmd`; its CPU seconds (user + system, children included) go to CPU_S."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, timeout=limit_s, env=env)
    except subprocess.TimeoutExpired:
        return float("inf"), ""
    if out.returncode != 0:
        raise SystemExit(f"{cmd[0]} failed ({out.returncode}): {(out.stderr or out.stdout)[-2000:]}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU_S[Path(cmd[0]).name] = round(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, 2)
    return time.perf_counter() - t0, out.stdout


def with_old(old: str, folder: Path, replay: list[str], runs: int, limit_s: float) -> dict:
    """The same replay by the old tree and by the installed toolchain, `runs` times each, alternating
    fresh processes (`python -m infragraph.cli` for both, after one uncounted round that fills each
    one's compile cache): every run's CPU and wall seconds, and whether the old tree's JSON output is
    byte-identical to ours."""
    out: dict = {f"{k}_{m}": [] for k in ("old", "new") for m in ("cpu_s", "wall_s")}
    for i in range(runs + 1):
        for k, env in (("old", dict(os.environ, PYTHONPATH=old)), ("new", None)):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-m", "infragraph.cli", "simulate", *replay, "--json", f"{k}.json"],
                           cwd=folder, env=env, check=True, capture_output=True, timeout=limit_s)
            wall = time.perf_counter() - t0
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if i:
                out[f"{k}_cpu_s"].append(round(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, 2))
                out[f"{k}_wall_s"].append(round(wall, 2))
    out["old_json_identical"] = (folder / "old.json").read_bytes() == (folder / "new.json").read_bytes()
    return out


def gpt3_1k(scale: int, binary: str | None, limit_s: float, old: str | None = None, runs: int = 1) -> dict:
    with tempfile.TemporaryDirectory(prefix="wlbench-") as tmp:
        folder = Path(tmp)
        (folder / "spec.yaml").write_text(spec(16, 8, 16, scale, 8), encoding="utf-8")
        t0 = time.perf_counter()
        subprocess.run(["infragraph", "workload", "spec.yaml", "-o", "et/step"], cwd=tmp, check=True,
                       capture_output=True)
        write_s = time.perf_counter() - t0
        nodes = sum(1 for _ in folder.glob("et/step.*.et"))
        replay = [*fabric_args(128), "--workload", "et/step", "--comm-group", "et/step.json", "--model", "astra",
                  "--chunks", "4", "--algorithm", "ring", "--scheduling", "lifo", "-q"]
        row = {"case": f"gpt3-1k b={scale}", "ranks": nodes, "write_s": round(write_s, 2)}
        outputs = []
        for state in CACHE_STATES:
            env = cache_folder(folder, state, 128)
            s, _ = timed(["infragraph", "simulate", *replay, "--json", f"ours-{state}.json"], tmp, limit_s, env)
            row.update({f"{state}_s": round(s, 2), f"{state}_cpu_s": CPU_S.get("infragraph")})
            outputs.append((folder / f"ours-{state}.json").read_bytes() if s < float("inf") else b"")
        row["ours_json_identical"] = len(set(outputs)) == 1
        ours = json.loads(outputs[-1]) if outputs[-1] else None
        row.update({"ours_step_ns": ours and ours["step_time_ns"], "load_average": os.getloadavg()[0]})
        if old:
            row.update(with_old(old, folder, replay, runs, limit_s))
        if binary:
            cfg = write_inputs(folder, 128)
            ref_s, out = timed([binary, "--workload-configuration=et/step", "--comm-group-configuration=et/step.json",
                                f"--system-configuration={cfg['system']}", f"--network-configuration={cfg['network']}",
                                f"--remote-memory-configuration={cfg['memory']}"], tmp, limit_s)
            found = {int(m.group(1)): int(m.group(2)) for m in FINISHED.finditer(out)}
            row["astra_s"] = round(ref_s, 2) if ref_s < float("inf") else f"> {limit_s:.0f}"
            row["astra_cpu_s"] = CPU_S.get(Path(binary).name)
            row["astra_step_ns"] = max(found.values()) if found else None
            if ours and found:
                row["same_finish"] = sum(int(n["finish_ns"]) == found.get(n["rank"]) for n in ours["npus"])
            for state in CACHE_STATES:
                if ref_s < float("inf") and row[f"{state}_s"] < float("inf"):
                    row[f"speedup_{state}"] = round(ref_s / row[f"{state}_s"], 1)
                    row[f"cpu_speedup_{state}"] = round(row["astra_cpu_s"] / row[f"{state}_cpu_s"], 1)
            row["load_average_after"] = os.getloadavg()[0]
        return row


def fair_16k(limit_s: float) -> dict:
    with tempfile.TemporaryDirectory(prefix="wlbench-") as tmp:
        folder = Path(tmp)
        (folder / "spec.yaml").write_text(spec(128, 16, 96, 1, 2), encoding="utf-8")
        t0 = time.perf_counter()
        subprocess.run(["infragraph", "workload", "spec.yaml", "-o", "et/step"], cwd=tmp, check=True,
                       capture_output=True)
        write_s = time.perf_counter() - t0
        s, cpu, rss = own_run(["infragraph", "simulate", *fabric_args(2048), "--workload", "et/step",
                               "--comm-group", "et/step.json", "--model", "fair", "--json", "ours.json", "-q"], tmp,
                              limit_s)
        step = json.loads((folder / "ours.json").read_text())["step_time_ns"]
        return {"case": "fair-16k", "write_s": round(write_s, 2), "ours_s": round(s, 2), "ours_cpu_s": round(cpu, 2),
                "max_rss_mb": rss, "ours_step_ns": step, "load_average": os.getloadavg()[0]}


def own_run(cmd: list[str], cwd: str, limit_s: float) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds and peak memory (MB, max RSS) of `cmd` alone (os.wait4 reads its
    own usage; RUSAGE_CHILDREN's max RSS would be the largest of every child so far)."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(["timeout", str(int(limit_s)), *cmd], cwd=cwd, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    if status:
        raise SystemExit(f"{cmd[0]} failed ({status}): {proc.stderr.read().decode()[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss // 1024


def nccl_1k(limit_s: float) -> list[dict]:
    fabric = str(ROOT / "examples" / "workloads" / "superpod_1k.igl")
    rows = []
    with tempfile.TemporaryDirectory(prefix="wlbench-") as tmp:
        folder = Path(tmp)
        (folder / "spec.yaml").write_text(spec(16, 8, 16, 1, 8), encoding="utf-8")
        subprocess.run(["infragraph", "workload", "spec.yaml", "-o", "et/step"], cwd=tmp, check=True,
                       capture_output=True)
        subprocess.run(["infragraph", "info", fabric], cwd=tmp, check=True, capture_output=True)  # fills the cache
        for network in ("shared", "alone"):
            wall, cpu, rss = own_run(["infragraph", "simulate", fabric, "--workload", "et/step", "--comm-group",
                                      "et/step.json", "--model", "fair", "--network", network, "--json",
                                      f"{network}.json", "-q"], tmp, limit_s)
            r = json.loads((folder / f"{network}.json").read_text())
            rows.append({"case": f"nccl-1k {network}", "ours_s": round(wall, 2), "ours_cpu_s": round(cpu, 2),
                         "max_rss_mb": rss, "network": r["network"], "step_ns": r["step_time_ns"],
                         "engine_runs": r["engine_runs"], "collectives": len(r["collectives"]),
                         "messages": len(r["messages"]), "load_average": os.getloadavg()[0]})
    return rows


def compile_bytecode() -> str:
    """Byte-compile the installed infragraph package (the tree `infragraph` runs from), as installing
    its wheel does: with PYTHONDONTWRITEBYTECODE set and no bytecode (a fresh clone in CI), every
    run would recompile its ~80 modules (about 0.1 s CPU) and measure that instead."""
    import compileall
    import importlib.util

    package = importlib.util.find_spec("infragraph").submodule_search_locations[0]
    compileall.compile_dir(package, quiet=1)
    return package


def old_vs_new(old: str, runs: int, limit_s: float) -> list[dict]:
    """The start-up floor and the b=1 step, old tree vs the installed toolchain, alternating fresh
    processes `runs` times (best CPU and wall of each). `old`: a checkout of an earlier commit with its
    engine built in place (run as PYTHONPATH=old python -m infragraph.cli), byte-compiled here too.
    The floor case replays 1,024 one-node ETs, so its time is start-up, fabric and I/O only."""
    import compileall

    from infragraph.workload.chakra import et_bytes, make_node

    compileall.compile_dir(str(Path(old) / "infragraph"), quiet=1)
    rows = []
    with tempfile.TemporaryDirectory(prefix="wlbench-") as tmp:
        folder = Path(tmp)
        (folder / "tiny").mkdir()
        for r in range(1024):
            (folder / "tiny" / f"t.{r}.et").write_bytes(et_bytes([make_node(1, "c", "compute", duration_us=5)]))
        (folder / "spec.yaml").write_text(spec(16, 8, 16, 1, 8), encoding="utf-8")
        subprocess.run(["infragraph", "workload", "spec.yaml", "-o", "et/step"], cwd=tmp, check=True, capture_output=True)
        base = ["-m", "infragraph.cli", "simulate", *fabric_args(128), "--model", "astra", "--chunks", "4",
                "--algorithm", "ring", "--scheduling", "lifo", "-q"]
        cases = {"floor (1,024 one-node ETs)": ["--workload", "tiny/t", "--json", "t.json"],
                 "gpt3-1k b=1": ["--workload", "et/step", "--comm-group", "et/step.json", "--json", "s.json"]}
        trees = {"old": old, "new": None}
        for case, extra in cases.items():
            best = {k: [float("inf"), float("inf")] for k in trees}
            for i in range(runs + 1):  # the first round fills the compile cache and is not counted
                for k, tree in trees.items():
                    env = dict(os.environ, **({"PYTHONPATH": tree} if tree else {}))
                    before = resource.getrusage(resource.RUSAGE_CHILDREN)
                    t0 = time.perf_counter()
                    subprocess.run([sys.executable, *base, *extra], cwd=tmp, env=env, check=True, capture_output=True,
                                   timeout=limit_s)
                    wall = time.perf_counter() - t0
                    after = resource.getrusage(resource.RUSAGE_CHILDREN)
                    if i:
                        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
                        best[k] = [min(best[k][0], cpu), min(best[k][1], wall)]
            rows.append({"case": case, **{f"{k}_cpu_s": round(v[0], 2) for k, v in best.items()},
                         **{f"{k}_wall_s": round(v[1], 2) for k, v in best.items()}, "runs": runs,
                         "load_average": os.getloadavg()[0]})
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scale", default="1,8,64", help="micro-batch sizes b (comma-separated)")
    ap.add_argument("--fair-16k", action="store_true", help="run the 16,384-GPU fair-model case instead")
    ap.add_argument("--nccl-1k", action="store_true", help="run the 1,024-GPU NCCL-mode case (shared vs alone) instead")
    ap.add_argument("--limit", type=float, default=1800.0, help="seconds before a run is cut off")
    ap.add_argument("--old", metavar="TREE", help="instead: the start-up floor and the b=1 step, this checkout "
                                                  "(engine built in place) vs the installed toolchain")
    ap.add_argument("--runs", type=int, default=5, help="--old, --with-old: alternating runs of each")
    ap.add_argument("--with-old", metavar="TREE", help="--scale: also replay each case with this checkout (engine "
                                                       "built in place) and the installed toolchain, --runs times "
                                                       "each, alternating, beside the binary")
    args = ap.parse_args(argv)
    compile_bytecode()
    if args.with_old:
        import compileall

        compileall.compile_dir(str(Path(args.with_old) / "infragraph"), quiet=1)
    if args.old:
        for row in old_vs_new(args.old, args.runs, args.limit):
            print(json.dumps(row), flush=True)
        return 0
    if args.fair_16k:
        print(json.dumps(fair_16k(args.limit)))
        return 0
    if args.nccl_1k:
        for row in nccl_1k(args.limit):
            print(json.dumps(row), flush=True)
        return 0
    binary = os.environ.get("ASTRA_UNAWARE")
    for b in (int(x) for x in args.scale.split(",")):
        print(json.dumps(gpt3_1k(b, binary, args.limit, args.with_old, args.runs)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
