"""Our `nccl` mode next to published nccl-tests all-reduce bus bandwidths (docs/simulate.md, "NCCL mode").

    python benchmarks/nccl.py            # markdown table: server, GPUs, what NCCL picks, our busbw, published, error
    python benchmarks/nccl.py --quick    # the single-server rows only

Each row builds the server (std.devices.host with the server's NVLink bandwidth per direction,
NVSwitch chips and NICs; GPU i and NIC i alone on a PCIe switch, as GPUDirect RDMA pairs them) or
a rail-optimized two-tier Clos of such servers, and runs a 1 GiB all-reduce with the default
algorithm (`nccl`) and the default model (`fair`). The published numbers are nccl-tests
`all_reduce_perf` bus bandwidths at large sizes; each source is cited next to its row.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from infragraph.simulate import SimulationOptions, simulate
from infragraph.sources import load_graph

A100 = "hosts.host(cpus = 2, gpus = 8, nics = 8, pcie_switches = 8, scaleup_switches = 6, " \
       "scaleup_bandwidth = 300 GB/s, nic_speed = 200 Gbps)"
H100 = "hosts.host(cpus = 2, gpus = 8, nics = 8, pcie_switches = 8, scaleup_switches = 4, " \
       "scaleup_bandwidth = 450 GB/s, nic_speed = 400 Gbps)"
H100_NVLS = (Path(__file__).resolve().parents[1] / "examples" / "hgx_h100_nvls.igl").read_text()


def server(device: str) -> str:
    return f"import std.devices.host as hosts\n\nfabric server() {{\n    instance dgx: {device}\n}}\n"


def hgx(system: str) -> str:
    return f"import std.devices.hgx as hgx\n\nfabric server() {{\n    instance s: hgx.{system}()\n}}\n"


def clos(device: str, radix: int) -> str:
    return (f"import std.fabrics.clos as c\nimport std.devices.host as hosts\n\nfabric pod() {{\n"
            f"    include c.clos(radix = {radix}, tiers = 2, nics_per_host = 8, rail_optimized = true,\n"
            f"                   host_link = link({'200' if 'nic_speed = 200' in device else '400'} Gbps, 500 ns),\n"
            f"                   host_device = {device})\n}}\n")


DGX_CLOS_128 = ("import std.fabrics.clos as c\nimport std.devices.dgx as dgx\n\nfabric pod() {\n"
                "    include c.clos(hosts = 128, radix = 64, tiers = 2, nics_per_host = 8, rail_optimized = true,\n"
                "                   host_device = dgx.dgx())\n}\n")

# (label, IGL source, published busbw GB/s, source of the published number)
ROWS = [
    ("DGX A100, 1 server (8 GPUs)", server(A100), 232.5,
     "NVIDIA/nccl issue 1048: `all_reduce_perf -g 8`, 8x A100 SXM, 232.54 GB/s"),
    ("DGX H100, 1 server (8 GPUs), chips not reducing (ring, as `NCCL_ALGO=RING`)", server(H100), 370.5,
     "ASTRA-sim HGX-H100 validation page: NCCL ring, 741 GB/s bidirectional = 370.5 per direction"),
    ("HGX H100 with NVLink SHARP, 1 server", H100_NVLS, 476.0,
     "NVIDIA/nccl-tests issue 290 (NVIDIA): single H100 node with NVLS, 476 GB/s 'in the expected range'"),
    ("DGX A100, 4 servers (32 GPUs), 8x 200 Gb/s", clos(A100, 8), 192.0,
     "NVIDIA/nccl issue 812 (NVIDIA): DGX A100 with 8x 200 Gb/s IB, 192 GB/s all-reduce busbw"),
    ("DGX H100, 4 servers (32 GPUs), 8x 400 Gb/s", clos(H100, 8), 396.0,
     "NVIDIA/nccl-tests issue 319 (NVIDIA): ~48 GB/s per CX7 400 Gb/s NIC, up to ~396 GB/s with ring"),
    # The issue's 1,024-GPU design (docs/simulate.md, "A bound by hand"): NCCL mode picks tree there.
    ("DGX H100, 128 servers (1,024 GPUs), 8x 400 Gb/s, `std.fabrics.clos hosts=128`", DGX_CLOS_128, 396.0,
     "NVIDIA/nccl-tests issue 319 (NVIDIA): ~48 GB/s per CX7 NIC, up to ~396 GB/s with ring; issue 309 (NVIDIA): "
     "8x 400 Gb/s peaks at 400 GB/s"),
    # The device blueprints as built (every NVLink a lane, NVSwitch wiring as NVIDIA documents it).
    ("std.devices.hgx a100(), 1 server (8 GPUs)", hgx("a100"), 232.5, "NVIDIA/nccl issue 1048 (as the DGX A100 row)"),
    # Their H100/H200/B200 NVSwitch chips reduce (NVLink SHARP), so NCCL picks NVLS there.
    ("std.devices.hgx h100(), 1 server (8 GPUs)", hgx("h100"), 476.0,
     "NVIDIA/nccl-tests issue 290 (as the NVLink SHARP row); issue 212 (NVIDIA): ~480 GB/s with NVLS"),
    ("std.devices.hgx h200(), 1 server (8 GPUs)", hgx("h200"), 475.0,
     "NVIDIA/nccl-tests issue 272: 8x H200, NCCL 2.20.3, `all_reduce_perf -e 4G`, peak 475 GB/s"),
    ("std.devices.dgx, 1 server (8 GPUs)", "import std.devices.dgx as dgx\n\nfabric server() {\n    instance s: dgx.dgx()\n}\n",
     476.0, "NVIDIA/nccl-tests issue 290 (as the NVLink SHARP row)"),
]


def run(text: str) -> tuple[dict, float]:
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "fabric.igl"
        path.write_text(text)
        g = load_graph(str(path))
    t0 = time.process_time()
    r = simulate(g, SimulationOptions(size_bytes=float(1 << 30)))
    return r, time.process_time() - t0


def main(argv: list[str]) -> int:
    rows = ROWS[:3] if "--quick" in argv else ROWS
    print("| system | NCCL picks (ours) | our busbw GB/s | published busbw GB/s | error | source |")
    print("|---|---|---:|---:|---:|---|")
    for label, text, published, source in rows:
        r, cpu = run(text)
        n = r["nccl"]
        ours = r["bus_bandwidth_gb_per_s"]
        print(f"| {label} | {n['algorithm']}/{n['protocol']}, {n['channels']} channels | {ours:.1f} | "
              f"{published:.1f} | {100 * (ours / published - 1):+.1f} % | {source} |", flush=True)
        print(f"<!-- {label}: {r['collective_time_ns'] / 1e6:.3f} ms, {r['num_npus']} GPUs, dims {r['dims']}, "
              f"chunks {r['chunks']}, cpu {cpu:.1f} s -->", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
