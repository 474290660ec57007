"""Benchmark: our bundles on the real ASTRA-sim backends, `./run.sh` unchanged, next to our engine.

For each fabric and backend: translate (library call, as `infragraph translate`), run the bundle's
run.sh (which finds the binary: ASTRA_SIM_BIN / ASTRA_SIM_HTSIM_BIN / ASTRA_SIM_NS3_BIN, PATH, or an
ASTRA-sim checkout) with a time limit, and record whether it completed (exit 0: every NPU finished)
and the simulated time it printed. Our engine's time for the same collective on the real graph is
printed next to it, by default in ASTRA-sim-compatible mode (`--model astra`) and with congestion
(`--model astra-aware`); `--models` names others (e.g. `fair`, the default of `infragraph simulate`),
with the bundle's logical dimensions, algorithms, chunks and NPU order.
The simulators are not part of this repository: build them from their public sources elsewhere.

    python benchmarks/real_backends.py [--backends astra-analytical,htsim,ns3] [--size 1MiB]
                                       [--timeout 900] [--out DIR] [--only NAME]
                                       [--models astra,astra-aware,fair]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from infragraph import blueprints  # noqa: E402
from infragraph import translators as T  # noqa: E402
from infragraph.errors import InfraGraphError  # noqa: E402
from infragraph.graph.ranks import npu_order  # noqa: E402
from infragraph.simulate import SimulationOptions, simulate  # noqa: E402
from infragraph.translators.astra_system import COLLECTIVE_KEY  # noqa: E402
from infragraph.translators.chakra_et import Workload  # noqa: E402
from infragraph.translators.astra_system import ENGINE_ALGORITHM  # noqa: E402
from infragraph.units import parse_size_bytes  # noqa: E402

# name -> (blueprint, parameters, per-backend translate options)
CASES = {
    "RI(8) ring": ("std.fabrics.ring", {"npus": 8}, {"ns3": {"forwarding-nodes": "true"}}),
    "single switch (8)": ("std.fabrics.single_switch", {}, {}),
    "radix-8 2-tier Clos": ("std.fabrics.clos", {}, {}),
    # HTSim with 4 chunks on 1,024 NPUs needed more than 12.8 GB: 1 chunk there
    "radix-16 3-tier Clos": ("std.fabrics.clos", {"radix": 16, "tiers": 3}, {"htsim": {"preferred-dataset-splits": "1"}}),
    "8-NIC rail-optimized Clos": ("std.fabrics.clos", {"nics_per_host": 8, "rail_optimized": True}, {}),
    # DGX-like servers: 8 GPUs on NVSwitch-style scale-up switches, one NIC per GPU (rail i = NIC i)
    "DGX rail-optimized Clos": ("std.fabrics.clos", {"nics_per_host": 8, "rail_optimized": True,
                                                     "host_device": "dgx.dgx()"}, {}),
    # benchmarks/simulate.py's clos32k server (8 GPUs on one scale-up switch, 2 NICs) in a radix-8 Clos
    "8-GPU/2-NIC servers Clos": ("std.fabrics.clos", {"nics_per_host": 2, "host_device": "hosts.host(cpus=1, gpus=8, "
                                                      "nics=2, pcie_switches=2, scaleup_switches=1)"}, {}),
}
COMPLETED = re.compile(r"completed: .* in (\d+) ns")


def run_bundle(folder: Path | str, timeout: float) -> tuple[int, str] | None:
    """`nice ./run.sh` in a bundle folder: (exit code, output), or None after `timeout` seconds, when the
    whole process group is killed (the simulator is run.sh's child and would outlive it)."""
    proc = subprocess.Popen(["nice", "./run.sh"], cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return None
    return proc.returncode, out


def engine_times(g, bundle: T.Bundle, w: Workload, models: list[str]) -> list[float]:
    """Our engine on the real graph with the bundle's dimensions, algorithms, options and NPU order."""
    files = bundle.files
    if "logical_topology.json" in files:
        dims = [int(x) for x in json.loads(files["logical_topology.json"])["logical-dims"]]
    else:
        dims = yaml.safe_load(files["network.yml"])["npus_count"]
    s = json.loads(files["system.json"])
    names = g.node_names
    index = {names[int(n)]: i for i, n in enumerate(npu_order(g).tolist())}
    group = (tuple(index[n] for n in bundle.rank_order),)
    opts = SimulationOptions(collective=w.collective, size_bytes=float(w.size_bytes),
                             algorithm=tuple(ENGINE_ALGORITHM[a] for a in s[COLLECTIVE_KEY[w.collective]]),
                             dims=tuple(dims), groups=group, chunks=s["preferred-dataset-splits"],
                             active_chunks=s["active-chunks-per-dimension"],
                             endpoint_delay_ns=float(s["endpoint-delay"]), local_mem_bw_gb_per_s=float(s["local-mem-bw"]),
                             optimization=s["collective-optimization"], scheduling=s["scheduling-policy"].lower(),
                             model="astra", top_links=0)
    out = []
    for model in models:
        try:
            out.append(simulate(g, replace(opts, model=model))["collective_time_ns"])
        except InfraGraphError:
            out.append(float("nan"))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--backends", default="astra-analytical,htsim,ns3")
    ap.add_argument("--size", default="1MiB")
    ap.add_argument("--collective", default="all-reduce")
    ap.add_argument("--timeout", type=float, default=900)
    ap.add_argument("--out", default=None)
    ap.add_argument("--only", default=None, help="run only the case whose name contains this text")
    ap.add_argument("--models", default="astra,astra-aware", help="our engine's models to print next to each run")
    args = ap.parse_args()
    models = args.models.split(",")
    w = Workload(args.collective, parse_size_bytes(args.size))
    out = Path(args.out or tempfile.mkdtemp(prefix="ig-real-"))
    print(f"{w.describe()}; bundles under {out}")
    engines = " | ".join(f"engine {m}" for m in models)
    print(f"| fabric | backend | NPUs | completes? | simulated time | wall | {engines} |")
    print("|---|---|---:|---|---:|---:|" + "---:|" * len(models))
    for name, (bp, params, settings) in CASES.items():
        if args.only and args.only not in name:
            continue
        g = blueprints.graph(bp, **params)
        for backend in args.backends.split(","):
            options = T.Options(approximate=backend == "astra-analytical", settings=settings.get(backend, {}),
                                workload=w)
            try:
                bundle = T.get(backend).translate(g, options)
            except InfraGraphError as e:
                print(f"| {name} | {backend} | | refused: {e.diagnostics[0].message[:90]} | | |" + " |" * len(models))
                continue
            folder = out / re.sub(r"\W+", "_", f"{name}_{backend}")
            bundle.write(folder)
            t0 = time.time()
            ran = run_bundle(folder, args.timeout)
            if ran is None:
                status, sim = f"no (stopped after {args.timeout:.0f} s)", ""
            else:
                code, text = ran
                m = COMPLETED.search(text)
                last = text.strip().splitlines()[-1][:80] if text.strip() else ""
                status = "yes" if code == 0 and m else f"no (exit {code}: {last})"
                sim = f"{int(m.group(1)):,} ns" if m else ""
            wall = time.time() - t0
            times = engine_times(g, bundle, w, models)
            print(f"| {name} | {backend} | {len(bundle.rank_order):,} | {status} | {sim} | {wall:.1f} s | "
                  + " | ".join(f"{t:,.0f} ns" for t in times) + " |", flush=True)


if __name__ == "__main__":
    main()
