"""A folded Clos as a fat tree: per-tier radices, speeds, latencies, bundles, pods, and the host order.

Shared by the backends that describe a Clos by tiers rather than link by link: HTSim (which builds its
own fat tree from these parameters) and ASTRA-sim's analytical network (which approximates a Clos by
one Switch dimension per tier). `infer` reads the parameters off the fabric graph (tiers by distance
from the NPUs, pods as the components below the top tier) and raises NotAFatTree with the reason
when the fabric is not such a tree; `host_order` numbers NPUs the way a tier-by-tier model does.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from .structure import HUB, Fabric, switch_tiers


@dataclass
class Tier:
    speed: float  # Gbit/s of the links below this tier (whole for HTSim)
    radix_down: int
    radix_up: int | None  # None on the top tier
    latency: float  # ns of the links below this tier (whole for HTSim)
    oversubscribed: int = 1
    bundle: int = 1  # parallel links per switch pair below this tier (1 on tier 0)
    switches: int = 0  # how many the graph has (not written; checked against HTSim's arithmetic)


@dataclass
class FatTree:
    nodes: int
    podsize: int
    tiers: list[Tier] = field(default_factory=list)
    host_order: np.ndarray | None = None  # NPU vertex of each HTSim host (pods, then ToRs, contiguous)


class NotAFatTree(Exception):
    pass


def _uniform(values: np.ndarray, what: str, integer: bool = True) -> int | float:
    u = np.unique(values)
    if u.size != 1:
        raise NotAFatTree(f"{what} is not uniform: {', '.join(f'{x:g}' for x in u[:5])}")
    v = float(u[0])
    if integer and v != int(v):
        raise NotAFatTree(f"{what} is {v:g}; HTSim needs a whole number")
    return int(v) if v == int(v) else v


def infer(fab: Fabric, whole: bool = True) -> FatTree:
    """The fat-tree parameters of a Clos fabric; NotAFatTree with the reason when it is not one.
    `whole`: speeds and latencies must be whole numbers (HTSim's file takes integers)."""
    N, V = fab.num_npus, fab.num_vertices
    if np.any(fab.vertex_kind == HUB):  # callers split servers first (host_per_gpu_nic_pair)
        h = int(np.flatnonzero(fab.vertex_kind == HUB)[0])
        raise NotAFatTree(f"NPUs reach the fabric through shared devices (e.g. '{fab.name(h)}'); HTSim hosts have "
                          f"one link each to a tier-0 switch")
    tier = switch_tiers(fab)
    if np.any(tier[N:] == -2):
        raise NotAFatTree(f"switch '{fab.name(int(N + np.flatnonzero(tier[N:] == -2)[0]))}' is not connected to any NPU")
    ts, td = tier[fab.src], tier[fab.dst]
    lo, hi = np.minimum(ts, td), np.maximum(ts, td)
    if np.any(hi - lo != 1):
        e = int(np.flatnonzero(hi - lo != 1)[0])
        what = "two NPUs" if hi[e] == -1 else f"tier {lo[e]} and tier {hi[e]}" if lo[e] != hi[e] else f"two tier-{lo[e]} switches"
        raise NotAFatTree(f"link '{fab.name(int(fab.src[e]))}' - '{fab.name(int(fab.dst[e]))}' joins {what}; a fat tree "
                          f"links each tier only to the next")
    n_tiers = int(tier.max()) + 1
    lower = np.where(ts < td, fab.src, fab.dst)
    upper = np.where(ts < td, fab.dst, fab.src)
    host_links = np.bincount(lower[lo == -1], minlength=V)[:N]
    if np.any(host_links != 1):
        bad = int(np.flatnonzero(host_links != 1)[0])
        raise NotAFatTree(f"NPU '{fab.name(bad)}' has {host_links[bad]} links to tier-0 switches; HTSim hosts have one")
    tiers: list[Tier] = []
    for t in range(n_tiers):
        sw = np.flatnonzero(tier == t)
        below = lo == t - 1
        down = np.bincount(upper[below], minlength=V)[sw]
        up = np.bincount(lower[lo == t], minlength=V)[sw]
        radix_down = _uniform(down, f"tier {t} Radix_Down (links below each switch)")
        radix_up = _uniform(up, f"tier {t} Radix_Up (links above each switch)") if t < n_tiers - 1 else None
        if t == n_tiers - 1 and np.any(up):
            raise NotAFatTree(f"tier {t} switches have uplinks")
        speed = _uniform(fab.bw_gbps[below], f"tier {t} Downlink_speed_Gbps", whole)
        lat = _uniform(fab.lat_ns[below], f"tier {t} Downlink_Latency_ns", whole)
        pair = lower[below] * V + upper[below]
        bundle = _uniform(np.unique(pair, return_counts=True)[1], f"tier {t} Bundle (parallel links per switch pair)")
        tiers.append(Tier(speed, radix_down, radix_up, lat, 1, bundle, int(sw.size)))
    if n_tiers not in (2, 3):
        return FatTree(N, N, tiers)
    t0, t1 = tiers[0], tiers[1]
    if t0.radix_down % t0.radix_up == 0:
        t0.oversubscribed = t0.radix_down // t0.radix_up
    else:
        raise NotAFatTree(f"rule Radix_Down0 / Radix_Up0 == Oversubscribed0 fails: {t0.radix_down} / {t0.radix_up} "
                          f"is not a whole number")
    if n_tiers == 3:
        ratio = Fraction(t1.radix_down * t1.speed, t1.radix_up * tiers[2].speed)
        if ratio.denominator != 1:
            raise NotAFatTree(f"tier 1 oversubscription (Radix_Down1*speed1)/(Radix_Up1*speed2) = {ratio} is not whole")
        t1.oversubscribed = int(ratio)
    # pods: NPU components of the tiers below the top (2 tiers: one pod of all NPUs)
    keep = hi < n_tiers - 1 if n_tiers == 3 else np.ones(fab.num_edges, dtype=bool)
    label = fab.components(keep)
    podsizes = np.bincount(label[:N])
    tree = FatTree(N, _uniform(podsizes[podsizes > 0], "Podsize (NPUs per pod)"), tiers)
    tree.host_order = host_order(fab, lower, upper, lo, label)
    return tree


def host_order(fab: Fabric, lower: np.ndarray, upper: np.ndarray, lo: np.ndarray, pod: np.ndarray) -> np.ndarray:
    """NPUs in the order HTSim numbers its hosts: it wires host h to ToR h // Radix_Down0 and ToR t to
    pod t // ToRs-per-pod, so hosts of one ToR, and ToRs of one pod, must be consecutive. Ranks keep
    their order within a ToR; ToRs and pods go in the order of their first rank."""
    N = fab.num_npus
    host_links = lo == -1
    tor = np.empty(N, dtype=np.int64)
    tor[lower[host_links]] = upper[host_links]
    first_of_tor = np.full(fab.num_vertices, N, dtype=np.int64)
    np.minimum.at(first_of_tor, tor, np.arange(N))
    first_of_pod = np.full(fab.num_vertices, N, dtype=np.int64)
    np.minimum.at(first_of_pod, pod[:N], np.arange(N))
    return np.lexsort((np.arange(N), first_of_tor[tor], first_of_pod[pod[:N]]))

