"""infragraph.simulate.checks: the warnings a result carries when its numbers need a caveat."""

from __future__ import annotations

import math

import pytest
import yaml

from infragraph import schemas
from infragraph.document import io
from infragraph.graph import expand
from infragraph.graph.ranks import npu_order
from infragraph.simulate import SimulationOptions as Opts
from infragraph.simulate import simulate
from infragraph.simulate.checks import injection_gbps
from tests import simgraphs


def codes(r: dict) -> list[str]:
    return [w["code"] for w in r["warnings"]]


def test_two_flows_on_one_link_warn_over_capacity_only_without_contention():
    g = simgraphs.line(2, gbps=100.0)
    two = Opts(collective="point-to-point", groups=((0, 1), (0, 1)), size_bytes=1 << 20)
    unaware = simulate(g, Opts(**{**two.__dict__, "model": "unaware"}))
    assert unaware["max_link_utilization"] == pytest.approx(2.0, rel=0.01)
    assert codes(unaware) == ["over-capacity"]
    msg = unaware["warnings"][0]["message"]
    assert "1 directed link(s) above 100 %" in msg and "npu.0.xpu.0 -> npu.1.xpu.0" in msg and "optimistic" in msg
    for model in ("aware", "fair"):
        assert codes(simulate(g, Opts(**{**two.__dict__, "model": model}))) == []


def test_all_to_all_without_contention_exceeds_the_injection_rate():
    # Each NPU has one 100 Gbit/s link to the switch: it cannot inject more than 12.5 GB/s.
    g = simgraphs.switch(8, gbps=100.0)
    r = simulate(g, Opts(collective="all-to-all", algorithm=("direct",), model="unaware", size_bytes=8 << 20))
    assert r["bus_bandwidth_gb_per_s"] > 12.5
    assert codes(r) == ["over-capacity", "over-injection"]
    quiet = simulate(g, Opts(collective="all-to-all", algorithm=("direct",), model="unaware", size_bytes=8 << 20,
                             warnings=False))
    assert quiet["warnings"] == [] and quiet["collective_time_ns"] == r["collective_time_ns"]
    assert "inject: 12.500 GB/s (100 Gbit/s" in r["warnings"][1]["message"]
    schemas.validate("simulation-result", r)
    fair = simulate(g, Opts(collective="all-to-all", algorithm=("direct",), model="fair", size_bytes=8 << 20))
    assert fair["bus_bandwidth_gb_per_s"] <= 12.5 and codes(fair) == []


@pytest.mark.parametrize("graph, rank, gbps", [
    (simgraphs.switch(4, gbps=100.0), 0, 100.0),
    (simgraphs.ring(8, gbps=100.0), 3, 200.0),  # two links per NPU
    (simgraphs.line(4, gbps=100.0), 0, 100.0),  # an end of the line
    (simgraphs.fully_connected(5, gbps=10.0), 2, 40.0),
])
def test_injection_is_the_max_flow_into_the_group(graph, rank, gbps):
    npus = npu_order(graph)
    assert injection_gbps(graph, int(npus[rank]), npus[[r for r in range(npus.size) if r != rank]]) == gbps


def test_injection_through_a_nic_is_its_line_rate():
    # A PCIe link of 512 Gbit/s behind a 400 Gbit/s NIC port: the NIC limits what leaves the host.
    from infragraph import blueprints

    g = blueprints.graph("std.fabrics.clos", radix=4, tiers=2)
    npus = npu_order(g)
    assert injection_gbps(g, int(npus[0]), npus[1:]) == 400.0


def test_free_wiring_is_warned_and_has_no_injection_limit():
    doc = simgraphs._npu_dict("mixed", 3, [(0, 1)], 100.0, 100.0)
    doc["links"].append({"name": "free", "physical": {"latency": {"choice": "ns", "ns": 100.0}}})
    doc["edges"].append({"ep1": {"instance": "npu[1]", "component": "xpu"},
                         "ep2": {"instance": "npu[2]", "component": "xpu"}, "link": "free", "scheme": "one2one"})
    g = expand(io.loads(yaml.safe_dump(doc), "mixed.yaml"))
    npus = npu_order(g)
    assert math.isinf(injection_gbps(g, int(npus[2]), npus[:2]))
    r = simulate(g, Opts(collective="all-gather"))
    assert "unspecified-bandwidth" in codes(r)
    assert "1 link(s) state no bandwidth" in r["warnings"][-1]["message"]


