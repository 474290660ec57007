"""What NCCL would run for a collective on GPU servers, and how the engine reproduces it.

NCCL (the NVIDIA Collective Communication Library) picks, per call, an algorithm (ring, tree,
NVLS = NVLink SHARP reduction inside the NVSwitch, CollNet = SHARP reduction in the network
switches) and a protocol (LL, LL128, Simple) by predicting each pair's time from a latency and a
bus-bandwidth model, and runs on several *channels* (parallel rings/trees, each bound to its own
NIC). The facts below were read from NCCL's source (github.com/NVIDIA/nccl, master of 2026:
src/graph/tuning.cc for the latency and bandwidth model and its constants, src/graph/topo.h for
the per-link NVLink speeds, src/graph/search.cc for the per-channel speeds, src/enqueue.cc and
src/include/collectives.h for chunking) and written here from those facts.

Two parts:
- `choose`: NCCL's selection, from the servers the group spans (`Servers`) and the message size.
- `plan`: the engine run that reproduces the choice on the graph: per-dimension engine algorithms
  over (GPUs per server, servers), chunks that pipeline the intra- and inter-server phases, link
  bandwidths derated to what NCCL reaches on them (`Derating`), the protocol's payload efficiency,
  and NCCL's modelled latency of the call, added once (the engine adds the links' own latencies).

What is not modelled is listed in docs/simulate.md ("NCCL mode").
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..graph import FQG
from .affinity import NO_NIC, Affinity, affinity

PROTOCOLS = ("LL", "LL128", "Simple")
ALGOS = ("ring", "tree", "nvls", "collnet")
# A switch node (component attribute or annotation) with this attribute set true reduces in the
# switch: inside a server (NVSwitch) it enables NVLS, in the fabric (SHARP) CollNet.
REDUCTION_ATTRIBUTE = "in_network_reduction"

# tuning.cc, ncclTunerConstantsDefaults: base latency (us) per algorithm, protocol (LL, LL128, Simple).
BASE_LATENCY_US = {"tree": (6.8, 14.0, 8.4), "ring": (6.6, 14.0, 8.4), "collnet": (0.0, 0.0, 0.0),
                   "nvls": (0.0, 0.0, 0.0)}
# tuning.cc: hardware latency per step (us) by link class (NVLink, PCIe, network). CollNet: Direct.
HW_LATENCY_US = {
    "NVL": {"tree": (0.6, 1.25, 4.0), "ring": (0.6, 1.9, 3.4), "collnet": (0.0, 0.0, 3.7), "nvls": (0.0, 0.0, 25.0)},
    "PCI": {"tree": (1.0, 1.9, 4.0), "ring": (1.0, 2.5, 5.7), "collnet": (0.0, 0.0, 3.7), "nvls": (0.0, 0.0, 0.0)},
    "NET": {"tree": (5.0, 8.5, 14.0), "ring": (2.7, 4.0, 14.0), "collnet": (0.0, 0.0, 31.0), "nvls": (0.0, 0.0, 18.0)},
}
ARCHS = ("volta", "ampere", "hopper", "blackwell")
# tuning.cc per architecture, indexed by nodes (1, 2, >2): LL cap (GB/s, whole comm), per-channel caps.
LL_MAX_BW = {"volta": (39.0, 39.0, 20.4), "ampere": (87.7, 22.5, 19.0), "hopper": (141.0, 45.0, 35.0),
             "blackwell": (282.0, 90.0, 70.0)}
LL_MAX_BW_MULTINODE_INTEL = (39.0, 39.0, 20.4)  # multi-node: the CPU's row (x86 Intel assumed)
PER_CH_RING_LL128 = {"volta": 20.0, "ampere": 20.0, "hopper": 36.7, "blackwell": 40.0}
PER_CH_TREE = {"volta": (26.5, 18.5, 10.0), "ampere": (24.0, 23.6, 17.8), "hopper": (38.7, 41.4, 36.0),
               "blackwell": (70.0, 42.8, 24.0)}
PER_CH_TREE_LL128 = {"volta": (20.0, 20.0, 20.0), "ampere": (20.0, 20.0, 20.0), "hopper": (36.7, 36.7, 29.0),
                     "blackwell": (55.6, 31.67, 20.0)}
NVLS_MAX_ARITY = 32  # device.h NCCL_MAX_NVLS_ARITY: NVLS reduce-scatter/all-gather GPUs per server at most
NVLS_EFFICIENCY = {"volta": 0.0, "ampere": 0.0, "hopper": 0.85, "blackwell": 0.74}
# tuning.cc: treeCorrectionFactor[protocol][log2(bytes / 64)], 64 B .. 256 MiB.
TREE_CORRECTION = {
    "LL": (1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0, 1.0),
    "LL128": (1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1.0, 1.0, 1.0),
    "Simple": (.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9, .9),
}
# topo.h: the bandwidth NCCL credits one NVLink with (GB/s per direction) next to its rated
# 25 GB/s (NVLink 2-4) or 50 GB/s (NVLink 5): SM70/SM80 20.0, SM90 20.6, SM100 40.1.
NVLINK_GBPS = {"volta": (20.0, 25.0), "ampere": (20.0, 25.0), "hopper": (20.6, 25.0), "blackwell": (40.1, 50.0)}
# search.cc: the per-channel network speeds NCCL's search tries (GB/s), fastest first.
INTER_SPEEDS = {"hopper": (48.0, 45.0, 42.0, 40.0, 30.0, 24.0, 22.0, 20.0, 17.5, 15.0, 12.0, 6.0, 3.0, 2.4, 1.2),
                "blackwell": (96.0, 86.0, 80.0, 48.0, 45.1, 42.0, 40.0, 30.0, 24.0, 22.0, 20.0, 17.5, 15.0, 12.0,
                              6.0, 3.0, 2.4, 1.2)}
INTER_SPEEDS_OLDER = (48.0, 30.0, 28.0, 24.0, 20.0, 18.0, 15.0, 12.0, 10.0, 9.0, 7.0, 6.0, 5.0, 4.0, 3.0, 2.4, 1.2)
# search.cc: the fastest per-channel intra-server speed tried (GB/s), and MAXCHANNELS.
TOP_INTRA_SPEED = {"volta": 40.0, "ampere": 40.0, "hopper": 60.0, "blackwell": 90.0}
MAX_CHANNELS = 32
# tuning.cc: the protocol's share of the bandwidth (LL: 4 B of flags per 4 B of data; LL128: 120
# of every 128 B, rounded down by NCCL to 0.92); Simple carries data only.
PROTOCOL_EFFICIENCY = {"LL": 0.5, "LL128": 0.92, "Simple": 1.0}
# init.cc / collectives.h: a channel's buffer is split in NCCL_STEPS = 8 steps: Simple 4 MiB
# (512 KiB a step; a ring all-reduce moves ALLREDUCE_CHUNKSTEPS = 4 steps, 2 MiB, per pipeline
# stage), LL 512 KiB of which half is flags (32 KiB of data a step), LL128 120 elements x 640
# threads x 8 B per step, 120/128 of it data. Payload bytes per pipeline stage and channel:
STAGE_BYTES = {"LL": 32 << 10, "LL128": 120 * 640 * 8 * 120 // 128, "Simple": 2 << 20}
# collectives.h: a broadcast or reduce moves BROADCAST_CHUNKSTEPS = REDUCE_CHUNKSTEPS = 1 step per
# pipeline stage (src/device/broadcast.h: each rank forwards a chunk as it arrives), so its chain
# pipelines in steps: Simple 512 KiB a channel.
CHAIN_STAGE_BYTES = {**STAGE_BYTES, "Simple": 512 << 10}
MAX_ENGINE_CHUNKS = 16  # pipeline stages the engine runs across servers (its cost grows with them)
# A broadcast/reduce chain's stages (one chunk per stage, NCCL's own count up to this): the chain
# fills in (n - 2) stages, so fewer, larger chunks than NCCL's would inflate its time (16 chunks
# made a 1 GiB broadcast on one DGX H100 +37 % slower than the chain of NCCL's 146 stages), and
# at most about CHAIN_MESSAGES messages over the chain (chunks x ranks: the engine's cost).
MAX_CHAIN_CHUNKS = 1024
CHAIN_MESSAGES = 1 << 20
# NVLink domains larger than an 8-GPU server (multi-node NVLink: GB200 NVL72, 72 GPUs) and an
# all-reduce measured on a full GB200 NVL72 rack: `all_reduce_perf` busbw 681-724 GB/s at 1 GiB,
# 835-847 GB/s at 4-8 GiB (coreweave/nccl-tests pull request 43; the algorithm is not stated).
SERVER_GPUS = 8
NVL72_MEASURED = "681-724 GB/s busbw at 1 GiB, 835-847 GB/s at 4-8 GiB (coreweave/nccl-tests pull request 43)"
NET_OVERHEAD_US = 1.0  # tuning.cc getNetOverhead: x86 Intel host (x3 for Simple)


@dataclass(frozen=True)
class Servers:
    """The servers a process group spans, as NCCL's topology detection would see them.

    A server is a top-level device copy that holds NPUs and at least one NIC (a host); NPUs of
    abstract fabrics (a torus of NPUs, an ASTRA-sim stack) have none, and NCCL semantics do not
    apply to them."""

    nodes: int  # servers the group spans (NCCL's nNodes)
    ppn: int  # group ranks per server (NCCL's ppn); 0 when uneven
    arch: str  # volta | ampere | hopper | blackwell, from the per-GPU NVLink bandwidth
    intra: str  # "NVL" (NVLink/NVSwitch inside the server) or "PCI"
    nvswitch: bool  # GPUs reach a switch chip inside the server
    scaleup_gbps: float  # per-GPU scale-up bandwidth, Gbit/s per direction (all its NVLinks)
    nic_gbps: float  # per-GPU network bandwidth out of the server, Gbit/s per direction (its GPUs' NICs)
    nics: int  # network cables out of one server from the NICs the group's GPUs there are bound to
    nvls: bool  # a scale-up switch states in-switch reduction
    sharp: bool  # a fabric switch states in-switch reduction
    # What engine_plan reads on every call, computed here once per group (servers() is cached
    # per group in PreparedGraph.servers_of) rather than over every NPU again per call:
    member_servers: tuple[int, ...] = ()  # per group rank, its server's id (server_of_npus)
    domain: int = 0  # GPUs in the first member's server, of every NPU (its NVLink domain)


def server_of_npus(g: FQG, npu_nodes: np.ndarray) -> np.ndarray:
    """Per NPU, the id of its server (a top-level device copy holding a NIC), or -1."""
    key = g.node_instance.astype(np.int64) * (1 << 32) + g.node_copy.astype(np.int64)
    nic_types = [i for i, t in enumerate(g.type_names) if t == "nic"]
    hosts = np.unique(key[np.isin(g.node_type, nic_types)])
    keys = key[npu_nodes]
    return np.where(np.isin(keys, hosts), keys, -1)


def _arch(per_gpu_gbytes: float) -> str:
    """The GPU generation NCCL would detect, read off the per-GPU NVLink bandwidth (GB/s per
    direction): 900 NVLink5 (B200), 450 NVLink4 (H100), 300 NVLink3 (A100), else older."""
    if per_gpu_gbytes >= 900 * 0.99:
        return "blackwell"
    if per_gpu_gbytes >= 450 * 0.99:
        return "hopper"
    if per_gpu_gbytes >= 300 * 0.99:
        return "ampere"
    return "volta"


def servers(g: FQG, npu_nodes: np.ndarray, group: list[int], bound: Affinity | None = None) -> Servers | None:
    """The servers `group` (ranks) spans; None when its NPUs are not in servers (abstract fabrics).
    `bound`: the NIC affinity of `npu_nodes` when the caller has it (built here otherwise)."""
    every_sid = server_of_npus(g, npu_nodes)
    sid = every_sid[group]
    if (sid < 0).any():
        return None
    ids, counts = np.unique(sid, return_counts=True)
    ppn = int(counts[0]) if (counts == counts[0]).all() else 0
    first = int(npu_nodes[group[0]])
    key = g.node_instance.astype(np.int64) * (1 << 32) + g.node_copy.astype(np.int64)
    inside = key == key[first]
    src, dst = np.asarray(g.edge_src), np.asarray(g.edge_dst)
    bw = np.nan_to_num(np.asarray(g.edge_bandwidth_gbps(), dtype=np.float64))
    code = {t: i for i, t in enumerate(g.type_names)}  # node type name -> code, also for the helpers below
    switch, xpu = code.get("switch", -1), code.get("xpu", -1)
    # Scale-up links of the first GPU: to a switch chip or another GPU inside its server.
    other = np.where(src == first, dst, np.where(dst == first, src, -1))
    mine = (other >= 0) & inside[np.maximum(other, 0)]
    kinds = g.node_type[np.maximum(other, 0)]
    scaleup = mine & ((kinds == switch) | (kinds == xpu))
    scaleup_gbps = float(bw[scaleup].sum())
    nvswitch = bool((mine & (kinds == switch)).any())
    # Cables out of the server (one end inside, the other outside) that the group's GPUs there
    # reach: NCCL's topology holds only the communicator's GPUs of a server (topo.cc,
    # ncclTopoGetSystem fills the local rank's GPU and fuses its local peers'), so a GPU reaches
    # the NICs nearest to it (topo.cc ncclTopoGetLocalNet) and not through other GPUs (PXN needs
    # an NVLink peer in the communicator, paths.cc); search.cc's ncclTopoCompute goes past PXN-type
    # paths only when it finds no channel at all. One GPU of a DGX H100 thus gets one NIC, 48 GB/s,
    # not its server's eight.
    out = inside[src] != inside[dst]
    reached = out & _cables_of(g, code, _group_nics(g, code, npu_nodes, group, inside, bound), src, dst, inside)
    out = reached if reached.any() else out
    nics = int(out.sum())
    per_server = int(counts[0])
    nic_gbps = float(bw[out].sum()) / per_server if nics else 0.0
    reducing = np.array(sorted(n for n, v in g.node_annotation(REDUCTION_ATTRIBUTE).items()
                               if str(v).lower() in ("true", "1", "yes")), dtype=np.int64)
    reducing = reducing[g.node_type[reducing] == switch]  # in-switch reduction: switch chips only
    nvls = bool(inside[reducing].any())
    # SHARP: a reducing switch outside every server (an NVSwitch of a server the group does not
    # span is still a server's, not the fabric's)
    sharp = bool((~np.isin(key[reducing], key[npu_nodes])).any())
    return Servers(nodes=len(ids), ppn=ppn, arch=_arch(scaleup_gbps / 8), intra="NVL" if scaleup_gbps else "PCI",
                   nvswitch=nvswitch, scaleup_gbps=scaleup_gbps, nic_gbps=nic_gbps, nics=nics, nvls=nvls,
                   sharp=sharp, member_servers=tuple(sid.tolist()), domain=int((every_sid == sid[0]).sum()))


def _group_nics(g: FQG, code: dict[str, int], npu_nodes: np.ndarray, group: list[int], inside: np.ndarray,
                bound: Affinity | None) -> np.ndarray:
    """The NIC nodes the group's GPUs in the first server are bound to (simulate.affinity: each
    GPU's nearest NIC, as NCCL's ncclTopoGetLocalNet); every NIC of that server when any of them
    has none (a server without a PCIe path from GPU to NIC: no affinity to follow)."""
    a = bound if bound is not None else affinity(g, npu_nodes)
    nic = a.nic[np.asarray(group, dtype=np.int64)]
    mine = inside[np.asarray(npu_nodes, dtype=np.int64)[np.asarray(group, dtype=np.int64)]]
    picked = nic[mine]
    if (picked == NO_NIC).any():
        return np.flatnonzero(inside & (g.node_type == code.get("nic", -1)))
    return np.unique(picked)


def _cables_of(g: FQG, code: dict[str, int], nics: np.ndarray, src: np.ndarray, dst: np.ndarray,
               inside: np.ndarray) -> np.ndarray:
    """Per edge, whether it starts at one of `nics` or at a port of theirs (a NIC ASIC's edges to
    nodes of type port inside the server): the cables those NICs drive."""
    own = np.zeros(len(g.node_type), dtype=bool)
    own[nics] = True
    port = (g.node_type == code.get("port", -1)) & inside
    own[dst[own[src] & port[dst]]] = True
    own[src[own[dst] & port[src]]] = True
    return own[src] | own[dst]


@dataclass(frozen=True)
class Choice:
    """NCCL's pick for one call, with its own predicted time and the candidates it compared."""

    algorithm: str  # ring | tree | nvls | collnet
    protocol: str  # LL | LL128 | Simple
    channels: int
    predicted_us: float  # NCCL's model: latency + bytes / algorithm bandwidth
    latency_us: float  # NCCL's modelled latency of the pick (base + per-step)
    base_latency_us: float
    candidates: tuple[tuple[str, str, float], ...]  # (algorithm, protocol, predicted us), fastest first


