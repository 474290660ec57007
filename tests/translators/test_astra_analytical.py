"""ASTRA-sim analytical translator: detected structure, units, system.json, refusals, approximation."""

import json

import pytest
import yaml

from infragraph import translators as T
from infragraph.errors import InfraGraphError
from infragraph.graph import expand
from tests.translator_graphs import clos, ring_direct, single_switch, stack

GIB = 2**30


def network(g, **kw):
    return yaml.safe_load(T.get("astra-analytical").translate(g, T.Options(**kw)).files["network.yml"])


def test_stack_ri4_fc8_sw32_gives_exactly_that_topology():
    g = expand(stack("RI(4)_FC(8)_SW(32)", gbps=[400, 200, 100], ns=[100, 250, 1000]))
    net = network(g)
    assert net == {"topology": ["Ring", "FullyConnected", "Switch"], "npus_count": [4, 8, 32],
                   "bandwidth": [round(x * 1e9 / 8 / GIB, 6) for x in (400, 200, 100)],
                   "latency": [100.0, 250.0, 1000.0]}
    assert net["bandwidth"][0] == 46.566129  # 400 Gbit/s in GB/s with GB = 2^30 (the note's example)


@pytest.mark.parametrize("shape,kinds", [
    ("RI(4)_RI(2)", ["Ring", "Ring"]),
    ("FC(4)_SW(2)_SW(4)", ["FullyConnected", "Switch", "Switch"]),
    ("SW(16)_SW(8)_SW(4)", ["Switch", "Switch", "Switch"]),
    ("RI(8)_FC(4)", ["Ring", "FullyConnected"]),
    ("SW(4)_RI(6)", ["Switch", "Ring"]),
])
def test_stacks_detected_in_order(shape, kinds):
    net = network(expand(stack(shape)))
    sizes = [int(p.split("(")[1][:-1]) for p in shape.split("_")]
    assert net["topology"] == kinds and net["npus_count"] == sizes


def test_system_json_every_key_with_topology_aware_defaults_and_overrides():
    g = expand(stack("RI(4)_FC(8)_SW(32)"))
    t = T.get("astra-analytical")
    sysj = json.loads(t.translate(g).files["system.json"])
    for key in ("scheduling-policy", "endpoint-delay", "active-chunks-per-dimension", "preferred-dataset-splits",
                "all-reduce-implementation", "reduce-scatter-implementation", "all-gather-implementation",
                "all-to-all-implementation", "collective-optimization", "local-mem-bw"):
        assert key in sysj
    assert sysj["all-reduce-implementation"] == ["ring", "direct", "halvingDoubling"]
    sysj = json.loads(t.translate(g, T.Options(settings={"all-reduce-implementation": "ring,ring,ring",
                                                         "local-mem-bw": "50", "scheduling-policy": "FIFO"})
                                  ).files["system.json"])
    assert sysj["all-reduce-implementation"] == ["ring"] * 3 and sysj["local-mem-bw"] == 50.0
    assert sysj["scheduling-policy"] == "FIFO" and sysj["all-gather-implementation"][2] == "halvingDoubling"


def test_switch_of_non_power_of_two_defaults_to_direct():
    sysj = json.loads(T.get("astra-analytical").translate(expand(stack("RI(4)_SW(6)"))).files["system.json"])
    assert sysj["all-reduce-implementation"] == ["ring", "direct"]


