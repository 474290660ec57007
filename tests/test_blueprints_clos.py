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


# ------------------------------------------------------------------ partial build-outs (issue 24.5) ----


def cable_matrix(g, a: str, b: str) -> np.ndarray:
    """Cables between every copy of instance `a` (rows) and every copy of `b` (columns)."""
    adj = bc.copy_graph(g).toarray()
    ia, ib = bc.copy_base(g, a), bc.copy_base(g, b)
    na, nb = bc.copies_per_instance(g)[a], bc.copies_per_instance(g)[b]
    return adj[ia:ia + na, ib:ib + nb]


def test_128_dgx_like_hosts_on_radix_64_build_32_leaves_and_16_spines_non_blocking():
    """The issue's 1,024-GPU design: one rail-optimized plane, 4 rail groups of 32 hosts; each leaf
    sends its 32 uplinks as 2 cables to each of 16 spines (half of a full plane's 32)."""
    g = bc.build("std.fabrics.clos", hosts=128, radix=64, tiers=2, nics_per_host=8, rail_optimized=True)
    assert bc.copies_per_instance(g) == {"host": 128, "leaf": 32, "spine": 16}
    m = cable_matrix(g, "leaf", "spine")
    assert (m == 2).all()                                    # every leaf reaches every spine equally
    assert bc.cables_between(g, "host", "leaf") == 1024
    assert (bc.port_cable_counts(g) == 1).all()              # no idle port: the fewest switches
    bc.assert_hygiene(g)
    # non-blocking as stated: the halves' max flow is every NIC of one half at 400 Gbit/s
    assert bc.bisection_of_halves(g, "host") == 64 * 8 * BW
    for h in (0, 31, 32, 127):                               # rail wiring: NIC i of host h on leaf (h//32)*8 + i
        assert [nic_leaf(g, h, i) for i in range(8)] == [(h // 32) * 8 + i for i in range(8)]


@pytest.mark.parametrize("params,counts,top_cables", [
    # 20 hosts, radix 8, 3 tiers (capacity 128): 5 leaves, 2 pods of 4 aggs, each core takes 4
    # cables from each pod: 16 / 4 = 4 cores
    (dict(radix=8, tiers=3, hosts=20), {"host": 20, "leaf": 5, "agg": 8, "core": 4}, 4),
    # a partial rail group: 5 hosts still need all 4 rail leaves of their group; 8 leaves x 4 uplinks
    # fill 4 spines of radix 8
    (dict(radix=8, tiers=2, hosts=5, nics_per_host=4, rail_optimized=True), {"host": 5, "leaf": 8, "spine": 4}, 1),
    # one scalable unit: the 4 hosts of one rail group, 4 leaves, 2 spines taking 2 cables per leaf
    (dict(radix=8, tiers=2, scalable_units=1, nics_per_host=4, rail_optimized=True),
     {"host": 4, "leaf": 4, "spine": 2}, 2),
    (dict(radix=8, tiers=2, oversubscription=[3], hosts=13), {"host": 13, "leaf": 3, "spine": 1}, 2),
])
def test_partial_population_keeps_every_uplink_and_the_fewest_top_switches(params, counts, top_cables):
    g = bc.build("std.fabrics.clos", **params)
    assert bc.copies_per_instance(g) == counts
    tiers = params["tiers"]
    names = NAMES[tiers]
    e = expected(params["radix"], tiers, params.get("oversubscription", ()), params.get("nics_per_host", 1))
    nics = params.get("nics_per_host", 1)
    assert bc.cables_between(g, "host", "leaf") == counts["host"] * nics
    for t in range(1, tiers):  # every switch below the top keeps all its up ports: oversubscription as stated
        assert bc.cables_between(g, names[t - 1], names[t]) == counts[names[t - 1]] * e["ups"][t - 1]
    top = cable_matrix(g, names[-2], names[-1])
    if tiers == 2:
        assert (top == top_cables).all()
    else:  # each core takes top_cables cables from every pod's aggs
        per_pod = top.reshape(-1, e["ups"][0], top.shape[1]).sum(axis=1)
        assert (per_pod == top_cables).all()
    bc.assert_hygiene(g)
    assert g.graph_annotations["max_oversubscription"] == max(list(params.get("oversubscription", [])) + [1])


def test_planes_join_at_the_spine_or_stay_disjoint():
    common = dict(radix=8, tiers=2, nics_per_host=2, planes=2, hosts=8)
    apart = bc.build("std.fabrics.clos", **common)
    joined = bc.build("std.fabrics.clos", join_planes=True, **common)
    # per plane 2 leaves of 4 uplinks; apart: 1 spine per plane taking 4 cables from each of its leaves
    assert bc.copies_per_instance(apart) == {"host": 8, "leaf": 4, "spine": 2}
    assert (cable_matrix(apart, "leaf", "spine") == [[4, 0], [4, 0], [0, 4], [0, 4]]).all()
    # joined: 2 shared spines, each taking 2 cables from every leaf of both planes: the rails meet
    assert bc.copies_per_instance(joined) == {"host": 8, "leaf": 4, "spine": 2}
    assert (cable_matrix(joined, "leaf", "spine") == 2).all()
    bc.assert_hygiene(joined)


@pytest.mark.parametrize("params,message", [
    (dict(radix=8, tiers=2, hosts=33), "33 hosts do not fit: radix 8 with 2 tier(s) takes at most 32 hosts"),
    (dict(radix=8, tiers=2, scalable_units=9), "(9 scalable units of 4)"),
    (dict(hosts=4, scalable_units=1), "set hosts or scalable_units, not both"),
    (dict(hosts=-1), "hosts and scalable_units must be 0 (fully populated) or more, got -1 and 0"),
    (dict(radix=8, tiers=2, nics_per_host=2, planes=2, join_planes=True),
     "the planes cannot join at the top: its switches would need a port for each of the 16 blocks"),
    (dict(tiers=1, join_planes=True), "join_planes needs a top tier above the leaves"),
])
def test_impossible_build_outs_are_refused_with_the_reason(params, message):
    msg = bc.rejection("std.fabrics.clos", **params)
    assert message in msg and msg.count("error:") == 1, msg


def test_hosts_is_declared_after_host_device_so_the_host_library_stays_reachable():
    g = bc.build("std.fabrics.clos", radix=4, hosts=3, host_device="hosts.host(cpus=1, gpus=2, nics=1, pcie_switches=1)")
    assert bc.copies_per_instance(g) == {"host": 3, "leaf": 2, "spine": 1}


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(k=st.sampled_from([4, 6, 8]), tiers=st.integers(2, 3), nics=st.sampled_from([1, 2, 4]),
       planes=st.sampled_from([1, 2]), rails=st.booleans(), join=st.booleans(), frac=st.floats(0.01, 1.0))
def test_any_partial_build_out_is_cabled_cleanly_and_keeps_every_uplink(k, tiers, nics, planes, rails, join, frac):
    """Whatever the host count: each host NIC cabled once, no port twice, every switch below the top
    with all its up ports cabled (the stated oversubscription), every GPU reaching every other."""
    if nics % planes:
        return
    e = expected(k, tiers, (), nics, planes)
    q, d0, leaves = nics // planes, e["downs"][0], e["switches"][0] // planes
    if (not rails and d0 % q) or (rails and leaves % q):
        return
    hosts = max(1, round(frac * e["hosts"]))
    params = dict(radix=k, tiers=tiers, nics_per_host=nics, planes=planes, rail_optimized=rails,
                  join_planes=join, hosts=hosts)
    try:
        g = bc.build("std.fabrics.clos", **params)
    except Exception as err:  # the one refusal a valid partial build may meet: too many blocks to join
        assert join and planes > 1 and "the planes cannot join at the top" in str(err), (params, err)
        return
    counts = bc.copies_per_instance(g)
    names = NAMES[tiers]
    assert counts["host"] == hosts
    assert bc.cables_between(g, "host", "leaf") == hosts * nics
    for t in range(1, tiers):
        assert bc.cables_between(g, names[t - 1], names[t]) == counts[names[t - 1]] * e["ups"][t - 1], params
    assert counts[names[-1]] <= e["switches"][-1]  # never more top switches than a full plane set
    bc.assert_hygiene(g)