def _level(nodes: int) -> int:
    return 0 if nodes <= 1 else 1 if nodes == 2 else 2


def _channels(s: Servers) -> tuple[int, float, float]:
    """(channels, per-channel intra GB/s, per-channel inter GB/s) as search.cc would end up:
    enough channels at the top per-channel speed to cover the per-GPU NVLink bandwidth (one per
    NIC across servers), doubled while a channel still gets 25 GB/s or more."""
    intra_total = NVLINK_GBPS[s.arch][0] / NVLINK_GBPS[s.arch][1] * s.scaleup_gbps / 8 if s.intra == "NVL" else 0.0
    if s.intra == "PCI":
        intra_total = 12.0  # topo.h PCI_BW (PCIe Gen3 x16), NCCL's figure for a PCIe path
    if s.nodes > 1 and s.ppn:
        per_nic = inter_speed(s.arch, s.nic_gbps * s.ppn / max(1, s.nics) / 8)
        ch = max(1, s.nics)
        per_ch_inter = per_nic
        per_ch_intra = intra_total / ch
    else:
        ch = max(1, math.ceil(intra_total / TOP_INTRA_SPEED[s.arch]))
        per_ch_intra = intra_total / ch
        per_ch_inter = per_ch_intra
    if per_ch_intra >= 25.0:
        dup = min(2 * ch, MAX_CHANNELS)
        per_ch_intra, per_ch_inter = per_ch_intra * ch / dup, per_ch_inter * ch / dup
        ch = dup
    return ch, per_ch_intra, per_ch_inter


