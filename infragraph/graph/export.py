"""FQG exports: JSON (schemas/fqg.schema.json), GraphML and a networkx MultiGraph; JSON read-back.

The JSON form lists nodes as records in id order and edges as records whose `src`/`dst` are node
ids (indices into `nodes`) and whose `link` indexes `links`, where bandwidth (Gbit/s) and latency
(ns) are stated once per link class. Reading it back yields the same FQG.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

import numpy as np

from .. import units
from ..errors import Diagnostic, InfraGraphError, Location
from ..output import open_output
from .fqg import FQG, ComponentInfo, InstanceInfo, LinkInfo
from .readback import check_fqg_data
from .text import attribute_rows, edge_text_chunks, joined, node_text_chunks

FORMAT = "infragraph-fqg"
VERSION = 1


def _dumps(value) -> str:
    return json.dumps(value, separators=(",", ":"))


def _json_node_template(inst: InstanceInfo, local: int, comp: ComponentInfo) -> tuple[str, str, str]:
    suffix = inst.suffixes[local]
    return ('{"name":' + _dumps(inst.name + ".")[:-1],
            _dumps("." + suffix)[1:] + ',"type":' + _dumps(comp.type) + ',"instance":' + _dumps(inst.name)
            + ',"instance_index":',
            ',"device":' + _dumps(inst.device) + ',"component":' + _dumps(comp.name) + ',"component_index":'
            + str(int(suffix[suffix.rfind(".") + 1:])) + ',"parent_device":' + _dumps(comp.device))


def _json_edges(_first: int, src: list[int], dst: list[int], link: list[int]) -> list[str]:
    return [f'{{"src":{s},"dst":{d},"link":{k}}}' for s, d, k in zip(src, dst, link)]


def json_chunks(g: FQG) -> Iterator[str]:
    """The FQG's JSON text (schemas/fqg.schema.json, compact), in pieces to write one after another."""
    head = {
        "format": FORMAT,
        "version": VERSION,
        "name": g.name,
        "description": g.description,
        "units": {"bandwidth": units.BANDWIDTH_UNIT, "latency": units.LATENCY_UNIT},
        "instances": [{"name": i.name, "device": i.device, "count": i.count} for i in g.instances],
        "links": [
            {"name": x.name, "scope": x.scope, "bandwidth_gbps": x.bandwidth_gbps, "latency_ns": x.latency_ns,
             "description": x.description, "attributes": x.attributes}
            for x in g.links
        ],
    }
    yield _dumps(head)[:-1] + ',"nodes":['
    node_extra = {n: ',"attributes":' + _dumps(a) for n, a in attribute_rows(g.node_attrs).items()}
    yield from joined(node_text_chunks(g, _json_node_template, "}", node_extra))
    yield '],"edges":['
    edge_extra = {e: ',"attributes":' + _dumps(a) for e, a in attribute_rows(g.edge_attrs).items()}
    yield from joined(edge_text_chunks(g, _json_edges, "}", edge_extra))
    yield '],"attributes":' + _dumps(dict(g.graph_annotations)) + "}"


def to_json_dict(g: FQG) -> dict:
    """The FQG's JSON form as Python data (the same text `write_json` writes, parsed)."""
    return json.loads("".join(json_chunks(g)))


def write_json(g: FQG, path: str | Path) -> None:
    with open_output(path) as fh:
        for chunk in json_chunks(g):
            fh.write(chunk)


def is_fqg_file(path: str | Path) -> bool:
    """True when a .json file is an FQG written by `write_json` (it starts with its format tag)."""
    try:
        with open(path, encoding="utf-8") as fh:
            return f'"format":"{FORMAT}"' in fh.read(64).replace(" ", "")
    except OSError:
        return False


