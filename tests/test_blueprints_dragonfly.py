"""std.fabrics.dragonfly: group meshes, global links per group pair, diameter 3 router hops.

Router counts, local and global link counts come from the closed forms (g*a routers,
g*a(a-1)/2 local links, m = floor(a*h/(g-1)) links per group pair, so m*g(g-1)/2 global links;
g*a*h/2 when g = a*h+1). The pair counts and the diameter are measured on the router graph.
"""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests import blueprint_checks as bc

ARRANGEMENTS = ["absolute", "relative", "circulant"]


def check(g, p, a, h, groups):
    m = a * h // (groups - 1)
    info = bc.check_dragonfly(g, "router", a, groups, h)  # full-mesh groups, <= h global per router
    assert bc.copies_per_instance(g) == {"router": groups * a, "host": groups * a * p}
    assert info["global"] == m * groups * (groups - 1) // 2
    # every pair of groups, each with exactly m links (pairs come smaller group first)
    assert set(info["pairs"]) == set(combinations(range(groups), 2))
    assert set(info["pairs"].values()) == {m}
    assert (bc.hosts_per_switch(g, "host", "router") == [i // p for i in range(groups * a * p)]).all()
    bc.assert_hygiene(g)
    return info


@pytest.mark.parametrize("arrangement", ARRANGEMENTS)
def test_balanced_maximal_dragonfly_has_one_global_link_per_group_pair(arrangement):
    p, a, h = 2, 4, 2
    groups = a * h + 1
    g = bc.build("std.fabrics.dragonfly", p=p, a=a, h=h, g=groups, arrangement=arrangement)
    info = check(g, p, a, h, groups)
    assert info["global"] == groups * a * h // 2 == 36
    assert info["diameter"] == 3
    # every global port is used in the maximal configuration
    assert (bc.port_cable_counts(g) == 1).all()


def test_arrangements_differ():
    """The three arrangements wire different router pairs (same group pairs)."""
    wirings = []
    for arr in ARRANGEMENTS:
        g = bc.build("std.fabrics.dragonfly", p=1, a=2, h=2, g=5, arrangement=arr)
        wirings.append({tuple(x) for x in bc.copy_pairs(g).tolist()})
    assert wirings[0] != wirings[1] and wirings[1] != wirings[2] and wirings[0] != wirings[2]


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(p=st.integers(1, 2), a=st.integers(1, 4), h=st.integers(1, 3), groups=st.integers(1, 14),
       arrangement=st.sampled_from(ARRANGEMENTS))
def test_unbalanced_dragonflies_including_impossible_sizes(p, a, h, groups, arrangement):
    params = dict(p=p, a=a, h=h, g=groups, arrangement=arrangement)
    if not 2 <= groups <= a * h + 1:
        msg = bc.rejection("std.fabrics.dragonfly", **params)
        assert f"g must lie in 2..a*h+1 = {a * h + 1}" in msg and f"got g={groups}" in msg
        return
    info = check(bc.build("std.fabrics.dragonfly", **params), p, a, h, groups)
    # every group pair is linked, so local + global + local always suffices
    assert info["diameter"] <= 3
    # maximal size: local + global + local is needed, except that a circulant arrangement can
    # reach a group two offsets away through the group in between (see the test below)
    if groups == a * h + 1 and a >= 2 and groups >= 3 and arrangement != "circulant":
        assert info["diameter"] == 3


def test_maximal_circulant_dragonfly_can_be_shorter_than_three_hops():
    """a=2, h=2, g=5 circulant: router 0 of every group links to groups +1 and -1, so
    G.r0 -> (G+1).r0 -> (G+2).r0 takes 2 global hops and no local one: diameter 2, not 3."""
    info = check(bc.build("std.fabrics.dragonfly", p=1, a=2, h=2, g=5, arrangement="circulant"), 1, 2, 2, 5)
    assert info["diameter"] == 2


def test_unknown_arrangement_is_rejected():
    msg = bc.rejection("std.fabrics.dragonfly", arrangement="palmtree")
    assert "arrangement must be absolute, relative or circulant, got 'palmtree'" in msg