def inter_speed(arch: str, nic_gbytes: float) -> float:
    """search.cc: the fastest per-channel network speed in NCCL's list not above the NIC's GB/s."""
    for v in INTER_SPEEDS.get(arch, INTER_SPEEDS_OLDER):
        if v <= nic_gbytes * (1 + 1e-9):
            return v
    return nic_gbytes


def _steps(collective: str, n: int) -> int:
    return 2 * (n - 1) if collective == "all-reduce" else n - 1 if collective in ("reduce-scatter", "all-gather") else n


def candidates(collective: str, size_bytes: float, s: Servers, n_ranks: int) -> list[tuple[str, str, float, float, float]]:
    """Every (algorithm, protocol) NCCL would consider, as (algo, proto, time us, latency us, base us)."""
    ch, bw_intra, bw_inter = _channels(s)
    # NCCL tunes on the larger of the send and receive buffers (enqueue.cc ncclGetAlgoInfo,
    # ncclFuncMaxSendRecvCount): an all-gather's n shards (its size here is one rank's shard).
    if collective == "all-gather":
        size_bytes = size_bytes * n_ranks
    lvl = _level(s.nodes)
    ppn = s.ppn or 1
    nsteps = _steps(collective, n_ranks)
    out = []
    for algo in ALGOS:
        if collective in ("broadcast", "reduce") and algo != "ring":
            continue
        if collective in ("reduce-scatter", "all-gather") and algo not in ("ring", "nvls"):
            continue
        if collective not in ("all-reduce", "reduce-scatter", "all-gather", "broadcast", "reduce"):
            continue
        if algo == "tree" and s.nodes == 1:
            continue  # single-server tree (a chain) is not offered here: see docs/simulate.md
        # NVLS inside one server (across servers NCCL pairs it with SHARP: not modelled) on more than
        # 2 GPUs: NCCL's ncclNvlsInit (src/transport/nvls.cc) leaves NVLS off when the communicator's
        # topology holds 2 GPUs or fewer. All-reduce, and since NCCL 2.19 reduce-scatter and
        # all-gather (tuning.cc) on at most NCCL_MAX_NVLS_ARITY = 32 GPUs of a server (enqueue.cc).
        if algo == "nvls" and not (s.nvls and s.nvswitch and s.arch in ("hopper", "blackwell") and s.nodes == 1
                                   and s.ppn > 2 and ch >= 2
                                   and (collective == "all-reduce" or s.ppn <= NVLS_MAX_ARITY)):
            continue
        if algo == "collnet" and not (s.sharp and s.nodes > 1 and s.nvswitch and collective == "all-reduce"):
            continue
        for pi, proto in enumerate(PROTOCOLS):
            if algo in ("nvls", "collnet") and proto != "Simple":
                continue
            if proto == "LL128" and s.intra != "NVL":
                continue  # tuning.cc enables LL128 only on NVLink paths by default
            bw = bw_intra if (s.nodes <= 2 or algo == "collnet") else bw_inter
            if algo == "nvls":
                intra = bw_intra * NVLS_EFFICIENCY[s.arch] * (ch - 1) / ch
                intra *= 2.0 if collective == "all-reduce" else (ppn - 1) / ppn
                bw = min(intra, bw_inter) if s.nodes > 1 else intra
            bus = ch * bw
            if algo == "ring" and proto == "LL":
                bus = min(LL_MAX_BW[s.arch][lvl] if s.nodes == 1 else LL_MAX_BW_MULTINODE_INTEL[lvl], bus * 0.5)
            if algo == "ring" and proto == "LL128":
                bus = min(bus * 0.92, ch * PER_CH_RING_LL128[s.arch])
            if algo == "tree":
                bus = min(bus * 0.92, ch * PER_CH_TREE[s.arch][lvl])
                if proto == "LL":
                    bus = min(bus / 3.8, LL_MAX_BW_MULTINODE_INTEL[lvl])
                if proto == "LL128":
                    bus = min(bus * 120.0 / 128.0, ch * PER_CH_TREE_LL128[s.arch][lvl])
            if algo == "collnet":
                factor = ppn / ch
                factor -= (factor - 1) / 2
                bus = bus / factor * (0.85 if s.arch in ("hopper", "blackwell") else 1.0)
            # tuning.cc converts bus to algorithm bandwidth except for a reduce-scatter or all-gather
            # other than ring: NVLS's (ppn - 1)/ppn above stands for it.
            if algo == "nvls" and collective != "all-reduce":
                algbw = bus
            else:
                algbw = bus * (n_ranks / nsteps if algo in ("ring", "nvls") else 0.5)
            base = BASE_LATENCY_US[algo][pi]
            intra_lat = HW_LATENCY_US[s.intra][algo][pi]
            inter_lat = HW_LATENCY_US["NET"]["tree" if ppn == 1 else algo][pi]
            if algo == "ring":
                if collective in ("broadcast", "reduce"):
                    lat = base + nsteps * HW_LATENCY_US["NET" if s.nodes > 1 else s.intra]["ring"][pi]
                else:
                    if s.nodes > 1:
                        intra_lat = max(intra_lat, NET_OVERHEAD_US * (3 if proto == "Simple" else 1))
                    n_inter = 0 if s.nodes == 1 else (2 * (s.nodes - 1) if collective == "all-reduce" else s.nodes - 1)
                    lat = base + (nsteps - n_inter) * intra_lat + n_inter * inter_lat
            elif algo == "tree":
                lat = base + 2 * ((ppn - 1) * intra_lat + int(math.log2(s.nodes)) * inter_lat)
            elif algo == "collnet":
                lat = base + 2 * (min(1, ppn - 1) * intra_lat + (ppn - 1) * 0.4) + inter_lat
            else:
                lat = intra_lat + (inter_lat if s.nodes > 1 else 0.0)
            log_size = int(math.log2(max(1, int(size_bytes) >> 6))) if int(size_bytes) >= 64 else -1
            if algo == "tree" and 0 <= log_size < 23:
                algbw *= TREE_CORRECTION[proto][log_size]
            eff_lat = lat
            if (algo == "ring" and proto == "Simple" and s.nodes > 1 and collective == "all-reduce"
                    and size_bytes / (ch * n_ranks) >= 64):
                eff_lat = lat * 1.4  # tuning.cc: the ring's plateau
            if algbw <= 0:
                continue
            out.append((algo, proto, eff_lat + size_bytes / (1000.0 * algbw), eff_lat, base))
    out.sort(key=lambda c: c[2])
    return out


