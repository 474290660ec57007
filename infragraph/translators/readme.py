"""The bundle README every translator writes: what each file is, how to run it, the notes (what the
model ignores or approximates), the settings in force and the units of every number."""

from __future__ import annotations

from .base import Translator, render
from .chakra_et import Workload

FILE_ROLES = {
    "network.yml": "ASTRA-sim analytical network: topology, npus_count, bandwidth (GB/s, GB = 2^30), latency (ns)",
    "system.json": "ASTRA-sim system layer: scheduling, chunking, per-dimension collective algorithms",
    "remote_memory.json": "no memory expansion (required by the binary)",
    "ranks.txt": "which graph node is each NPU id",
    "run.sh": "finds the backend binary and runs this bundle (output also in run.log; fails unless every NPU finishes)",
    "topology.txt": "ns-3 topology: nodes, switches, links with rate (Gbps = 1e9 bit/s) and delay",
    "logical_topology.json": "ASTRA-sim logical dimensions for collectives",
    "config.txt": "ns-3 network configuration (KEY value lines)",
    "flow.txt": "ns-3 flow list: empty (0 flows; ASTRA-sim's workload makes the traffic), read because config.txt names it",
    "trace.txt": "ns-3 nodes to trace: none (0), read because config.txt names it",
    "fat_tree.topo": "HTSim fat-tree description (passed with --htsim_opts -topo)",
    "engine_input.json": "InfraGraph engine input: NPU order, logical dimensions, fabric link arrays",
    "graph.json": "the fully qualified graph, which `infragraph simulate` reads",
}


RUN_NOTE = ("`run.sh` needs only the backend binary: it takes the path from an environment variable, else finds "
            "it on PATH or under an ASTRA-sim checkout (see its header). It exits 0 only when every NPU finished; "
            "its last line is the collective's time.")


def readme(t: Translator, source: str, num_npus: int, summary: str, files: dict[str, str | bytes], notes: list[str],
           approximate: bool, settings: list, workload: Workload | None, run_hint: str = "./run.sh",
           units: list[str] | None = None, run_note: str = RUN_NOTE, against: list[str] | None = None,
           roles: dict[str, str] | None = None) -> str:
    """The bundle README (shared by every translator). `files` are the configuration files; the
    workload (one file per NPU) is listed as one line; `against` is the comparison with
    `infragraph simulate`'s default run (comparison.against_simulate); `roles` overrides what
    FILE_ROLES says a file is."""
    roles = {**FILE_ROLES, **(roles or {})}
    listed = [(f, roles.get(f, "")) for f in files if f != "README.md"]
    if workload is not None and workload.files:
        listed.append((f"workload/{workload.stem}.<npu>.et",
                       f"Chakra workload, one file per NPU: {workload.describe()} (`translate --collective/--size`)"))
    return render("README.md.j2", title=f"{t.description}", backend=t.name, source=source, num_npus=num_npus,
                  summary=summary, files=listed + [("README.md", "this file")], run_hint=run_hint, run_note=run_note,
                  notes=notes, against=against or [],
                  approximate=approximate, settings=settings, units=units or [
                      "bandwidth in network.yml: GB/s per link per direction, GB = 2^30 bytes "
                      "(graph Gbit/s x 1e9 / 8 / 2^30)",
                      "latency in network.yml: ns per hop; Switch dimensions cost 2 hops",
                      "local-mem-bw in system.json: GB/s with GB = 1e9 (ASTRA-sim's convention)"])
