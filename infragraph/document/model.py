"""Typed model of the public InfraGraph document (Infrastructure, Device, Component, Link, ...).

The classes mirror the public schema field for field, so that a document read from YAML/JSON and
written back is the same document. Bandwidth and latency keep the unit the author chose (the
public format's `choice`) and convert to the graph's units (Gbit/s, ns) on request.
Annotation values are typed (int, float, str, bool).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

from ..errors import SourceMap

COMPONENT_CHOICES = ("custom", "device", "cpu", "xpu", "nic", "memory", "port", "switch")

Value = Union[int, float, str, bool]


@dataclass
class Component:
    name: str
    count: int
    choice: str
    description: str = ""
    custom_type: str | None = None  # the public format's `custom: {type: ...}`

    @property
    def node_type(self) -> str:
        """The `type` attribute its graph nodes get (the custom type for `custom`)."""
        return self.custom_type if self.choice == "custom" and self.custom_type else self.choice


@dataclass
class Bandwidth:
    value: float
    unit: str = "gigabits_per_second"

    def gbps(self) -> float | None:
        """In Gbit/s (1e9 bit/s); None for transfers per second, which have no bit rate."""
        if self.unit == "gigabits_per_second":
            return float(self.value)
        if self.unit == "gigabytes_per_second":
            return float(self.value) * 8.0
        return None


@dataclass
class Latency:
    value: float
    unit: str = "ns"

    def ns(self) -> float:
        return float(self.value) * {"ns": 1.0, "us": 1e3, "ms": 1e6}[self.unit]


@dataclass
class Link:
    name: str
    description: str = ""
    bandwidth: Bandwidth | None = None
    latency: Latency | None = None


@dataclass
class Endpoint:
    """One end of an edge. `instance` is set for infrastructure edges; `device` optionally for
    device edges (composition); `component` is a dotted path of `name[slice]` segments."""

    component: str
    instance: str | None = None
    device: str | None = None


@dataclass
class Edge:
    ep1: Endpoint
    ep2: Endpoint
    link: str
    scheme: str = "one2one"


@dataclass
class Device:
    name: str
    components: list[Component] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    description: str = ""


@dataclass
class Instance:
    name: str
    device: str
    count: int
    description: str = ""


@dataclass
class NodeAnnotation:
    name: str  # a fully qualified node name, or a selector `instance[slice].component[slice]`
    attributes: dict[str, Value] = field(default_factory=dict)


@dataclass
class EdgeAnnotation:
    ep1: str
    ep2: str
    attributes: dict[str, Value] = field(default_factory=dict)


@dataclass
class LinkAnnotation:
    name: str
    attributes: dict[str, Value] = field(default_factory=dict)


@dataclass
class Annotations:
    nodes: list[NodeAnnotation] = field(default_factory=list)
    edges: list[EdgeAnnotation] = field(default_factory=list)
    links: list[LinkAnnotation] = field(default_factory=list)
    graph: dict[str, Value] = field(default_factory=dict)

    def is_empty(self) -> bool:
        return not (self.nodes or self.edges or self.links or self.graph)


@dataclass
class Infrastructure:
    name: str
    description: str = ""
    devices: list[Device] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    instances: list[Instance] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    annotations: Annotations = field(default_factory=Annotations)
    # Where each document path came from (a YAML file, or the .igl that generated it). Not part of
    # the document's value: two documents with different sources compare equal.
    source: SourceMap | None = field(default=None, compare=False, repr=False)

    def device(self, name: str) -> Device | None:
        return next((d for d in self.devices if d.name == name), None)
