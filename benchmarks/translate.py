"""Benchmark: translate a 32,768-host 3-tier radix-64 Clos (hosts of 8 NPUs + 2 NICs) to ns-3.

The document is generated compactly (one edge record per slice pattern: 68 infrastructure records)
by tests/translator_graphs.py. Timed separately: building the document, expanding it to the FQG,
translating (fabric folding + ns-3 text) and writing the bundle. The issue's budget (<= 5 s) is for
translating; the total is printed too. The bundle's Chakra workload (one .et file per NPU) is
built and written apart ("workload"), since the older version had none: the translate column is the
same work as before.

    python benchmarks/translate.py [--k 64] [--out DIR] [--no-write-workload]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from infragraph import translators as T  # noqa: E402
from infragraph.document import io  # noqa: E402
from infragraph.graph import expand  # noqa: E402
from tests.translator_graphs import clos_dict  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--k", type=int, default=64)
    ap.add_argument("--out", default=None)
    ap.add_argument("--no-write-workload", action="store_true", help="build the .et files but do not write them")
    args = ap.parse_args()
    ti = time.perf_counter()
    translator = T.get("ns3")  # imports the translator modules (scipy, jinja2): timed apart
    t0 = time.perf_counter()
    doc = io.from_dict(clos_dict(args.k, 3, npus=8, nics=2))
    t1 = time.perf_counter()
    g = expand(doc)
    t2 = time.perf_counter()
    workload = getattr(T.Options(), "workload", None)
    options = T.Options(workload=replace(workload, files=False)) if workload is not None else T.Options()
    # 458,752 links: more than ASTRA-sim's ns-3 fork numbers subnets for (64,770), so this times the text
    # a build without that limit would read
    if any(s.key == "fork-limits" for s in translator.settings):  # older versions have no such check
        options.settings = {"fork-limits": "false"}
    bundle = translator.translate(g, options)
    t3 = time.perf_counter()
    out = args.out or tempfile.mkdtemp(prefix="ig-ns3-")
    bundle.write(out)
    t4 = time.perf_counter()
    if workload is not None:
        from infragraph.translators.chakra_et import workload_files
        ets = workload_files(workload, len(bundle.rank_order))
        t5 = time.perf_counter()
        if not args.no_write_workload:
            T.Bundle("ns3", ets).write(out)
        t6 = time.perf_counter()
        print(f"workload: {len(ets):,} .et files built in {t5 - t4:.3f} s, written in {t6 - t5:.3f} s")
    header = bundle.files["topology.txt"].split("\n", 1)[0]
    hosts = g.instances[0].count
    print(f"Clos k={args.k}: {hosts:,} hosts, {g.num_nodes:,} FQG nodes, {g.num_edges:,} FQG edges, "
          f"{len(doc.edges)} infrastructure edge records")
    print(f"ns-3 header: {header}  ({len(bundle.files['topology.txt']) / 1e6:.1f} MB topology.txt)")
    print(f"import {t0 - ti:.3f} s | document {t1 - t0:.3f} s | expand {t2 - t1:.3f} s | translate {t3 - t2:.3f} s | "
          f"write {t4 - t3:.3f} s | total {t4 - t0:.3f} s")


if __name__ == "__main__":
    main()
