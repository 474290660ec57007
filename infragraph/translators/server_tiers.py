"""A Clos of multi-GPU servers as ASTRA-sim dimensions: the scale-up domain, then one Switch per tier.

ASTRA-sim's analytical network is a product of dimensions. A fabric whose servers hold several GPUs
on a scale-up switch (NVSwitch-style, `std.devices.dgx`) and reach a Clos through NICs is modelled
as SW(GPUs per server), then, for each switch tier t, SW(groups of tier t-1 that meet at tier t):
the servers under one tier-0 switch group, then those groups in a pod, then pods. NPUs are numbered
server by server (scale-up dimension fastest), servers grouped by tier (Product.order).

Bandwidth per dimension (per GPU, Gbit/s): the scale-up dimension gets a GPU's summed links into the
scale-up switches; dimension t+1 each GPU's share of the links leaving its tier-t group upwards (a
server's NIC cables for t = 0), capped by the dimension below. Latency per hop: the links from a GPU
up to that tier, so ASTRA-sim's two hops per Switch equal the real path. Ignored: a tier's links are
shared by every dimension above it (ASTRA-sim gives each dimension its own), ECMP collisions, and
the path inside a server's PCIe complex beyond its links' own bandwidth and latency.
"""

from __future__ import annotations

import numpy as np

from .fat_tree import NotAFatTree
from .structure import HUB, NPU, SW, Dimension, Fabric, Product, scale_up_switches, switch_tiers


def _components(fab: Fabric, vertex_ok: np.ndarray) -> np.ndarray:
    """Component label per vertex over the allowed vertices (others get their own label)."""
    return fab.components(vertex_ok[fab.src] & vertex_ok[fab.dst])


def _uniform_count(labels: np.ndarray, what: str) -> int:
    counts = np.unique(np.unique(labels, return_counts=True)[1])
    if counts.size != 1:
        raise NotAFatTree(f"{what} differ in size ({', '.join(map(str, counts[:5].tolist()))})")
    return int(counts[0])


def server_tier_product(fab: Fabric) -> Product:
    """The product above, or NotAFatTree with the reason (no scale-up switches, unequal servers or
    groups, no switch tiers)."""
    N, V = fab.num_npus, fab.num_vertices
    kind, src, dst = fab.vertex_kind, fab.src, fab.dst
    up = scale_up_switches(fab)
    if not up.any():
        raise NotAFatTree("no switch inside a server (scale-up domain)")
    member = (kind == NPU) | (kind == HUB)  # a server: its GPUs and its shared PCIe/CPU complexes
    server = _components(fab, member | up)
    is_up_edge = up[src] | up[dst]
    # scale-up dimension: each GPU's links into the scale-up switches
    gpu_up = is_up_edge & ((src < N) | (dst < N))
    gpu_end = np.where(src < N, src, dst)[gpu_up]
    per_gpu_bw = np.bincount(gpu_end, weights=fab.bw_gbps[gpu_up], minlength=N)
    gpus = _uniform_count(server[:N], "servers (GPUs per scale-up domain)")
    if gpus < 2:
        raise NotAFatTree("every scale-up domain has one GPU")
    dims = [Dimension(SW, gpus, 0, float(per_gpu_bw.min()), float(fab.lat_ns[gpu_up].max()), exact=False)]
    # switch tiers by distance from the servers, scale-up switches left out
    keep_edge = ~is_up_edge
    tier = switch_tiers(fab, np.flatnonzero(member), keep_edge)
    tiers = int(tier.max()) + 1
    if tiers < 1:
        raise NotAFatTree("the servers reach no switch outside them")
    # GPU -> complex -> first switch: the host path's bandwidth cap and latency
    lo, hi = np.minimum(tier[src], tier[dst]), np.maximum(tier[src], tier[dst])
    into_hub = keep_edge & (lo == -1) & (hi == -1)
    host_lat = float(fab.lat_ns[into_hub].max()) if into_hub.any() else 0.0
    gpu_out = keep_edge & ((src < N) | (dst < N))
    gpu_cap = np.bincount(np.where(src < N, src, dst)[gpu_out], weights=fab.bw_gbps[gpu_out], minlength=N).min()
    groups = server[:N]
    group_gpus, bw, lat, levels, said = gpus, min(float(gpu_cap), np.inf), host_lat, [], []
    for t in range(tiers):
        below = keep_edge & (lo == t - 1) & (hi == t)  # links from tier t-1 (servers for t = 0) into tier t
        if not below.any():
            raise NotAFatTree(f"no links into tier {t}")
        lower = np.where(tier[src] < tier[dst], src, dst)[below]
        label_below = _components(fab, member | up | ((tier >= 0) & (tier < t)))  # tier t-1 groups (servers)
        out_bw = np.bincount(label_below[lower], weights=fab.bw_gbps[below], minlength=V)
        share = float(out_bw[np.unique(label_below[:N])].min()) / group_gpus
        bw, lat = min(bw, share), lat + float(fab.lat_ns[below].max())
        label = _components(fab, member | up | ((tier >= 0) & (tier <= t)))
        size = _uniform_count(label[:N], f"tier-{t} groups") // group_gpus
        below_name = "servers" if t == 0 else f"tier-{t - 1} groups"
        if size > 1:
            dims.append(Dimension(SW, size, 0, bw, lat, exact=False))
            said.append(f"tier {t} SW({size}) over {size} {below_name}")
        else:
            said.append(f"tier {t} joins no two {below_name} (no dimension)")
        levels.append(label[:N])
        group_gpus *= size
    if group_gpus != N:
        raise NotAFatTree(f"the top tier joins {group_gpus} of {N} GPUs")
    # ranks: GPUs of a server consecutive (in rank order), servers grouped tier by tier
    first = np.full(V, N, dtype=np.int64)
    keys = []
    for lab in [groups] + levels:
        f = first.copy()
        np.minimum.at(f, lab, np.arange(N))
        keys.append(f[lab])
    order = np.lexsort((np.arange(N), *keys))  # the last key (top tier) sorts first
    up_count = int(up.sum())
    note = (f"APPROXIMATION: servers of {gpus} GPUs on {up_count // max(1, N // gpus)} scale-up switch(es) each (e.g. "
            f"'{fab.name(int(np.flatnonzero(up)[0]))}') in a {tiers}-tier Clos, modelled as {Product(dims).shape()}: "
            f"the scale-up domain SW({gpus}), then {'; '.join(said)}; bandwidth per GPU "
            f"({', '.join(f'{d.bw_gbps:g}' for d in dims)} Gbit/s: the scale-up links, then each GPU's share of the "
            f"links leaving its group upwards), latency per hop the links from a GPU up to that tier "
            f"({', '.join(f'{d.lat_ns:g}' for d in dims)} ns); ASTRA-sim gives each dimension its own links, where "
            f"the real tiers share theirs")
    return Product(dims, [n for n in fab.notes if "shared by several NPUs" not in n] + [note], order)
