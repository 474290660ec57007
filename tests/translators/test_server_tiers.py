"""Clos of multi-GPU servers on ASTRA-sim's analytical network: the scale-up domain, then one Switch per tier."""

from __future__ import annotations

import pytest
import yaml

from infragraph import blueprints
from infragraph import translators as T
from infragraph.errors import InfraGraphError
from infragraph.translators.astra_system import rank_names
from infragraph.translators.fat_tree import NotAFatTree
from infragraph.translators.server_tiers import server_tier_product
from infragraph.translators.structure import fabric

TWO_NIC = "hosts.host(cpus=1, gpus=8, nics=2, pcie_switches=2, scaleup_switches=1)"  # benchmarks/simulate.py's clos32k


def _product(**params):
    fab = fabric(blueprints.graph("std.fabrics.clos", radix=8, **params))
    return fab, server_tier_product(fab)


def test_dgx_rail_optimized_is_nvswitch_then_the_rail_leaves():
    fab, p = _product(nics_per_host=8, rail_optimized=True, host_device="dgx.dgx()")
    assert p.shape() == "SW(8)_SW(4)"  # 4 servers share the 8 rail leaves; the spines add no dimension
    assert [d.bw_gbps for d in p.dims] == [3600.0, 400.0]  # 450 GB/s NVLink per direction; one 400 Gbit/s NIC per GPU
    assert [d.lat_ns for d in p.dims] == [100.0, 650.0]
    assert rank_names(fab, p.order)[:9] == [f"host.0.gpu.{i}" for i in range(8)] + ["host.1.gpu.0"]


def test_servers_sharing_two_nics_get_each_gpus_share_per_tier():
    fab, p = _product(nics_per_host=2, host_device=TWO_NIC)
    assert p.shape() == "SW(8)_SW(2)_SW(8)"  # 2 servers per leaf (2 NICs each on 4 down ports), 8 leaves
    assert [d.bw_gbps for d in p.dims] == [7200.0, 100.0, 100.0]  # 2 x 400 Gbit/s over 8 GPUs; 4 uplinks over 16
    assert [d.lat_ns for d in p.dims][1:] == [650.0, 1150.0]
    assert any("servers of 8 GPUs on 1 scale-up switch(es)" in n for n in p.notes)


def test_a_clos_without_scale_up_switches_is_not_this_model():
    with pytest.raises(NotAFatTree, match="no switch inside a server"):
        server_tier_product(fabric(blueprints.graph("std.fabrics.clos", radix=4)))


def test_the_analytical_bundle_uses_it_with_approximate():
    g = blueprints.graph("std.fabrics.clos", radix=8, nics_per_host=8, rail_optimized=True, host_device="dgx.dgx()")
    b = T.get("astra-analytical").translate(g, T.Options(approximate=True))
    net = yaml.safe_load(b.files["network.yml"])
    assert net["npus_count"] == [8, 4] and net["topology"] == ["Switch", "Switch"]
    assert b.rank_order[:2] == ["host.0.gpu.0", "host.0.gpu.1"]


def test_the_error_statement_is_computed_even_where_lifo_deadlocks_our_engine():
    """The 2-NIC servers' comparison used to end in 'not computed' (our engine deadlocks in LIFO order
    on the real graph with congestion); it now falls back to FIFO order and says so."""
    g = blueprints.graph("std.fabrics.clos", radix=8, nics_per_host=2, host_device=TWO_NIC)
    notes = T.get("astra-analytical").translate(g, T.Options(approximate=True)).notes
    error = next(n for n in notes if n.startswith("error of this approximation"))
    assert "not computed" not in error and "ns here vs" in error
    assert "deadlock" not in error or "in FIFO chunk order" in error


def test_the_refusal_says_what_approximate_makes_of_switch_servers():
    """The hint said 'a Clos becomes one Switch dimension per tier' on NVSwitch servers too, where
    --approximate puts the scale-up domain first and a tier joining one server adds none."""
    dgx = blueprints.graph("std.fabrics.clos", radix=8, nics_per_host=8, rail_optimized=True, host_device="dgx.dgx()")
    with pytest.raises(InfraGraphError) as caught:
        T.get("astra-analytical").translate(dgx, T.Options())
    assert caught.value.diagnostics[0].hint.startswith(
        "pass --approximate for the closest model, SW(8)_SW(4): the servers' scale-up domain as one Switch dimension, "
        "then one Switch dimension per tier that joins several servers or groups of them")
    plain = blueprints.graph("std.fabrics.clos", radix=4, tiers=3)
    with pytest.raises(InfraGraphError) as caught:
        T.get("astra-analytical").translate(plain, T.Options())
    assert caught.value.diagnostics[0].hint.startswith(  # was 'to model each network as one switch'
        "pass --approximate for the closest model, SW(2)_SW(2)_SW(4): one Switch dimension per tier")


def test_approximate_on_switch_servers_names_each_tier_and_keeps_no_hub_note():
    """The notes said the servers' CPU/PCIe complexes are 'kept as a forwarding node (hub)' (the
    model folds them into the dimensions) and 'one Switch dimension per tier' where the spines add none."""
    g = blueprints.graph("std.fabrics.clos", radix=8, nics_per_host=8, rail_optimized=True, host_device="dgx.dgx()")
    notes = T.get("astra-analytical").translate(g, T.Options(approximate=True)).notes
    assert not any("forwarding node (hub)" in n for n in notes), notes
    model = next(n for n in notes if n.startswith("APPROXIMATION: servers of 8 GPUs"))
    assert "modelled as SW(8)_SW(4): the scale-up domain SW(8), then tier 0 SW(4) over 4 servers; tier 1 joins no " \
           "two tier-0 groups (no dimension)" in model
