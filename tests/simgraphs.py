"""Small InfraGraph documents for the simulation tests: rings, full meshes, switches, tori, Clos.

Each builder returns an expanded FQG. NPUs are instances `npu[i]` of a one-xpu device, so rank i
is `npu.i.xpu.0` (ranks follow natural name order). Bandwidth is in Gbit/s, latency in ns.
"""

from __future__ import annotations

import itertools

import yaml

from infragraph.document import io
from infragraph.graph import FQG, expand
from tests.docparts import link as _link

# 50 GB/s in ASTRA-sim units (GB = 2^30 B) expressed in the graph's Gbit/s.
ASTRA_50GB_GBPS = 50 * 2**30 * 8 / 1e9


def _npu_doc(name: str, n: int, pairs, gbps: float, ns: float, extra_devices=(), extra_instances=(),
             extra_edges=(), annotations=None) -> FQG:
    doc = _npu_dict(name, n, pairs, gbps, ns, extra_devices, extra_instances, extra_edges, annotations)
    return expand(io.loads(yaml.safe_dump(doc, sort_keys=False), f"{name}.yaml"))


def _npu_dict(name: str, n: int, pairs, gbps: float, ns: float, extra_devices=(), extra_instances=(),
              extra_edges=(), annotations=None) -> dict:
    doc = {
        "name": name,
        "devices": [{"name": "npu", "components": [{"name": "xpu", "choice": "xpu", "count": 1}]},
                    *extra_devices],
        "instances": [{"name": "npu", "device": "npu", "count": n}, *extra_instances],
        "links": [_link("l", gbps, ns)],
        "edges": [
            {"ep1": {"instance": f"npu[{a}]", "component": "xpu"},
             "ep2": {"instance": f"npu[{b}]", "component": "xpu"}, "link": "l", "scheme": "one2one"}
            for a, b in pairs
        ] + list(extra_edges),
    }
    if annotations:
        doc["annotations"] = annotations
    return doc


def write_ring(path, n: int, gbps: float = ASTRA_50GB_GBPS, ns: float = 500.0) -> str:
    """The ring(n) document as a YAML file (for CLI tests); returns the path."""
    doc = _npu_dict(f"ring{n}", n, [(i, (i + 1) % n) for i in range(n)], gbps, ns)
    with open(path, "w", encoding="utf-8") as fh:
        yaml.safe_dump(doc, fh, sort_keys=False)
    return str(path)


def ring(n: int, gbps: float = ASTRA_50GB_GBPS, ns: float = 500.0) -> FQG:
    return _npu_doc(f"ring{n}", n, [(i, (i + 1) % n) for i in range(n)], gbps, ns)


def fully_connected(n: int, gbps: float = ASTRA_50GB_GBPS, ns: float = 500.0) -> FQG:
    return _npu_doc(f"fc{n}", n, itertools.combinations(range(n), 2), gbps, ns)


def line(n: int, gbps: float = 100.0, ns: float = 100.0) -> FQG:
    return _npu_doc(f"line{n}", n, [(i, i + 1) for i in range(n - 1)], gbps, ns)


def two_islands(gbps: float = 100.0) -> FQG:
    """NPUs 0-1 connected, 2-3 connected, nothing between the pairs."""
    return _npu_doc("islands", 4, [(0, 1), (2, 3)], gbps, 100.0)


def switch(n: int, gbps: float = ASTRA_50GB_GBPS, ns: float = 500.0) -> FQG:
    sw = {"name": "sw", "components": [{"name": "asic", "choice": "switch", "count": 1}]}
    edges = [{"ep1": {"instance": f"npu[{i}]", "component": "xpu"}, "ep2": {"instance": "sw[0]", "component": "asic"},
              "link": "l", "scheme": "one2one"} for i in range(n)]
    return _npu_doc(f"sw{n}", n, [], gbps, ns, [sw], [{"name": "sw", "device": "sw", "count": 1}], edges)


def torus(dims: tuple[int, ...], gbps: float = ASTRA_50GB_GBPS, ns: float = 500.0, annotate: bool = False) -> FQG:
    """k-ary torus, rank = x0 + k0*x1 + ...; a size-2 dimension gets one link, not two."""
    n = 1
    for k in dims:
        n *= k
    pairs = []
    for r in range(n):
        stride = 1
        for k in dims:
            c = (r // stride) % k
            if k > 2 or (k == 2 and c == 0):
                pairs.append((r, r - c * stride + ((c + 1) % k) * stride))
            stride *= k
    ann = {"graph": [{"attribute": "dims", "value": "x".join(map(str, dims))}]} if annotate else None
    return _npu_doc("torus" + "x".join(map(str, dims)), n, pairs, gbps, ns, annotations=ann)
