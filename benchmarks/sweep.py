"""Benchmark `infragraph sweep` on the 220-point collective-scaling grid (examples/sweeps/), end to end.

    python benchmarks/sweep.py            # serial reference, local pool, Dask LocalCluster, side by side
    python benchmarks/sweep.py --workers 2

Runs, each into a fresh directory (no resume):
- serial: one process, no pool: every graph compiled once, every point simulated in turn (the
  library calls a hand-written loop would make; the floor a pool must beat on more cores).
- local: `sweep()` on the local process pool (default: every core).
- dask: `sweep()` on a dask.distributed LocalCluster of as many single-threaded worker processes
  (cluster start-up reported apart: a real cluster is already running).
- local, one graph: 220 points that all need the same graph (SW(16): 2 collectives x 11 sizes x
  chunks 1..10) on the local pool: compiling is paid once per worker, so what is left is the
  per-point cost of the machinery itself.

Columns: wall s = the sweep call end to end (spec read, expansion, pool start, run, table write);
compile s = worker time compiling graphs (sum over workers); engine s = the Rust engine's own time
(sum); overhead ms/point = (wall × workers − compile − engine) / points: worker-seconds per point
spent on anything else — scheduling, pickling, result and metric building, journalling, pool
start-up, idle workers at the end. The two tables must be equal (compared without the columns that
say where and how fast a point ran).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

SPEC = ROOT / "examples" / "sweeps" / "collective_scaling.yaml"
RUN_COLUMNS = {"worker", "point_wall_s", "engine_wall_s", "compiled"}


def serial() -> dict:
    from infragraph.simulate import prepare, simulate
    from infragraph.sources import load_graph
    from infragraph.sweep.points import expand
    from infragraph.sweep.spec import read_spec

    start = time.perf_counter()
    spec = read_spec(SPEC)
    graphs, compile_s, engine_s = {}, 0.0, 0.0
    for p in expand(spec):
        if p.graph_key not in graphs:
            t = time.perf_counter()
            graphs[p.graph_key] = prepare(load_graph(spec.source.path, dict(p.defines)))
            compile_s += time.perf_counter() - t
        engine_s += simulate(graphs[p.graph_key], p.options)["wall_time_s"]
    return {"wall": time.perf_counter() - start, "compile": compile_s, "engine": engine_s, "workers": 1,
            "points": 220, "compiles": len(graphs)}


ONE_GRAPH = """
source: std.fabrics.stack
axes:
  shape: "SW(16)"
  collective: [all-reduce, all-gather]
  size: {from: 1KiB, to: 1GiB, factor: 4}
  chunks: {from: 1, to: 10}
"""


def measure(out: Path, scheduler=None, workers: int | None = None, spec: Path = SPEC) -> tuple[dict, list[dict]]:
    import pyarrow.parquet as pq

    from infragraph.sweep import sweep

    r = sweep(spec, out, scheduler=scheduler, workers=workers, show_progress=False)
    rows = pq.read_table(r.table).to_pylist()
    compiled = [x for x in rows if x["compiled"]]
    assert r.failed == 0 and r.ran == len(rows) == 220, r
    return ({"wall": r.wall_s, "compile": sum(x["point_wall_s"] - x["engine_wall_s"] for x in compiled),
             "engine": sum(x["engine_wall_s"] for x in rows), "points": len(rows), "compiles": len(compiled)},
            [{k: v for k, v in x.items() if k not in RUN_COLUMNS} for x in rows])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()
    from distributed import LocalCluster

    results = {"serial": serial()}
    with tempfile.TemporaryDirectory() as tmp:
        results["local"], local_rows = measure(Path(tmp) / "local", workers=args.workers)
        results["local"]["workers"] = args.workers
        start = time.perf_counter()
        with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None,
                          silence_logs=50) as cluster:
            up = time.perf_counter() - start
            results["dask"], dask_rows = measure(Path(tmp) / "dask", scheduler=cluster.scheduler_address)
            results["dask"]["workers"] = args.workers
        one = Path(tmp) / "one_graph.yaml"
        one.write_text(ONE_GRAPH)
        results["local, one graph"], _ = measure(Path(tmp) / "one", workers=args.workers, spec=one)
        results["local, one graph"]["workers"] = args.workers
    print(f"220-point collective-scaling grid ({SPEC.relative_to(ROOT)}), {args.workers} worker(s); "
          f"Dask LocalCluster start-up {up:.1f} s (not in its wall time)")
    print("| run | workers | wall s | compiles | compile s | engine s | overhead ms/point |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, m in results.items():
        overhead = (m["wall"] * m["workers"] - m["compile"] - m["engine"]) / m["points"] * 1e3
        print(f"| {name} | {m['workers']} | {m['wall']:.1f} | {m['compiles']} | {m['compile']:.1f} | "
              f"{m['engine']:.2f} | {overhead:.0f} |")
    print("local and Dask tables equal:", local_rows == dask_rows)


if __name__ == "__main__":
    main()
