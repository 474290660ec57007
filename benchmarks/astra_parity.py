"""Our ASTRA-sim-compatible models against the real ASTRA-sim analytical binaries' wall time.

    python benchmarks/astra_parity.py            # every case, prints a table
    python benchmarks/astra_parity.py CASE ...   # some cases
    BASELINE=/path/to/old/checkout python benchmarks/astra_parity.py   # adds the old version's cli s

Each case runs twice as a user would run it, in a fresh process: `infragraph simulate` on the
`std.fabrics.stack` blueprint (`blueprints/fabrics/stack.igl -D shape=...`), the stated system
parameters, `--model astra` / `astra-aware`. "cli s" is that process's wall time ("cpu s" its user + system CPU time, which
a machine shared with other work inflates less), start-up included (interpreter, imports, compiling the blueprint, preparing the arrays, the engine, the
report), next to the binary's wall time on this machine (issue 12: it includes the binary's own
start-up). Peak MB is that process's maximum resident set. A second, in-process run splits the time:
"start s" = interpreter start + importing infragraph (a child `python -c "import infragraph.cli"`),
"build s" = blueprint compile + expansion, "prepare s" = FQG to engine arrays, "simulate s" = the
library call (arrays to Rust, event loop, result dict), "engine s" = the Rust event loop alone.
"without start-up" = prepare s + simulate s: what a sweep pays per run once the graph is built (the
CLI's own split is not used: with the compile cache warm its build is a cache read, which made
"cli s - start s - build s" negative).

The binaries' times (issue 12) were measured with ASTRA-sim's example system configuration
(Ring_4chunks.json: endpoint delay 10 ns, local-mem-bw 1600, localBWAware, LIFO) at 50 GB/s
(GB = 2^30 B) and 500 ns per link, 1 MiB per NPU; the cases below state the rest.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STACK = ROOT / "blueprints" / "fabrics" / "stack.igl"
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def stack(kinds: str, n: int, dims: int) -> dict[str, str]:
    return {"shape": "_".join([f"{kinds}({n})"] * dims),
            "bandwidth": "[" + ", ".join(["50 GiB/s"] * dims) + "]",
            "latency": "[" + ", ".join(["500 ns"] * dims) + "]"}


SYSTEM = ["--size", "1MiB", "--endpoint-delay", "10ns", "--local-mem-bw", "1600", "--optimization", "localBWAware"]
# name: (stack parameters, simulate options, the binary's wall time in s)
CASES = {
    "RI(16)^3 ring AR, 4 chunks": (stack("RI", 16, 3), ["--model", "astra", "--chunks", "4"], 16.2),
    "RI(16)^3 ring AR, 16 chunks": (stack("RI", 16, 3), ["--model", "astra", "--chunks", "16"], 74.5),
    "RI(8)^3 ring AR, 64 chunks, 2 active": (stack("RI", 8, 3), ["--model", "astra", "--chunks", "64",
                                                                  "--active-chunks", "2"], 10.3),
    "SW(1024) halving-doubling AR, aware, 4 chunks": (
        stack("SW", 1024, 1), ["--model", "astra-aware", "--chunks", "4", "--algorithm", "halving-doubling"], 3.2),
}


def cli_argv(name: str, out: Path) -> list[str]:
    params, opts, _ = CASES[name]
    defines = [x for k, v in params.items() for x in ("-D", f"{k}={v}")]
    return [sys.executable, "-m", "infragraph", "simulate", str(STACK), *defines, *SYSTEM, *opts,
            "--json", str(out)]


def run_cli(name: str, root: Path = ROOT) -> dict:
    """One `infragraph simulate` process (of the checkout at `root`) under /usr/bin/time: wall s,
    CPU s, peak MB, the result."""
    out = Path(f"/tmp/astra_parity_{abs(hash(name))}.json")
    env = {**os.environ, "PYTHONPATH": str(root)}
    t0 = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-f", "%M %U %S", *cli_argv(name, out)], capture_output=True, text=True,
                       env=env)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        raise SystemExit(f"{name}: infragraph simulate failed:\n{p.stderr}")
    peak_kb, user, system = p.stderr.strip().splitlines()[-1].split()
    result = json.loads(out.read_text())
    out.unlink()
    return {"cli_s": wall, "cpu_s": float(user) + float(system), "peak_mb": int(peak_kb) / 1024, "collective_ns": result["collective_time_ns"],
            "engine_s": result["wall_time_s"], "events": result["events"]}


def split_times(name: str) -> dict:
    """In-process phases of the same run (build, prepare, simulate) and the interpreter start."""
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import infragraph.cli"], check=True, cwd=ROOT)
    start_s = time.perf_counter() - t0
    code = f"""
import json, sys, time
sys.path.insert(0, {str(ROOT)!r})
from benchmarks.astra_parity import phases
print(json.dumps(phases({name!r})))
"""
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    return {"start_s": start_s, **json.loads(p.stdout)}


def cli_options(argv: list[str]):
    """SimulationOptions exactly as `infragraph simulate` builds them from `argv`."""
    import argparse
    from dataclasses import replace

    from infragraph.cli import simulate as cli

    parser = argparse.ArgumentParser()
    cli.register(parser.add_subparsers())
    args = parser.parse_args(["simulate", str(STACK), *argv])
    return replace(cli.options(args), size_bytes=float(cli.parse_sizes(args.size)[0]))


def phases(name: str) -> dict:
    from infragraph import blueprints

    params, opts, _ = CASES[name]
    t0 = time.perf_counter()
    g = blueprints.graph("std.fabrics.stack", **params)
    t1 = time.perf_counter()
    from infragraph.simulate import prepare, simulate

    prepared = prepare(g)
    t2 = time.perf_counter()
    simulate(prepared, cli_options([*SYSTEM, *opts]))
    t3 = time.perf_counter()
    return {"build_s": t1 - t0, "prepare_s": t2 - t1, "simulate_s": t3 - t2}


def main(names: list[str]) -> None:
    rows = []
    baseline = os.environ.get("BASELINE")
    for name in names or list(CASES):
        cli = min((run_cli(name) for _ in range(2)), key=lambda r: r["cli_s"])
        if baseline:
            old = run_cli(name, Path(baseline))
            print(f"{name}: old cli {old['cli_s']:.2f} s, cpu {old['cpu_s']:.2f} s, "
                  f"{old['collective_ns']:,.0f} ns", file=sys.stderr)
        split = split_times(name)
        binary = CASES[name][2]
        without = split["prepare_s"] + split["simulate_s"]
        rows.append((name, binary, cli, split, without))
        print(f"{name}: cli {cli['cli_s']:.2f} s (binary {binary} s, {binary / cli['cli_s']:.1f}x)", file=sys.stderr)
    print("| case | binary s | cli s | cpu s | speed-up | start s | build s | prepare s | simulate s | engine s "
          "| without start-up s | speed-up without | peak MB | events | collective ns |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, binary, cli, split, without in rows:
        print(f"| {name} | {binary} | {cli['cli_s']:.2f} | {cli['cpu_s']:.2f} | {binary / cli['cli_s']:.1f}× | {split['start_s']:.2f} "
              f"| {split['build_s']:.2f} | {split['prepare_s']:.2f} | {split['simulate_s']:.2f} "
              f"| {cli['engine_s']:.2f} | {without:.2f} | {binary / without:.0f}× | {cli['peak_mb']:.0f} "
              f"| {cli['events']:,} | {cli['collective_ns']:,.0f} |")


if __name__ == "__main__":
    main(sys.argv[1:])
