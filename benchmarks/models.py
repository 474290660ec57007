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
cell is HTSim's flat ring and says so. ns-3 does the same with `--to ns3` when ASTRA_SIM_NS3_BIN is
set (its bundles keep an RI/FC/SW product's dimensions; NPUs wired to each other get forwarding
nodes); NS3_TIMEOUT_S / HTSIM_TIMEOUT_S bound each run (s, default 1800).
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from infragraph import blueprints  # noqa: E402
from infragraph import translators as T  # noqa: E402
from infragraph.errors import InfraGraphError  # noqa: E402
from infragraph.simulate import SimulationOptions, prepare, simulate  # noqa: E402
from infragraph.translators.astra_system import COLLECTIVE_KEY  # noqa: E402
from infragraph.translators.chakra_et import Workload  # noqa: E402
from real_backends import COMPLETED, run_bundle  # noqa: E402  (benchmarks/, this script's folder)

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


def why_not(e: InfraGraphError) -> str:
    """A translator's refusal, short: the message without the quoted node names."""
    text = re.sub(r" ?'[^']*'( - '[^']*')?", "", e.diagnostics[0].message)
    return text.replace(" HTSim can build", "")


def real_cell(backend: str, env: str, extra: dict[str, str], g, opts: SimulationOptions, dims: list[int]) -> str:
    """The case on one of ASTRA-sim's real backends: its bundle (the case's chunks and algorithm, plus
    `extra` settings), run with ./run.sh unchanged; the binary from `env`, the time limit from
    <BACKEND>_TIMEOUT_S (s, default 1800). `dims`: the logical dimensions the models used; "(flat ring)"
    marks a bundle with one dimension of all NPUs where the models had more (HTSim's always is)."""
    settings = {"preferred-dataset-splits": str(opts.chunks), "active-chunks-per-dimension": str(opts.active_chunks),
                **extra}
    w = Workload(opts.collective, int(opts.size_bytes))
    try:  # the bundle's own logical dimensions first, then the case's algorithm on each of them
        ndims = len(json.loads(T.get(backend).translate(g, T.Options(settings=settings, workload=w)).files.get(
            "logical_topology.json", '{"logical-dims": ["all"]}'))["logical-dims"])
        algs = opts.algorithm if len(opts.algorithm) == ndims else opts.algorithm[:1] * ndims
        settings[COLLECTIVE_KEY[opts.collective]] = ",".join(ASTRA_NAME[a] for a in algs)
        bundle = T.get(backend).translate(g, T.Options(settings=settings, workload=w))
    except InfraGraphError as e:
        return f"n/a ({why_not(e)})"
    if not os.environ.get(env):
        return f"not run (set {env})"
    timeout = float(os.environ.get(f"{backend.upper()}_TIMEOUT_S", "1800"))
    logical = json.loads(bundle.files.get("logical_topology.json", '{"logical-dims": ["all"]}'))["logical-dims"]
    flat = " (flat ring)" if len(dims) > 1 and len(logical) == 1 else ""
    with tempfile.TemporaryDirectory(prefix=f"ig-{backend}-") as d:
        bundle.write(d)
        ran = run_bundle(d, timeout)
        if ran is None:
            return f"not finished in {timeout:.0f} s"
        code, text = ran
        m = COMPLETED.search(text)
        if code or not m:
            said = re.search(r"Assertion [`'](.*)' failed", text)
            return f"failed (exit {code}" + (f": assertion '{said.group(1)}')" if said else ")")
        return cell(float(m.group(1)), False) + flat


# real simulators beside the models: (column, cell function). ns-3 NPUs do not forward, so NPUs wired
# to each other (the RI stacks) get forwarding switch nodes there (flagged in the bundle's README).
REAL = (("HTSim", partial(real_cell, "htsim", "ASTRA_SIM_HTSIM_BIN", {})),
        ("ns-3", partial(real_cell, "ns3", "ASTRA_SIM_NS3_BIN", {"forwarding-nodes": "true"})))


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
