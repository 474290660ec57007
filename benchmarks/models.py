"""The network models side by side on the same cases, next to ASTRA-sim where it applies.

    python benchmarks/models.py             # markdown table (docs/simulate.md, "Which model for which question")
    python benchmarks/models.py --quick     # the small cases only
    python benchmarks/models.py --no-real   # without the real-simulator columns

ASTRA-sim rows: cases of /work/shared/backends/astra-sim/reference-cases.jsonl (times printed by
ASTRA-sim's own analytical binaries), rebuilt as std.fabrics.stack with the case's dims, bandwidth
(GiB/s, ASTRA-sim's GB = 2^30 B), latency, chunks, active chunks, optimization, endpoint delay,
local memory bandwidth; each model's default chunk order (the astra models: ASTRA-sim's arrival
order) and routes (the astra models: ASTRA-sim's, dimension order over the stack). Fabric rows: blueprints with their own dimensions
(the default since issue 13). Every cell: collective time, and `!` when the result carries a
warning (a link above 100 %, or a bus bandwidth above what an NPU can inject).

Real-simulator columns (REAL; each a function of the case giving its cell, so another simulator is
one more entry): HTSim runs the case's `infragraph translate --to htsim` bundle with its ./run.sh
when ASTRA_SIM_HTSIM_BIN names the binary (built outside the repository), on the fabrics HTSim
takes (2- and 3-tier fat trees); other cells say "n/a (reason)", from the translator's refusal.
HTSim's logical dimension is the flat set of NPUs, so on a case with hierarchical dimensions the
cell is HTSim's flat ring and says so.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from infragraph import blueprints  # noqa: E402
from infragraph import translators as T  # noqa: E402
from infragraph.errors import InfraGraphError  # noqa: E402
from infragraph.simulate import SimulationOptions, prepare, simulate  # noqa: E402
from infragraph.translators.astra_analytical import COLLECTIVE_KEY  # noqa: E402
from infragraph.translators.chakra_et import Workload  # noqa: E402

REFERENCE = Path("/work/shared/backends/astra-sim/reference-cases.jsonl")
MODELS = ("unaware", "aware", "fair", "astra", "astra-aware")
COLL = {"AR": "all-reduce", "RS": "reduce-scatter", "AG": "all-gather", "A2A": "all-to-all"}
ALG = {"ring": "ring", "direct": "direct", "halvingDoubling": "halving-doubling",
       "doubleBinaryTree": "double-binary-tree"}
KIND = {"Ring": "RI", "FullyConnected": "FC", "Switch": "SW"}
# Reference cases with at least 1 MiB: 1-D aware (the aware binary is 1-D only) and 2-D unaware.
ASTRA_CASES = ("s1-0001", "s1-0084", "s1-0047", "s1-0077", "s1-0005", "s1-0020")


def astra_case(name: str):
    case = next(json.loads(line) for line in REFERENCE.open() if json.loads(line)["name"] == name)
    shape = "_".join(f"{KIND[t]}({n})" for t, n, _bw, _lat in case["dims"])
    g = blueprints.graph("std.fabrics.stack", shape=shape,
                         bandwidth="[" + ", ".join(f"{bw} GiB/s" for _t, _n, bw, _l in case["dims"]) + "]",
                         latency="[" + ", ".join(f"{lat} ns" for _t, _n, _b, lat in case["dims"]) + "]")
    alg = case["alg"] if isinstance(case["alg"], list) else [case["alg"]]
    opts = SimulationOptions(collective=COLL[case["coll"]], size_bytes=float(case["size"]),
                             algorithm=tuple(ALG[a] for a in alg), chunks=case["splits"],
                             active_chunks=case["active"], optimization=case["opt"],
                             endpoint_delay_ns=float(case["E"]), local_mem_bw_gb_per_s=float(case["lmbw"]))
    what = (f"{name}: {case['coll']} {case['size'] / 2**20:.0f} MiB, {shape}, {'/'.join(alg)}, "
            f"{case['splits']} chunks")
    return what, g, opts, (case["backend"], case["max_ns"])


def fabric_cases(quick: bool):
    yield ("torus 4x4x4 (RI(4)_RI(4)_RI(4) from the graph), AR 64 MiB ring, 4 chunks",
           blueprints.graph("std.fabrics.torus", sizes=[4, 4, 4]),
           SimulationOptions(size_bytes=64 * 2**20, chunks=4), None)
    yield ("Clos 2 tiers radix 8, 1 GPU/host (SW(32)), AR 64 MiB ring, 4 chunks",
           blueprints.graph("std.fabrics.clos", radix=8, tiers=2),
           SimulationOptions(size_bytes=64 * 2**20, chunks=4), None)
    yield ("Clos 2 tiers radix 8, 1 GPU/host, all-to-all 16 MiB direct",
           blueprints.graph("std.fabrics.clos", radix=8, tiers=2),
           SimulationOptions(collective="all-to-all", algorithm=("direct",), size_bytes=16 * 2**20), None)
    if not quick:
        dgx = blueprints.graph("std.fabrics.clos", radix=8, tiers=2, nics_per_host=8, rail_optimized=True,
                               host_device="dgx.dgx()")
        yield ("Clos radix 8, 4 DGX hosts (SW(8)_SW(4)), AR 256 MiB ring, 4 chunks", dgx,
               SimulationOptions(size_bytes=256 * 2**20, chunks=4), None)
        yield ("same, flat ring over the 32 GPUs (--dims 32)", dgx,
               SimulationOptions(size_bytes=256 * 2**20, chunks=4, dims=(32,)), None)


ASTRA_NAME = {v: k for k, v in ALG.items()}
COMPLETED = re.compile(r"completed: .* in (\d+) ns")
HTSIM_TIMEOUT_S = float(os.environ.get("HTSIM_TIMEOUT_S", "1800"))


def why_not(e: InfraGraphError) -> str:
    """A translator's refusal, short: the message without the quoted node names."""
    text = re.sub(r" ?'[^']*'( - '[^']*')?", "", e.diagnostics[0].message)
    return text.replace(" HTSim can build", "")


