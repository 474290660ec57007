"""An ns-3 topology file (ASTRA-sim's ns-3 fork) as an InfraGraph document.

`npu` instances for ids 0..N-1 and `switch` instances for the rest, one edge per line in file order
and orientation, link classes per (rate, delay, error rate); a nonzero error rate is kept as the link
attribute `error_rate`. Translating the result back gives the same file
(tests/importers/test_ns3.py checks it).
"""

from __future__ import annotations

from pathlib import Path

from ..document.model import (Annotations, Bandwidth, Component, Device, Edge, Endpoint, Infrastructure, Instance,
                              Latency, Link, LinkAnnotation)
from ..errors import Diagnostic, InfraGraphError, Location
from ..units import UnitError, parse_quantity, to_gbps, to_ns
from .astra_analytical import DIGITS
from .common import name_from_path, read_text


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
    lines = [(i + 1, ln) for i, ln in enumerate(read_text(path).splitlines())]
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
    return Infrastructure(name=name_from_path(path), description=f"imported from ns-3 topology {filename}",
                          devices=devices, links=links, instances=instances, edges=edges,
                          annotations=Annotations(links=link_ann))
