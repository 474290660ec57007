"""graph/tiers.py: switch tiers as cable distance from the host boxes, and the tier table `info`
and lint IG009 read; tiers must not depend on how many cables a switch has."""

from __future__ import annotations

import numpy as np
import pytest

from infragraph.graph.tiers import box_tiers, tier_table
from infragraph.sources import load_graph


def test_box_tiers_is_the_cable_distance_from_the_nearest_host():
    # hosts 0, 1 - leaf 2 - spine 3 - lone switch 4 (no cable)
    a, b = np.array([0, 1, 2]), np.array([2, 2, 3])
    assert box_tiers(5, a, b, np.array([True, True, False, False, False])).tolist() == [0, 0, 1, 2, -1]


@pytest.mark.parametrize("hosts", [127, 128, 255, 256, 1000])
def test_a_switch_with_many_hosts_is_tier_1(hosts):
    """128 and 256 cables to the frontier wrapped an int8 count to -128 and 0: tier -1."""
    a, b = np.arange(hosts), np.full(hosts, hosts)
    tier = box_tiers(hosts + 1, a, b, np.arange(hosts + 1) < hosts)
    assert tier[-1] == 1 and (tier[:-1] == 0).all()


def test_parallel_cables_between_two_boxes_still_reach():
    assert box_tiers(2, np.zeros(256, int), np.ones(256, int), np.array([True, False])).tolist() == [0, 1]


def test_a_two_tier_clos_by_hand():
    t = tier_table(load_graph("std.fabrics.clos", {"radix": "4", "tiers": "2"}))
    rows = {r["tier"]: r for r in t["tiers"]}
    assert sorted(rows) == [0, 1, 2]
    assert (rows[0]["role"], rows[0]["boxes"], rows[0]["instances"]) == ("hosts", 8, ["host"])
    assert (rows[1]["boxes"], rows[1]["switch_asics"], rows[1]["ports_used_per_box"]) == (4, 4, [4.0, 4.0])
    assert rows[1]["down_cables"] == rows[1]["up_cables"] == [{"bandwidth_gbps": 400.0, "count": 8}]
    assert rows[1]["oversubscription"] == [1.0, 1.0] and rows[2]["oversubscription"] is None
    assert t["bill_of_materials"]["switch_boxes"] == {"1": 4, "2": 2}
    assert t["bill_of_materials"]["transceivers"] == [{"bandwidth_gbps": 400.0, "count": 32}]  # 2 per cable


def test_a_single_switch_of_128_ports_is_one_tier_above_its_hosts():
    t = tier_table(load_graph("std.fabrics.single_switch", {"ports": "128"}))
    assert [(r["tier"], r["role"], r["boxes"]) for r in t["tiers"]] == [(0, "hosts", 128), (1, "switches", 1)]
    assert t["bill_of_materials"]["cables"] == [{"tiers": [0, 1], "bandwidth_gbps": 400.0, "count": 128}]
