"""Synthesized schedules implement their collective on random fabrics (switches, unequal links,
failed and degraded links), never beat the lower bound, and beat the ring where the fabric is
asymmetric."""
import random

import numpy as np
import pytest
import yaml

from infragraph.collectives.schedule import read_schedule, validate
from infragraph.collectives.synthesize import synthesize
from infragraph.errors import InfraGraphError
from infragraph.document import io
from infragraph.graph import expand
from infragraph.graph.failures import FailureSpec, Degrade, with_failures
from infragraph.schemas import schema_errors
from infragraph.simulate import SimulationOptions, simulate
from infragraph.sources import load_graph
from tests.docparts import link
from tests.simgraphs import ring, torus

COLLECTIVES = ["all-gather", "reduce-scatter", "all-reduce"]


def random_fabric(seed: int):
    """n NPUs on a random connected graph of direct links of 4 speeds, plus (half the time) a
    switch joining some of them."""
    rnd = random.Random(seed)
    n = rnd.randint(2, 9)
    speeds = [100, 200, 400, 800]
    tree = {(rnd.randrange(i), i) for i in range(1, n)}  # a random spanning tree: connected
    pairs = tree | ({tuple(sorted(rnd.sample(range(n), 2))) for _ in range(rnd.randint(0, n))} if n > 2 else set())
    edges = [{"ep1": {"instance": f"npu[{a}]", "component": "xpu"}, "ep2": {"instance": f"npu[{b}]", "component": "xpu"},
              "link": f"l{rnd.randrange(4)}", "scheme": "one2one"} for a, b in sorted(pairs)]
    devices = [{"name": "npu", "components": [{"name": "xpu", "choice": "xpu", "count": 1}]}]
    instances = [{"name": "npu", "device": "npu", "count": n}]
    if rnd.random() < 0.5:
        devices.append({"name": "sw", "components": [{"name": "asic", "choice": "switch", "count": 1}]})
        instances.append({"name": "sw", "device": "sw", "count": 1})
        for a in rnd.sample(range(n), rnd.randint(1, n)):
            edges.append({"ep1": {"instance": f"npu[{a}]", "component": "xpu"},
                          "ep2": {"instance": "sw[0]", "component": "asic"}, "link": "l2", "scheme": "one2one"})
    doc = {"name": f"random{seed}", "devices": devices, "instances": instances,
           "links": [link(f"l{i}", s, rnd.choice([0.0, 100.0, 1000.0])) for i, s in enumerate(speeds)], "edges": edges}
    g = expand(io.loads(yaml.safe_dump(doc, sort_keys=False), f"random{seed}.yaml"))
    return g, sorted(pairs), sorted(pairs - tree)


@pytest.mark.parametrize("seed", range(24))
def test_random_fabrics_validate_and_respect_the_bound(seed):
    g, pairs, spare = random_fabric(seed)
    rnd = random.Random(1000 + seed)
    # Fail a link off the spanning tree (the NPUs stay connected) and degrade another.
    a, b = pairs[rnd.randrange(len(pairs))]
    fail = tuple(f"npu.{x}.xpu.0--npu.{y}.xpu.0" for x, y in spare[:1])
    g = with_failures(g, FailureSpec(fail=fail, degrade=(Degrade(f"npu.{a}.xpu.0--npu.{b}.xpu.0", 0.25, 50.0),)))[0]
    for collective in COLLECTIVES:
        s = synthesize(g, collective, chunks_per_rank=rnd.randint(1, 3), size_bytes=float(rnd.choice([1e3, 1e6, 1e9])),
                       seed=seed, pieces=rnd.randint(1, 3))
        validate(read_schedule(s.document()))  # the document, as written to disk, proves the collective
        assert s.time_ns >= s.bound.time_ns * (1 - 1e-9)


