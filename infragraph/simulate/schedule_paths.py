"""A schedule's named paths resolved onto the graph's directed links, for the engine.

Why: a synthesized schedule spreads the chunks between one GPU pair over several ways (a DGX's
four NVSwitch chips: one logical link per chip) and times them side by side. The engine routes a
rank pair one way (or sprays it), so transfers meant for four ways would queue on one and the
engine's time would be wrong without saying so. A transfer that names its path (schedule.py,
``"path"``) is therefore sent over exactly that path; transfers without one are routed.

A path is the names of the graph nodes passed between the sender's NPU and the receiver's; each
consecutive pair of nodes (the NPUs included) must be joined by exactly one link of the graph as
simulated (failed links are gone). Directed link ids are the engine's: 2e runs edge e from its
source to its destination, 2e + 1 back.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..errors import InfraGraphError, error
from ..graph import FQG

NO_WAY = 0xFFFF_FFFF  # the engine's "routed by the engine" (schedule_program::NO_WAY)


def resolve_paths(g: FQG, npu_nodes: np.ndarray, members: Sequence[int], path: np.ndarray, src: np.ndarray,
                  dst: np.ndarray, names: Sequence[Sequence[str]], schedule: str) -> tuple[np.ndarray, list[tuple]]:
    """Per transfer its way (an index into the returned routes, NO_WAY for path -1) and the routes:
    (sender position, receiver position, directed links in order), one per distinct (path, sender,
    receiver). `members`: the group's NPU ranks in position order. Errors name the schedule and the
    document path of the bad entry (/paths/k/j)."""
    n = len(members)
    where = f"schedule '{schedule}'" if schedule else "the schedule"
    ids = []
    for k, p in enumerate(names):
        row = []
        for j, name in enumerate(p):
            try:
                row.append(g.node_id(name))
            except InfraGraphError as exc:
                raise error(f"{where}: /paths/{k}/{j}: {exc.diagnostics[0].message}") from None
        ids.append(row)
    npu_set = set(np.asarray(npu_nodes).tolist())
    for k, row in enumerate(ids):
        for j, node in enumerate(row):
            if node in npu_set:
                raise error(f"{where}: /paths/{k}/{j}: '{names[k][j]}' is an NPU; a path passes between two NPUs "
                            "through non-NPU nodes only")
    path_a = np.asarray(path, dtype=np.int64)
    used = np.flatnonzero(path_a >= 0)
    way = np.full(path_a.size, NO_WAY, dtype=np.int64)
    if used.size == 0:
        return way, []
    key = (path_a[used] * n + np.asarray(src, dtype=np.int64)[used]) * n + np.asarray(dst, dtype=np.int64)[used]
    uniq, inverse = np.unique(key, return_inverse=True)
    way[used] = inverse
    link_key, link_id = _directed_links(g)
    node_of = np.asarray(npu_nodes, dtype=np.int64)[np.asarray(members, dtype=np.int64)]
    routes = []
    for u in uniq.tolist():
        k, rest = divmod(u, n * n)
        a, b = divmod(rest, n)
        nodes = [int(node_of[a]), *ids[k], int(node_of[b])]
        hops = np.asarray(nodes[:-1], dtype=np.int64) * g.num_nodes + np.asarray(nodes[1:], dtype=np.int64)
        lo = np.searchsorted(link_key, hops, side="left")
        hi = np.searchsorted(link_key, hops, side="right")
        bad = np.flatnonzero(hi - lo != 1)
        if bad.size:
            h = int(bad[0])
            what = "no link" if hi[h] == lo[h] else f"{int(hi[h] - lo[h])} parallel links (a path of node names cannot tell them apart)"
            raise error(f"{where}: /paths/{k}: {what} from '{g.node_name(nodes[h])}' to '{g.node_name(nodes[h + 1])}' "
                        f"on the way from rank {a} to rank {b} (failed links are gone)")
        routes.append((a, b, link_id[lo].tolist()))
    return way, routes


def _directed_links(g: FQG) -> tuple[np.ndarray, np.ndarray]:
    """Every directed link as a sorted key from * num_nodes + to, with its id (2e, 2e + 1)."""
    s, d = np.asarray(g.edge_src, dtype=np.int64), np.asarray(g.edge_dst, dtype=np.int64)
    key = np.concatenate([s * g.num_nodes + d, d * g.num_nodes + s])
    lid = np.concatenate([2 * np.arange(s.size), 2 * np.arange(s.size) + 1])
    order = np.argsort(key, kind="stable")
    return key[order], lid[order]
