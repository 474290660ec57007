"""Queries on the fully qualified graph: by type or attribute (exact), neighbours, paths, components.

Attribute matching is exact and typed: `rank=1` matches the int 1 (or the string "1"), never 10
to 15 (the public implementation matched substrings). Paths use a CSR adjacency built once per
graph with scipy, so a breadth-first search over 800k edges takes milliseconds.
"""

from __future__ import annotations

from collections import deque
import numpy as np

from ..document.model import Value
from ..errors import error
from .fqg import FQG


def _same(a: Value, b: Value) -> bool:
    """Exact comparison that tolerates the public format's stringly typed values ("1" == 1)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return str(a).lower() == str(b).lower()
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    return str(a) == str(b)


def nodes_where(g: FQG, **criteria: Value) -> np.ndarray:
    """Ids of nodes whose attributes equal every criterion, e.g. nodes_where(g, type="xpu", rank=3)."""
    mask = np.ones(g.num_nodes, dtype=bool)
    for attr, want in criteria.items():
        if attr == "type":
            mask &= np.isin(g.node_type, [i for i, t in enumerate(g.type_names) if t == str(want)])
        elif attr == "instance":
            mask &= np.isin(g.node_instance, [i for i, x in enumerate(g.instances) if x.name == str(want)])
        elif attr == "instance_index":
            mask &= g.node_copy == int(want)
        elif attr == "device":
            mask &= np.isin(g.node_instance, [i for i, x in enumerate(g.instances) if x.device == str(want)])
        elif attr in ("component", "parent_device"):
            key = "name" if attr == "component" else "device"
            mask &= np.isin(g.node_component, [i for i, c in enumerate(g.components) if getattr(c, key) == str(want)])
        elif attr == "component_index":
            for n in np.flatnonzero(mask).tolist():
                mask[n] = g.node_name(n).rsplit(".", 1)[1] == str(want)
        else:
            hits = [n for n, v in g.node_annotation(attr).items() if _same(v, want)]
            sel = np.zeros(g.num_nodes, dtype=bool)
            sel[hits] = True
            mask &= sel
    return np.flatnonzero(mask).astype(np.int32)


def _csr(g: FQG):
    """The symmetric adjacency matrix (scipy csr_matrix), built on first use and kept on the graph
    object. scipy is imported here, not at the top: most commands that load this module (a
    workload replay) never query paths, and scipy is a third of their start-up."""
    from scipy.sparse import csr_matrix

    cached = g.__dict__.get("_adjacency")
    if cached is not None:
        return cached
    n = g.num_nodes
    rows = np.concatenate([g.edge_src, g.edge_dst])
    cols = np.concatenate([g.edge_dst, g.edge_src])
    g.__dict__["_adjacency"] = csr_matrix((np.ones(rows.size, dtype=np.int8), (rows, cols)), shape=(n, n))
    return g.__dict__["_adjacency"]


def neighbors(g: FQG, node: int) -> np.ndarray:
    """Distinct neighbours of `node`, ascending."""
    m = _csr(g)
    return np.unique(m.indices[m.indptr[node]:m.indptr[node + 1]])


def _bfs_parents(g: FQG, src: int, dst: int) -> dict[int, list[int]] | None:
    """BFS from src recording every shortest-path parent, stopping after dst's level."""
    m = _csr(g)
    dist = {src: 0}
    parents: dict[int, list[int]] = {src: []}
    q = deque([src])
    while q:
        u = q.popleft()
        if dst in dist and dist[u] >= dist[dst]:
            break
        for v in np.unique(m.indices[m.indptr[u]:m.indptr[u + 1]]).tolist():
            if v not in dist:
                dist[v] = dist[u] + 1
                parents[v] = [u]
                q.append(v)
            elif dist[v] == dist[u] + 1:
                parents[v].append(u)
    return parents if dst in dist else None


def shortest_paths(g: FQG, src: int, dst: int, limit: int = 16) -> list[list[int]]:
    """Up to `limit` shortest paths (by hops) from src to dst, each a list of node ids.
    Raises InfraGraphError naming both nodes when dst is unreachable."""
    parents = _bfs_parents(g, src, dst)
    if parents is None:
        raise error(f"no path between '{g.node_name(src)}' and '{g.node_name(dst)}': they are in "
                    f"different connected components")
    paths: list[list[int]] = []

    def walk(v: int, tail: list[int]) -> None:
        if len(paths) >= limit:
            return
        if v == src:
            paths.append([src] + tail)
            return
        for p in parents[v]:
            walk(p, [v] + tail)

    walk(dst, [])
    return paths


def shortest_path(g: FQG, src: int, dst: int) -> list[int]:
    return shortest_paths(g, src, dst, limit=1)[0]


def connected_components(g: FQG) -> tuple[int, np.ndarray]:
    """(number of components, component label per node)."""
    if g.num_nodes == 0:
        return 0, np.zeros(0, dtype=np.int32)
    from scipy.sparse.csgraph import connected_components as components

    n, labels = components(_csr(g), directed=False)
    return int(n), labels.astype(np.int32)
