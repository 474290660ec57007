"""collectives/bound.py: the lower bounds synthesized schedules are judged against, checked by hand
(bits / Gbit/s = ns) on a ring and on NPUs of unequal ports, where the slowest port must bind."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from infragraph.collectives.bound import lower_bound
from infragraph.collectives.links import LogicalLinks, logical_links
from infragraph.graph.ranks import npu_order
from infragraph.sources import load_graph

RING8 = Path(__file__).resolve().parents[2] / "examples" / "ring8.igl"
D = 1_000_000  # bytes per NPU


def _ports(ingress: list[float], egress: list[float]) -> LogicalLinks:
    """Only the per-NPU port bandwidths matter to the bound; no links are needed."""
    empty = np.zeros(0)
    return LogicalLinks(len(ingress), empty, empty, empty, empty, np.zeros(1, np.int64), empty,
                        np.array(ingress, float), np.array(egress, float))


@pytest.fixture(scope="module")
def ring8_links():
    g = load_graph(RING8)
    return logical_links(g, npu_order(g))


def test_a_ring_npu_has_both_neighbours_as_ports(ring8_links):
    # 50 GB/s per direction = 400 Gbit/s to each neighbour.
    assert ring8_links.ingress_gbps.tolist() == [800.0] * 8 and ring8_links.egress_gbps.tolist() == [800.0] * 8


@pytest.mark.parametrize("collective, ns, binds", [
    ("all-gather", 7 / 8 * D * 8 / 800, "receives (n-1)/n of the buffer over 800 Gbit/s"),
    ("reduce-scatter", 7 / 8 * D * 8 / 800, "sends (n-1)/n of the buffer over 800 Gbit/s"),
    # per NPU: D * 8 / 800 = 10,000 ns; all NPUs together: 2 * 7 * D * 8 / 6,400 = 17,500 ns.
    ("all-reduce", 2 * 7 * D * 8 / 6400, "2(n-1) x the buffer leaves the ranks over 6400 Gbit/s"),
])
def test_the_ring_bounds_by_hand(ring8_links, collective, ns, binds):
    b = lower_bound(ring8_links, collective, D)
    assert b.time_ns == pytest.approx(ns, rel=1e-12) and binds in b.reason


def test_the_npu_with_the_fewest_ports_binds():
    links = _ports(ingress=[800, 200, 800, 800], egress=[800, 800, 100, 800])
    ag = lower_bound(links, "all-gather", D)
    assert ag.time_ns == pytest.approx(3 / 4 * D * 8 / 200) and ag.reason.startswith("rank 1 receives")
    rs = lower_bound(links, "reduce-scatter", D)
    assert rs.time_ns == pytest.approx(3 / 4 * D * 8 / 100) and rs.reason.startswith("rank 2 sends")
    ar = lower_bound(links, "all-reduce", D)  # D * 8 / 100 beats the aggregate 6 * D * 8 / 2,500
    assert ar.time_ns == pytest.approx(D * 8 / 100) and ar.reason.startswith("rank 2 sends all of the buffer")
