"""Where a simulated collective's load goes: link tiers, cables, and per-tier utilization.

A *tier* is a class of links read off the graph itself, so that "which part of the fabric is the
bottleneck" has an answer on any fabric, not only on the blueprints:

- a **cable** (a link declared by the fabric, i.e. its link class has no device scope) joins two
  device instances; its tier is named for them in declaration order: `host–leaf`, `leaf–spine`,
  `agg–core`, `npu–npu`. When one pair of instances is joined by several link classes (the
  dimensions of a stack, a dragonfly's local and global links), the link's description is added:
  `router–router: global (inter-group)`.
- an **internal** link (declared inside a device) is named for the instance and the link's
  description: `host: scale-up (per switch)`, `host: PCIe`, `leaf: ASIC to port`.

Utilization is per direction (busy time / collective time), as in the result's `links` list.
Percentiles are over the directed links of the tier that carried traffic; `links` and
`links_used` say how many there are of each.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..graph import FQG
from ..uniques import dense_ids

CABLE, INTERNAL = "cable", "internal"
PERCENTILES = (50, 90, 99)


@dataclass(frozen=True)
class LinkTiers:
    """Every FQG edge's tier: `edge_tier[e]` indexes `names` / `kinds`."""

    names: list[str]
    kinds: list[str]  # CABLE or INTERNAL
    edge_tier: np.ndarray  # int32 per undirected edge
    is_cable: np.ndarray  # bool per undirected edge


def link_tiers(g: FQG) -> LinkTiers:
    """Classify every edge of `g` into tiers (vectorized: a few unique keys, however many edges)."""
    scoped = np.array([bool(link.scope) for link in g.links] + [False], dtype=bool)
    link = np.asarray(g.edge_link, dtype=np.int64)
    is_cable = ~scoped[link] if link.size else np.zeros(0, dtype=bool)
    ia = np.asarray(g.node_instance, dtype=np.int64)[np.asarray(g.edge_src, dtype=np.int64)]
    ib = np.asarray(g.node_instance, dtype=np.int64)[np.asarray(g.edge_dst, dtype=np.int64)]
    lo, hi = np.minimum(ia, ib), np.maximum(ia, ib)
    # One integer per (internal, instance, instance, link class), ordered as those tuples: a few
    # distinct values over millions of edges, numbered by a table (uniques.dense_ids), no sort.
    ni, nl = len(g.instances), len(g.links) + 1
    code, inverse = dense_ids(((~is_cable * ni + lo) * ni + hi) * nl + link)
    keys = np.stack([code // (ni * ni * nl), code // (ni * nl) % ni, code // nl % ni, code % nl])
    # Pairs of instances joined by more than one kind of cable get the link description appended.
    classes_per_pair: dict[tuple[int, int], set[str]] = {}
    for internal, a, b, k in keys.T.tolist():
        if not internal:
            classes_per_pair.setdefault((a, b), set()).add(_describe(g, k))
    labels: list[tuple[tuple[int, int, int], str, str]] = []  # (sort key, name, kind) per unique key
    for internal, a, b, k in keys.T.tolist():
        inst_a, inst_b = g.instances[a].name, g.instances[b].name
        if internal:
            labels.append(((1, a, b), f"{inst_a}: {_describe(g, k)}", INTERNAL))
        else:
            name = f"{inst_a}–{inst_b}"
            if len(classes_per_pair[(a, b)]) > 1:
                name += f": {_describe(g, k)}"
            labels.append(((0, a, b), name, CABLE))
    order: dict[str, int] = {}
    for _key, name, _kind in sorted(labels):
        order.setdefault(name, len(order))
    kinds = [CABLE] * len(order)
    for _key, name, kind in labels:
        kinds[order[name]] = kind
    key_tier = np.array([order[name] for _key, name, _kind in labels], dtype=np.int32)
    return LinkTiers(names=list(order), kinds=kinds, edge_tier=key_tier[inverse] if inverse.size else
                     np.zeros(0, dtype=np.int32), is_cable=is_cable)


def _describe(g: FQG, link: int) -> str:
    info = g.links[link]
    return info.description or info.name


def tier_summary(tiers: LinkTiers, link_bytes: np.ndarray, util: np.ndarray) -> list[dict[str, Any]]:
    """Per tier: links, links used, bytes carried and utilization percentiles of the used links.

    `link_bytes` and `util` are per directed link (2 per edge: l = 2e forward, 2e + 1 backward)."""
    # Each tier's directed links in ascending order (its edges in order, each edge's two directions):
    # the same values in the same order as a mask over all links would give, so the same sums.
    edges = np.argsort(tiers.edge_tier, kind="stable")
    bounds = np.searchsorted(tiers.edge_tier[edges], np.arange(len(tiers.names) + 1))
    out = []
    for t, (name, kind) in enumerate(zip(tiers.names, tiers.kinds)):
        e = edges[bounds[t]:bounds[t + 1]].astype(np.int64)
        links = np.stack([2 * e, 2 * e + 1], axis=1).reshape(-1)
        carried = link_bytes[links]
        u = util[links[carried > 0]]
        stats = {"mean": float(u.mean()) if u.size else 0.0}
        for q, v in zip(PERCENTILES, np.percentile(u, PERCENTILES) if u.size else [0.0] * len(PERCENTILES)):
            stats[f"p{q}"] = float(v)
        stats["max"] = float(u.max()) if u.size else 0.0
        out.append({"tier": name, "kind": kind, "links": int(links.size), "links_used": int(u.size),
                    "bytes": float(carried.sum()), "utilization": stats})
    return out


def bottleneck_tier(summary: list[dict[str, Any]]) -> str | None:
    """The tier holding the most utilized link (None when nothing moved). On a tie (a pipeline
    where a NIC's port hop and its cable run equally full), cables win: they are listed first."""
    used = [t for t in summary if t["links_used"]]
    if not used:
        return None
    top = max(t["utilization"]["max"] for t in used)
    return next(t["tier"] for t in used if t["utilization"]["max"] >= top * (1 - 1e-9))
