"""Where a graph finding is in the user's source.

Every rule names what it found in graph terms (edge ids, node ids, link classes); a `Locator`
turns those into a document path and then, through the source map, into file:line:col:

- graph from a document (.yaml/.json/.igl): edge -> the record that produced it
  (`edges[3]`, `devices[1].edges[0]`, via `edge_origin`); node -> its instance block
  (`instances[2]`) or its component declaration; link class -> its definition;
- graph from an FQG JSON file: edge -> `edges[<id>]`, node -> `nodes[<id>]`, link -> `links[<k>]`,
  resolved to line:column in that JSON file (skipped for very large files, where composing a
  position-tracking parse would cost more than the lint itself; the path is still reported).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..document.io import YamlSourceMap
from ..document.model import Infrastructure
from ..errors import Location, SourceMap
from ..graph.fqg import FQG

MAX_POSITION_TRACKED_BYTES = 20_000_000


class Locator:
    """Base: subclasses say which document path describes a graph element; this class resolves it."""

    def __init__(self, file: str, source: SourceMap | None):
        self.file = file
        self.source = source

    def at(self, path: str) -> Location:
        """The location of a document path: file:line:col when known, always with the path."""
        if self.source is not None:
            found = self.source.locate(path)
            if found.file or found.line is not None:
                return Location(found.file or self.file, found.line, found.column, path)
        return Location(self.file, path=path)

    # --- paths (overridden) ---------------------------------------------------------------------
    def edge_path(self, edge: int) -> str:
        raise NotImplementedError

    def node_path(self, node: int) -> str:
        raise NotImplementedError

    def component_path(self, node: int) -> str:
        raise NotImplementedError

    def link_path(self, link: int) -> str:
        raise NotImplementedError

    # --- locations ------------------------------------------------------------------------------
    def edge(self, edge: int) -> Location:
        return self.at(self.edge_path(int(edge)))

    def node(self, node: int) -> Location:
        return self.at(self.node_path(int(node)))

    def component(self, node: int) -> Location:
        return self.at(self.component_path(int(node)))

    def link(self, link: int) -> Location:
        return self.at(self.link_path(int(link)))


class DocumentLocator(Locator):
    """For a graph expanded from `doc` in this process."""

    def __init__(self, file: str, doc: Infrastructure, g: FQG):
        super().__init__(file, doc.source)
        self.g = g
        self.device_index = {d.name: i for i, d in enumerate(doc.devices)}
        self.component_index = {
            (d.name, c.name): j for d in doc.devices for j, c in enumerate(d.components)}
        self.link_index = {("", x.name): k for k, x in enumerate(doc.links)}
        self.link_index.update(
            {(d.name, x.name): k for d in doc.devices for k, x in enumerate(d.links)})

    def edge_path(self, edge: int) -> str:
        return self.g.edge_records[int(self.g.edge_origin[edge])]

    def node_path(self, node: int) -> str:
        return f"instances[{int(self.g.node_instance[node])}]"

    def component_path(self, node: int) -> str:
        comp = self.g.components[int(self.g.node_component[node])]
        return (f"devices[{self.device_index[comp.device]}]"
                f".components[{self.component_index[(comp.device, comp.name)]}]")

    def link_path(self, link: int) -> str:
        info = self.g.links[link]
        k = self.link_index[(info.scope, info.name)]
        return f"links[{k}]" if not info.scope else f"devices[{self.device_index[info.scope]}].links[{k}]"


class FqgFileLocator(Locator):
    """For a graph read back from an FQG JSON file (possibly written by another tool)."""

    def __init__(self, file: str, g: FQG):
        source = None
        path = Path(file)
        if path.is_file() and path.stat().st_size <= MAX_POSITION_TRACKED_BYTES:
            source = YamlSourceMap(path.read_text(encoding="utf-8"), file)  # JSON is YAML
        super().__init__(file, source)

    def edge_path(self, edge: int) -> str:
        return f"edges[{edge}]"

    def node_path(self, node: int) -> str:
        return f"nodes[{node}]"

    component_path = node_path

    def link_path(self, link: int) -> str:
        return f"links[{link}]"


class FailedGraphLocator(Locator):
    """For the graph left after `graph.failures` cut edges and moved degraded ones onto new link
    classes: edge and link ids of that graph are mapped back to the graph the locator `base` knows."""

    def __init__(self, base: Locator, original: FQG, kept_edges: np.ndarray, failed: FQG):
        super().__init__(base.file, base.source)
        self.base = base
        self.kept = kept_edges
        index = {(x.scope, x.name): k for k, x in enumerate(original.links)}
        self.link_of = [index[(x.scope, x.name.split("~")[0])] for x in failed.links]

    def edge_path(self, edge: int) -> str:
        return self.base.edge_path(int(self.kept[edge]))

    def node_path(self, node: int) -> str:
        return self.base.node_path(node)

    def component_path(self, node: int) -> str:
        return self.base.component_path(node)

    def link_path(self, link: int) -> str:
        return self.base.link_path(self.link_of[link])

