"""ASTRA-sim analytical network YAML (topology / npus_count / bandwidth / latency) as an InfraGraph
document, and the format's vocabulary, which the translator that writes the format imports from here.

The document has one `npu` device per NPU (one xpu), direct xpu links for Ring and FullyConnected
dimensions and one switch per Switch block; NPU id = instance index, dimension 0 varying fastest.
Bandwidth GB/s (GB = 2^30) becomes Gbit/s (x 2^30 x 8 / 1e9). A 2-NPU ring is one link (as the
expander's `ring` scheme makes it), so the dimension kinds are also recorded in the graph annotation
`astra.topology` for the translator to tell 2- and 3-NPU rings from cliques. Translating the result
back gives the same file (tests/importers/test_astra_analytical.py checks it).
"""

from __future__ import annotations

from pathlib import Path

import yaml

from ..document.io import YamlSourceMap
from ..document.model import (Annotations, Bandwidth, Component, Device, Edge, Endpoint, Infrastructure, Instance,
                              Latency, Link)
from ..errors import Diagnostic, InfraGraphError, Location
from .common import name_from_path, read_text

RING, FC, SW = "Ring", "FullyConnected", "Switch"  # the format's dimension kinds (case-sensitive)
KIND_HINT_ANNOTATION = "astra.topology"  # graph annotation: "Ring,FullyConnected,Switch" (written here, read by translators)
DIGITS = 6  # decimals written for bandwidth and latency, so import -> translate round trips exactly


def _astra_fields(text: str, filename: str) -> tuple[list[str], list[int], list[float], list[float]]:
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        loc = Location(filename, mark.line + 1, mark.column + 1) if mark else Location(filename)
        raise InfraGraphError(Diagnostic(f"invalid YAML: {getattr(e, 'problem', e)}", loc)) from None
    if not isinstance(data, dict):
        raise InfraGraphError(Diagnostic("expected a mapping with topology, npus_count, bandwidth and latency lists",
                                         Location(filename)))
    diags = []
    keys = ("topology", "npus_count", "bandwidth", "latency")
    for k in keys:
        if not isinstance(data.get(k), list) or not data.get(k):
            diags.append(Diagnostic(f"'{k}' must be a non-empty list (one entry per dimension)", Location(path=k)))
    if diags:
        raise InfraGraphError(diags).relocated(YamlSourceMap(text, filename))
    n = len(data["topology"])
    for k in keys[1:]:
        if len(data[k]) != n:
            diags.append(Diagnostic(f"'{k}' has {len(data[k])} entries but 'topology' has {n}; every list needs one "
                                    f"entry per dimension", Location(path=k)))
    for i, t in enumerate(data["topology"]):
        if t not in (RING, FC, SW):
            diags.append(Diagnostic(f"unknown topology '{t}'; expected Ring, FullyConnected or Switch (case-sensitive)",
                                    Location(path=f"topology[{i}]")))
    for i, c in enumerate(data["npus_count"]):
        if isinstance(c, bool) or not isinstance(c, int) or c < 2:
            diags.append(Diagnostic(f"npus_count {c!r} must be an integer > 1", Location(path=f"npus_count[{i}]")))
    for k in ("bandwidth", "latency"):
        for i, v in enumerate(data[k]):
            if isinstance(v, bool) or not isinstance(v, (int, float)) or v < 0 or (k == "bandwidth" and v == 0):
                diags.append(Diagnostic(f"{k} {v!r} must be a {'positive ' if k == 'bandwidth' else 'non-negative '}"
                                        f"number ({'GB/s, GB = 2^30' if k == 'bandwidth' else 'ns'})",
                                        Location(path=f"{k}[{i}]")))
    if diags:
        raise InfraGraphError(diags).relocated(YamlSourceMap(text, filename))
    return data["topology"], data["npus_count"], [float(x) for x in data["bandwidth"]], [float(x) for x in data["latency"]]


def _groups(N: int, stride: int, span: int):
    """Ways to name 'the NPUs with coordinate c in this dimension' as instance slices, all outer blocks:
    a list of (lower-coordinate offset a, outer block b or None) and a function giving the slice, using
    whichever enumeration needs fewer records (one per a, strided over blocks; or one per block)."""
    outer = N // span
    if stride <= outer:
        return [(a, None) for a in range(stride)], lambda c, a, b: f"[{a + c * stride}:{N}:{span}]", \
            lambda a, b, n: f"[{a}:{N // n}:{stride}]"
    return [(0, b) for b in range(outer)], lambda c, a, b: f"[{c * stride + b * span}:{c * stride + b * span + stride}]", \
        lambda a, b, n: f"[{b * stride}:{(b + 1) * stride}]"


def import_astra_analytical(path: str | Path) -> Infrastructure:
    """An ASTRA-sim analytical network YAML as an InfraGraph document (see the module docstring)."""
    filename = str(path)
    topology, counts, bandwidth, latency = _astra_fields(read_text(path), filename)
    N = 1
    for c in counts:
        N *= c
    devices = [Device("npu", [Component("xpu", 1, "xpu")])]
    instances = [Instance("npu", "npu", N)]
    links, edges = [], []
    stride = 1
    for d, (kind, n) in enumerate(zip(topology, counts)):
        span = stride * n
        link = f"dim{d}"
        gbps = round(bandwidth[d] * 2**30 * 8 / 1e9, 9)
        links.append(Link(link, f"{kind} dimension {d}: {bandwidth[d]} GB/s (GB = 2^30)",
                          Bandwidth(gbps), Latency(round(latency[d], DIGITS))))
        groups, npus, switches = _groups(N, stride, span)

        def npu_ep(c: int, a: int, b) -> Endpoint:
            return Endpoint("xpu", f"npu{npus(c, a, b)}")

        if kind == SW:
            devices.append(Device(f"switch{d}", [Component("asic", 1, "switch")]))
            instances.append(Instance(f"switch{d}", f"switch{d}", N // n))
            for c in range(n):
                for a, b in groups:
                    edges.append(Edge(Endpoint("asic", f"switch{d}{switches(a, b, n)}"), npu_ep(c, a, b), link))
        elif kind == RING and n > 2:
            for c in range(n):
                for a, b in groups:
                    edges.append(Edge(npu_ep(c, a, b), npu_ep((c + 1) % n, a, b), link))
        else:  # FullyConnected, or a 2-NPU ring (one link)
            for c1 in range(n):
                for c2 in range(c1 + 1, n):
                    for a, b in groups:
                        edges.append(Edge(npu_ep(c1, a, b), npu_ep(c2, a, b), link))
        stride = span
    return Infrastructure(name=name_from_path(path), description=f"imported from ASTRA-sim analytical network {filename}",
                          devices=devices, links=links, instances=instances, edges=edges,
                          annotations=Annotations(graph={KIND_HINT_ANNOTATION: ",".join(topology)}))
