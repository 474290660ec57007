"""Checks on an FQG JSON file read back: every record, vectorised, before any array is built.

JSON Schema validation of each record costs seconds per 100k records, so the schema checks the
file's structure and its first `SCHEMA_SAMPLE` records, and every record is then checked field
by field: the type of each field (a str, or an integer as the schema's "integer" means it:
`infragraph.integers`, so 3.0 is node 3 while 3.5, "3" and true are errors: truncated, coerced or
taken for 0/1 they would name another node), ranges (edge ends and links that exist, copies
within their instance's count) and the links' numbers (finite; bandwidth > 0, latency >= 0).
An integer written as an integral float is replaced in its record by the exact int, so that what
reads the records next sees ints only.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any

import numpy as np

from ..errors import Diagnostic, InfraGraphError, Location
from ..integers import exact_integer, not_an_integer
from ..schemas import schema_errors
from ..units import bandwidth_problem, latency_problem

SCHEMA_SAMPLE = 2000
MAX_REPORTED = 20

NODE_FIELDS: dict[str, type] = {"name": str, "type": str, "instance": str, "instance_index": int, "device": str,
                                "component": str, "component_index": int, "parent_device": str}
EDGE_FIELDS: dict[str, type] = {"src": int, "dst": int, "link": int}
INSTANCE_FIELDS: dict[str, type] = {"name": str, "device": str, "count": int}


def check_fqg_data(data: Any, filename: str) -> None:
    """Raise InfraGraphError (file and record path) for anything `from_json_dict` must not read;
    integral floats in integer fields become ints in their records."""
    diags = _schema(data)
    if not diags:
        nodes, node_diags = _columns(data["nodes"], NODE_FIELDS, "nodes")
        edges, edge_diags = _columns(data["edges"], EDGE_FIELDS, "edges")
        _, instance_diags = _columns(data["instances"], INSTANCE_FIELDS, "instances")
        diags = node_diags + edge_diags + instance_diags + _link_numbers(data["links"])
    if not diags:
        diags = _ranges(data, nodes, edges)
    if diags:
        raise InfraGraphError([Diagnostic(d.message, Location(filename, path=d.location.path), d.hint)
                               for d in diags[:MAX_REPORTED]])


def _schema(data: Any) -> list[Diagnostic]:
    sample = data
    if isinstance(data, dict) and isinstance(data.get("nodes"), list) and isinstance(data.get("edges"), list):
        sample = {**data, "nodes": data["nodes"][:SCHEMA_SAMPLE], "edges": data["edges"][:SCHEMA_SAMPLE]}
    return schema_errors("fqg", sample)


def _columns(records: list, fields: dict[str, type], where: str) -> tuple[dict[str, list], list[Diagnostic]]:
    """Every record's fields as columns, each of exactly its type (one C-speed pass per column when
    the records are clean; otherwise integral floats are made ints, and the first bad record is
    found and named)."""
    bad_record = next((i for i, r in enumerate(records) if type(r) is not dict), None)
    if bad_record is not None:
        return {}, [Diagnostic(f"a record must be an object, got {records[bad_record]!r}",
                               Location(path=f"{where}[{bad_record}]"))]
    columns: dict[str, list] = {}
    out = []
    for key, typ in fields.items():
        try:
            column = columns[key] = list(map(itemgetter(key), records))
        except KeyError:
            i = next(i for i, r in enumerate(records) if key not in r)
            return columns, out + [Diagnostic(f"record has no '{key}'", Location(path=f"{where}[{i}]"))]
        if set(map(type, column)) <= {typ} or (typ is int and _integers(records, column, key)):
            continue
        i = next(i for i, v in enumerate(column) if type(v) is not typ)
        message = f"'{key}': {not_an_integer(column[i])}" if typ is int else f"'{key}' must be a string, got {column[i]!r}"
        out.append(Diagnostic(message, Location(path=f"{where}[{i}].{key}"),
                              "a fractional or string id would be read as a different node" if typ is int else None))
    return columns, out


def _integers(records: list[dict], column: list, key: str) -> bool:
    """Replace each integral float of `column` (and its record's `key`) by the exact int; False,
    leaving the first value that is not an integer in place, when there is one."""
    for i, value in enumerate(column):
        if type(value) is not int:
            number = exact_integer(value)
            if number is None:
                return False
            column[i] = records[i][key] = number
    return True


def _link_numbers(links: list[dict]) -> list[Diagnostic]:
    out = []
    for i, x in enumerate(links):
        for key, problem in (("bandwidth_gbps", bandwidth_problem), ("latency_ns", latency_problem)):
            if x.get(key) is not None:
                message = problem(x[key])
                if message:
                    out.append(Diagnostic(f"link '{x.get('name')}': {message}", Location(path=f"links[{i}].{key}")))
    return out


def _ranges(data: dict, nodes: dict[str, list], edges: dict[str, list]) -> list[Diagnostic]:
    """Edge ends and links that exist; node copies within their instance's count."""
    out = []
    n_nodes, n_links = len(data["nodes"]), len(data["links"])
    for key, limit, what in (("src", n_nodes, "node"), ("dst", n_nodes, "node"), ("link", n_links, "link")):
        i = _first_outside(edges[key], limit)
        if i is not None:
            out.append(Diagnostic(f"edge {key} {edges[key][i]} refers to a {what} that does not exist "
                                  f"({limit} {what}s)", Location(path=f"edges[{i}].{key}")))
    counts = {x["name"]: x["count"] for x in data["instances"]}
    unknown = set(nodes["instance"]) - set(counts)
    if unknown:
        i = next(i for i, name in enumerate(nodes["instance"]) if name in unknown)
        out.append(Diagnostic(f"node names instance '{nodes['instance'][i]}', which is not in the "
                              f"instances table", Location(path=f"nodes[{i}].instance")))
        return out
    limits = list(map(counts.__getitem__, nodes["instance"]))
    over = next((i for i, (v, n) in enumerate(zip(nodes["instance_index"], limits)) if not 0 <= v < n), None)
    if over is not None:
        name, index = nodes["instance"][over], nodes["instance_index"][over]
        out.append(Diagnostic(f"instance_index {index} is out of range for instance '{name}' "
                              f"({counts[name]} copies)", Location(path=f"nodes[{over}].instance_index")))
    return out


def _first_outside(values: list, limit: int) -> int | None:
    """The index of the first value not in 0..limit-1 (vectorised; exact for any Python int)."""
    if not values:
        return None
    try:
        arr = np.fromiter(values, dtype=np.int64, count=len(values))
    except OverflowError:
        return next(i for i, v in enumerate(values) if not 0 <= v < limit)
    bad = np.flatnonzero((arr < 0) | (arr >= limit))
    return int(bad[0]) if bad.size else None
