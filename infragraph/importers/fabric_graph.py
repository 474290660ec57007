"""Arbitrary fabrics from GraphML or an edge list (as Topology Zoo, SST and hand-made tools write them).

A generic graph has no component kinds and its numbers have no agreed units, so a *mapping* says
how to read them (a YAML file, `--map`):

    node_type:                 # a node's component kind: xpu, switch, nic, cpu, memory, port or a custom type
      attribute: type          #   the node attribute that holds it (default `type`)
      values: {host: xpu, router: switch}   # attribute value -> kind (unlisted values are used as they are)
      patterns: {"h*": xpu}    #   or glob patterns on the node id, tried in order
      default: switch          #   for nodes that match nothing (without it, such a node is an error)
    bandwidth: {attribute: LinkSpeedRaw, unit: bps, default: "100 Gbps"}
    latency:   {attribute: latency, unit: ns, default: "500 ns"}

`unit` applies to bare numbers; a value may carry its own unit ("400 Gbps"). A bare number with
no unit stated anywhere is an error: guessing bits or bytes is how wrong answers start. For
GraphML the defaults (`bandwidth_gbps` in Gbps, `latency_ns` in ns) read InfraGraph's own GraphML
export unchanged; for edge lists they are `bandwidth` and `latency` with the unit in the value. Nodes of one kind become one instance
(in file order); every graph edge becomes one cable (parallel edges are kept); each node's
original id is kept as the node annotation `import_id`.

Edge list: one cable per line `SRC DST [key=value ...]` (`#` starts a comment); node kinds come
from `patterns`/`default`, edge values from the same mapping (`bandwidth=400Gbps latency=1us`).
"""

from __future__ import annotations

import fnmatch
import math
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..document.reader import parse_text
from ..document.model import (Annotations, Bandwidth, Component, Device, Edge, Endpoint, Infrastructure, Instance,
                              Latency, Link, NodeAnnotation, COMPONENT_CHOICES)
from ..errors import Diagnostic, InfraGraphError, Location
from ..units import UnitError, parse_quantity, to_gbps, to_ns
from .common import name_from_path, read_text
from .xmlfile import local, parse_xml


@dataclass
class ValueRule:
    """How to read one edge quantity: which attribute, the unit of bare numbers, a default."""

    attribute: str
    unit: str | None
    default: str | None


@dataclass
class Mapping:
    type_attribute: str = "type"
    type_values: dict[str, str] = field(default_factory=dict)
    type_patterns: dict[str, str] = field(default_factory=dict)
    type_default: str | None = None
    bandwidth: ValueRule = field(default_factory=lambda: ValueRule("bandwidth_gbps", "Gbps", None))
    latency: ValueRule = field(default_factory=lambda: ValueRule("latency_ns", "ns", None))


MAPPING_NEEDS = "a mapping file is a YAML mapping with node_type, bandwidth and latency"
_MAP_KEYS = {"node_type": {"attribute", "values", "patterns", "default"},
             "bandwidth": {"attribute", "unit", "default"}, "latency": {"attribute", "unit", "default"}}


# Edge lists carry their values as `bandwidth=400Gbps latency=1us`.
EDGE_LIST_DEFAULTS = Mapping(bandwidth=ValueRule("bandwidth", None, None), latency=ValueRule("latency", None, None))


def read_mapping(path: str | Path | None, defaults: Mapping = Mapping()) -> Mapping:
    """The mapping file (see the module docstring) over `defaults`; unknown keys are errors."""
    if path is None:
        return defaults
    filename = str(path)
    data = parse_text(read_text(path), filename, MAPPING_NEEDS)  # strict: a duplicate key is a located error
    if not isinstance(data, dict):
        raise InfraGraphError(Diagnostic(MAPPING_NEEDS,
                                         Location(filename)))
    diags = []
    for key, value in data.items():
        if key not in _MAP_KEYS:
            diags.append(Diagnostic(f"unknown mapping key '{key}'", Location(filename, path=str(key)),
                                    f"expected: {', '.join(_MAP_KEYS)}"))
        elif not isinstance(value, dict) or not set(value) <= _MAP_KEYS[key]:
            diags.append(Diagnostic(f"'{key}' must be a mapping with keys {', '.join(sorted(_MAP_KEYS[key]))}",
                                    Location(filename, path=str(key))))
    if diags:
        raise InfraGraphError(diags)
    out = replace(defaults)
    nt = data.get("node_type", {})
    out.type_attribute = str(nt.get("attribute", out.type_attribute))
    out.type_values = {str(k): str(v) for k, v in (nt.get("values") or {}).items()}
    out.type_patterns = {str(k): str(v) for k, v in (nt.get("patterns") or {}).items()}
    out.type_default = None if nt.get("default") is None else str(nt["default"])
    for key in ("bandwidth", "latency"):
        if key in data:
            rule = data[key]
            setattr(out, key, ValueRule(str(rule.get("attribute", key)),
                                        None if rule.get("unit") is None else str(rule["unit"]),
                                        None if rule.get("default") is None else str(rule["default"])))
    return out