def choose(collective: str, size_bytes: float, s: Servers, n_ranks: int) -> Choice | None:
    """NCCL's fastest (algorithm, protocol) for this call; None where NCCL runs send/recv
    (all-to-all, point-to-point) rather than a collective algorithm."""
    found = candidates(collective, size_bytes, s, n_ranks)
    if not found:
        return None
    algo, proto, t, lat, base = found[0]
    return Choice(algorithm=algo, protocol=proto, channels=_channels(s)[0], predicted_us=t, latency_us=lat,
                  base_latency_us=base, candidates=tuple((a, p, round(x, 3)) for a, p, x, _, _ in found))


@dataclass(frozen=True)
class EnginePlan:
    """The engine run that reproduces NCCL's choice (see the module doc)."""

    choice: Choice | None  # None: send/recv (all-to-all, point-to-point)
    collective: str  # what the engine runs (NVLS all-reduce: the all-to-all with its link loads)
    size_bytes: float  # per-NPU bytes the engine moves
    algorithms: tuple[str, ...]
    dims: tuple[int, ...]  # (GPUs per server, servers) when the ranks fill servers in order, else flat
    chunks: int
    # Chunks in flight per dimension: one, so consecutive chunks overlap across the intra- and
    # inter-server phases (more in flight share the links at once, and finish no sooner).
    active_chunks: int
    # NCCL's modelled latency of the call (base + per-step hardware latencies, tuning.cc), added
    # once to every rank's finish time: NCCL pays it once per call however its chunks pipeline, so
    # the engine runs with no endpoint delay and contributes the links' own latencies only.
    latency_ns: float
    bandwidth_gbps: np.ndarray  # per edge, derated to what NCCL reaches
    notes: tuple[str, ...]
    # The share of the bytes on the wire that are payload (the protocol's: LL 0.5, LL128 0.92,
    # Simple 1; NVLS: its efficiency), which `bandwidth_gbps` includes on top of NCCL's per-link
    # figures (`derated_bandwidth`); the workload's shared network charges it as bytes instead.
    payload_efficiency: float = 1.0
    # The engine's own latency (the links' latencies and the endpoint delays) stands for the call's,
    # in place of `latency_ns`: a point-to-point send, for which tuning.cc has no latency model.
    engine_latency: bool = False
    # A broadcast/reduce over (GPUs per server, servers) as NCCL's ring channels move it: a shard per
    # GPU along every rail, not the whole buffer along the root's (the engine's `rail_chains`).
    rail_chains: bool = False
    # (code, message) for each known way this run's time departs from what NCCL does: never silent,
    # `simulate` lists them as warnings and a workload replay's report as cautions.
    cautions: tuple[tuple[str, str], ...] = ()


