"""infragraph.simulate.load: link tiers, cables only, and per-tier utilization in the result."""

from __future__ import annotations

import numpy as np
import pytest

from infragraph import blueprints, schemas
from infragraph.simulate import SimulationOptions as Opts
from infragraph.simulate import simulate
from infragraph.simulate.load import CABLE, INTERNAL, link_tiers
from tests import simgraphs


@pytest.fixture(scope="module")
def clos3():
    return blueprints.graph("std.fabrics.clos", radix=4, tiers=3)


def test_clos_tiers_are_named_for_the_instances_they_join(clos3):
    t = link_tiers(clos3)
    cables = [n for n, k in zip(t.names, t.kinds) if k == CABLE]
    assert cables == ["host–leaf", "leaf–agg", "agg–core"]
    internal = [n for n, k in zip(t.names, t.kinds) if k == INTERNAL]
    assert "host: PCIe" in internal and "leaf: ASIC to port" in internal
    # every edge has one tier; counts per cable tier follow the Clos: 16 hosts, 2 x 16 uplinks
    counts = np.bincount(t.edge_tier, minlength=len(t.names))
    assert [int(counts[t.names.index(n)]) for n in cables] == [16, 16, 16]
    assert t.is_cable.sum() == 48


def test_stack_dimensions_and_dragonfly_link_kinds_are_separate_tiers():
    t = link_tiers(blueprints.graph("std.fabrics.stack", shape="RI(4)_SW(2)"))
    assert [n for n, k in zip(t.names, t.kinds) if k == CABLE] == ["npu–npu", "npu–sw2"]
    # each SW dimension has its own switches, so its cables and its switches' ASIC-port links are tiers of their own
    t = link_tiers(blueprints.graph("std.fabrics.stack", shape="SW(2)_SW(4)"))
    assert [(n, k) for n, k in zip(t.names, t.kinds) if n != "npu: NPU to port"] == [
        ("npu–sw1", CABLE), ("npu–sw2", CABLE), ("sw1: ASIC to port", INTERNAL), ("sw2: ASIC to port", INTERNAL)]
    t = link_tiers(blueprints.graph("std.fabrics.stack", shape="RI(4)_FC(3)"))
    assert [n for n, k in zip(t.names, t.kinds) if k == CABLE] == ["npu–npu: dimension 1 RI(4)",
                                                                   "npu–npu: dimension 2 FC(3)"]
    t = link_tiers(blueprints.graph("std.fabrics.dragonfly", p=1, a=2, h=1, g=3))
    assert [n for n, k in zip(t.names, t.kinds) if k == CABLE] == [
        "router–router: global (inter-group)", "router–router: local (intra-group)", "router–host"]


def test_result_has_tiers_bottleneck_and_cables_only(clos3):
    r = simulate(clos3, Opts(size_bytes=1 << 20, model="aware", links="cables", top_links=None))
    schemas.validate("simulation-result", r)
    tiers = {t["tier"]: t for t in r["tiers"]}
    assert all(link["tier"] in ("host–leaf", "leaf–agg", "agg–core") for link in r["links"])
    assert r["links_listed"] == "cables"
    # the listed cables are exactly the used directed cables, and the tier table counts them too
    assert len(r["links"]) == sum(t["links_used"] for t in r["tiers"] if t["kind"] == "cable")
    assert tiers["host–leaf"]["links"] == 32 and tiers["host–leaf"]["links_used"] == 32  # a ring uses every host
    u = tiers["host–leaf"]["utilization"]
    assert 0 < u["p50"] <= u["p90"] <= u["p99"] <= u["max"] <= 1
    assert r["bottleneck_tier"] in tiers
    best = max(t["utilization"]["max"] for t in r["tiers"])
    assert tiers[r["bottleneck_tier"]]["utilization"]["max"] == pytest.approx(best)
    every = simulate(clos3, Opts(size_bytes=1 << 20, model="aware", top_links=None))
    assert len(every["links"]) == every["links_used"] > len(r["links"])


def test_bottleneck_prefers_a_cable_on_a_tie():
    # An NPU's port hop and its cable carry the same bytes at the same speed in a ring.
    r = simulate(blueprints.graph("std.fabrics.ring", npus=4), Opts(model="aware"))
    assert r["bottleneck_tier"] == "npu–npu"


def test_nothing_moved_has_no_bottleneck():
    from infragraph.simulate.load import bottleneck_tier, tier_summary

    t = link_tiers(simgraphs.ring(4))
    idle = tier_summary(t, np.zeros(2 * t.edge_tier.size), np.zeros(2 * t.edge_tier.size))
    assert [s["links_used"] for s in idle] == [0] and bottleneck_tier(idle) is None


def test_unknown_link_filter_is_a_located_error():
    from infragraph.errors import InfraGraphError

    with pytest.raises(InfraGraphError, match="(?s)unknown link filter 'cable'.*did you mean 'cables'"):
        simulate(simgraphs.ring(4), Opts(links="cable"))


def test_busiest_links_list_a_cable_before_the_port_hop_that_feeds_it():
    r = simulate(blueprints.graph("std.fabrics.ring", npus=4), Opts(model="aware"))
    top = r["links"][0]
    assert top["tier"] == "npu–npu" and top["utilization"] == r["max_link_utilization"]
