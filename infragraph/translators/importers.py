"""Importers: existing backend configurations become InfraGraph documents (users bring them along).

- `import_astra_analytical(path)`: an ASTRA-sim analytical network YAML (topology / npus_count /
  bandwidth / latency) -> a document with one `npu` device per NPU (one xpu), direct xpu links for
  Ring and FullyConnected dimensions, one switch per Switch block; NPU id = instance index, dimension
  0 varying fastest. Bandwidth GB/s (GB = 2^30) becomes Gbit/s (x 2^30 x 8 / 1e9). A 2-NPU ring is one
  link (as the expander's `ring` scheme makes it), so the dimension kinds are also recorded in the
  graph annotation `astra.topology` for the translator to tell 2- and 3-NPU rings from cliques.
- `import_ns3(path)`: an ns-3 topology file -> `npu` instances for ids 0..N-1 and `switch` instances
  for the rest, one edge per line in file order and orientation, link classes per (rate, delay,
  error rate); a nonzero error rate is kept as the link attribute `error_rate`.
Translating the result back gives the same file (tests check it for every file they use).
"""

from __future__ import annotations

from pathlib import Path

import yaml

from ..document.io import YamlSourceMap
from ..document.model import (Annotations, Bandwidth, Component, Device, Edge, Endpoint, Infrastructure, Instance,
                              Latency, Link, LinkAnnotation)
from ..errors import Diagnostic, InfraGraphError, Location
from ..importers.common import name_from_path as _name
from ..importers.common import read_text as _read
from ..units import UnitError, parse_quantity, to_gbps, to_ns
from .astra_analytical import DIGITS, KIND_HINT_ANNOTATION
from .structure import FC, RING, SW

IMPORTERS = ("astra-analytical", "ns3")


def import_file(kind: str, path: str | Path) -> Infrastructure:
    if kind == "astra-analytical":
        return import_astra_analytical(path)
    if kind == "ns3":
        return import_ns3(path)
    raise InfraGraphError(Diagnostic(f"unknown import format '{kind}'; expected one of: {', '.join(IMPORTERS)}"))


# --- ASTRA-sim analytical YAML -------------------------------------------------------------------

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
    topology, counts, bandwidth, latency = _astra_fields(_read(path), filename)
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
    return Infrastructure(name=_name(path), description=f"imported from ASTRA-sim analytical network {filename}",
                          devices=devices, links=links, instances=instances, edges=edges,
                          annotations=Annotations(graph={KIND_HINT_ANNOTATION: ",".join(topology)}))


# --- ns-3 topology file --------------------------------------------------------------------------

def _ints(line: str, lineno: int, filename: str, what: str, count: int | None = None) -> list[int]:
    try:
        values = [int(x) for x in line.split()]
    except ValueError:
        raise InfraGraphError(Diagnostic(f"expected {what} (integers), got '{line.strip()}'",
                                         Location(filename, lineno))) from None
    if count is not None and len(values) != count:
        raise InfraGraphError(Diagnostic(f"expected {what} ({count} integers), got '{line.strip()}'",
                                         Location(filename, lineno)))
    return values


def import_ns3(path: str | Path) -> Infrastructure:
    """An ns-3 topology file (ASTRA-sim's ns-3 fork) as an InfraGraph document."""
    filename = str(path)
    lines = [(i + 1, ln) for i, ln in enumerate(_read(path).splitlines())]
    content = [(i, ln) for i, ln in lines if ln.strip()]
    if not content:
        raise InfraGraphError(Diagnostic("empty ns-3 topology file; expected '<nodes> <switches> <links>'",
                                         Location(filename)))
    head_no, head = content[0]
    total, n_sw, n_links = _ints(head, head_no, filename, "'<nodes> <switches> <links>'", 3)
    rest = content[1:]
    if n_sw:
        if not rest:
            raise InfraGraphError(Diagnostic(f"the header announces {n_sw} switches but the switch id line is missing",
                                             Location(filename, head_no + 1)))
        sw_no, sw_line = rest[0]
        switch_ids = _ints(sw_line, sw_no, filename, "the switch ids")
        rest = rest[1:]
    else:
        sw_no, switch_ids = head_no + 1, []  # a switchless topology's switch line is empty (skipped above)
    N = total - n_sw
    if len(switch_ids) != n_sw or sorted(switch_ids) != list(range(N, total)):
        raise InfraGraphError(Diagnostic(
            f"switch ids must be the last {n_sw} node ids ({N}..{total - 1}) so that NPUs are 0..{N - 1}; got "
            f"{' '.join(map(str, switch_ids[:8]))}{' …' if len(switch_ids) > 8 else ''}", Location(filename, sw_no)))
    if len(rest) != n_links:
        raise InfraGraphError(Diagnostic(f"the header announces {n_links} links but {len(rest)} link lines follow",
                                         Location(filename, head_no)))
    classes: dict[tuple[float, float, float], str] = {}
    edges = []
    diags = []

    def endpoint(node: int) -> Endpoint:
        return Endpoint("xpu", f"npu[{node}]") if node < N else Endpoint("asic", f"switch[{node - N}]")

    for lineno, line in rest:
        parts = line.split()
        try:
            if len(parts) != 5:
                raise ValueError("expected '<src> <dst> <rate> <delay> <error rate>'")
            a, b = int(parts[0]), int(parts[1])
            if not (0 <= a < total and 0 <= b < total) or a == b:
                raise ValueError(f"node ids must be distinct and in 0..{total - 1}")
            gbps, ns, err = to_gbps(parse_quantity(parts[2])), to_ns(parse_quantity(parts[3])), float(parts[4])
        except (ValueError, UnitError) as e:
            diags.append(Diagnostic(f"bad link line '{line.strip()}': {e}", Location(filename, lineno)))
            if len(diags) >= 20:
                break
            continue
        key = (round(gbps, 9), round(ns, DIGITS), err)
        if key not in classes:
            classes[key] = f"link{len(classes)}"
        edges.append(Edge(endpoint(a), endpoint(b), classes[key]))
    if diags:
        raise InfraGraphError(diags)
    links = [Link(name, "", Bandwidth(g), Latency(ns)) for (g, ns, _), name in classes.items()]
    link_ann = [LinkAnnotation(name, {"error_rate": err}) for (_, _, err), name in classes.items() if err]
    devices = [Device("npu", [Component("xpu", 1, "xpu")])]
    instances = [Instance("npu", "npu", N)]
    if n_sw:
        devices.append(Device("switch", [Component("asic", 1, "switch")]))
        instances.append(Instance("switch", "switch", n_sw))
    return Infrastructure(name=_name(path), description=f"imported from ns-3 topology {filename}",
                          devices=devices, links=links, instances=instances, edges=edges,
                          annotations=Annotations(links=link_ann))
