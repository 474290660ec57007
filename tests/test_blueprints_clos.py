"""std.fabrics.clos and std.fabrics.single_switch against the folded-Clos formulas.

Switch counts per tier, host counts and cables per tier pair come from closed forms (the
textbook non-blocking numbers, and the general count prod(up below) * prod(down above) with
oversubscription); every port of a fully populated Clos must carry exactly one cable; the
bisection bandwidth is measured as a max-flow between the two halves of the hosts and compared
with min(host links, uplinks of each tier) of one half.
"""

from __future__ import annotations

from math import prod

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests import blueprint_checks as bc

BW = 400  # Gbit/s, the blueprint's default host and fabric links
NAMES = {1: ["leaf"], 2: ["leaf", "spine"], 3: ["leaf", "agg", "core"], 4: ["leaf", "agg", "spine", "core"]}


def expected(k: int, tiers: int, ratios=(), nics=1, planes=1) -> dict:
    """Closed-form sizes: up/down ports per tier, switches per tier (all planes), hosts."""
    ratios = list(ratios) + [1] * (tiers - 1 - len(ratios))
    ups = [int(k / (r + 1)) for r in ratios]
    downs = [k - u for u in ups] + [k]
    per_plane = [prod(ups[:t]) * prod(downs[t + 1:]) for t in range(tiers)]
    q = nics // planes
    return {"ups": ups, "downs": downs, "switches": [c * planes for c in per_plane],
            "hosts": downs[0] * per_plane[0] // q}


def bisection_formula(e: dict, nics: int, tiers: int) -> float:
    half_hosts = e["hosts"] // 2 * nics * BW  # the smaller half when the count is odd
    uplinks = [e["switches"][t] / 2 * e["ups"][t] * BW for t in range(tiers - 1)]
    return min([half_hosts] + uplinks)


def check_clos(g, k, tiers, ratios=(), nics=1, planes=1, exact_bisection=True):
    e = expected(k, tiers, ratios, nics, planes)
    copies = bc.copies_per_instance(g)
    assert copies["host"] == e["hosts"]
    assert [copies[n] for n in NAMES[tiers]] == e["switches"]
    assert bc.cables_between(g, "host", "leaf") == e["hosts"] * nics
    for t in range(1, tiers):
        assert bc.cables_between(g, NAMES[tiers][t - 1], NAMES[tiers][t]) == e["switches"][t - 1] * e["ups"][t - 1]
    # fully populated: every switch port and every host NIC port takes exactly one cable
    assert (bc.port_cable_counts(g) == 1).all()
    bc.assert_hygiene(g)
    measured = bc.bisection_of_halves(g, "host")
    if exact_bisection:
        assert measured == bisection_formula(e, nics, tiers)
    else:
        assert measured >= bisection_formula(e, nics, tiers)
    return e


@pytest.mark.parametrize("k,tiers,hosts,switches", [
    (8, 1, 8, 1),
    (8, 2, 8 * 8 // 2, 8 + 8 // 2),              # k^2/2 hosts, k leaves + k/2 spines
    (8, 3, 8 ** 3 // 4, 5 * 8 ** 2 // 4),        # k^3/4 hosts, 5k^2/4 switches
    (4, 4, 4 ** 4 // 8, 4 ** 3 // 4 * 3 + 4 ** 3 // 8),
])
def test_non_blocking_textbook_sizes_and_full_bisection(k, tiers, hosts, switches):
    g = bc.build("std.fabrics.clos", radix=k, tiers=tiers)
    e = check_clos(g, k, tiers)
    assert e["hosts"] == hosts and sum(e["switches"]) == switches
    assert bc.bisection_of_halves(g, "host") == hosts / 2 * BW  # non-blocking = full bisection


def test_leaf_oversubscription_3_to_1_cuts_bisection_to_a_third():
    g = bc.build("std.fabrics.clos", radix=8, tiers=2, oversubscription=[3])
    e = check_clos(g, 8, 2, [3])
    assert (e["hosts"], e["switches"]) == (48, [8, 2])  # 6 down + 2 up per leaf, 2 spines
    assert bc.bisection_of_halves(g, "host") == 48 / 2 * BW / 3


def test_fractional_ratio_and_stated_oversubscription():
    # radix 10 at 3:2 (1.5): 6 down + 4 up per leaf; 10 leaves, 4 spines, 60 hosts
    g = bc.build("std.fabrics.clos", radix=10, tiers=2, oversubscription=[1.5])
    e = check_clos(g, 10, 2, [1.5])
    assert (e["hosts"], e["switches"]) == (60, [10, 4])
    assert g.graph_annotations["max_oversubscription"] == 1.5


def test_three_tier_oversubscribed_at_the_leaf_only():
    g = bc.build("std.fabrics.clos", radix=8, tiers=3, oversubscription=[3, 1])
    e = check_clos(g, 8, 3, [3, 1])
    assert (e["hosts"], e["switches"]) == (192, [32, 16, 8])


def nic_leaf(g, host_copy: int, nic: int) -> int:
    """Leaf copy index that host `host_copy`'s NIC `nic` is cabled to (from the node names)."""
    base = bc.copy_base(g, "leaf")
    c = bc.copy_ids(g)
    port = g.node_id(f"host.{host_copy}.nic.{nic}.port.0")
    m = bc.cable_mask(g) & ((g.edge_src == port) | (g.edge_dst == port))
    (e,) = np.flatnonzero(m)
    other = g.edge_dst[e] if g.edge_src[e] == port else g.edge_src[e]
    return int(c[other]) - base


@pytest.mark.parametrize("rails", [False, True])
def test_multi_nic_hosts_planes_and_rail_wiring(rails):
    k, nics, planes = 8, 4, 2
    g = bc.build("std.fabrics.clos", radix=k, tiers=2, nics_per_host=nics, planes=planes, rail_optimized=rails)
    e = check_clos(g, k, 2, (), nics, planes)
    q, d0, leaves = nics // planes, e["downs"][0], e["switches"][0] // planes
    for h in range(e["hosts"]):
        for j in range(nics):
            p, i = j % planes, j // planes
            want = (h // d0) * q + i if rails else (h * q + i) // d0
            assert nic_leaf(g, h, j) == p * leaves + want, (h, j)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(k=st.sampled_from([4, 6, 8]), tiers=st.integers(1, 3), r=st.sampled_from([1, 2, 3]),
       nics=st.sampled_from([1, 2, 4]), planes=st.sampled_from([1, 2]), rails=st.booleans())
def test_clos_sweep_including_impossible_parameters(k, tiers, r, nics, planes, rails):
    ratios = [r] if tiers >= 2 else []
    params = dict(radix=k, tiers=tiers, oversubscription=ratios, nics_per_host=nics, planes=planes,
                  rail_optimized=rails)
    if nics % planes:
        assert "must be a multiple of planes" in bc.rejection("std.fabrics.clos", **params)
        return
    if ratios and k % (r + 1):
        assert f"oversubscription [{r}] does not split radix {k}" in bc.rejection("std.fabrics.clos", **params)
        return
    e = expected(k, tiers, ratios, nics, planes)
    q, d0, leaves = nics // planes, e["downs"][0], e["switches"][0] // planes
    if not rails and d0 % q:
        assert f"a leaf has {d0} host ports, not a multiple of the {q}" in bc.rejection("std.fabrics.clos", **params)
        return
    if rails and leaves % q:
        assert "rail-optimized wiring needs the leaves" in bc.rejection("std.fabrics.clos", **params)
        return
    g = bc.build("std.fabrics.clos", **params)
    aligned = not rails or (leaves // q) % 2 == 0
    check_clos(g, k, tiers, ratios, nics, planes, exact_bisection=aligned)


@pytest.mark.parametrize("params,message", [
    (dict(tiers=5), "tiers must be 1, 2, 3 or 4, got 5"),
    (dict(tiers=2, oversubscription=[1, 1]), "oversubscription has 2 ratios but only 1 tiers lie below the top"),
    (dict(radix=8, oversubscription=[0]), "oversubscription [0] does not split radix 8"),
])
def test_impossible_clos_parameters_fail_with_the_blueprints_message(params, message):
    assert message in bc.rejection("std.fabrics.clos", **params)


def test_single_switch_is_a_one_tier_clos():
    g = bc.build("std.fabrics.single_switch", ports=6, nics_per_host=2)
    check_clos(g, 6, 1, (), 2, 1)
    assert bc.copies_per_instance(g) == {"host": 3, "leaf": 1}
    assert "must be a multiple of planes" in bc.rejection("std.fabrics.single_switch", nics_per_host=3, planes=2)


def test_clos_document_is_compact():
    """Edge records do not grow with the host count: radix 32 has 8x the hosts of radix 16 but
    the same single host record, and tier records proportional to the radix."""
    from infragraph import blueprints

    small = blueprints.instantiate("std.fabrics.clos", radix=16, tiers=3)
    big = blueprints.instantiate("std.fabrics.clos", radix=32, tiers=3)
    assert len(small.edges) == 1 + 16 // 2 + 16      # hosts, leaf->agg per leaf position, agg->core per pod
    assert len(big.edges) == 1 + 32 // 2 + 32


def test_default_devices_follow_the_link_speeds():
    """A faster host link upgrades the default NICs and switch ports: no internal hop is slower
    than the cables it feeds."""
    g = bc.build("std.fabrics.clos", radix=4, host_link="link(800 Gbps, 1 us)")
    bw = g.edge_bandwidth_gbps()
    ports = g.nodes_of_type("port")
    to_port = np.isin(g.edge_src, ports) | np.isin(g.edge_dst, ports)
    internal = to_port & ~bc.external_mask(g)
    assert bw[internal].min() == 800
    assert sorted(set(bw[bc.external_mask(g)].tolist())) == [400, 800]


@pytest.mark.parametrize("name,params", [
    ("std.fabrics.clos", dict(planes=0)),
    ("std.fabrics.clos", dict(tiers=5)),
    ("std.fabrics.clos", dict(nics_per_host=2, oversubscription=[2])),
    ("std.fabrics.torus", dict(sizes=[4, 1])),
    ("std.fabrics.ring", dict(npus=1)),
    ("std.fabrics.gpu_cluster", dict(gpus=1)),
])
def test_a_rejection_reports_only_the_blueprints_message(name, params):
    """A failed assert does not stop elaboration, so blueprints build only what they accepted:
    the user sees the one message that explains the problem, not its consequences."""
    msg = bc.rejection(name, **params)
    assert msg.count("error:") == 1 and "assertion failed" in msg, msg
