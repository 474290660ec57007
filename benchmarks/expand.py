"""Benchmark: load + validate + expand 3-tier Clos documents (radix 16..64), and FQG JSON I/O.

Each radix runs in a fresh subprocess so that peak memory (ru_maxrss) is that run's alone.
Usage: python benchmarks/expand.py [radix ...]   (default: 16 32 48 64)
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def one(k: int) -> dict:
    from benchmarks.clos_document import clos3_document
    from infragraph.document import io
    from infragraph.graph import expand
    from infragraph.graph.export import read_fqg, write_json

    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, f"clos{k}.json")
        with open(src, "w") as fh:
            json.dump(clos3_document(k), fh, separators=(",", ":"))
        rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        t0 = time.perf_counter()
        text = open(src).read()
        data = io._parse_text(text, src)
        t1 = time.perf_counter()
        io.validate_document(data)
        t2 = time.perf_counter()
        doc = io.from_dict(data)
        g = expand(doc)
        t3 = time.perf_counter()
        out = {"radix": k, "hosts": k ** 3 // 8, "records": len(data["edges"]), "nodes": g.num_nodes,
               "edges": g.num_edges, "load_s": t1 - t0, "validate_s": t2 - t1, "expand_s": t3 - t2,
               "total_s": t3 - t0, "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
               "baseline_mb": rss0 / 1024}
        if k <= 32:
            fq = os.path.join(tmp, "fqg.json")
            t4 = time.perf_counter()
            write_json(g, fq)
            t5 = time.perf_counter()
            h = read_fqg(fq)
            t6 = time.perf_counter()
            assert h.num_edges == g.num_edges and h.num_nodes == g.num_nodes
            out.update(write_json_s=t5 - t4, read_json_s=t6 - t5, json_mb=os.path.getsize(fq) / 2**20)
        return out


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--one":
        print(json.dumps(one(int(sys.argv[2]))))
        return
    radices = [int(a) for a in sys.argv[1:]] or [16, 32, 48, 64]
    print("| radix | hosts | records | nodes | edges | load s | validate s | expand s | total s | peak MB |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    extra = []
    for k in radices:
        r = json.loads(subprocess.check_output([sys.executable, __file__, "--one", str(k)]))
        print(f"| {k} | {r['hosts']:,} | {r['records']:,} | {r['nodes']:,} | {r['edges']:,} | {r['load_s']:.3f} | "
              f"{r['validate_s']:.3f} | {r['expand_s']:.3f} | {r['total_s']:.2f} | {r['peak_mb']:.0f} |", flush=True)
        if "write_json_s" in r:
            extra.append(f"radix {k}: FQG JSON write {r['write_json_s']:.2f} s, read back {r['read_json_s']:.2f} s "
                         f"({r['json_mb']:.1f} MB)")
    print()
    print("\n".join(extra))


if __name__ == "__main__":
    main()