def test_failed_link_is_never_used():
    g = torus([4, 4])
    failed = with_failures(g, FailureSpec(fail=("npu.0.xpu.0--npu.1.xpu.0",)))[0]
    s = synthesize(failed, "all-reduce", 2)
    validate(s.schedule())
    assert not any({int(a), int(b)} == {0, 1} for a, b in zip(s.src, s.dst))
    healthy = synthesize(g, "all-reduce", 2)
    assert s.time_ns > healthy.time_ns  # fewer links, more time
    assert any({int(a), int(b)} == {0, 1} for a, b in zip(healthy.src, healthy.dst))


def test_disconnected_npus_are_a_located_error():
    g = ring(4)
    cut = with_failures(g, FailureSpec(fail=("npu.0.xpu.0--npu.1.xpu.0", "npu.2.xpu.0--npu.3.xpu.0")))[0]
    with pytest.raises(Exception, match="not all connected"):
        synthesize(cut, "all-gather")


def test_ring_fabric_all_gather_is_optimal():
    """On a bidirectional ring each rank receives n-1 chunks over 2 links: ceil((n-1)/2) chunk times."""
    g = ring(8, gbps=8.0, ns=0.0)  # 1 byte per ns
    s = synthesize(g, "all-gather", 1, size_bytes=1000.0)
    assert s.time_ns == pytest.approx(4 * 1000.0)
    assert s.bound.time_ns == pytest.approx(7 * 1000.0 / 2)


def test_beats_ring_on_an_asymmetric_fabric():
    """A 4x2x2 torus whose dimensions differ: the ring crosses it along one Hamiltonian cycle and
    leaves links idle; the synthesized all-reduce uses every link."""
    g = torus([4, 2, 2])
    size = float(1 << 26)
    ours = synthesize(g, "all-reduce", 2, size_bytes=size)
    ring_time = simulate(g, SimulationOptions(collective="all-reduce", size_bytes=size, algorithm=("ring",),
                                              dims=(16,)))["collective_time_ns"]
    assert ours.time_ns < 0.5 * ring_time
    assert ours.efficiency > 0.9


def test_document_states_time_and_bound():
    s = synthesize(torus([4, 4]), "all-reduce", 1, size_bytes=float(1 << 20))
    doc = s.document()
    block = doc["synthesis"]
    assert block["predicted_time_ns"] == pytest.approx(s.time_ns)
    assert 0 < block["lower_bound_ns"] <= block["predicted_time_ns"]
    assert len(block["step_start_ns"]) == len(doc["steps"])
    assert schema_errors("collective-schedule", doc) == []


@pytest.mark.parametrize("bad, message", [
    (dict(collective="all-to-all"), "cannot synthesize 'all-to-all'"),
    (dict(collective="all-gather", chunks_per_rank=0), "chunks per rank"),
    (dict(collective="all-gather", size_bytes=float("nan")), "buffer size"),
    (dict(collective="all-reduce", pieces=0), "pieces"),
])
def test_bad_arguments_are_errors(bad, message):
    with pytest.raises(Exception, match=message):
        synthesize(ring(4), **bad)


def test_pipelined_pieces_overlap_the_two_phases_on_a_mesh():
    """On a mesh the corners' two links bound both phases; pieces let one piece's all-gather run
    beside the next one's reduce-scatter."""
    g = load_graph("std.fabrics.mesh", {"sizes": "[4,4]"})
    one = synthesize(g, "all-reduce", 2, pieces=1, by_ports=False)
    two = synthesize(g, "all-reduce", 2, pieces=2, by_ports=False)
    validate(two.schedule())
    assert two.chunks_per_rank == 4
    assert two.time_ns < 0.95 * one.time_ns


def test_work_conserving_order_overlaps_the_phases_on_a_mesh():
    """In list order a link serves the whole reduce-scatter before any all-gather; in
    work-conserving order a corner's in-ports, idle in the reduce-scatter, start the all-gather of
    the chunks already reduced."""
    g = load_graph("std.fabrics.mesh", {"sizes": "[4,4]"})
    strict = synthesize(g, "all-reduce", 8, pieces=2)
    overlap = synthesize(g, "all-reduce", 8, pieces=2, work_conserving=True)
    validate(overlap.schedule())
    assert overlap.bound.time_ns < overlap.time_ns < 0.97 * strict.time_ns


