"""The fully qualified graph (FQG): the contract every consumer reads.

Nodes are integer ids 0..N-1; every node is one leaf component of one device instance, named
``<instance>.<i>.<component>.<j>`` (nested devices extend the path: ``dgx.0.cx5.0.port.0``).
Edges are parallel arrays (`edge_src`, `edge_dst`, `edge_link`): one entry per physical link,
stored once (undirected), parallel links kept. Per-node and per-edge facts are numpy arrays
indexing small tables, so a 600k-node graph costs a few MB and no Python object per edge.

Units: bandwidth in Gbit/s (1e9 bit/s, SI), latency in ns (`units.BANDWIDTH_UNIT`, `LATENCY_UNIT`).

Node names are not stored: they are computed from the instance table and a per-device table of
leaf suffixes, so naming costs nothing until a consumer asks, and `node_id(name)` is arithmetic.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from ..document.model import Value
from ..errors import did_you_mean, error


@dataclass
class LinkInfo:
    """One link class. `scope` is the device that defines it, or "" for infrastructure links."""

    name: str
    scope: str
    bandwidth_gbps: float | None
    latency_ns: float | None
    description: str = ""
    attributes: dict[str, Value] = field(default_factory=dict)

    @property
    def qualified_name(self) -> str:
        return f"{self.scope}.{self.name}" if self.scope else self.name


@dataclass
class ComponentInfo:
    """A component declaration: which device declares it, its name and node type."""

    device: str
    name: str
    type: str


@dataclass
class InstanceInfo:
    """A device instance block: `count` copies of `device`, nodes [first_node, first_node + count*size)."""

    name: str
    device: str
    count: int
    first_node: int
    nodes_per_copy: int
    suffixes: list[str]  # leaf name suffixes of one copy, e.g. ["xpu.0", "cx5.0.port.0"]
    suffix_index: dict[str, int] = field(default_factory=dict, repr=False)

    def local_of(self, suffix: str) -> int | None:
        if not self.suffix_index:
            self.suffix_index.update({s: i for i, s in enumerate(self.suffixes)})
        return self.suffix_index.get(suffix)


@dataclass
class FQG:
    name: str
    instances: list[InstanceInfo]
    components: list[ComponentInfo]
    type_names: list[str]
    links: list[LinkInfo]
    # per node
    node_type: np.ndarray  # int16 -> type_names
    node_component: np.ndarray  # int32 -> components
    node_instance: np.ndarray  # int32 -> instances
    node_copy: np.ndarray  # int32: the <i> of the instance
    node_owner: np.ndarray  # int32: id of the innermost device copy holding the node
    # per edge
    edge_src: np.ndarray  # int32
    edge_dst: np.ndarray  # int32
    edge_link: np.ndarray  # int32 -> links
    edge_origin: np.ndarray  # int32 -> edge_records
    edge_records: list[str]  # document path of the record that produced each edge group
    # annotations: attribute -> {node id / edge id: value}
    node_attrs: dict[str, dict[int, Value]] = field(default_factory=dict)
    edge_attrs: dict[str, dict[int, Value]] = field(default_factory=dict)
    graph_annotations: dict[str, Value] = field(default_factory=dict)
    description: str = ""

    # --- sizes ------------------------------------------------------------------------------
    @property
    def num_nodes(self) -> int:
        return int(self.node_type.shape[0])

    @property
    def num_edges(self) -> int:
        return int(self.edge_src.shape[0])

    # --- names ------------------------------------------------------------------------------
    def node_name(self, node: int) -> str:
        inst = self.instances[int(self.node_instance[node])]
        copy, local = divmod(int(node) - inst.first_node, inst.nodes_per_copy)
        return f"{inst.name}.{copy}.{inst.suffixes[local]}"

    def names_of(self, nodes: np.ndarray) -> list[str]:
        """The names of `nodes` (ids, any order), built per instance block: for a million GPUs of a
        six-million-node graph without naming every node (`node_names`)."""
        nodes = np.asarray(nodes, dtype=np.int64)
        of = np.asarray(self.node_instance)[nodes]
        out: list[str] = [""] * nodes.size
        for i in np.unique(of).tolist():
            inst = self.instances[i]
            at = np.flatnonzero(of == i)
            copy, local = np.divmod(nodes[at] - inst.first_node, inst.nodes_per_copy)
            prefix, suffixes = inst.name, inst.suffixes
            names = [f"{prefix}.{c}.{suffixes[k]}" for c, k in zip(copy.tolist(), local.tolist())]
            if at.size == nodes.size:
                return names
            for j, name in zip(at.tolist(), names):
                out[j] = name
        return out

    @cached_property
    def node_names(self) -> list[str]:
        """All node names in id order (built on first use)."""
        out: list[str] = []
        for inst in self.instances:
            for copy in range(inst.count):
                prefix = f"{inst.name}.{copy}."
                out.extend([prefix + s for s in inst.suffixes])
        return out

    @cached_property
    def _instance_by_name(self) -> dict[str, InstanceInfo]:
        return {i.name: i for i in self.instances}

    def node_id(self, name: str) -> int:
        """The id of a fully qualified node name; InfraGraphError (with a suggestion) if absent."""
        parts = name.split(".", 2)
        by_name = self._instance_by_name
        inst = by_name.get(parts[0])
        if inst is None or len(parts) < 3 or not parts[1].isdigit():
            raise error(f"no node named '{name}'; node names look like 'instance.index.component.index'",
                        hint=did_you_mean(parts[0], by_name) if inst is None else None)
        copy = int(parts[1])
        local = inst.local_of(parts[2])
        if copy >= inst.count or local is None:
            raise error(f"no node named '{name}' (instance '{inst.name}' has {inst.count} copies of "
                        f"device '{inst.device}' with {inst.nodes_per_copy} nodes each)",
                        hint=did_you_mean(parts[2], inst.suffixes[:2000]))
        return inst.first_node + copy * inst.nodes_per_copy + local

    # --- node attributes --------------------------------------------------------------------
    def type_mask(self, type_name: str) -> np.ndarray:
        """Boolean node mask of the nodes whose `type` is exactly `type_name` (all False when no
        node has that type)."""
        if type_name not in self.type_names:
            return np.zeros(self.num_nodes, dtype=bool)
        return self.node_type == self.type_names.index(type_name)

    def nodes_of_type(self, type_name: str) -> np.ndarray:
        """Ids (int32, ascending) of every node whose `type` is exactly `type_name`."""
        return np.flatnonzero(self.type_mask(type_name)).astype(np.int32)

    def node_annotation(self, attribute: str) -> dict[int, Value]:
        return self.node_attrs.get(attribute, {})

    def node_attributes(self, node: int) -> dict[str, Value]:
        """Built-in attributes (type, instance, index, device, component) plus annotations."""
        inst = self.instances[int(self.node_instance[node])]
        comp = self.components[int(self.node_component[node])]
        name = self.node_name(node)
        out: dict[str, Value] = {
            "type": comp.type,
            "instance": inst.name,
            "instance_index": int(self.node_copy[node]),
            "device": inst.device,
            "component": comp.name,
            "component_index": int(name.rsplit(".", 1)[1]),
            "parent_device": comp.device,
        }
        for attr, values in self.node_attrs.items():
            if node in values:
                out[attr] = values[node]
        return out

    # --- edge attributes --------------------------------------------------------------------
    def _link_column(self, key: str) -> np.ndarray:
        col = np.array([np.nan if getattr(x, key) is None else getattr(x, key) for x in self.links],
                       dtype=np.float64)
        return col[self.edge_link] if self.links else np.zeros(self.num_edges)

    def edge_bandwidth_gbps(self) -> np.ndarray:
        """Per-edge bandwidth in Gbit/s (NaN where the link states none)."""
        return self._link_column("bandwidth_gbps")

    def edge_latency_ns(self) -> np.ndarray:
        """Per-edge latency in ns (NaN where the link states none)."""
        return self._link_column("latency_ns")

    def edge_attributes(self, edge: int) -> dict[str, Value]:
        link = self.links[int(self.edge_link[edge])]
        out: dict[str, Value] = {"link": link.qualified_name}
        if link.bandwidth_gbps is not None:
            out["bandwidth_gbps"] = link.bandwidth_gbps
        if link.latency_ns is not None:
            out["latency_ns"] = link.latency_ns
        out.update(link.attributes)
        for attr, values in self.edge_attrs.items():
            if edge in values:
                out[attr] = values[edge]
        return out