def from_json_dict(data: dict, filename: str = "<fqg>") -> FQG:
    """Rebuild an FQG from its JSON form (every record checked first: `readback.check_fqg_data`)."""
    check_fqg_data(data, filename)
    nodes = data["nodes"]
    comp_key: dict[tuple, int] = {}
    components: list[ComponentInfo] = []
    type_names: list[str] = []
    node_component = np.empty(len(nodes), dtype=np.int32)
    owner_key: dict[str, int] = {}
    node_owner = np.empty(len(nodes), dtype=np.int32)
    for n, rec in enumerate(nodes):
        key = (rec["parent_device"], rec["component"], rec["type"])
        if key not in comp_key:
            comp_key[key] = len(components)
            components.append(ComponentInfo(*key))
            if rec["type"] not in type_names:
                type_names.append(rec["type"])
        node_component[n] = comp_key[key]
        node_owner[n] = owner_key.setdefault(rec["name"].rsplit(".", 2)[0], len(owner_key))
    instances: list[InstanceInfo] = []
    inst_index = {}
    first = 0
    for i, inst in enumerate(data["instances"]):
        per_copy = 0  # the block's first copy: consecutive records of this instance with index 0
        while (first + per_copy < len(nodes) and nodes[first + per_copy]["instance"] == inst["name"]
               and nodes[first + per_copy]["instance_index"] == 0):
            per_copy += 1
        prefix = f"{inst['name']}.0."
        suffixes = [r["name"][len(prefix):] for r in nodes[first:first + per_copy]]
        instances.append(InstanceInfo(inst["name"], inst["device"], inst["count"], first, per_copy, suffixes))
        inst_index[inst["name"]] = i
        first += per_copy * inst["count"]
    if first != len(nodes):
        raise InfraGraphError(Diagnostic(
            f"nodes do not match the instances table ({len(nodes)} nodes, instances account for {first})",
            Location(filename, path="nodes")))
    comp_types = np.array([type_names.index(c.type) for c in components], dtype=np.int16)
    edges = data["edges"]
    g = FQG(
        name=data["name"],
        description=data.get("description", ""),
        instances=instances,
        components=components,
        type_names=type_names,
        links=[LinkInfo(x["name"], x["scope"], x.get("bandwidth_gbps"), x.get("latency_ns"),
                        x.get("description", ""), dict(x.get("attributes") or {})) for x in data["links"]],
        node_type=comp_types[node_component] if len(nodes) else np.zeros(0, np.int16),
        node_component=node_component,
        node_instance=np.array([inst_index[r["instance"]] for r in nodes], dtype=np.int32),
        node_copy=np.array([r["instance_index"] for r in nodes], dtype=np.int32),
        node_owner=node_owner,
        edge_src=np.array([e["src"] for e in edges], dtype=np.int32),
        edge_dst=np.array([e["dst"] for e in edges], dtype=np.int32),
        edge_link=np.array([e["link"] for e in edges], dtype=np.int32),
        edge_origin=np.zeros(len(edges), dtype=np.int32),
        edge_records=[filename],
        graph_annotations=dict(data.get("attributes") or {}),
    )
    for n, rec in enumerate(nodes):
        for attr, v in (rec.get("attributes") or {}).items():
            g.node_attrs.setdefault(attr, {})[n] = v
    for e, rec in enumerate(edges):
        for attr, v in (rec.get("attributes") or {}).items():
            g.edge_attrs.setdefault(attr, {})[e] = v
    names = [r["name"] for r in nodes]
    bad = [] if names == g.node_names else [next(n for n, (a, b) in enumerate(zip(names, g.node_names)) if a != b)]
    if bad:
        raise InfraGraphError(Diagnostic(
            f"node {bad[0]} is named '{nodes[bad[0]]['name']}' but its position says '{g.node_name(bad[0])}'",
            Location(filename, path=f"nodes[{bad[0]}].name")))
    return g


def read_fqg(path: str | Path) -> FQG:
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except json.JSONDecodeError as e:
        raise InfraGraphError(Diagnostic(f"invalid JSON: {e.msg}", Location(str(path), e.lineno, e.colno))) from None
    except RecursionError:
        raise InfraGraphError(Diagnostic("graph JSON nested too deeply to read", Location(str(path)))) from None
    except OSError as e:
        raise InfraGraphError(Diagnostic(f"cannot read graph: {e}", Location(str(path)))) from None
    return from_json_dict(data, str(path))


def to_networkx(g: FQG):
    """A networkx MultiGraph: node names as keys, parallel links kept (edge key = edge id)."""
    import networkx as nx

    mg = nx.MultiGraph(name=g.name, **{k: v for k, v in g.graph_annotations.items()})
    names = g.node_names
    for n, name in enumerate(names):
        mg.add_node(name, **g.node_attributes(n))
    for e, (s, d) in enumerate(zip(g.edge_src.tolist(), g.edge_dst.tolist())):
        mg.add_edge(names[s], names[d], key=e, **g.edge_attributes(e))
    return mg


def write_graphml(g: FQG, path: str | Path) -> None:
    """GraphML of the multigraph `to_networkx` gives (node and edge attributes alike), streamed
    record by record instead of through networkx (which needs ~8 KB of memory per node)."""
    from .graphml import graphml_chunks

    with open_output(path) as fh:
        for chunk in graphml_chunks(g):
            fh.write(chunk)