def test_a_mesh_reduces_at_its_corners():
    """A mesh's corners have 2 ports, its interior 4: with equal shares the corners bound both
    phases (2/3 of the aggregate bound at best); reducing every chunk at the 4 corners makes each
    phase's port bound 3/8 D/B and the pair 5/6 of the aggregate bound."""
    from infragraph.collectives.links import logical_links
    from infragraph.collectives.synthesize import reduction_owners
    from infragraph.graph.ranks import npu_order

    g = load_graph("std.fabrics.mesh", {"sizes": "[4,4]"})
    owner = reduction_owners(logical_links(g, npu_order(g)), 4)
    assert owner.tolist() == [0] * 16 + [3] * 16 + [12] * 16 + [15] * 16
    assert reduction_owners(logical_links(*(lambda t: (t, npu_order(t)))(torus((4, 4)))), 4) is None
    equal = synthesize(g, "all-reduce", 4, by_ports=False)
    corners = synthesize(g, "all-reduce", 4)
    validate(corners.schedule())
    assert equal.efficiency < 0.67 < 0.75 < corners.efficiency


def test_slow_detours_are_skipped_but_bounded():
    """A DGX's GPUs meet over NVLink (900 Gbit/s per chip) and over PCIe (512): the matching uses
    the NVLink paths only, the bound still counts every port (PCIe included)."""
    from infragraph.collectives.links import logical_links
    from infragraph.graph.ranks import npu_order

    g = load_graph("std.devices.dgx", {})
    links = logical_links(g, npu_order(g))
    assert set(links.bandwidth_gbps.tolist()) == {512.0, 900.0}
    fast = links.without_slow_detours()
    assert set(fast.bandwidth_gbps.tolist()) == {900.0}
    assert fast.count == 8 * 7 * 4  # every ordered GPU pair through each of the 4 NVSwitch chips
    assert all(len(fast.path(l)) == len(links.path(int(i))) for l, i in
               enumerate(np.flatnonzero(links.bandwidth_gbps == 900.0)))
    s = synthesize(g, "all-reduce", 2)
    validate(s.schedule())
    assert s.logical_links == fast.count
    assert s.bound.time_ns == pytest.approx(2 * 7 * 2**30 * 8 / (8 * (3600 + 512)))


def test_best_tries_more_chunks_where_they_help():
    from infragraph.collectives.synthesize import synthesize_best

    g = load_graph("std.fabrics.stack", {"shape": '"RI(2)_FC(2)_SW(4)"'})
    two = synthesize(g, "all-reduce", 2)
    best = synthesize_best(g, "all-reduce")
    validate(best.schedule())
    assert best.time_ns < two.time_ns and best.efficiency > 0.9
    small = synthesize_best(g, "all-reduce", budget=1)  # nothing fits: the 1-chunk schedule alone
    assert small.chunks_per_rank == 1



def test_a_schedule_beyond_the_transfer_limit_is_refused_before_it_is_built():
    """Far too many chunks per rank are an error naming the most that fit, not an aborted process
    (10^8 chunks per rank on 8 NPUs asked the engine for tens of GB)."""
    from infragraph.collectives.synthesize import MAX_TRANSFERS, max_chunks_per_rank, transfers

    assert transfers(8, "all-reduce", 3, pieces=2) == 8 * 7 * 2 * 3 * 2 and transfers(8, "all-gather", 3, 2) == 8 * 7 * 3
    most = max_chunks_per_rank(8, "all-reduce")
    assert transfers(8, "all-reduce", most) <= MAX_TRANSFERS < transfers(8, "all-reduce", most + 1)
    with pytest.raises(InfraGraphError, match=f"expected at most {most:,} chunks per rank"):
        synthesize(ring(8), "all-reduce", 10**8)
