"""`infragraph decompile`: a public-format InfraGraph document -> readable .igl.

The output compiles back to the same graph: every device becomes a parameterless `device`, every
link a `link` declaration (device links inside their device), instances and edges go in one
`fabric`, node and edge annotations become `annotate` lines (`annotate between(a, b) ...` for an
edge) and link annotations free link attributes, graph annotations become fabric attributes.
Names that are not identifiers are written `quoted`. Gigatransfers-per-second bandwidths have no
.igl form: they are kept as comments and reported on stderr by the CLI (`unsupported`).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from ..document.model import Device, Edge, Endpoint, Infrastructure, Link, Value
from ..errors import error
from .ast import IDENTIFIER
from .build import clean_number

_KEYWORDS = {"import", "as", "param", "device", "fabric", "fn", "link", "let", "assert", "for", "in", "if",
             "then", "else", "component", "instance", "annotate", "include", "via", "one2one", "many2many",
             "ring", "true", "false", "and", "or", "not"}
_SEG = re.compile(r"^(?P<name>.+?)(?:\[(?P<sel>[^\]]*)\])?$")
_FQ = re.compile(r"^([^.\[\]]+)\.(\d+)((?:\.[^.\[\]]+\.\d+)*)$")
_BW = {"gigabits_per_second": "Gbps", "gigabytes_per_second": "GB/s"}


def name(text: str) -> str:
    """`text` as an .igl name (backquoted unless it is a plain identifier)."""
    return text if IDENTIFIER.fullmatch(text) and text not in _KEYWORDS else f"`{text}`"


def literal(v: Value) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    return '"' + str(v).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _path(text: str) -> str:
    out = []
    for part in text.split("."):
        m = _SEG.match(part.strip())
        sel = m.group("sel")
        out.append(name(m.group("name")) + ("" if sel is None else f"[{sel.replace(' ', '') or ':'}]"))
    return ".".join(out)


def _selector(text: str) -> str:
    """A node annotation name (fully qualified `host.0.gpu.3` or a selector) as an endpoint expression."""
    m = _FQ.match(text)
    if m:
        segs = [(m.group(1), m.group(2))] + re.findall(r"\.([^.\[\]]+)\.(\d+)", m.group(3))
        return ".".join(f"{name(n)}[{i}]" for n, i in segs)
    return _path(text)


@dataclass
class _Out:
    lines: list[str] = field(default_factory=list)
    unsupported: list[str] = field(default_factory=list)

    def add(self, depth: int, text: str) -> None:
        self.lines.append("    " * depth + text)


def _number(x: float, path: str) -> float | int:
    """A link's number as .igl text; NaN or infinity has no .igl form (and no meaning): an error
    at the document path, not a traceback."""
    if not math.isfinite(x):
        raise error(f"{x} is not a finite number; the document cannot be decompiled", path)
    return clean_number(x)


def _link(out: _Out, link: Link, depth: int, attrs: dict[str, Value], where: str) -> None:
    body = []
    if link.bandwidth is not None:
        unit = _BW.get(link.bandwidth.unit)
        if unit is None:
            out.unsupported.append(f"link '{link.name}': bandwidth in {link.bandwidth.unit} has no .igl unit")
        else:
            body.append(f"bandwidth = {_number(link.bandwidth.value, where + '.physical.bandwidth')} {unit}")
    if link.latency is not None:
        body.append(f"latency = {_number(link.latency.value, where + '.physical.latency')} {link.latency.unit}")
    if link.description:
        body.append(f"description = {literal(link.description)}")
    body += [f"{name(k)} = {literal(v)}" for k, v in attrs.items()]
    out.add(depth, f"link {name(link.name)} {{ {'; '.join(body)} }}" if body else f"link {name(link.name)} {{}}")


def _endpoint(ep: Endpoint) -> str:
    if ep.instance is not None:
        return _path(ep.instance) + ("." + _path(ep.component) if ep.component else "")
    comp = f"{ep.device}.{ep.component}" if ep.device else ep.component
    return _path(comp)


def _edge(out: _Out, e: Edge, depth: int) -> None:
    scheme = "" if e.scheme == "one2one" else f" {e.scheme}"
    out.add(depth, f"{_endpoint(e.ep1)} -- {_endpoint(e.ep2)}{scheme} via {name(e.link)}")


def _device(out: _Out, d: Device, link_attrs: dict[str, dict], where: str) -> None:
    out.add(0, f"device {name(d.name)} {{")
    if d.description:
        out.add(1, f"description = {literal(d.description)}")
    for c in d.components:
        kind = (f"custom({literal(c.custom_type or 'custom')})" if c.choice == "custom"
                else f"{name(c.name)}()" if c.choice == "device" else c.choice)  # a call: `nic` alone is the kind
        count = "" if c.count == 1 else f"[{c.count}]"
        attrs = f" {{ description = {literal(c.description)} }}" if c.description else ""
        out.add(1, f"component {name(c.name)}{count}: {kind}{attrs}")
    for j, link in enumerate(d.links):
        _link(out, link, 1, link_attrs.get(f"{d.name}.{link.name}", {}), f"{where}.links[{j}]")
    for e in d.edges:
        _edge(out, e, 1)
    out.add(0, "}")
    out.add(0, "")


def decompile(doc: Infrastructure) -> tuple[str, list[str]]:
    """(.igl text, things that could not be expressed) for a document."""
    out = _Out()
    fabric = doc.name
    taken = {d.name for d in doc.devices} | {link.name for link in doc.links}
    while fabric in taken:  # one .igl module has one namespace; the document has several
        fabric += "_fabric"
    if fabric != doc.name:
        out.unsupported.append(f"the document's name '{doc.name}' is also a device or link name: the fabric is "
                                 f"named '{fabric}'")
    if doc.description:
        out.add(0, '"""' + doc.description.replace('"""', '\\"\\"\\"') + '"""')
        out.add(0, "")
    out.add(0, f"# Decompiled from the InfraGraph document '{doc.name}'.")
    out.add(0, "")
    link_attrs = {la.name: la.attributes for la in doc.annotations.links}
    for j, link in enumerate(doc.links):
        _link(out, link, 0, link_attrs.get(link.name, {}), f"links[{j}]")
    if doc.links:
        out.add(0, "")
    for i, d in enumerate(doc.devices):
        _device(out, d, link_attrs, f"devices[{i}]")
    out.add(0, f"fabric {name(fabric)} {{")
    for k, v in doc.annotations.graph.items():
        out.add(1, f"{name(k)} = {literal(v)}")
    for inst in doc.instances:
        count = "" if inst.count == 1 else f"[{inst.count}]"
        desc = f" {{ description = {literal(inst.description)} }}" if inst.description else ""
        out.add(1, f"instance {name(inst.name)}{count}: {name(inst.device)}{desc}")
    for e in doc.edges:
        _edge(out, e, 1)
    for na in doc.annotations.nodes:
        attrs = ", ".join(f"{name(k)} = {literal(v)}" for k, v in na.attributes.items())
        if attrs:
            out.add(1, f"annotate {_selector(na.name)} {attrs}")
    for ea in doc.annotations.edges:
        attrs = ", ".join(f"{name(k)} = {literal(v)}" for k, v in ea.attributes.items())
        if attrs:
            out.add(1, f"annotate between({_selector(ea.ep1)}, {_selector(ea.ep2)}) {attrs}")
    out.add(0, "}")
    return "\n".join(out.lines) + "\n", out.unsupported
