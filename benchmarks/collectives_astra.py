"""Custom collectives on the real ASTRA-sim next to our engine (issue 22.4).

    ASTRA_UNAWARE=/path/AstraSim_Analytical_Congestion_Unaware \\
    ASTRA_AWARE=/path/AstraSim_Analytical_Congestion_Aware \\
    python benchmarks/collectives_astra.py

Each schedule (the ring written as a schedule, the hand-written 8-GPU MSCCL ring and all-pairs
programs and MSCCL++ LL-packet all-pairs plan of tests/collectives, and an all-reduce synthesized for
the network with 2 chunks per rank, with per-rank-step and per-chunk dependencies) is exported with
`infragraph.collectives.chakra_et.write_ets` and run by ASTRA-sim 518bd51 as
`all-reduce-implementation-custom` on its Ring_8npus network (8 NPUs, 50 GB/s, 500 ns), a 1 MiB
all-reduce workload, local-mem-bw none (no reduction nodes) and 50 GB/s. Our side: the same schedule
with `simulate_schedule` on the graph imported from the same network file, model astra /
astra-aware, endpoint delay 0 (ASTRA-sim's custom algorithm has none). Prints a Markdown table.
The script runs the binaries the environment names; it never builds one.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

NETWORK = "topology: [ Ring ]\nnpus_count: [ 8 ]\nbandwidth: [ 50.0 ]  # GB/s\nlatency: [ 500.0 ]  # ns\n"
FINISHED = re.compile(r"sys\[(\d+)\] finished, (\d+) cycles")
SIZE = 1 << 20


def cases(graph) -> dict:
    """The schedules compared; `graph` (the imported network) is what the synthesized ones are for."""
    from infragraph.collectives.msccl import read_msccl, to_schedule
    from infragraph.collectives.mscclpp import read_mscclpp
    from infragraph.collectives.ring import ring_schedule
    from infragraph.collectives.schedule import read_schedule
    from infragraph.collectives.synthesize import synthesize
    from tests.collectives import msccl_programs as mp, mscclpp_programs as mpp

    synthesized = synthesize(graph, "all-reduce", chunks_per_rank=2, size_bytes=SIZE)
    return {
        "ring (as a schedule)": read_schedule(ring_schedule("all-reduce", 8)),
        "MSCCL ring (XML)": to_schedule(read_msccl(mp.ring_allreduce(8), "ring.xml")),
        "MSCCL all-pairs (XML)": to_schedule(read_msccl(mp.allpairs_allreduce(8), "allpairs.xml")),
        "MSCCL++ all-pairs, LL packets": read_mscclpp(mpp.allpairs_allreduce_packets(8), "allpairs.json"),
        "synthesized, 2 chunks/rank": synthesized.schedule("rank-steps"),
        "synthesized, 2 chunks/rank, chunk deps": synthesized.schedule("chunks"),
    }


def run_astra(binary: str, folder: Path, prefix: Path, local_mem_bw: float) -> int:
    system = folder / "system.json"
    system.write_text(json.dumps({"scheduling-policy": "FIFO", "preferred-dataset-splits": 1,
                                  "all-reduce-implementation-custom": [str(prefix)], "local-mem-bw": local_mem_bw}))
    out = subprocess.run([binary, f"--workload-configuration={folder / 'workload' / 'all_reduce'}",
                          f"--system-configuration={system}", f"--remote-memory-configuration={folder / 'memory.json'}",
                          f"--network-configuration={folder / 'network.yml'}"],
                         capture_output=True, text=True, timeout=300, cwd=folder)
    found = [int(c) for _, c in FINISHED.findall(out.stdout)]
    if out.returncode or len(found) != 8:
        raise SystemExit(f"{binary} failed ({out.returncode}): {(out.stdout + out.stderr)[-500:]}")
    return max(found)


def main() -> None:
    from infragraph.collectives.chakra_et import write_ets
    from infragraph.collectives.run import simulate_schedule
    from infragraph.graph import expand
    from infragraph.importers.astra_analytical import import_astra_analytical
    from infragraph.simulate import SimulationOptions, prepare
    from infragraph.translators.chakra_et import Workload, workload_files

    binaries = {"unaware": os.environ.get("ASTRA_UNAWARE"), "aware": os.environ.get("ASTRA_AWARE")}
    if not all(binaries.values()):
        raise SystemExit("set ASTRA_UNAWARE and ASTRA_AWARE to ASTRA-sim's analytical binaries (see the docstring)")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "network.yml").write_text(NETWORK)
        (folder / "memory.json").write_text(json.dumps({"memory-type": "NO_MEMORY_EXPANSION"}))
        workload = Workload("all-reduce", SIZE)
        (folder / "workload").mkdir()
        for name, data in workload_files(workload, 8, folder="workload").items():
            (folder / name.replace(workload.stem, "all_reduce")).write_bytes(data)
        fqg = expand(import_astra_analytical(folder / "network.yml"))
        graph = prepare(fqg)
        print("| schedule | local-mem-bw | ASTRA-sim unaware | ours (astra) | ASTRA-sim aware | ours (astra-aware) |")
        print("|---|---|---:|---:|---:|---:|")
        for name, schedule in cases(fqg).items():
            for bw in (None, 50.0):
                prefix = folder / f"custom_{abs(hash((name, bw)))}"
                write_ets(schedule, str(prefix), SIZE, bw)
                row = [name, "none" if bw is None else f"{bw:g} GB/s"]
                for kind, model in (("unaware", "astra"), ("aware", "astra-aware")):
                    theirs = run_astra(binaries[kind], folder, prefix, bw or 50.0)
                    opts = SimulationOptions(model=model, endpoint_delay_ns=0.0, local_mem_bw_gb_per_s=bw, dims=(8,))
                    ours = simulate_schedule(graph, schedule, SIZE, opts)["collective_time_ns"]
                    row += [f"{theirs:,}", f"{ours:,.0f}"]
                print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
