"""Every backend honours the graph's `dims` as `infragraph simulate` does (issue 24 item 7).

The fabric is hand-written (no blueprint, tests/translator_graphs.rails): 8 DGX-like servers,
rail-optimized, stating `SW(8)_SW(8)`; simulate runs over those two dimensions, and so must every
bundle that can.
"""

import json

import numpy as np
import pytest
import yaml

from infragraph import translators as T
from infragraph.simulate import SimulationOptions, simulate
from infragraph.translators.logical_dims import merge_into, same_groups, stated_dims
from infragraph.translators.structure import RING, SW, Dimension
from tests import translator_graphs


@pytest.fixture(scope="module")
def rails(tmp_path_factory):
    return translator_graphs.rails(tmp_path_factory.mktemp("rails"))


def test_simulate_runs_the_stated_dims(rails):
    r = simulate(rails, SimulationOptions(top_links=0))
    assert r["dims"] == [8, 8] and r["dims_source"] == "graph"
    assert stated_dims(rails, 64).dims.sizes == (8, 8)


def test_ns3_and_the_engine_bundle_take_the_stated_dims(rails):
    ns3 = T.get("ns3").translate(rails)
    assert json.loads(ns3.files["logical_topology.json"]) == {"logical-dims": ["8", "8"]}
    assert "logical dims SW(8)_SW(8) (the graph's dims annotation)" in ns3.files["README.md"]
    engine = T.get("simengine").translate(rails)
    data = json.loads(engine.files["engine_input.json"])
    assert data["logical_dims"] == [8, 8] and [d["bandwidth_gbps"] for d in data["dimensions"]] == [None, None]
    assert " --dims 8,8 " in engine.files["run.sh"]
    assert "logical dimensions SW(8)_SW(8) (the graph's dims annotation)" in engine.files["README.md"]
    assert "flat" not in engine.files["README.md"].split("## Files")[0]


def test_the_analytical_model_merges_the_tiers_into_the_stated_dims(rails):
    assert T.get("astra-analytical").check(rails)  # not a product: refused without --approximate
    b = T.get("astra-analytical").translate(rails, T.Options(approximate=True))
    net = yaml.safe_load(b.files["network.yml"])
    assert net["npus_count"] == [8, 8] and net["topology"] == ["Switch", "Switch"]
    # the scale-up dimension: 4 NVSwitch links of 900 Gbit/s per GPU (dgx: 450 GB/s per direction); the rail: the NIC
    assert net["bandwidth"] == [round(3600e9 / 8 / 2**30, 6), round(400e9 / 8 / 2**30, 6)]
    assert any("SW(4)_SW(2) into SW(8)" in n for n in b.notes)
    assert any(n.startswith("error of this approximation") for n in b.notes)


def test_htsim_says_why_it_cannot_take_the_stated_dims(rails):
    b = T.get("htsim").translate(rails)
    assert yaml.safe_load(b.files["network.yml"])["npus_count"] == [64]
    note = next(n for n in b.notes if n.startswith("the graph states dims SW(8)_SW(8)"))
    assert "HTSim numbers its NPUs ToR by ToR" in note and "--dims 64" in note
    assert "| dimensions | `SW(64)` (flat: the graph's SW(8)_SW(8) has no equivalent in HTSim's NPU order) | " \
           "`8_8` (NCCL mode: GPUs per server, then servers) | **differs** |" in b.files["README.md"]


def test_htsim_takes_stated_dims_that_survive_its_renumbering():
    """A Clos whose hosts already sit ToR by ToR keeps its stated dims in HTSim's network.yml."""
    from infragraph import blueprints
    g = blueprints.graph("std.fabrics.clos", radix=8)
    g.graph_annotations["dims"] = "SW(4)_SW(8)"  # the hosts of one leaf, then the leaves
    b = T.get("htsim").translate(g)
    assert yaml.safe_load(b.files["network.yml"])["npus_count"] == [4, 8]
    assert json.loads(b.files["system.json"])["all-reduce-implementation"] == ["ring", "ring"]


def test_same_groups_follows_a_renumbering():
    # 2 servers of 4 GPUs; a backend numbering rail by rail (rank r = graph rank order[r])
    by_rail = np.array([0, 4, 1, 5, 2, 6, 3, 7])
    assert not same_groups([4, 2], by_rail)  # dimension 0 would be a rail, not a server
    assert not same_groups([2, 4], by_rail)  # nor is [2, 4]: its first dimension pairs GPU i of both servers
    assert same_groups([4, 2], np.array([4, 5, 6, 7, 0, 1, 2, 3]))  # the servers swapped: same groups
    assert same_groups([4, 2], np.array([3, 2, 1, 0, 7, 6, 5, 4]))  # reversed inside each server: same groups
    assert same_groups([4, 2], None)


def test_merge_into_joins_only_consecutive_switch_dimensions():
    sw = [Dimension(SW, n, 0, 1.0, 1.0) for n in (8, 4, 2)]
    assert merge_into(sw, [8, 8]) == [[0], [1, 2]]
    assert merge_into(sw, [32, 2]) == [[0, 1], [2]]
    assert merge_into(sw, [8, 4, 2]) == [[0], [1], [2]]
    assert merge_into(sw, [4, 16]) is None  # 4 is no run of whole dimensions
    assert merge_into(sw, [8, 4]) is None  # leaves a dimension over
    ring = [Dimension(RING, 4, 0, 1.0, 1.0), Dimension(RING, 4, 0, 1.0, 1.0)]
    assert merge_into(ring, [16]) is None  # two rings are no one dimension
