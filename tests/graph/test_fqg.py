"""graph.fqg: node names computed from the instance table."""

from __future__ import annotations

import numpy as np

from infragraph import blueprints


def test_names_of_any_nodes_equal_the_full_name_list():
    # Several instance blocks (hosts and three switch tiers), nodes in any order and repeated.
    g = blueprints.graph("std.fabrics.clos", radix=8, tiers=3, nics_per_host=2)
    rng = np.random.default_rng(23)
    nodes = rng.integers(0, g.num_nodes, size=500)
    assert g.names_of(nodes) == [g.node_names[i] for i in nodes.tolist()]
    one_block = np.flatnonzero(np.asarray(g.node_instance) == 0)[::-1]
    assert g.names_of(one_block) == [g.node_names[i] for i in one_block.tolist()]
    assert g.names_of(np.zeros(0, dtype=np.int64)) == []
