"""Benchmark: `infragraph visualize` of a 32,768-host 3-tier Clos (aggregated), end to end.

Writes the fabric as a YAML document (32 pods × 16 leaves × 64 hosts, 16 aggs per pod, 256 cores),
then times the real command (process start, YAML load, expansion, structure detection,
aggregation, Graphviz) for SVG, PNG and the interactive HTML page. Target: ≤ 20 s each.

    python benchmarks/visualize.py [OUTDIR]
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.vis_graphs import clos3_doc  # noqa: E402

TARGET_S = 20.0


def main() -> int:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/ig-visualize-bench")
    out.mkdir(parents=True, exist_ok=True)
    src = out / "clos3-32768.yaml"
    src.write_text(yaml.safe_dump(clos3_doc(pods=32, leaves=16, aggs=16, hosts_per_leaf=64, cores_per_agg=16)))
    worst = 0.0
    for suffix in ("svg", "png", "html"):
        target = out / f"clos3-32768.{suffix}"
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "infragraph", "visualize", str(src), "-o", str(target)],
                              capture_output=True, text=True)
        took = time.perf_counter() - start
        worst = max(worst, took)
        if done.returncode:
            print(done.stderr, file=sys.stderr)
            return 1
        print(f"{suffix:5s} {took:6.2f} s  {target.stat().st_size / 1e6:6.2f} MB  {done.stderr.strip()}")
    print(f"worst {worst:.2f} s (target ≤ {TARGET_S:.0f} s): {'ok' if worst <= TARGET_S else 'TOO SLOW'}")
    return 0 if worst <= TARGET_S else 1


if __name__ == "__main__":
    sys.exit(main())
