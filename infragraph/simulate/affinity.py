"""Which NIC a GPU's traffic to other servers uses, and which GPUs may forward others' traffic.

NCCL binds every GPU to a NIC in its topology search (src/graph/paths.cc computes the PCIe path
from each GPU to each NIC; ncclTopoGetLocalNet in src/graph/search.cc keeps the NICs on the best
path and deals them out among the GPUs that share them). We do the same on the graph:

- a GPU's *nearest* NICs are those it reaches in the fewest hops through its own server's PCIe
  tree (PCIe switches, endpoints and CPUs; never through another GPU, a NIC or a switch chip);
- the GPUs with the same nearest NICs take them in turn, in rank order: on a DGX-like server,
  where PCIe switch s carries GPUs 2s, 2s+1 and NICs 2s, 2s+1, GPU i gets NIC i (rail i).

The engine then routes traffic between two servers as three shortest paths: GPU to its NIC, NIC
to the peer's NIC, NIC to the peer GPU, and no NIC ASIC passes traffic on (a server never forwards
another server's traffic through its PCIe tree). A *server* is one copy of a top-level instance.

A GPU (xpu) forwards traffic only when it is its fabric's router: when it is cabled to another
GPU, directly or port to port (rings, tori, meshes of NPUs). GPUs in a switched scale-up domain
(NVSwitch) or behind NICs do not: no route goes `gpu.0 -> nvswitch -> gpu.1 -> nic.1`.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np

from ..graph import FQG

NO_NIC = (1 << 32) - 1  # the engine's marker for a GPU without a NIC
# Node types a GPU's path to its NIC may not pass through (besides the two ends).
_NOT_ON_PCIE = ("xpu", "nic", "switch", "port")


@dataclass(frozen=True)
class Affinity:
    """Per NPU rank: the NIC node it uses towards other servers (NO_NIC: none) and its server id;
    the GPUs that do not forward; the NIC ASICs that must not forward when the NICs are bound
    (empty unless every NPU has a NIC: a NIC-less GPU's plain route may need to cross one).
    Arrays (int64), one entry per rank or node: a million-GPU fabric has no Python object per GPU."""

    nic: np.ndarray
    server: np.ndarray
    quiet_gpus: np.ndarray
    bound_nics: np.ndarray


def affinity(g: FQG, npu_nodes: np.ndarray) -> Affinity:
    """NIC affinity and the GPUs that do not forward, for the NPUs `npu_nodes` (rank order)."""
    types = list(g.type_names)
    kind = np.asarray(g.node_type, dtype=np.int64)
    npus = np.asarray(npu_nodes, dtype=np.int64)
    inst = np.asarray(g.node_instance, dtype=np.int64)[npus]
    copy = np.asarray(g.node_copy, dtype=np.int64)[npus]
    # Servers numbered in (instance, copy) order.
    _, server = np.unique(inst * (int(copy.max(initial=0)) + 1) + copy, return_inverse=True)
    nic = np.full(npus.size, NO_NIC, dtype=np.int64)
    for i in np.unique(inst).tolist():  # every copy of an instance is alike: one table per instance
        info = g.instances[i]
        table = np.full(info.nodes_per_copy, -1, dtype=np.int64)  # local GPU offset -> local NIC offset
        for gpu, local_nic in _nearest_nics(g, i, kind, types).items():
            table[gpu] = local_nic
        at = np.flatnonzero(inst == i)
        base = info.first_node + copy[at] * info.nodes_per_copy
        local = table[npus[at] - base]
        nic[at] = np.where(local >= 0, base + local, NO_NIC)
    every = bool((nic != NO_NIC).all())
    return Affinity(nic=nic, server=server.reshape(-1).astype(np.int64),
                    quiet_gpus=_non_router_gpus(g, kind, types).astype(np.int64),
                    bound_nics=np.flatnonzero(kind == types.index("nic")) if every else np.zeros(0, dtype=np.int64))


def _nearest_nics(g: FQG, i: int, kind: np.ndarray, types: list[str]) -> dict[int, int]:
    """{local GPU offset: local NIC offset} for one copy of instance i (every copy is alike)."""
    info = g.instances[i]
    lo, hi = info.first_node, info.first_node + info.nodes_per_copy
    src, dst = np.asarray(g.edge_src, dtype=np.int64), np.asarray(g.edge_dst, dtype=np.int64)
    inside = (src >= lo) & (src < hi) & (dst >= lo) & (dst < hi)
    a, b = src[inside] - lo, dst[inside] - lo
    local_kind = kind[lo:hi]
    name = {t: types.index(t) for t in types}
    gpus = np.flatnonzero(local_kind == name["xpu"]).tolist() if "xpu" in name else []
    nics = set(np.flatnonzero(local_kind == name["nic"]).tolist()) if "nic" in name else set()
    if not gpus or not nics:
        return {}
    adj: list[list[int]] = [[] for _ in range(hi - lo)]
    for x, y in zip(a.tolist(), b.tolist()):
        adj[x].append(y)
        adj[y].append(x)
    blocked = {name[t] for t in _NOT_ON_PCIE if t in name}
    nearest: dict[int, tuple[int, ...]] = {}
    for gpu in gpus:
        dist = {gpu: 0}
        queue = deque([gpu])
        found: list[int] = []
        limit = None
        while queue:
            v = queue.popleft()
            if limit is not None and dist[v] >= limit:
                break
            if v != gpu and int(local_kind[v]) in blocked:
                continue
            for w in adj[v]:
                if w not in dist:
                    dist[w] = dist[v] + 1
                    if w in nics:
                        found.append(w)
                        limit = dist[w]
                    queue.append(w)
        if found:
            nearest[gpu] = tuple(sorted(found))
    out: dict[int, int] = {}
    sharing: dict[tuple[int, ...], list[int]] = {}
    for gpu, best in nearest.items():
        sharing.setdefault(best, []).append(gpu)
    for best, members in sharing.items():
        for j, gpu in enumerate(sorted(members)):
            out[gpu] = best[j % len(best)]
    return out


def _non_router_gpus(g: FQG, kind: np.ndarray, types: list[str]) -> np.ndarray:
    """GPUs (xpu) not cabled to another GPU, directly or port to port: they forward nothing."""
    if "xpu" not in types:
        return np.zeros(0, dtype=np.int64)
    xpu = types.index("xpu")
    port = types.index("port") if "port" in types else -1
    src, dst = np.asarray(g.edge_src, dtype=np.int64), np.asarray(g.edge_dst, dtype=np.int64)
    is_xpu = kind == xpu
    router = np.zeros(kind.size, dtype=bool)
    both = is_xpu[src] & is_xpu[dst]
    router[src[both]] = True
    router[dst[both]] = True
    if port >= 0:
        owner = np.full(kind.size, -1, dtype=np.int64)  # the xpu a port belongs to
        xp = is_xpu[src] & (kind[dst] == port)
        owner[dst[xp]] = src[xp]
        px = is_xpu[dst] & (kind[src] == port)
        owner[src[px]] = dst[px]
        pp = (kind[src] == port) & (kind[dst] == port) & (owner[src] >= 0) & (owner[dst] >= 0)
        router[owner[src[pp]]] = True
        router[owner[dst[pp]]] = True
    return np.flatnonzero(is_xpu & ~router)