def test_rank_annotation_changes_the_order_and_is_written():
    doc = stack("SW(2)_SW(4)")
    # swap the meaning of the dimensions: rank = 4*a0 + a1 turns SW(2)_SW(4) into SW(4)_SW(2)
    from infragraph.document.model import NodeAnnotation
    doc.annotations.nodes = [NodeAnnotation(f"npu.{i}.xpu.0", {"rank": (i % 2) * 4 + i // 2}) for i in range(8)]
    bundle = T.get("astra-analytical").translate(expand(doc))
    assert yaml.safe_load(bundle.files["network.yml"])["npus_count"] == [4, 2]
    assert bundle.rank_order[1] == "npu.2.xpu.0"
    assert "1\tnpu.2.xpu.0" in bundle.files["ranks.txt"]


def test_refuses_a_clos_with_the_reason_and_approximates_on_request():
    g = expand(clos(4, 3))
    t = T.get("astra-analytical")
    diags = t.check(g)
    assert diags and "not an RI/FC/SW product" in diags[0].message and "20 switches" in diags[0].message
    assert "--approximate" in diags[0].hint
    with pytest.raises(InfraGraphError):
        t.translate(g)
    b = t.translate(g, T.Options(approximate=True))
    net = yaml.safe_load(b.files["network.yml"])
    # one Switch per tier: 2 hosts per ToR, 2 ToRs per pod, 4 pods; per-hop latency = the links up to that
    # tier (500 ns each), so a Switch's 2 hops equal the real path (e.g. 6 links between pods)
    assert net["topology"] == ["Switch"] * 3 and net["npus_count"] == [2, 2, 4]
    assert net["latency"] == [500.0, 1000.0, 1500.0]
    assert net["bandwidth"] == [round(400e9 / 8 / GIB, 6)] * 3  # non-blocking: the full host rate per tier
    assert b.approximate and any(n.startswith("APPROXIMATION: the 3-tier Clos") for n in b.notes)
    error = next(n for n in b.notes if n.startswith("error of this approximation"))
    assert "from our engine on the real graph" in error and "%" in error
    assert "APPROXIMATION" in b.files["README.md"] and error in b.files["README.md"]


def test_an_oversubscribed_clos_gets_each_npus_share_of_the_uplinks():
    from infragraph import blueprints
    g = blueprints.graph("std.fabrics.clos", oversubscription=[3])  # radix 8: 6 down, 2 up per leaf
    del g.graph_annotations["dims"]  # no stated dims: one Switch dimension per tier
    b = T.get("astra-analytical").translate(g, T.Options(approximate=True))
    net = yaml.safe_load(b.files["network.yml"])
    assert net["npus_count"] == [6, 8]
    assert net["bandwidth"][1] == round(400 / 3 * 1e9 / 8 / GIB, 6)  # 2 x 400 G shared by 6 NPUs
    assert "| dimensions | `SW(6)_SW(8)` (approximation of the graph (see Notes); the graph states no dims) | " \
        in b.files["README.md"]


def test_the_stated_dims_merge_the_tiers_they_span():
    """std.fabrics.clos states SW(*)_SW(48): one GPU per host, so one dimension of 48, as simulate
    runs it; the tier dimensions merge at the smaller bandwidth and the larger latency."""
    from infragraph import blueprints
    g = blueprints.graph("std.fabrics.clos", oversubscription=[3])
    b = T.get("astra-analytical").translate(g, T.Options(approximate=True))
    net = yaml.safe_load(b.files["network.yml"])
    assert net["npus_count"] == [48] and net["topology"] == ["Switch"]
    assert net["bandwidth"] == [round(400 / 3 * 1e9 / 8 / GIB, 6)] and net["latency"] == [1300.0]
    note = next(n for n in b.notes if "the graph states dims SW(48)" in n)
    assert "SW(6)_SW(8) into SW(48) at 133.333 Gbit/s and 1300 ns per hop" in note
    assert any(n.startswith("error of this approximation") for n in b.notes)
    assert "| dimensions | `SW(48)` (the graph's dims annotation, switch tiers merged" in b.files["README.md"]


def test_a_graph_that_is_no_fat_tree_still_gets_the_one_switch_model():
    from infragraph import blueprints
    g = blueprints.graph("std.fabrics.dragonfly")
    b = T.get("astra-analytical").translate(g, T.Options(approximate=True))
    assert len(yaml.safe_load(b.files["network.yml"])["topology"]) == 1


def test_refuses_wrong_rank_order_naming_the_npus():
    doc = stack("RI(4)_RI(4)")
    from infragraph.document.model import NodeAnnotation
    order = [0, 5, 2, 3, 4, 1, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]
    doc.annotations.nodes = [NodeAnnotation(f"npu.{i}.xpu.0", {"rank": order[i]}) for i in range(16)]
    diags = T.get("astra-analytical").check(expand(doc))
    assert diags and "npu." in diags[0].message


def test_bad_rank_annotation_is_located():
    doc = single_switch(4)
    from infragraph.document.model import NodeAnnotation
    doc.annotations.nodes = [NodeAnnotation("gpu.0.xpu.0", {"rank": 0}), NodeAnnotation("gpu.1.xpu.0", {"rank": 0})]
    diags = T.get("astra-analytical").check(expand(doc))
    msgs = " | ".join(d.message for d in diags)
    assert "rank 0 is given to both 'gpu.0.xpu.0' and 'gpu.1.xpu.0'" in msgs
    assert "'gpu.2.xpu.0' has no 'rank'" in msgs


def test_non_uniform_bandwidth_refused_then_slowest_with_approximate():
    doc = single_switch(4)
    from infragraph.document.model import Bandwidth, Edge, Endpoint, Link
    doc.links.append(Link("slow", bandwidth=Bandwidth(100.0)))
    doc.links[1].latency = doc.links[0].latency
    doc.edges = [Edge(Endpoint("port[0:3]", "sw[0]"), Endpoint("nic", "gpu[0:3]"), "eth"),
                 Edge(Endpoint("port[3]", "sw[0]"), Endpoint("nic", "gpu[3]"), "slow")]
    g = expand(doc)
    diags = T.get("astra-analytical").check(g)
    assert diags and "bandwidth from 100 to 400 Gbit/s" in diags[0].message and diags[0].location.path == "edges[1]"
    net = network(g, approximate=True)
    assert net["bandwidth"] == [round(100e9 / 8 / GIB, 6)]


def test_unrated_link_refused_with_link_name():
    doc = single_switch(4)
    doc.links[0].bandwidth = None
    diags = T.get("astra-analytical").check(expand(doc))
    assert diags and "no bandwidth" in diags[0].message and "'eth'" in diags[0].message


def test_bad_settings_are_reported():
    g = expand(stack("RI(4)_SW(4)"))
    t = T.get("astra-analytical")
    d = t.check(g, T.Options(settings={"all-reduce-implementation": "ring"}))
    assert "lists 1 algorithm(s) but the network has 2" in d[0].message
    d = t.check(g, T.Options(settings={"all-reduce-implementation": "ring,bogus"}))
    assert "expected one of: ring, direct, halvingDoubling, doubleBinaryTree" in d[0].message
    d = t.check(g, T.Options(settings={"locl-mem-bw": "5"}))
    assert "unknown setting 'locl-mem-bw'" in d[0].message and d[0].hint == "did you mean 'local-mem-bw'?"
    d = T.get("astra-analytical").check(expand(stack("RI(4)_SW(6)")),
                                        T.Options(settings={"all-reduce-implementation": "ring,halvingDoubling"}))
    assert "needs a power-of-two size" in d[0].message


def test_no_npus_refused():
    doc = single_switch(2)
    doc.devices[0].components[0].choice = "cpu"
    d = T.get("astra-analytical").check(expand(doc))
    assert "no NPUs" in d[0].message


def test_direct_ring_is_fine_for_astra_and_bundle_files(tmp_path):
    b = T.get("astra-analytical").translate(expand(ring_direct(8)))
    paths = {str(p.relative_to(tmp_path)) for p in b.write(tmp_path)}
    assert paths == {"network.yml", "system.json", "remote_memory.json", "ranks.txt", "run.sh", "README.md",
                     *(f"workload/all_reduce.{i}.et" for i in range(8))}
    run = (tmp_path / "run.sh").read_text()
    assert "--network-configuration=\"$here/network.yml\"" in run and "--system-configuration" in run
    assert (tmp_path / "run.sh").stat().st_mode & 0o100


def test_an_all_reduce_too_small_for_halving_doubling_defaults_to_ring_and_a_chosen_one_is_refused():
    from infragraph.translators.chakra_et import Workload
    g, t = expand(stack("SW(16)")), T.get("astra-analytical")
    tiny = Workload("all-reduce", 100)  # 100 B / 4 chunks < 2 bytes x 16 NPUs: ASTRA-sim aborts
    assert json.loads(t.translate(g, T.Options(workload=tiny)).files["system.json"])["all-reduce-implementation"] == ["ring"]
    d = t.check(g, T.Options(settings={"all-reduce-implementation": "halvingDoubling"}, workload=tiny))
    assert d and "chunk_size > 0" in d[0].message and d[0].hint


def test_known_aborts_are_refused_with_a_fix():
    g, t = expand(stack("RI(4)_SW(2)")), T.get("astra-analytical")
    for settings, text in (({"network-model": "aware"}, "1-D networks only"), ({"endpoint-delay": "0"}, "aborts with 0"),
                           ({"all-to-all-implementation": "halvingDoubling,direct"}, "expected one of: ring, direct")):
        d = t.check(g, T.Options(settings=settings))
        assert d and text in d[0].message + str(d[0].hint) and d[0].hint, (settings, d)


def test_system_json_carries_the_two_scheduling_keys():
    # ASTRA-sim 518bd51's loader ignores both (docs/simulate.md); written so that a build whose loader
    # reads them runs what the user asked for.
    g = expand(stack("RI(4)_FC(8)"))
    t = T.get("astra-analytical")
    sysj = json.loads(t.translate(g).files["system.json"])
    assert (sysj["intra-dimension-scheduling"], sysj["inter-dimension-scheduling"]) == ("FIFO", "baseline")
    sysj = json.loads(t.translate(g, T.Options(settings={"intra-dimension-scheduling": "SCF",
                                                         "inter-dimension-scheduling": "themis"})).files["system.json"])
    assert (sysj["intra-dimension-scheduling"], sysj["inter-dimension-scheduling"]) == ("SCF", "themis")
    sysj = json.loads(t.translate(g, T.Options(settings={"inter-dimension-scheduling": "offlineGreedyFlex"}))
                      .files["system.json"])
    assert sysj["inter-dimension-scheduling"] == "offlineGreedyFlex"
    assert t.check(g, T.Options(settings={"inter-dimension-scheduling": "roundRobin"}))