def htsim_cell(g, opts: SimulationOptions, dims: list[int]) -> str:
    """The case on ASTRA-sim's HTSim backend: its bundle, run with ./run.sh unchanged (`dims`: the
    logical dimensions the models used; HTSim's is the flat set of NPUs)."""
    settings = {"preferred-dataset-splits": str(opts.chunks), "active-chunks-per-dimension": str(opts.active_chunks),
                COLLECTIVE_KEY[opts.collective]: ASTRA_NAME[opts.algorithm[0]]}
    try:
        bundle = T.get("htsim").translate(g, T.Options(settings=settings,
                                                       workload=Workload(opts.collective, int(opts.size_bytes))))
    except InfraGraphError as e:
        return f"n/a ({why_not(e)})"
    if not os.environ.get("ASTRA_SIM_HTSIM_BIN"):
        return "not run (set ASTRA_SIM_HTSIM_BIN)"
    flat = " (flat ring)" if len(dims) > 1 else ""
    with tempfile.TemporaryDirectory(prefix="ig-htsim-") as d:
        bundle.write(d)
        try:
            run = subprocess.run(["nice", "./run.sh"], cwd=d, capture_output=True, text=True, timeout=HTSIM_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            return f"not finished in {HTSIM_TIMEOUT_S:.0f} s"
        m = COMPLETED.search(run.stdout + run.stderr)
        if run.returncode or not m:
            said = re.search(r"Assertion [`'](.*)' failed", run.stdout + run.stderr)
            return f"failed (exit {run.returncode}" + (f": assertion '{said.group(1)}')" if said else ")")
        return cell(float(m.group(1)), False) + flat


# real simulators beside the models: (column, cell function); an ns-3 column is one more entry
REAL = (("HTSim", htsim_cell),)


def run(what, g, opts, ref) -> dict:
    p = prepare(g)
    row = {"case": what, "ref": ref}
    for m in MODELS:
        t0 = time.perf_counter()
        r = simulate(p, SimulationOptions(**{**opts.__dict__, "model": m}))
        row[m] = (r["collective_time_ns"], bool(r["warnings"]), time.perf_counter() - t0, r["bottleneck_tier"])
    if "--no-real" not in sys.argv:
        row.update({name: fn(g, opts, list(r["dims"])) for name, fn in REAL})
    return row


def cell(ns: float, warned: bool) -> str:
    return (f"{ns / 1e6:.3f} ms" if ns >= 1e6 else f"{ns / 1e3:.1f} µs") + (" !" if warned else "")


def main(argv: list[str]) -> None:
    quick = "--quick" in argv
    rows = [run(*astra_case(n)) for n in (ASTRA_CASES[:2] if quick else ASTRA_CASES)]
    rows += [run(*c) for c in fabric_cases(quick)]
    real = [name for name, _ in REAL if "--no-real" not in argv]
    print("| case | " + " | ".join(MODELS) + " | ASTRA-sim | " + "".join(f"{n} | " for n in real).rstrip())
    print("|---|" + "---:|" * (len(MODELS) + 1 + len(real)))
    for row in rows:
        ref = f"{cell(row['ref'][1], False)} ({row['ref'][0]})" if row["ref"] else "—"
        print(f"| {row['case']} | " + " | ".join(cell(row[m][0], row[m][1]) for m in MODELS) + f" | {ref} |"
              + "".join(f" {row[n]} |" for n in real))
    print()
    print("wall time per model (s): " + "; ".join(
        f"{m} {sum(r[m][2] for r in rows):.2f}" for m in MODELS))


if __name__ == "__main__":
    main(sys.argv[1:])