@dataclass
class RawGraph:
    """A fabric as read: node ids with attributes and where they were; edges likewise."""

    nodes: dict[str, tuple[dict[str, str], Location]] = field(default_factory=dict)
    edges: list[tuple[str, str, dict[str, str], Location]] = field(default_factory=list)


def _kind(node: str, attrs: dict[str, str], where: Location, m: Mapping) -> str:
    if m.type_attribute in attrs:
        value = attrs[m.type_attribute]
        return m.type_values.get(value, value)
    for pattern, kind in m.type_patterns.items():
        if fnmatch.fnmatchcase(node, pattern):
            return kind
    if m.type_default is not None:
        return m.type_default
    raise InfraGraphError(Diagnostic(
        f"node '{node}' has no '{m.type_attribute}' attribute and matches no pattern", where,
        "give node_type.default, node_type.patterns or node_type.attribute in a mapping file (--map)"))


def _value(edge: str, attrs: dict[str, str], rule: ValueRule, what: str, convert, where: Location) -> float:
    text = attrs.get(rule.attribute, rule.default)
    if text is None:
        raise InfraGraphError(Diagnostic(f"edge {edge} has no '{rule.attribute}' attribute", where,
                                         f"give {what}.default or {what}.attribute in a mapping file (--map)"))
    text = str(text).strip()
    if re.fullmatch(r"[-+]?[0-9.]+(?:[eE][-+]?\d+)?|[-+]?(?:inf|nan)", text, re.IGNORECASE):
        if rule.unit is None:
            raise InfraGraphError(Diagnostic(f"edge {edge}: {what} '{text}' has no unit", where,
                                             f"state it in the value ('{text} Gbps') or as {what}.unit in the mapping"))
        text = f"{text} {rule.unit}"
    try:
        value = convert(parse_quantity(text))
    except (UnitError, ValueError) as e:
        raise InfraGraphError(Diagnostic(f"edge {edge}: {what} '{text}': {e}", where)) from None
    if not math.isfinite(value) or value < 0 or (what == "bandwidth" and value == 0):
        raise InfraGraphError(Diagnostic(
            f"edge {edge}: {what} '{text}' must be finite and {'positive' if what == 'bandwidth' else 'non-negative'}",
            where))
    return value


def _ident(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]", "_", text) or "node"


def to_document(raw: RawGraph, m: Mapping, name: str, origin: str) -> Infrastructure:
    """The fabric as a document: one device and instance per component kind, one cable per edge."""
    if not raw.nodes:
        raise InfraGraphError(Diagnostic("the graph has no nodes", Location(origin)))
    index: dict[str, tuple[str, int]] = {}
    members: dict[str, list[str]] = {}
    for node, (attrs, where) in raw.nodes.items():
        kind = _kind(node, attrs, where, m)
        members.setdefault(kind, []).append(node)
        index[node] = (kind, len(members[kind]) - 1)
    devices, instances, annotations = [], [], []
    for kind, nodes in members.items():
        ident = _ident(kind)
        custom = kind not in COMPONENT_CHOICES or kind == "custom"
        devices.append(Device(ident, [Component(ident, 1, "custom" if custom else kind,
                                                custom_type=kind if custom else None)]))
        instances.append(Instance(ident, ident, len(nodes)))
        annotations += [NodeAnnotation(f"{ident}.{i}.{ident}.0", {"import_id": node}) for i, node in enumerate(nodes)]
    classes: dict[tuple[float, float], str] = {}
    edges = []
    for a, b, attrs, where in raw.edges:
        for end in (a, b):
            if end not in index:
                raise InfraGraphError(Diagnostic(f"edge {a} -- {b} names node '{end}', which is not declared", where))
        if a == b:
            raise InfraGraphError(Diagnostic(f"edge {a} -- {b} is a self-loop", where))
        label = f"{a} -- {b}"
        key = (round(_value(label, attrs, m.bandwidth, "bandwidth", to_gbps, where), 9),
               round(_value(label, attrs, m.latency, "latency", to_ns, where), 6))
        link = classes.setdefault(key, f"link{len(classes)}")
        (ka, ia), (kb, ib) = index[a], index[b]
        edges.append(Edge(Endpoint(_ident(ka), f"{_ident(ka)}[{ia}]"), Endpoint(_ident(kb), f"{_ident(kb)}[{ib}]"), link))
    links = [Link(n, "", Bandwidth(g), Latency(ns)) for (g, ns), n in classes.items()]
    return Infrastructure(name=name, description=f"imported from {origin}", devices=devices, links=links,
                          instances=instances, edges=edges, annotations=Annotations(nodes=annotations))


