"""Spray over a server's NVSwitch chips as one link: merge, run, spread the load back.

Spraying every GPU's NVLink traffic equally over all its lanes (the `spray` scale-up policy,
simulate.policy) loads each lane alike when every lane has the same bandwidth. Then a run with
each GPU's lanes to the chips of its server merged into one link of their summed bandwidth gives
the same times and, spread evenly back, the same per-lane loads, with one flow per message instead
of one per chip and lane (the fair model's cost grows with flows). Written by engineer nccl for
NCCL mode and moved here when routing's spray replaced its use there.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..graph import FQG


@dataclass(frozen=True)
class Planes:
    """A server's NVSwitch chips as one switch: NVSwitch hardware spreads each GPU's NVLink
    traffic over all its NVLinks, whichever chip they reach, so a ring flow uses all of them.
    The engine routes a connection over one path; here every GPU's links to the chips of its
    server become one link of their summed bandwidth (the first of them; the others are never
    the fastest way and stay unused), and afterwards that link's load is split evenly back over
    the links it stands for."""

    edge_src: np.ndarray
    edge_dst: np.ndarray
    bandwidth_gbps: np.ndarray
    bundles: list[np.ndarray]  # edge ids of each bundle, the carrying edge first


def nvswitch_planes(g: FQG, bandwidth_gbps: np.ndarray) -> Planes | None:
    """Merge each server's NVSwitch chips (switch nodes inside a server linked to its GPUs);
    None when no server has more than one."""
    src, dst = np.asarray(g.edge_src), np.asarray(g.edge_dst)
    code = {t: i for i, t in enumerate(g.type_names)}
    xpu, sw = g.node_type == code.get("xpu", -1), g.node_type == code.get("switch", -1)
    up = (xpu[src] & sw[dst]) | (sw[src] & xpu[dst])
    if not up.any():
        return None
    key = g.node_instance.astype(np.int64) * (1 << 32) + g.node_copy.astype(np.int64)
    up[up] = key[src[up]] == key[dst[up]]  # inside one server
    if not up.any():
        return None
    src, dst = src.copy(), dst.copy()
    gpu = np.where(xpu[src], src, dst)
    chip = np.where(xpu[src], dst, src)
    # Each server's representative chip: its lowest-numbered one.
    chips = np.unique(chip[up])
    servers, lowest = np.unique(key[chips], return_index=True)

    def first(c: np.ndarray) -> np.ndarray:
        return chips[lowest[np.searchsorted(servers, key[c])]]

    rep = first(chip[up])
    if (rep == chip[up]).all():
        return None
    ids = np.flatnonzero(up)
    bw = np.array(bandwidth_gbps, dtype=np.float64)
    bundles = []
    order = np.lexsort((ids, rep, gpu[up]))
    pairs = np.stack([gpu[up][order], rep[order]], axis=1)
    split = np.flatnonzero((np.diff(pairs, axis=0) != 0).any(axis=1)) + 1
    for block in np.split(ids[order], split):
        bundles.append(block)
        bw[block[0]] = bw[block].sum()
    # The carrying edge runs GPU -> representative chip, keeping its direction (link 2e = src -> dst).
    carrying = np.concatenate([b[:1] for b in bundles])
    r = first(chip[carrying])
    forward = xpu[src[carrying]]
    dst[carrying[forward]] = r[forward]
    src[carrying[~forward]] = r[~forward]
    return Planes(src, dst, bw, bundles)


def spread_bundles(planes: Planes, link_bytes: np.ndarray, link_busy_ns: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-directed-link bytes and busy time of the merged run, spread evenly over each bundle's
    links (directed link 2e runs edge e forwards, 2e + 1 backwards): each carries 1/k of the
    bytes at 1/k of the bandwidth, so it is busy as long as the merged link was."""
    v = np.asarray(link_bytes, dtype=np.float64).copy()
    busy = np.asarray(link_busy_ns, dtype=np.float64).copy()
    for b in planes.bundles:
        for d in (0, 1):
            links = 2 * b + d
            v[links] = v[links].sum() / b.size
            busy[links] = busy[links].max()
    return v, busy
