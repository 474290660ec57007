"""Read and write InfraGraph documents in the public format (YAML or JSON).

Reading is strict: the text is parsed with the C YAML loader when available (or `json` for .json),
validated against schemas/infragraph.schema.json, and only then turned into model objects. Source
positions are not tracked on the fast path; when a problem must be reported, `YamlSourceMap`
re-reads the file with position tracking and finds the line and column of the document path.

Writing produces exactly the public schema's keys, so the public `infragraph` package reads our
documents; annotation values are written as strings there (the public schema types them so) and
read back into int/float/bool when they are in canonical form.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import yaml

from ..errors import InfraGraphError, Location, read_text
from ..output import write_text
from .model import (
    Annotations,
    Bandwidth,
    Component,
    Device,
    Edge,
    EdgeAnnotation,
    Endpoint,
    Infrastructure,
    Instance,
    Latency,
    Link,
    LinkAnnotation,
    NodeAnnotation,
    Value,
)
from .check import value_errors
from .reader import YamlLoader, parse_text
from .schema import validate_document

_Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


# --- parsing text ------------------------------------------------------------------------------


class YamlSourceMap:
    """Maps document paths to line:column in a YAML/JSON text, computed on first use only."""

    def __init__(self, text: str, filename: str, prefix: tuple = ()):
        self._text = text
        self._filename = filename
        self._prefix = prefix  # path of the Infrastructure inside a wrapper document
        self._root: yaml.Node | None = None

    def locate(self, path: str) -> Location:
        if self._root is None:
            try:
                self._root = yaml.compose(self._text, Loader=YamlLoader)
            except yaml.YAMLError:
                return Location(self._filename, path=path)
            if self._root is None:  # an empty document: nothing to point into
                return Location(self._filename, 1, 1, path)
        node = self._root
        keys = tuple(split_path(path))
        if keys[:1] != ("annotations",):
            keys = self._prefix + keys
        for key in keys:
            child = _child(node, key)
            if child is None:
                break
            node = child
        return Location(self._filename, node.start_mark.line + 1, node.start_mark.column + 1, path)


def split_path(path: str) -> list[str | int]:
    """'edges[3].ep2.component' -> ['edges', 3, 'ep2', 'component']."""
    out: list[str | int] = []
    for name, index in re.findall(r"([^.\[\]]+)|\[(\d+)\]", path):
        out.append(int(index) if index else name)
    return out


def _child(node: yaml.Node, key: str | int) -> yaml.Node | None:
    if isinstance(node, yaml.MappingNode) and isinstance(key, str):
        for k, v in node.value:
            if k.value == key:
                return v
    if isinstance(node, yaml.SequenceNode) and isinstance(key, int) and key < len(node.value):
        return node.value[key]
    return None


# --- dict <-> model ----------------------------------------------------------------------------


def _typed(value: Any) -> Value:
    """Annotation values: the public format stores strings; canonical numbers/bools come back typed."""
    if not isinstance(value, str):
        return value
    if re.fullmatch(r"-?(0|[1-9][0-9]*)", value):
        return int(value)
    if value in ("true", "false"):
        return value == "true"
    if re.fullmatch(r"-?(0|[1-9][0-9]*)\.[0-9]+(e[-+]?[0-9]+)?", value):
        f = float(value)
        if repr(f) == value:
            return f
    return value


def _public_str(value: Value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, float) else str(value)


def _attrs(items: list[dict]) -> dict[str, Value]:
    return {a["attribute"]: _typed(a["value"]) for a in items or []}


def _link(d: dict) -> Link:
    phys = d.get("physical") or {}
    bw = phys.get("bandwidth")
    lat = phys.get("latency")
    bandwidth = latency = None
    if bw and bw.get("choice"):
        bandwidth = Bandwidth(bw[bw["choice"]], bw["choice"])
    if lat and lat.get("choice"):
        latency = Latency(lat[lat["choice"]], lat["choice"])
    return Link(d["name"], d.get("description", ""), bandwidth, latency)


def _endpoint(d: dict) -> Endpoint:
    return Endpoint(d["component"], d.get("instance"), d.get("device"))


def _edge(d: dict) -> Edge:
    return Edge(_endpoint(d["ep1"]), _endpoint(d["ep2"]), d["link"], d.get("scheme", "one2one"))


def from_dict(data: dict, annotations: dict | None = None) -> Infrastructure:
    """Model objects from an already schema-validated public-format dict."""
    devices = [
        Device(
            d["name"],
            [
                Component(
                    c["name"],
                    int(c["count"]),  # validate_document made counts written 2.0 exact ints
                    c["choice"],
                    c.get("description", ""),
                    (c.get("custom") or {}).get("type"),
                )
                for c in d.get("components") or []
            ],
            [_link(x) for x in d.get("links") or []],
            [_edge(e) for e in d.get("edges") or []],
            d.get("description", ""),
        )
        for d in data.get("devices") or []
    ]
    ann = annotations or {}
    return Infrastructure(
        name=data["name"],
        description=data.get("description", ""),
        devices=devices,
        links=[_link(x) for x in data.get("links") or []],
        instances=[
            Instance(i["name"], i["device"], int(i["count"]), i.get("description", ""))
            for i in data.get("instances") or []
        ],
        edges=[_edge(e) for e in data.get("edges") or []],
        annotations=Annotations(
            nodes=[NodeAnnotation(n["name"], _attrs(n.get("attributes"))) for n in ann.get("nodes") or []],
            edges=[
                EdgeAnnotation(e["ep1"], e["ep2"], _attrs(e.get("attributes"))) for e in ann.get("edges") or []
            ],
            links=[LinkAnnotation(x["name"], _attrs(x.get("attributes"))) for x in ann.get("links") or []],
            graph=_attrs(ann.get("graph")),
        ),
    )


def _link_dict(link: Link) -> dict:
    out: dict[str, Any] = {"name": link.name}
    if link.description:
        out["description"] = link.description
    phys: dict[str, Any] = {}
    if link.bandwidth is not None:
        phys["bandwidth"] = {"choice": link.bandwidth.unit, link.bandwidth.unit: link.bandwidth.value}
    if link.latency is not None:
        phys["latency"] = {"choice": link.latency.unit, link.latency.unit: link.latency.value}
    if phys:
        out["physical"] = phys
    return out


def _endpoint_dict(ep: Endpoint) -> dict:
    out: dict[str, str] = {}
    if ep.instance is not None:
        out["instance"] = ep.instance
    if ep.device is not None:
        out["device"] = ep.device
    out["component"] = ep.component
    return out


def _edge_dict(e: Edge) -> dict:
    return {"ep1": _endpoint_dict(e.ep1), "ep2": _endpoint_dict(e.ep2), "scheme": e.scheme, "link": e.link}


def _component_dict(c: Component) -> dict:
    out: dict[str, Any] = {"name": c.name}
    if c.description:
        out["description"] = c.description
    out["count"] = c.count
    out["choice"] = c.choice
    if c.choice == "custom":
        out["custom"] = {"type": c.custom_type or ""}
    return out


def _attr_list(attrs: dict[str, Value]) -> list[dict]:
    return [{"attribute": k, "value": _public_str(v)} for k, v in attrs.items()]


def to_dict(doc: Infrastructure) -> dict:
    """The public-format Infrastructure dict (annotations excluded; see `annotations_dict`)."""
    out: dict[str, Any] = {"name": doc.name}
    if doc.description:
        out["description"] = doc.description
    out["devices"] = [
        {
            "name": d.name,
            **({"description": d.description} if d.description else {}),
            "components": [_component_dict(c) for c in d.components],
            "links": [_link_dict(x) for x in d.links],
            "edges": [_edge_dict(e) for e in d.edges],
        }
        for d in doc.devices
    ]
    out["links"] = [_link_dict(x) for x in doc.links]
    out["instances"] = [
        {"name": i.name, **({"description": i.description} if i.description else {}), "device": i.device,
         "count": i.count}
        for i in doc.instances
    ]
    out["edges"] = [_edge_dict(e) for e in doc.edges]
    return out


def annotations_dict(ann: Annotations) -> dict:
    out: dict[str, Any] = {}
    if ann.nodes:
        out["nodes"] = [{"name": n.name, "attributes": _attr_list(n.attributes)} for n in ann.nodes]
    if ann.edges:
        out["edges"] = [{"ep1": e.ep1, "ep2": e.ep2, "attributes": _attr_list(e.attributes)} for e in ann.edges]
    if ann.links:
        out["links"] = [{"name": x.name, "attributes": _attr_list(x.attributes)} for x in ann.links]
    if ann.graph:
        out["graph"] = _attr_list(ann.graph)
    return out


def document_dict(doc: Infrastructure) -> dict:
    """The whole file: the Infrastructure's keys, plus an `annotations` block when there are any."""
    out = to_dict(doc)
    if not doc.annotations.is_empty():
        out["annotations"] = annotations_dict(doc.annotations)
    return out


