"""Benchmark: compile library blueprints to the fully qualified graph (parse + elaborate + expand).

The headline case is a >= 100,000-GPU fabric: a 3-tier radix-80 Clos of DGX-like 8-GPU hosts
(8 rail-optimized NICs each, 16,000 hosts, 128,000 GPUs). Targets: <= 15 s and <= 2 GB.
Each case runs in a fresh subprocess so that peak memory (ru_maxrss, whole process) is its own.
Usage: python benchmarks/blueprints.py [case ...]   (default: every case)
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

DGX_CLOS = dict(tiers=3, nics_per_host=8, rail_optimized=True, host_device="dgx.dgx()")
CASES = {
    "clos64-dgx": ("std.fabrics.clos", dict(radix=64, **DGX_CLOS)),
    "clos80-dgx": ("std.fabrics.clos", dict(radix=80, **DGX_CLOS)),
    "clos96-dgx": ("std.fabrics.clos", dict(radix=96, **DGX_CLOS)),
    "clos32-4tier-dgx": ("std.fabrics.clos", dict(radix=32, **{**DGX_CLOS, "tiers": 4})),
    "clos64-dgx-2planes": ("std.fabrics.clos", dict(radix=64, planes=2, **DGX_CLOS)),
    "stack-4096": ("std.fabrics.stack", dict(shape="RI(4)_FC(8)_RI(4)_SW(32)")),
    # the 16,384-GPU fabric of `benchmarks/workload.py --fair-16k` (issue 20)
    "stack-16k-sw8-sw2048": ("std.fabrics.stack", dict(shape="SW(8)_SW(2048)", bandwidth=["900 GiB/s", "50 GiB/s"],
                                                       latency=["100 ns", "1000 ns"])),
    "noc-cluster-128": ("std.fabrics.gpu_cluster", dict(gpus=128)),
    "dragonfly-p4a8h4g33": ("std.fabrics.dragonfly", dict(p=4, a=8, h=4, g=33)),
}


def one(case: str) -> dict:
    import numpy as np

    from infragraph import blueprints
    from infragraph.graph import expand

    name, params = CASES[case]
    c0 = time.process_time()
    t0 = time.perf_counter()
    doc = blueprints.instantiate(name, **params)
    t1 = time.perf_counter()
    g = expand(doc)
    t2 = time.perf_counter()
    gpus = int(np.count_nonzero(g.node_type == g.type_names.index("xpu"))) if "xpu" in g.type_names else 0
    return {"case": case, "blueprint": name, "gpus": gpus, "records": len(doc.edges) + sum(len(d.edges) for d in doc.devices),
            "nodes": g.num_nodes, "edges": g.num_edges, "compile_s": t1 - t0, "expand_s": t2 - t1,
            "total_s": t2 - t0, "cpu_s": time.process_time() - c0,
            "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--one":
        print(json.dumps(one(sys.argv[2])))
        return
    cases = sys.argv[1:] or list(CASES)
    print("| case | blueprint | GPUs (xpu) | records | nodes | edges | compile s | expand s | total s | CPU s | peak MB |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for case in cases:
        out = subprocess.run([sys.executable, __file__, "--one", case], capture_output=True, text=True, check=True)
        r = json.loads(out.stdout.strip().splitlines()[-1])
        print(f"| {r['case']} | {r['blueprint']} | {r['gpus']:,} | {r['records']:,} | {r['nodes']:,} | {r['edges']:,} | "
              f"{r['compile_s']:.2f} | {r['expand_s']:.2f} | {r['total_s']:.2f} | {r['cpu_s']:.2f} | {r['peak_mb']:.0f} |", flush=True)


if __name__ == "__main__":
    main()
