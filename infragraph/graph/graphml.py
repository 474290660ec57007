"""GraphML of the FQG, streamed: the same multigraph as `export.to_networkx` (nodes keyed by name
with their built-in attributes and annotations; one edge per physical link, its id the edge id,
with the link's name, bandwidth (Gbit/s), latency (ns), the link's attributes and the edge's
annotations), written from per-instance templates without a networkx graph in memory.

Key types follow the values: boolean, long (integers), double (any float) or string.
"""

from __future__ import annotations

from typing import Iterator

from ..document.model import Value
from ..errors import error
from .fqg import FQG, ComponentInfo, InstanceInfo
from .text import attribute_rows, edge_text_chunks, joined, node_text_chunks

NODE_BUILTINS = (("type", "string"), ("instance", "string"), ("instance_index", "long"), ("device", "string"),
                 ("component", "string"), ("component_index", "long"), ("parent_device", "string"))
HEADER = ('<?xml version="1.0" encoding="utf-8"?>\n'
          '<graphml xmlns="http://graphml.graphdrawing.org/xmlns" '
          'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
          'xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns '
          'http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">\n')


def escape(text: str) -> str:
    """XML character data and attribute values (xml.sax.saxutils pulls in urllib and ssl: 80 ms)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _type(values: list[Value]) -> str:
    if all(isinstance(v, bool) for v in values):
        return "boolean"
    if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return "long"
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        return "double"
    return "string"


def _text(v: Value, kind: str) -> str:
    if kind == "boolean":
        return "true" if v else "false"
    if kind == "double":
        return repr(float(v))
    return escape(str(v))


class _Keys:
    """GraphML <key> declarations: one id per (scope, attribute name), with its type."""

    def __init__(self) -> None:
        self.ids: dict[tuple[str, str], str] = {}
        self.types: dict[tuple[str, str], str] = {}

    def add(self, scope: str, name: str, kind: str) -> None:
        if (scope, name) not in self.ids:
            self.ids[(scope, name)] = f"d{len(self.ids)}"
            self.types[(scope, name)] = kind

    def data(self, scope: str, name: str, value: Value, indent: str = "      ") -> str:
        return f'{indent}<data key="{self.ids[(scope, name)]}">{_text(value, self.types[(scope, name)])}</data>\n'

    def declarations(self) -> str:
        return "".join(f'  <key id="{i}" for="{scope}" attr.name="{escape(name)}" '
                       f'attr.type="{self.types[(scope, name)]}" />\n' for (scope, name), i in self.ids.items())


def graphml_chunks(g: FQG) -> Iterator[str]:
    """The GraphML text in pieces to write one after another."""
    keys = _Keys()
    graph_attrs = {"name": g.name, **g.graph_annotations}
    for name, v in graph_attrs.items():
        keys.add("graph", name, _type([v]))
    for name, kind in NODE_BUILTINS:
        keys.add("node", name, kind)
    for name, values in g.node_attrs.items():
        if ("node", name) in keys.ids:
            raise error(f"cannot write GraphML: the node annotation '{name}' has the name of a built-in node "
                        "attribute", path=f"annotations.{name}")
        keys.add("node", name, _type(list(values.values())))
    link_attrs: dict[str, list[Value]] = {"link": [x.qualified_name for x in g.links],
                                          "bandwidth_gbps": [x.bandwidth_gbps for x in g.links if x.bandwidth_gbps is not None],
                                          "latency_ns": [x.latency_ns for x in g.links if x.latency_ns is not None]}
    for x in g.links:
        for name, v in x.attributes.items():
            link_attrs.setdefault(name, []).append(v)
    for name, values in g.edge_attrs.items():
        link_attrs.setdefault(name, []).extend(values.values())
    for name, values in link_attrs.items():
        keys.add("edge", name, "string" if name == "link" else _type(values) if values else "string")

    yield HEADER + keys.declarations() + '  <graph edgedefault="undirected">\n'

    def node_template(inst: InstanceInfo, local: int, comp: ComponentInfo) -> tuple[str, str, str]:
        suffix = inst.suffixes[local]
        head = '    <node id="' + escape(inst.name + ".")
        middle = (escape("." + suffix) + '">\n' + keys.data("node", "type", comp.type)
                  + keys.data("node", "instance", inst.name) + f'      <data key="{keys.ids[("node", "instance_index")]}">')
        tail = ("</data>\n" + keys.data("node", "device", inst.device) + keys.data("node", "component", comp.name)
                + keys.data("node", "component_index", int(suffix[suffix.rfind(".") + 1:]))
                + keys.data("node", "parent_device", comp.device))
        return head, middle, tail

    node_extra = {n: "".join(keys.data("node", a, v) for a, v in attrs.items())
                  for n, attrs in attribute_rows(g.node_attrs).items()}
    yield from joined(node_text_chunks(g, node_template, "    </node>\n", node_extra), sep="")

    names = [escape(n) for n in g.node_names]
    per_link = []
    for x in g.links:
        text = keys.data("edge", "link", x.qualified_name)
        if x.bandwidth_gbps is not None:
            text += keys.data("edge", "bandwidth_gbps", x.bandwidth_gbps)
        if x.latency_ns is not None:
            text += keys.data("edge", "latency_ns", x.latency_ns)
        per_link.append(text + "".join(keys.data("edge", a, v) for a, v in x.attributes.items()))
    edge_extra = {e: "".join(keys.data("edge", a, v) for a, v in attrs.items())
                  for e, attrs in attribute_rows(g.edge_attrs).items()}

    def render(first: int, src: list[int], dst: list[int], link: list[int]) -> list[str]:
        return [f'    <edge source="{names[s]}" target="{names[d]}" id="{first + i}">\n{per_link[k]}    </edge>\n'
                for i, (s, d, k) in enumerate(zip(src, dst, link))]

    yield from joined(edge_text_chunks(g, render, "    </edge>\n", edge_extra), sep="")
    yield "".join(keys.data("graph", a, v, "    ") for a, v in graph_attrs.items()) + "  </graph>\n</graphml>\n"
