"""Checks on an FQG JSON file read back: every record, vectorised, before any array is built.

JSON Schema validation of each record costs seconds per 100k records, so the schema checks the
file's structure and its first `SCHEMA_SAMPLE` records, and every record is then checked field
by field: the type of each field (exactly int or str: a float id would be truncated to another
node, a string id coerced, a bool taken for 0/1), ranges (edge ends and links that exist,
copies within their instance's count) and the links' numbers (finite; bandwidth > 0, latency >= 0).
"""

from __future__ import annotations

from typing import Any

from ..errors import Diagnostic, InfraGraphError, Location
from ..schemas import schema_errors
from ..units import bandwidth_problem, latency_problem

SCHEMA_SAMPLE = 2000
MAX_REPORTED = 20

NODE_FIELDS: dict[str, type] = {"name": str, "type": str, "instance": str, "instance_index": int, "device": str,
                                "component": str, "component_index": int, "parent_device": str}
EDGE_FIELDS: dict[str, type] = {"src": int, "dst": int, "link": int}
_MISSING = object()
_WORDS = {int: "an integer", str: "a string"}


def check_fqg_data(data: Any, filename: str) -> None:
    """Raise InfraGraphError (file and record path) for anything `from_json_dict` must not read."""
    diags = _schema(data)
    if not diags:
        diags = (_columns(data["nodes"], NODE_FIELDS, "nodes") + _columns(data["edges"], EDGE_FIELDS, "edges")
                 + _link_numbers(data["links"]))
    if not diags:
        diags = _ranges(data)
    if diags:
        raise InfraGraphError([Diagnostic(d.message, Location(filename, path=d.location.path), d.hint)
                               for d in diags[:MAX_REPORTED]])


def _schema(data: Any) -> list[Diagnostic]:
    sample = data
    if isinstance(data, dict) and isinstance(data.get("nodes"), list) and isinstance(data.get("edges"), list):
        sample = {**data, "nodes": data["nodes"][:SCHEMA_SAMPLE], "edges": data["edges"][:SCHEMA_SAMPLE]}
    return schema_errors("fqg", sample)


def _columns(records: list, fields: dict[str, type], where: str) -> list[Diagnostic]:
    """Each field of every record has exactly its type (one pass per column, at C speed when clean)."""
    out = []
    bad_record = next((i for i, r in enumerate(records) if type(r) is not dict), None)
    if bad_record is not None:
        return [Diagnostic(f"a record must be an object, got {records[bad_record]!r}", Location(path=f"{where}[{bad_record}]"))]
    for key, typ in fields.items():
        column = [r.get(key, _MISSING) for r in records]
        if set(map(type, column)) <= {typ}:
            continue
        i = next(i for i, v in enumerate(column) if type(v) is not typ)
        got = column[i]
        message = (f"record has no '{key}'" if got is _MISSING
                   else f"'{key}' must be {_WORDS[typ]}, got {got!r}")
        hint = "a float or string id would be read as a different node" if typ is int and got is not _MISSING else None
        out.append(Diagnostic(message, Location(path=f"{where}[{i}].{key}" if got is not _MISSING else f"{where}[{i}]"),
                              hint))
    return out


def _link_numbers(links: list[dict]) -> list[Diagnostic]:
    out = []
    for i, x in enumerate(links):
        for key, problem in (("bandwidth_gbps", bandwidth_problem), ("latency_ns", latency_problem)):
            if x.get(key) is not None:
                message = problem(x[key])
                if message:
                    out.append(Diagnostic(f"link '{x.get('name')}': {message}", Location(path=f"links[{i}].{key}")))
    return out


def _ranges(data: dict) -> list[Diagnostic]:
    """Edge ends and links that exist; node copies within their instance's count."""
    nodes, edges, links = data["nodes"], data["edges"], data["links"]
    out = []
    for key, limit, what in (("src", len(nodes), "node"), ("dst", len(nodes), "node"), ("link", len(links), "link")):
        i = next((i for i, e in enumerate(edges) if not 0 <= e[key] < limit), None)
        if i is not None:
            out.append(Diagnostic(f"edge {key} {edges[i][key]} refers to a {what} that does not exist "
                                  f"({limit} {what}s)", Location(path=f"edges[{i}].{key}")))
    counts = {x["name"]: x["count"] for x in data["instances"]}
    unknown = next((i for i, r in enumerate(nodes) if r["instance"] not in counts), None)
    if unknown is not None:
        out.append(Diagnostic(f"node names instance '{nodes[unknown]['instance']}', which is not in the "
                              f"instances table", Location(path=f"nodes[{unknown}].instance")))
        return out
    over = next((i for i, r in enumerate(nodes) if not 0 <= r["instance_index"] < counts[r["instance"]]), None)
    if over is not None:
        r = nodes[over]
        out.append(Diagnostic(f"instance_index {r['instance_index']} is out of range for instance '{r['instance']}' "
                              f"({counts[r['instance']]} copies)", Location(path=f"nodes[{over}].instance_index")))
    return out
