"""HTSim translator: an independent .topo parser re-checks every consistency rule; refusals."""

from fractions import Fraction
from pathlib import Path

import pytest
import yaml

from infragraph import translators as T
from infragraph.document.model import Bandwidth
from infragraph.graph import expand
from tests.translator_graphs import clos, single_switch, stack

ROOT = Path(__file__).resolve().parents[2]


def parse_topo(text: str) -> dict:
    """Minimal re-implementation of HTSim's reader: case-insensitive keywords, # comments."""
    out: dict = {"blocks": []}
    cur = None
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, value = line.split()
        key = key.lower()
        assert key not in ("queue_up", "queue_down")
        if key == "tier":
            assert int(value) == len(out["blocks"])
            cur = {"oversubscribed": 1, "bundle": 1}
            out["blocks"].append(cur)
        elif cur is None:
            out[key] = int(value)
        else:
            assert key not in cur or key in ("oversubscribed", "bundle"), f"duplicate {key}"
            cur[key] = int(value)
    return out


def check_rules(p: dict) -> list[str]:
    """Every rule of the design note; returns the failing ones."""
    fails = []
    n, pod, t = p["nodes"], p["podsize"], p["blocks"]
    if len(t) != p["tiers"] or len(t) not in (2, 3):
        return ["tiers"]
    s = [x["downlink_speed_gbps"] for x in t]
    if n % pod:
        fails.append("Nodes % Podsize")
    if pod % t[0]["radix_down"]:
        fails.append("Podsize % Radix_Down0")
    if Fraction(t[0]["radix_down"], t[0]["radix_up"]) != t[0]["oversubscribed"]:
        fails.append("oversub0")
    if any(x["downlink_latency_ns"] <= 0 for x in t):
        fails.append("latency")
    tor_up = Fraction(n * s[0], s[1] * t[0]["oversubscribed"])
    pods = n // pod
    agg_per_pod = tor_up / (pods * t[1]["radix_down"])
    if agg_per_pod.denominator != 1 or agg_per_pod * t[1]["bundle"] != t[0]["radix_up"]:
        fails.append("agg_per_pod")
    if len(t) == 3:
        agg_up = tor_up * s[1] / (s[2] * t[1]["oversubscribed"])
        cores = agg_up / t[2]["radix_down"]
        if cores.denominator != 1 or cores % agg_per_pod:
            fails.append("cores % agg_per_pod")
        if cores * t[2]["bundle"] / agg_per_pod != t[1]["radix_up"]:
            fails.append("Radix_Up1")
    return fails