def read_graphml(text: str, filename: str) -> RawGraph:
    """Nodes and edges of a GraphML file, with their attributes by name (keys resolved, defaults applied)."""
    tree = parse_xml(text, filename, root="graphml")
    keys: dict[str, tuple[str, str, str | None]] = {}
    for key in tree.root:
        if local(key.tag) == "key":
            default = next((d.text for d in key if local(d.tag) == "default"), None)
            keys[key.get("id", "")] = (key.get("attr.name", key.get("id", "")), key.get("for", "all"), default)
    graphs = [g for g in tree.root if local(g.tag) == "graph"]
    if len(graphs) != 1:
        raise tree.error(tree.root, f"expected one <graph>, found {len(graphs)}")
    graph = graphs[0]
    if graph.get("edgedefault", "undirected") != "undirected":
        raise tree.error(graph, "a directed graph: each InfraGraph cable is bidirectional",
                         "write the fabric with edgedefault=\"undirected\", one edge per cable")

    def attributes(element, kind: str) -> dict[str, str]:
        out = {name: d for name, f, d in keys.values() if f in (kind, "all") and d is not None}
        for data in element:
            if local(data.tag) != "data":
                continue
            k = data.get("key")
            if k not in keys:
                raise tree.error(data, f"<data key=\"{k}\"> names no declared <key>")
            out[keys[k][0]] = (data.text or "").strip()
        return out

    raw = RawGraph()
    for element in graph:
        tag = local(element.tag)
        if tag == "node":
            node = element.get("id")
            if node is None:
                raise tree.error(element, "<node> without an id")
            if node in raw.nodes:
                raise tree.error(element, f"node '{node}' is declared twice")
            raw.nodes[node] = (attributes(element, "node"), tree.at(element))
        elif tag == "edge":
            if element.get("directed") == "true":
                raise tree.error(element, "a directed edge: each InfraGraph cable is bidirectional")
            if element.get("source") is None or element.get("target") is None:
                raise tree.error(element, "<edge> needs source and target")
            raw.edges.append((element.get("source"), element.get("target"), attributes(element, "edge"),
                              tree.at(element)))
    return raw


def read_edge_list(text: str, filename: str) -> RawGraph:
    """`SRC DST [key=value ...]` per line; nodes are declared by the edges that name them."""
    raw = RawGraph()
    for lineno, line in enumerate(text.splitlines(), 1):
        body = line.split("#", 1)[0]
        fields = body.split()
        if not fields:
            continue
        where = Location(filename, lineno, len(line) - len(line.lstrip()) + 1)
        if len(fields) < 2:
            raise InfraGraphError(Diagnostic(f"expected 'SRC DST [key=value ...]', got '{line.strip()}'", where))
        attrs = {}
        for f in fields[2:]:
            key, eq, value = f.partition("=")
            if not eq or not key or not value:
                raise InfraGraphError(Diagnostic(f"expected key=value, got '{f}'",
                                                 Location(filename, lineno, line.index(f) + 1)))
            if key in attrs:
                raise InfraGraphError(Diagnostic(f"duplicate key '{key}' on this edge (first {key}={attrs[key]})",
                                                 Location(filename, lineno, line.index(f) + 1),
                                                 "give each key once per line"))
            attrs[key] = value
        for node in fields[:2]:
            raw.nodes.setdefault(node, ({}, Location(filename, lineno, line.index(node) + 1)))
        raw.edges.append((fields[0], fields[1], attrs, where))
    return raw


def import_graphml(path: str | Path, mapping: str | Path | None = None) -> Infrastructure:
    return to_document(read_graphml(read_text(path), str(path)), read_mapping(mapping), name_from_path(path), str(path))


def import_edge_list(path: str | Path, mapping: str | Path | None = None) -> Infrastructure:
    return to_document(read_edge_list(read_text(path), str(path)), read_mapping(mapping, EDGE_LIST_DEFAULTS),
                       name_from_path(path), str(path))
