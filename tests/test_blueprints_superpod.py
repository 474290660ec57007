"""std.fabrics.superpod against NVIDIA's published DGX SuperPOD compute-fabric counts.

The published table (DGX SuperPOD Reference Architecture with DGX B200 systems, "DGX SuperPOD
Architecture", larger DGX SuperPOD component counts; the same 32-DGX scalable unit on 64-port NDR
switches as the DGX H100 edition, RA-11333-001) is the test data: per number of scalable units,
DGX nodes, GPUs, leaf / spine / core switches and the cables of each tier.
"""

from __future__ import annotations

import pytest

from infragraph import blueprints
from tests import blueprint_checks as bc

# SUs: (nodes, GPUs, leaf, spine, core, node-leaf, leaf-spine, spine-core cables); core 0 = no core tier
PUBLISHED = {
    2: (64, 512, 16, 8, 0, 512, 512, 0),
    4: (128, 1024, 32, 16, 0, 1024, 1024, 0),
    8: (256, 2048, 64, 32, 0, 2048, 2048, 0),
    16: (512, 4096, 128, 128, 64, 4096, 4096, 4096),
    32: (1024, 8192, 256, 256, 128, 8192, 8192, 8192),
    64: (2048, 16384, 512, 512, 256, 16384, 16384, 16384),
}
# NVIDIA's "spine" is the Clos's second tier: `spine` with 2 tiers, `agg` under a core
SECOND = {2: "spine", 3: "agg"}


@pytest.mark.parametrize("sus", sorted(PUBLISHED))
def test_switch_counts_are_the_published_ones(sus):
    nodes, gpus, leaf, spine, core, *_ = PUBLISHED[sus]
    doc = blueprints.instantiate("std.fabrics.superpod", scalable_units=sus)
    counts = {i.name: i.count for i in doc.instances}
    tiers = 3 if core else 2
    assert counts == {"host": nodes, "leaf": leaf, SECOND[tiers]: spine, **({"core": core} if core else {})}
    assert doc.annotations.graph["dims"] == f"SW(*)_SW({nodes})"
    assert doc.annotations.graph["max_oversubscription"] == 1


@pytest.mark.parametrize("sus", [2, 16])
def test_cables_per_tier_are_the_published_ones_and_every_switch_port_is_used(sus):
    nodes, gpus, leaf, spine, core, node_leaf, leaf_spine, spine_core = PUBLISHED[sus]
    g = bc.build("std.fabrics.superpod", scalable_units=sus, server="dgx.dgx(nvswitches = 1)")
    assert int((g.node_type == g.type_names.index("xpu")).sum()) == gpus
    second = SECOND[3 if core else 2]
    assert bc.cables_between(g, "host", "leaf") == node_leaf
    assert bc.cables_between(g, "leaf", second) == leaf_spine
    if core:
        assert bc.cables_between(g, "agg", "core") == spine_core
    assert (bc.port_cable_counts(g) == 1).all()  # no idle switch port: no switch more than needed
    bc.assert_hygiene(g)


def test_a_scalable_unit_is_one_rail_group():
    """NIC i of the 32 DGX of SU s is cabled to leaf 8 s + i (rail-optimized, NVIDIA's SU)."""
    g = bc.build("std.fabrics.superpod", scalable_units=2, server="dgx.dgx(nvswitches = 1)")
    base = bc.copy_base(g, "leaf")
    ids = bc.copy_ids(g)
    for host in (0, 31, 32, 63):
        for nic in (0, 7):
            port = g.node_id(f"host.{host}.nic.{nic}.port.0")
            m = bc.cable_mask(g) & ((g.edge_src == port) | (g.edge_dst == port))
            (e,) = m.nonzero()[0]
            other = g.edge_dst[e] if g.edge_src[e] == port else g.edge_src[e]
            assert int(ids[other]) - base == 8 * (host // 32) + nic


def test_scalable_units_below_one_are_refused():
    assert "scalable_units must be at least 1, got 0" in bc.rejection("std.fabrics.superpod", scalable_units=0)
