"""How large a graph may be built: the limits `graph.size` checks a document against before expansion.

Its own module, free of heavy imports, because the command line reads the defaults to build its
`--max-nodes`/`--max-edges` options before it loads anything else. The defaults are generous (the
largest blueprint graphs are a few million nodes and edges) and stop a count that is larger than
intended before it costs gigabytes.
"""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_MAX_NODES = 20_000_000
DEFAULT_MAX_EDGES = 50_000_000


@dataclass(frozen=True)
class Limits:
    """The largest graph expansion will build (nodes and edges)."""

    max_nodes: int = DEFAULT_MAX_NODES
    max_edges: int = DEFAULT_MAX_EDGES