def contiguous(g_sid: np.ndarray, s: Servers) -> bool:
    """Whether the group's ranks fill servers one after another (server-major rank order), so
    dims (GPUs per server, servers) group each server's GPUs in dimension 0."""
    if not s.ppn or s.nodes * s.ppn != g_sid.size:
        return False
    rows = g_sid.reshape(s.nodes, s.ppn)
    return bool((rows == rows[:, :1]).all()) and len(set(rows[:, 0].tolist())) == s.nodes


def derated_bandwidth(g: FQG, bandwidth_gbps: np.ndarray, npu_nodes: np.ndarray, s: Servers,
                      factor: float) -> np.ndarray:
    """Edge bandwidths (Gbit/s) as NCCL credits them: NVLinks at topo.h's per-link speed over the
    rated one (H100: 20.6 of 25 GB/s), server-to-fabric cables at search.cc's per-channel network
    speed over the NIC's (400 Gb/s: 48 of 50 GB/s), everything times the protocol's `factor`."""
    key = g.node_instance.astype(np.int64) * (1 << 32) + g.node_copy.astype(np.int64)
    hosts = set(key[npu_nodes[server_of_npus(g, npu_nodes) >= 0]].tolist())
    in_server = np.isin(key, list(hosts))
    src, dst = np.asarray(g.edge_src), np.asarray(g.edge_dst)
    tname = np.asarray(g.type_names, dtype=object)[g.node_type]
    xpu, sw = tname == "xpu", tname == "switch"
    same = key[src] == key[dst]
    nvlink = same & in_server[src] & ((xpu[src] & (sw[dst] | xpu[dst])) | (xpu[dst] & sw[src]))
    cable = in_server[src] != in_server[dst]
    bw = np.array(bandwidth_gbps, dtype=np.float64) * factor
    ncc, rated = NVLINK_GBPS[s.arch]
    bw[nvlink] *= ncc / rated
    if cable.any():
        nic_gbytes = float(np.nanmax(np.asarray(bandwidth_gbps)[cable])) / 8
        bw[cable] *= inter_speed(s.arch, nic_gbytes) / nic_gbytes
    return bw


