"""Benchmark: bisection bandwidth of a 32,768-host 3-tier Clos under 1,000 random-failure trials.

    python benchmarks/analyze.py [RADIX] [K] [TRIALS] [WORKERS]   (default: 64 100 1000, up to 2 workers)

The fabric is benchmarks/clos_document.py at radix 64 (32,768 hosts of 4 NPUs and 2 NICs,
594,944 nodes, 786,432 edges). Reports each phase: expansion, the series-parallel reduction
(once), the healthy max-flow, and TRIALS trials of K random cable failures (incremental
re-evaluation + Dinic on the reduced core, over the default worker processes). Side by side, the
same max-flow by scipy's Dinic on the whole unreduced graph for 3 trials (what each trial would
cost without the reduction), whose values must equal the reduced ones.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import maximum_flow

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from clos_document import clos3_document  # noqa: E402

from infragraph.analyze.bisection import bisection, random_trials  # noqa: E402
from infragraph.document.io import from_dict  # noqa: E402
from infragraph.graph import expand  # noqa: E402
from infragraph.graph.failures import draw_cables  # noqa: E402
from infragraph.graph.ranks import npu_order  # noqa: E402


def full_graph_flow(g, cap: np.ndarray) -> int:
    """Generic max-flow on the unreduced graph (integer Gbit/s), super source and sink added."""
    n = g.num_nodes
    npus = npu_order(g)
    half = npus.size // 2
    big = int(cap.sum())
    rows = np.concatenate([g.edge_src, g.edge_dst, np.full(half, n), npus[half:]])
    cols = np.concatenate([g.edge_dst, g.edge_src, npus[:half], np.full(npus.size - half, n + 1)])
    data = np.concatenate([cap, cap, np.full(npus.size, big)]).astype(np.int32)
    m = csr_matrix((data, (rows, cols)), shape=(n + 2, n + 2))
    m.sum_duplicates()
    return maximum_flow(m, n, n + 1, method="dinic").flow_value


def main() -> None:
    radix = int(sys.argv[1]) if len(sys.argv) > 1 else 64
    k = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    trials = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
    workers = int(sys.argv[4]) if len(sys.argv) > 4 else None
    t0 = time.perf_counter()
    d = clos3_document(radix)
    g = expand(from_dict(d, d.get("annotations")))
    t1 = time.perf_counter()
    b = bisection(g)
    t2 = time.perf_counter()
    healthy = b.healthy()
    t3 = time.perf_counter()
    values = random_trials(b, k, trials, workers=workers)
    t4 = time.perf_counter()
    print(f"radix {radix}: {g.num_nodes:,} nodes, {g.num_edges:,} edges, {b.cables.size:,} cables, "
          f"NPUs {b.halves[0]:,} | {b.halves[1]:,}")
    print(f"  expand                      {t1 - t0:7.2f} s")
    print(f"  reduction (once)            {t2 - t1:7.2f} s  -> core of {b.network.core_nodes.size:,} nodes, "
          f"{b.network.cu.size:,} edges")
    print(f"  healthy bisection           {t3 - t2:7.2f} s  = {healthy.gbps:,.0f} Gbit/s (exact: {healthy.exact})")
    print(f"  {trials} trials of {k} failures, {workers or 'default'} worker(s) {t4 - t3:7.2f} s  ({(t4 - t3) / trials * 1e3:.1f} ms each): worst "
          f"{values.min():,.0f}, median {np.median(values):,.0f} Gbit/s")
    print(f"  total (expand to last trial) {t4 - t0:6.2f} s")
    cap = np.nan_to_num(g.edge_bandwidth_gbps()).astype(np.int64)
    for seed in range(3):
        c = cap.copy()
        c[draw_cables(b.cables, k, seed)] = 0
        t = time.perf_counter()
        ref = full_graph_flow(g, c)
        dt = time.perf_counter() - t
        print(f"  unreduced Dinic, seed {seed}:    {dt:6.2f} s  = {ref:,} Gbit/s "
              f"({'equal' if ref == values[seed] else 'DIFFERENT: ' + str(values[seed])})")


if __name__ == "__main__":
    main()