def test_the_default_model_charges_contention():
    g = simgraphs.line(2, gbps=100.0)
    one = simulate(g, Opts(collective="point-to-point", groups=((0, 1),), size_bytes=1 << 20))
    two = simulate(g, Opts(collective="point-to-point", groups=((0, 1), (0, 1)), size_bytes=1 << 20))
    assert Opts().model == two["model"] == "fair"
    serialize = (1 << 20) * 8 / 100.0  # ns at 100 Gbit/s
    assert two["collective_time_ns"] - one["collective_time_ns"] == pytest.approx(serialize, rel=1e-3)
    assert codes(two) == [] and two["max_link_utilization"] <= 1.0


def _whole_graph_injection(g, npu: int, peers) -> float:
    """The maximum flow over the whole graph, built directly (the reference for the ball's shortcut)."""
    import numpy as np
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import maximum_flow

    free = 1 << 28
    bw = np.asarray(g.edge_bandwidth_gbps(), dtype=np.float64)
    cap = np.where(np.isnan(bw), free, np.minimum(np.floor(bw * 1000.0), free))
    src, dst, n = np.asarray(g.edge_src, dtype=np.int64), np.asarray(g.edge_dst, dtype=np.int64), g.num_nodes
    rows = np.concatenate([src, dst, peers, [n + 1]])
    cols = np.concatenate([dst, src, np.full(len(peers), n), [npu]])
    m = coo_matrix((np.concatenate([cap, cap, np.full(len(peers), free), [free]]), (rows, cols)),
                   shape=(n + 2, n + 2)).tocsr()
    m.sum_duplicates()
    m.data = np.minimum(m.data, free).astype(np.int32)
    flow = maximum_flow(m, n + 1, n).flow_value
    return float("inf") if flow >= free else flow / 1000.0


@pytest.mark.parametrize("radius", [1, 2, 4])
def test_injection_solved_near_the_npu_is_the_whole_graphs_max_flow(monkeypatch, radius):
    """The max flow is solved on the nodes within a few hops first (checks.FIRST_RADIUS, doubling);
    on random graphs (parallel links, free wiring, islands) it equals the whole graph's, from
    balls that hold the cut and balls that do not."""
    import random

    import numpy as np

    from infragraph.simulate import checks

    monkeypatch.setattr(checks, "FIRST_RADIUS", radius)
    rng = random.Random(23)
    for case in range(25):
        n = rng.randrange(4, 30)
        pairs = [(rng.randrange(n), rng.randrange(n)) for _ in range(rng.randrange(n, 3 * n))]
        pairs = [(a, b) for a, b in pairs if a != b]
        doc = simgraphs._npu_dict(f"random{case}", n, [], 100.0, 100.0)
        doc["links"] = [simgraphs._link(f"l{i}", gbps, 100.0) for i, gbps in enumerate((10.0, 25.0, 100.0, 400.0))]
        doc["links"].append({"name": "free", "physical": {"latency": {"choice": "ns", "ns": 100.0}}})
        kinds = ["l0", "l1", "l2", "l3"] + (["free"] if case % 5 == 0 else [])
        doc["edges"] = [{"ep1": {"instance": f"npu[{a}]", "component": "xpu"},
                         "ep2": {"instance": f"npu[{b}]", "component": "xpu"}, "link": rng.choice(kinds),
                         "scheme": "one2one"} for a, b in pairs]
        g = expand(io.loads(yaml.safe_dump(doc), f"random{case}.yaml"))
        npus = npu_order(g)
        for _ in range(3):
            src = rng.randrange(n)
            peers = np.asarray(sorted(rng.sample([r for r in range(n) if r != src], rng.randrange(1, n))))
            want = _whole_graph_injection(g, int(npus[src]), npus[peers])
            assert injection_gbps(g, int(npus[src]), npus[peers]) == want, (case, src)