# --- public entry points -----------------------------------------------------------------------


def loads(text: str, filename: str = "<string>") -> Infrastructure:
    """Parse, validate and build a document from YAML or JSON text (JSON when filename ends .json)."""
    data = parse_text(text, filename)
    prefix: tuple = ()
    if isinstance(data, dict) and isinstance(data.get("infrastructure"), dict) and "devices" not in data:
        # The public API's wrapper form: {infrastructure: {...}, annotations: {...}}.
        prefix = ("infrastructure",)
        data = {**data["infrastructure"], **({"annotations": data["annotations"]} if "annotations" in data else {})}
    source = YamlSourceMap(text, filename, prefix)
    try:
        validate_document(data)
    except InfraGraphError as e:
        raise e.relocated(source) from None
    doc = from_dict(data, data.get("annotations"))
    doc.source = source
    problems = value_errors(doc)
    if problems:
        raise InfraGraphError(problems).relocated(source)
    return doc


def load(path: str | Path) -> Infrastructure:
    return loads(read_text(path, "document"), str(path))


def dumps(doc: Infrastructure, fmt: str = "yaml") -> str:
    data = document_dict(doc)
    if fmt == "json":
        return json.dumps(data, indent=2) + "\n"
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, default_flow_style=False, width=120)


def dump(doc: Infrastructure, path: str | Path) -> None:
    write_text(path, dumps(doc, "json" if Path(path).suffix == ".json" else "yaml"))