def engine_plan(g: FQG, bandwidth_gbps: np.ndarray, npu_nodes: np.ndarray, group: list[int], collective: str,
                size_bytes: float, s: Servers) -> EnginePlan:
    """NCCL's choice for this call and the engine run reproducing it (module doc)."""
    n = len(group)
    sid = np.asarray(s.member_servers, dtype=np.int64)
    two_level = s.nodes > 1 and s.ppn > 1 and contiguous(sid, s)
    dims = (s.ppn, s.nodes) if two_level else (n,)
    notes: list[str] = []
    if collective == "point-to-point":
        # NCCL's send/recv: no algorithm or tuning.cc model (ncclTopoTuneModel tunes collectives
        # only); src/graph/paths.cc (ncclTopoGetNchannels, ncclTopoComputeP2pChannelsPerPeer) gives
        # a peer enough channels to fill its path (NVLink: 2 per NCCL NVLink bandwidth of the path;
        # network: one per NIC, more up to P2P_PER_CHANNEL_NET_BW = 14 GB/s each), over the same
        # transports and Simple FIFOs as a collective's. So the links run at NCCL's per-link figures,
        # as for a collective; its latency is the engine's (the links' and the endpoint delays).
        bw = derated_bandwidth(g, bandwidth_gbps, npu_nodes, s, 1.0)
        notes.append("NCCL's send/recv: one message at NCCL's per-link figures (paths.cc gives a peer enough "
                     "channels to fill its path), with the links' latencies and the endpoint delays (tuning.cc "
                     "models no send/recv latency)")
        return EnginePlan(None, collective, size_bytes, ("direct",), (n,), 1, 1, 0.0, bw, tuple(notes),
                          engine_latency=True)
    if collective == "all-to-all":
        bw = derated_bandwidth(g, bandwidth_gbps, npu_nodes, s, 1.0)
        notes.append("NCCL runs this as send/recv to every peer at once (direct); PXN (sending through the "
                     "NVLink peer on the destination's rail) follows the routing policy")
        # tuning.cc has no model for it, and NCCL mode's links carry no latency of their own
        # (NCCL's latency of a call stands for theirs): the time is its bandwidth's alone.
        latency = ("nccl-all-to-all-latency", "NCCL mode charges this all-to-all no latency (tuning.cc models none "
                   "for send/recv, and NCCL mode's links carry none): its time is the bandwidth's only, "
                   "optimistic where the messages are small")
        return EnginePlan(None, collective, size_bytes, ("direct",), (n,), 1, 1, 0.0, bw, tuple(notes),
                          cautions=(latency,))
    c = choose(collective, size_bytes, s, n)
    if c is None:
        raise ValueError(f"no NCCL algorithm for {collective}")  # every collective but send/recv has one
    factor = PROTOCOL_EFFICIENCY[c.protocol]
    engine_collective, engine_size, chunks = collective, size_bytes, 1
    if c.algorithm == "nvls":
        # NCCL's one-server NVLS all-reduce (src/device/all_reduce.h, NCCL_ALGO_NVLS; buffers in
        # src/transport/nvls.cc): the NVSwitch reads every GPU's copy of each of the n slices
        # (multimem ld_reduce; a GPU's own slice too) and the slice's owner stores the reduced
        # slice, which the switch writes to all n GPUs (multimem st). Per GPU and direction
        # S + S/n cross its NVLinks: the link loads of a direct all-to-all of S (n + 1) / (n - 1).
        # Reduce-scatter and all-gather (src/device/reduce_scatter.h, all_gather.h, NCCL_ALGO_NVLS,
        # one node; NVIDIA in NVIDIA/nccl issue 1083): a reduce-scatter's GPU sends its whole input
        # S (the switch reads each slice from every GPU to reduce it) and receives its reduced S/n;
        # an all-gather's GPU stores its shard once (multimem st) and the switch writes every shard
        # to every GPU, n shards in. The busier direction bounds it: the link loads of a direct
        # all-to-all carrying that much each way (the other direction's links run fuller than NCCL's).
        factor = NVLS_EFFICIENCY[s.arch]
        moved = size_bytes * ((n + 1) / n if collective == "all-reduce" else n if collective == "all-gather" else 1)
        engine_collective, engine_size, algos, dims = "all-to-all", moved * n / (n - 1), ("direct",), (n,)
        what = {"all-reduce": f"its buffer for the switch's reductions, 1/{n} of it as the reduced slice it stores",
                "reduce-scatter": f"out: its buffer for the switch's reductions; in: only its reduced 1/{n}",
                "all-gather": f"in: the {n} shards the switch multicasts; out: only its own shard, once"}[collective]
        notes.append(f"NVLS: the {'reduction' if collective != 'all-gather' else 'multicast'} runs in the NVSwitch; "
                     f"simulated as its link loads (each GPU sends and receives {moved:.0f} B; {what}) at tuning.cc's "
                     f"NVLS efficiency {factor}")
    else:
        # Ring, and tree as its link loads: a double binary tree sends and receives about 2 S/ppn
        # per GPU across servers, as the rail rings do (2 (N-1)/N S/ppn); NCCL pipelines its
        # chunks through the tree, which the engine's store-and-forward tree does not, so the
        # tree's depth enters through NCCL's latency only (added once, below).
        algos = ("ring",) * len(dims)
        if c.algorithm == "collnet":
            notes.append("CollNet (SHARP): the in-network reduction is not modelled; simulated as the ring's link "
                         "loads, with NCCL's CollNet latency")
        if c.algorithm == "tree":
            notes.append("tree: simulated as its link loads with the per-server and per-rail rings (about 2 S/ppn "
                         "per GPU across servers either way), with NCCL's tree latency")
    cautions: list[tuple[str, str]] = []
    if collective in ("broadcast", "reduce"):
        # NCCL's chain forwards each step-sized chunk as it arrives: one engine chunk per NCCL stage,
        # so that the chain's fill, (n - 2) stages, is NCCL's.
        stages = int(size_bytes // (CHAIN_STAGE_BYTES[c.protocol] * c.channels))
        chunks = max(1, min(MAX_CHAIN_CHUNKS, max(MAX_ENGINE_CHUNKS, CHAIN_MESSAGES // n), stages))
        if stages > chunks:
            extra = (n - 2) * (1 / chunks - 1 / stages) * 100
            cautions.append(("nccl-chain-chunks", f"the {collective} chain runs {chunks} engine chunks where NCCL "
                             f"pipelines {stages} stages: its fill costs up to {extra:.2f} % more of the transfer "
                             "than NCCL's"))
        if s.nodes > 1 and s.ppn != 1 and not two_level:
            cautions.append(("nccl-chain-one-rail", f"across servers whose ranks do not fill them in order the "
                             f"engine runs the {collective} chain between servers through one NIC each, where NCCL's "
                             f"{c.channels} ring channels spread it over the servers' NICs: this time is "
                             f"pessimistic where the NICs are the bottleneck (NCCL's own model: "
                             f"{c.predicted_us / 1000:.3f} ms)"))
    elif len(dims) > 1:
        # NCCL pipelines its chunks through the ring; here chunks pipeline the intra-server and
        # inter-server phases, one stage at a time.
        stage = STAGE_BYTES[c.protocol] * c.channels
        chunks = max(1, min(MAX_ENGINE_CHUNKS, int(size_bytes // stage)))
    if s.nvswitch and s.domain > SERVER_GPUS and collective in ("all-reduce", "reduce-scatter", "all-gather"):
        cautions.append(("nccl-mnnvl", f"the group's GPUs are in an NVLink domain of {s.domain} GPUs (multi-node "
                         "NVLink, as GB200 NVL72): NCCL's NVLS on such a domain is not modelled or validated here "
                         f"(this runs {c.algorithm}/{c.protocol}); an all-reduce measured on a full GB200 NVL72 "
                         f"rack: {NVL72_MEASURED}"))
    bw = derated_bandwidth(g, bandwidth_gbps, npu_nodes, s, factor)
    notes.append(f"NCCL picks {c.algorithm}/{c.protocol} on {c.channels} channels (tuning.cc model: "
                 f"{c.predicted_us:.1f} us); link bandwidths derated to NCCL's per-link figures"
                 + ("" if factor == 1.0 else f" and x{factor} for the protocol")
                 + "; reductions are free (NCCL's bandwidths include them)")
    return EnginePlan(c, engine_collective, engine_size, algos, dims, chunks, 1,
                      c.latency_us * 1000.0, bw, tuple(notes), factor,
                      rail_chains=collective in ("broadcast", "reduce") and two_level, cautions=tuple(cautions))


def bus_factor(collective: str, n: int) -> float:
    """nccl-tests' busbw / algbw for this collective on n ranks."""
    if collective == "all-reduce":
        return 2.0 * (n - 1) / n
    if collective in ("reduce-scatter", "all-gather", "all-to-all"):
        return (n - 1) / n
    return 1.0
