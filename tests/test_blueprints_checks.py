"""The checks in blueprint_checks.py must accept correct wiring and reject a slip.

Graphs here are built directly as documents (no language), once correct and once with one cable
moved, so a check that passes everything is caught before it is trusted with the blueprints.
"""

from __future__ import annotations

from math import prod

import numpy as np
import pytest

from infragraph.document.model import Bandwidth, Component, Device, Edge, Endpoint, Infrastructure, Instance, Link
from infragraph.graph import expand
from tests import blueprint_checks as bc


def _node(ports: int) -> Device:
    return Device("node", [Component("xpu", 1, "xpu"), Component("port", ports, "port")], [Link("ic")],
                  [Edge(Endpoint("xpu"), Endpoint("port"), "ic", "many2many")])


def grid_doc(sizes: list[int], wrap: bool, swap: bool = False) -> Infrastructure:
    """A k-ary n-cube written out cable by cable; `swap` reroutes one cable to a non-neighbour."""
    n = prod(sizes)
    cables = []
    for i in range(n):
        x = bc.coords(i, sizes)
        stride = 1
        for d, k in enumerate(sizes):
            if x[d] + 1 < k or (wrap and k > 2):
                j = i + stride * (((x[d] + 1) % k) - x[d])
                cables.append((i, 2 * d, j, 2 * d + 1))
            stride *= k
    if swap:
        i, p, j, q = cables[0]
        cables[0] = (i, p, (i + 2) % n, 2 * len(sizes))  # onto the spare port of a non-neighbour
    edges = [Edge(Endpoint(f"port[{p}]", f"node[{i}]"), Endpoint(f"port[{q}]", f"node[{j}]"), "wire")
             for i, p, j, q in cables]
    return Infrastructure("grid", devices=[_node(2 * len(sizes) + 1)], links=[Link("wire", bandwidth=Bandwidth(100))],
                          instances=[Instance("node", "node", n)], edges=edges)


@pytest.mark.parametrize("sizes,wrap", [([4, 4], True), ([3, 5], False), ([2, 2, 2], True), ([8, 4, 2], True)])
def test_grid_check_accepts_a_correct_grid(sizes, wrap):
    g = expand(grid_doc(sizes, wrap))
    bc.assert_hygiene(g)
    bc.check_grid(g, "node", sizes, wrap)


def test_grid_formulas_by_hand():
    # 4x4 torus: 32 links, diameter 4; 3x5 mesh: 3*4 + 5*2 = 22 links, diameter 6; 2x2x2: 12 links
    assert (bc.grid_link_count([4, 4], True), bc.grid_diameter([4, 4], True)) == (32, 4)
    assert (bc.grid_link_count([3, 5], False), bc.grid_diameter([3, 5], False)) == (22, 6)
    assert (bc.grid_link_count([2, 2, 2], True), bc.grid_diameter([2, 2, 2], True)) == (12, 3)


def test_grid_check_rejects_a_moved_cable():
    g = expand(grid_doc([4, 4], True, swap=True))
    with pytest.raises(AssertionError):
        bc.check_grid(g, "node", [4, 4], True)


def test_connectivity_check_sees_a_split():
    g = expand(grid_doc([4], False))
    bc.assert_connected(g, g.nodes_of_type("xpu"))
    doc = grid_doc([4], False)
    doc.edges.pop(1)  # cut the middle link of the 4-node line
    with pytest.raises(AssertionError, match="2 separate groups"):
        bc.assert_connected(expand(doc), g.nodes_of_type("xpu"))


def test_port_check_counts_cables_not_internal_wiring():
    g = expand(grid_doc([3], True))
    assert bc.port_cable_counts(g).tolist() == [1, 1, 0] * 3  # ring of 3; the spare port is free
    assert bc.type_counts(g) == {"xpu": 3, "port": 9}


def star_doc(hosts: int, leaves: int, spines: int) -> Infrastructure:
    """2-tier leaf-spine: hosts spread over leaves, each leaf one cable to each spine."""
    sw = Device("sw", [Component("asic", 1, "switch"), Component("port", 64, "port")], [Link("ic")],
                [Edge(Endpoint("asic"), Endpoint("port"), "ic", "many2many")])
    host = _node(1)
    per_leaf = hosts // leaves
    edges = [Edge(Endpoint("port[0]", f"host[{h}]"), Endpoint(f"port[{h % per_leaf}]", f"leaf[{h // per_leaf}]"), "wire")
             for h in range(hosts)]
    edges += [Edge(Endpoint(f"port[{32 + s}]", f"leaf[{l}]"), Endpoint(f"port[{l}]", f"spine[{s}]"), "wire")
              for l in range(leaves) for s in range(spines)]
    return Infrastructure("star", devices=[host, sw], links=[Link("wire", bandwidth=Bandwidth(100))],
                          instances=[Instance("host", "node", hosts), Instance("leaf", "sw", leaves),
                                     Instance("spine", "sw", spines)], edges=edges)


def test_bisection_is_the_min_cut_between_halves():
    # 8 hosts on 4 leaves; with 2 spines each leaf has 2 up for 2 down: full bisection 4 x 100
    assert bc.bisection_of_halves(expand(star_doc(8, 4, 2)), "host") == 400
    # 1 spine: 2:1 oversubscribed, the 2 leaves of one half push 2 x 100 across
    assert bc.bisection_of_halves(expand(star_doc(8, 4, 1)), "host") == 200
    assert bc.hosts_per_switch(expand(star_doc(8, 4, 1)), "host", "leaf").tolist() == [0, 0, 1, 1, 2, 2, 3, 3]


def test_copy_graph_and_distances():
    g = expand(star_doc(8, 4, 2))
    hosts = bc.copy_base(g, "host") + np.arange(8)
    d = bc.hop_distances(g, hosts)
    assert d[0, 1] == 2 and d[0, 2] == 4  # same leaf: host-leaf-host; else via a spine
    assert bc.cables_between(g, "leaf", "spine") == 8