@pytest.mark.parametrize("k,tiers,npus", [(4, 3, 1), (8, 3, 1), (6, 3, 1), (4, 2, 1), (8, 2, 2)])
def test_clos_topo_satisfies_every_rule_and_nodes_equal_npus(k, tiers, npus):
    g = expand(clos(k, tiers, npus=npus, nics=npus))
    b = T.get("htsim").translate(g)
    p = parse_topo(b.files["fat_tree.topo"])
    n_npus = (k ** 3 // 4 if tiers == 3 else k * k // 2)
    assert p["nodes"] == n_npus == len(b.rank_order)
    assert len(p["blocks"]) == tiers == p["tiers"]
    assert check_rules(p) == []
    assert yaml.safe_load(b.files["network.yml"])["npus_count"] == [n_npus]
    if tiers == 3:
        assert p["podsize"] == k * k // 4
        # HTSim's arithmetic rebuilds the graph's switch counts: (k/2)^2 cores
        assert Fraction(n_npus, p["blocks"][2]["radix_down"]) == (k // 2) ** 2


def test_header_tiers_and_no_queue_keys():
    text = T.get("htsim").translate(expand(clos(4, 3))).files["fat_tree.topo"]
    assert "\nTiers 3\n" in text and "Queue" not in text and "Bundle 1" in text


def test_refuses_single_switch_with_the_rule():
    d = T.get("htsim").check(expand(single_switch(8)))
    assert len(d) == 1 and "Tiers is 2 or 3" in d[0].message and "Tiers = 1" in d[0].message


def test_refuses_direct_wiring():
    d = T.get("htsim").check(expand(stack("RI(4)_SW(2)")))
    assert "joins two NPUs" in d[0].message


def test_refuses_shared_nics_that_do_not_pair_with_gpus():
    d = T.get("htsim").check(expand(clos(4, 2, npus=4, nics=2)))
    assert "'host.0.nic.0' (a device-internal group shared by several NPUs) joins 2 NPU(s) to 1 cable(s): the GPUs " \
        "share NICs" in d[0].message
    assert "one host per GPU-NIC pair" in d[0].message
    assert "give every GPU its own NIC" in d[0].hint and "--to ns3" in d[0].hint


def test_refusal_of_cpus_linked_to_gpus_names_the_cpu_links_not_shared_nics():
    """examples/host8gpu.igl: every GPU has its own NIC; the CPUs link straight to GPUs."""
    from infragraph.sources import load_graph
    d = T.get("htsim").check(load_graph(str(ROOT / "examples" / "host8gpu.igl")))
    assert len(d) == 1 and "'server.0.cpu.0'" in d[0].message and "links to 4 NPU(s) and to no cable to a switch" \
        in d[0].message and "`cpu -- gpu`" in d[0].message
    assert "share NICs" not in d[0].message and "own NIC" not in d[0].hint
    assert "leave the links between CPUs and GPUs out" in d[0].hint and "--to ns3" in d[0].hint


def test_every_bundle_says_its_times_are_optimistic_with_its_message_size():
    """ASTRA-sim's HTSim glue credits each message one MSS more than was sent (benchmarks/README.md)."""
    from infragraph.translators.chakra_et import Workload
    from infragraph.translators.htsim import ring_message_bytes
    b = T.get("htsim").translate(expand(clos(8, 2)), T.Options(workload=Workload("all-reduce", 1 << 20)))
    note = next(n for n in b.notes if n.startswith("HTSim TIMES ARE OPTIMISTIC"))
    assert "ring messages of 8,192 B each is credited 9,692 B (+18%)" in note  # 1 MiB / 4 chunks / 32 NPUs
    assert note in b.files["README.md"]
    assert ring_message_bytes(Workload("all-gather", 1000), 4, 32) == 250  # all-gather sends the whole chunk
    assert ring_message_bytes(Workload("all-reduce", 64), 4, 32) == 1  # ASTRA-sim: a chunk has at least 1 B per NPU


def test_a_server_with_a_nic_per_gpu_becomes_one_host_per_pair_in_htsim_order():
    from infragraph import blueprints
    g = blueprints.graph("std.fabrics.clos", nics_per_host=8, rail_optimized=True)
    b = T.get("htsim").translate(g)
    # rail-optimized: NIC i of every host on leaf i, so HTSim's ToR 0 holds GPU 0 of hosts 0..3
    assert b.rank_order[:5] == ["host.0.gpu.0", "host.1.gpu.0", "host.2.gpu.0", "host.3.gpu.0", "host.0.gpu.1"]
    assert "Radix_Down 4" in b.files["fat_tree.topo"] and "Downlink_Latency_ns 650" in b.files["fat_tree.topo"]
    assert any("one host per GPU-NIC pair" in n for n in b.notes)
    # a plain Clos keeps the graph's order
    plain = T.get("htsim").translate(expand(clos(4, 2)))
    assert not any("different rank" in n for n in plain.notes)


def test_refuses_mixed_speeds_and_rule_failures():
    doc = clos(4, 3)
    doc.links[0].bandwidth = Bandwidth(100.0)  # hosts at 100 G, fabric at 400 G
    d = T.get("htsim").check(expand(doc))
    msgs = " | ".join(x.message for x in d)
    assert "HTSim consistency rule fails: tor_uplinks" in msgs


def test_refuses_non_integer_speed():
    doc = clos(4, 2)
    doc.links[0].bandwidth = Bandwidth(12.5)
    d = T.get("htsim").check(expand(doc))
    assert "tier 0 Downlink_speed_Gbps is 12.5; HTSim needs a whole number" in d[0].message
