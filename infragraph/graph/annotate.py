"""Attach document annotations (node, edge, link and graph attributes) to an expanded graph.

A node annotation's `name` is a fully qualified node name (`host.0.xpu.3`) or a selector in
endpoint syntax (`host[0:2].xpu`, `sw`), resolved with the same strict rules as edges. Values
keep their types; unknown names are errors, never silently ignored.
"""

from __future__ import annotations

import re
from typing import Callable

import numpy as np

from ..document.model import Annotations
from ..errors import Diagnostic, InfraGraphError, Location, error, unknown_name
from .failures import check_value
from .fqg import FQG

_FQ_NAME = re.compile(r"[^.\[\]]+\.\d+\..+")

Selector = Callable[[str, str], np.ndarray]


def apply_annotations(g: FQG, ann: Annotations, select_nodes: Selector) -> None:
    """Fill g.node_attrs, g.edge_attrs, link attributes and g.graph_annotations from `ann`."""
    diags: list[Diagnostic] = []

    def nodes(name: str, path: str) -> np.ndarray:
        if _FQ_NAME.fullmatch(name) and "[" not in name:
            return np.array([g.node_id(name)])
        return select_nodes(name, path)

    diags += _failure_values(ann)
    for i, na in enumerate(ann.nodes):
        path = f"annotations.nodes[{i}].name"
        try:
            ids = nodes(na.name, path)
        except InfraGraphError as e:
            diags += [_at(d, path) for d in e.diagnostics]
            continue
        for attr, value in na.attributes.items():
            column = g.node_attrs.setdefault(attr, {})
            for node in ids.tolist():
                column[node] = value
    for i, ea in enumerate(ann.edges):
        path = f"annotations.edges[{i}]"
        try:
            a, b = nodes(ea.ep1, f"{path}.ep1"), nodes(ea.ep2, f"{path}.ep2")
        except InfraGraphError as e:
            diags += [_at(d, path) for d in e.diagnostics]
            continue
        hit = (np.isin(g.edge_src, a) & np.isin(g.edge_dst, b)) | (np.isin(g.edge_src, b) & np.isin(g.edge_dst, a))
        edges = np.flatnonzero(hit)
        if edges.size == 0:
            diags += error(f"no edge joins '{ea.ep1}' and '{ea.ep2}'", path).diagnostics
        for attr, value in ea.attributes.items():
            column = g.edge_attrs.setdefault(attr, {})
            for e in edges.tolist():
                column[e] = value
    names = {x.qualified_name: x for x in g.links}
    names.update({x.name: x for x in g.links if not x.scope})
    for i, la in enumerate(ann.links):
        link = names.get(la.name)
        if link is None:
            diags += unknown_name("link", la.name, names, f"annotations.links[{i}].name").diagnostics
            continue
        link.attributes.update(la.attributes)
    g.graph_annotations.update(ann.graph)
    if diags:
        raise InfraGraphError(diags)


def _failure_values(ann: Annotations) -> list[Diagnostic]:
    """Out-of-range `failed`, `bandwidth_factor` and `extra_latency_ns` values, at their document path."""
    out = []
    for kind, items in (("nodes", ann.nodes), ("edges", ann.edges), ("links", ann.links)):
        for i, item in enumerate(items):
            for j, (attr, value) in enumerate(item.attributes.items()):
                problem = check_value(attr, value)
                if problem:
                    out.append(Diagnostic(problem, Location(path=f"annotations.{kind}[{i}].attributes[{j}].value")))
    return out


def _at(d: Diagnostic, path: str) -> Diagnostic:
    """Give a diagnostic raised without a document path (e.g. by node_id) the annotation's path."""
    if d.location.path:
        return d
    return Diagnostic(d.message, Location(path=path), d.hint, d.severity, d.notes)
