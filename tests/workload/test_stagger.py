"""A ring reduce-scatter whose last member issues late (infragraph/workload/replay.py: each member
starts its part at its own issue), against the same collective issued together.

Derived by hand. RI(4) ring, N = 4 ranks, S = 1 MiB, one chunk, links of B = 50 GiB/s and
L = 500 ns, endpoint delay d = 10 ns. Each ring step moves m = S / N = 262,144 B over one link:
m / B = 4,882.8125 ns. Issued together at 1 us: T = (N-1)(m/B + L + d) + d = 16,188.4375 ns.

Ranks 0-2 issue at 1 us, rank 3 at 30 us. By then ranks 0-2 have done every step that needs no
data from rank 3 and wait; rank 3 has received all N-1 = 3 messages it needs, so it sends its three
step messages to rank 0 one endpoint delay apart, over the one link 3->0.
- `aware` (FIFO store-and-forward links): the three messages cross 3->0 one after another, the
  first reaches rank 0 m/B + L after rank 3's issue; rank 0 forwards each as it arrives, and the
  chain 3->0->1->2 ends exactly T after the last issue: the hand bound (remaining <= T) is met with
  equality.
- `fair` (fluid max-min sharing): the three messages share link 3->0, each at B/3, so none reaches
  rank 0 before all three have drained (3 m/B); rank 0 then holds its two remaining sends and sends
  both to rank 1 at once (2 m/B), rank 1 its last to rank 2 (m/B). After the last issue:
  (3 + 2 + 1) m/B + 3 L = 30,796.875 ns, within N d of the engine's figure (the endpoint delays
  stagger the flows' starts by 10 ns, so the first of each batch lands a little earlier). That is
  1.90 T: not an offset-bookkeeping error, but the fair model sharing one member's back-to-back
  ring messages to one peer, which a real ring (one connection, steps in order) would send FIFO.
  This test pins the behaviour so a change to it is deliberate (docs/workloads.md).
"""

from __future__ import annotations

import pytest

from infragraph import blueprints
from infragraph.simulate import SimulationOptions, prepare
from infragraph.workload.replay import ReplayOptions, replay
from infragraph.workload.report import format_report
from infragraph.workload.trace import read_et_set
from tests.workload.etsets import coll, comp, write_set

N, S, L, D = 4, 1 << 20, 500.0, 10.0
M_OVER_B = S / N / (50 * 2**30 / 1e9)  # ns per ring step's transfer
TOGETHER = (N - 1) * (M_OVER_B + L + D) + D


@pytest.fixture(scope="module")
def ring4():
    return prepare(blueprints.graph("std.fabrics.stack", shape="RI(4)", bandwidth="[50.0 GiB/s]", latency="[500.0 ns]"))


def stagger_report(p, tmp_path, model: str, issue_us: list[int], shared: bool = True) -> dict:
    """The replay of one reduce-scatter whose rank i issues it at issue_us[i] microseconds."""
    per_rank = [[comp(1, us), coll(2, "reduce-scatter", S, deps=[1])] for us in issue_us]
    prefix, cg = write_set(tmp_path, per_rank)
    sim = SimulationOptions(model=model, chunks=1, endpoint_delay_ns=D, local_mem_bw_gb_per_s=None)
    return replay(p, read_et_set(prefix, N, cg), ReplayOptions(sim=sim, shared_network=shared))


def after_last_issue(p, tmp_path, model: str, shared: bool, issue_us: list[int]) -> float:
    (c,) = stagger_report(p, tmp_path, model, issue_us, shared)["collectives"]
    assert c["last_issue_ns"] == max(issue_us) * 1000
    return c["end_ns"] - c["last_issue_ns"]


@pytest.mark.parametrize("shared", [True, False])
@pytest.mark.parametrize("model", ["fair", "aware"])
def test_issued_together_takes_the_ring_time(ring4, tmp_path, model, shared):
    assert after_last_issue(ring4, tmp_path, model, shared, [1] * N) == pytest.approx(TOGETHER, abs=1e-6)


@pytest.mark.parametrize("shared", [True, False])
def test_aware_a_late_member_leaves_exactly_the_ring_time(ring4, tmp_path, shared):
    assert after_last_issue(ring4, tmp_path, "aware", shared, [1, 1, 1, 30]) == pytest.approx(TOGETHER, abs=1e-6)


@pytest.mark.parametrize("shared", [True, False])
def test_fair_a_late_members_messages_share_its_link(ring4, tmp_path, shared):
    hand = (3 + 2 + 1) * M_OVER_B + (N - 1) * L
    got = after_last_issue(ring4, tmp_path, "fair", shared, [1, 1, 1, 30])
    assert abs(got - hand) <= N * D
    assert got > 1.8 * TOGETHER


def test_fair_with_a_late_member_says_its_time_is_pessimistic(ring4, tmp_path):
    """The report carries what the step time ignores (infragraph/workload/report.py
    staggered_fair_caveat), in --json and in the text, with the spread of the issues."""
    r = stagger_report(ring4, tmp_path, "fair", [1, 1, 1, 30])
    (caveat,) = r["caveats"]
    assert caveat.startswith("1 of 1 collectives had members issuing at different times (up to 29,000 ns apart); "
                             "the fair model shares a late member's queued ring messages"), caveat
    assert "--model aware" in caveat
    assert f"caution: {caveat}" in format_report(r).splitlines()


@pytest.mark.parametrize("model, issue_us", [("fair", [1] * N), ("aware", [1, 1, 1, 30])])
def test_no_caveat_where_the_time_is_not_pessimistic(ring4, tmp_path, model, issue_us):
    """Members issuing together under fair, and aware (FIFO links) however they issue."""
    r = stagger_report(ring4, tmp_path, model, issue_us)
    assert "caveats" not in r
    assert "caution:" not in format_report(r)
