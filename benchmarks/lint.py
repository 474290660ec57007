"""Lint benchmark: a 3-tier folded Clos (benchmarks/clos_document.py, radix 64 = 32,768 hosts)
written compactly with slices, linted with every rule.

    python benchmarks/lint.py [RADIX ...]      (default: 32 48 64)

Reports load (parse + schema validation), expand, and lint (all rules, findings located)
separately, the end-to-end `infragraph lint` time, and what was found (a non-blocking Clos is
clean; the same fabric with a 3:1 leaf is caught by IG009 at tier 1 only).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from clos_document import clos3_document  # noqa: E402

from infragraph.graph import expand  # noqa: E402
from infragraph.lint.config import LintConfig  # noqa: E402
from infragraph.lint.engine import lint_graph, LintReport  # noqa: E402
from infragraph.lint.locate import DocumentLocator  # noqa: E402
from infragraph.sources import load_document  # noqa: E402


def measure(k: int, tmp: Path) -> dict:
    path = tmp / f"clos3-r{k}.json"
    path.write_text(json.dumps(clos3_document(k), separators=(",", ":")))
    t0 = time.perf_counter()
    doc = load_document(path)
    t1 = time.perf_counter()
    g = expand(doc)
    t2 = time.perf_counter()
    report = LintReport([str(path)])
    lint_graph(g, doc, DocumentLocator(str(path), doc, g), LintConfig(), report)
    t3 = time.perf_counter()
    # oversubscribed variant: limit 1/3 makes the 1:1 leaves "3:1 over"; only tier 1..2 are rated
    strict = LintReport([str(path)])
    lint_graph(g, doc, DocumentLocator(str(path), doc, g), LintConfig(max_oversubscription=0.5), strict)
    t4 = time.perf_counter()
    cli = subprocess.run([sys.executable, "-m", "infragraph", "lint", str(path)], capture_output=True, text=True,
                         cwd=tmp)
    t5 = time.perf_counter()
    return {
        "radix": k, "hosts": k ** 3 // 8, "nodes": g.num_nodes, "edges": g.num_edges,
        "load": t1 - t0, "expand": t2 - t1, "lint": t3 - t2, "lint_strict": t4 - t3, "cli": t5 - t4,
        "findings": [f.rule for f in report.findings], "strict": sorted({f.message.split(':')[0] for f in strict.findings}),
        "cli_rc": cli.returncode, "cli_tail": cli.stdout.strip().splitlines()[-1] if cli.stdout else cli.stderr[-200:],
    }


def main() -> None:
    radixes = [int(a) for a in sys.argv[1:]] or [32, 48, 64]
    print("| radix | hosts | nodes | edges | load s | expand s | lint s (all rules) | `infragraph lint` s | findings |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory() as d:
        for k in radixes:
            r = measure(k, Path(d))
            print(f"| {k} | {r['hosts']:,} | {r['nodes']:,} | {r['edges']:,} | {r['load']:.2f} | {r['expand']:.2f} "
                  f"| {r['lint']:.2f} | {r['cli']:.2f} | {', '.join(r['findings']) or 'none'} (exit {r['cli_rc']}) |")
            print(f"  radix {k}: with --max-oversubscription 0.5: {r['strict']} in {r['lint_strict']:.2f} s",
                  file=sys.stderr)


if __name__ == "__main__":
    main()
