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
- `fair` (fluid max-min sharing) sends one member's messages of one collective to one peer in
  order, each when the previous one has drained (simengine/src/conn_fifo.rs, as one NCCL channel
  posts its ring steps in order): rank 3's three messages leave at 30 us + 0, 1, 2 m/B, back to
  back; rank 0 forwards each as it arrives, m/B apart, so no link ever carries two flows at once,
  and the chain 3->0->1->2 ends T after the last issue, as under `aware`. Before 26 Nov 2026 the
  three messages shared link 3->0 at B/3 each, none landed before all had drained, and the time
  after the last issue was (3 + 2 + 1) m/B + 3 L = 30,796.9 ns, 1.90 T.

The same holds for any N and for a ring all-reduce (2(N-1) steps over the same connection: the
late member's reduce-scatter messages and its first all-gather message leave back to back, every
later one waits for the chain to come round, which is after its connection has drained): the time
after the last issue is the issued-together time. Float tolerance: the engine's event times are
sums of a few tens of terms of ~1e4 ns, so 1e-3 ns is far above their rounding and far below any
real difference (a single step is 4,883 ns).
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
B = 50 * 2**30 / 1e9  # bytes per ns
M_OVER_B = S / N / B  # ns per ring step's transfer
TOGETHER = (N - 1) * (M_OVER_B + L + D) + D
TOL = 1e-3  # ns (module doc)


def together_ns(n: int, steps: int) -> float:
    """A ring collective of `steps` ring steps of S / n bytes each on RI(n), members together."""
    return steps * (S / n / B + L + D) + D


def ring(n: int):
    return prepare(blueprints.graph("std.fabrics.stack", shape=f"RI({n})", bandwidth="[50.0 GiB/s]", latency="[500.0 ns]"))


@pytest.fixture(scope="module")
def ring4():
    return ring(4)


def stagger_report(p, tmp_path, model: str, issue_us: list[int], shared: bool = True,
                   kind: str = "reduce-scatter", chunks: int = 1) -> dict:
    """The replay of one collective whose rank i issues it at issue_us[i] microseconds."""
    per_rank = [[comp(1, us), coll(2, kind, S, deps=[1])] for us in issue_us]
    prefix, cg = write_set(tmp_path, per_rank)
    sim = SimulationOptions(model=model, chunks=chunks, endpoint_delay_ns=D, local_mem_bw_gb_per_s=None,
                            algorithm=("ring",))
    return replay(p, read_et_set(prefix, len(issue_us), cg), ReplayOptions(sim=sim, shared_network=shared))


def after_last_issue(p, tmp_path, model: str, shared: bool, issue_us: list[int], **kw) -> float:
    (c,) = stagger_report(p, tmp_path, model, issue_us, shared, **kw)["collectives"]
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
def test_fair_a_late_member_leaves_the_ring_time(ring4, tmp_path, shared):
    """Its three messages to rank 0 go in order (module doc); they used to share the link (1.90 T)."""
    assert after_last_issue(ring4, tmp_path, "fair", shared, [1, 1, 1, 30]) == pytest.approx(TOGETHER, abs=TOL)


@pytest.mark.parametrize("model", ["fair", "aware"])
@pytest.mark.parametrize("n, kind, steps", [(8, "reduce-scatter", 7), (4, "all-reduce", 6), (8, "all-reduce", 14)])
def test_a_late_member_leaves_the_together_time(tmp_path, model, n, kind, steps):
    """RI(8) reduce-scatter (fair was 3.01 T), and ring all-reduces whose all-gather steps share the
    reduce-scatter's connection: the chain from the late member meets no queue (module doc)."""
    p = ring(n)
    hand = together_ns(n, steps)
    assert after_last_issue(p, tmp_path, model, True, [1] * n, kind=kind) == pytest.approx(hand, abs=TOL)
    assert after_last_issue(p, tmp_path, model, True, [1] * (n - 1) + [40], kind=kind) == pytest.approx(hand, abs=TOL)


@pytest.mark.parametrize("model", ["fair", "aware"])
def test_a_staggered_replay_carries_no_caution(ring4, tmp_path, model):
    """Until 26 Nov 2026 a fair replay with staggered members said its time was pessimistic (a
    `caveats` entry and a `caution:` line); sending in order removed the cause, and the warning."""
    r = stagger_report(ring4, tmp_path, model, [1, 1, 1, 30])
    assert r["collectives"][0]["last_issue_ns"] > r["collectives"][0]["start_ns"]
    assert "caveats" not in r
    assert "caution:" not in format_report(r)
