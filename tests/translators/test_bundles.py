"""Every bundle of every blueprint passes the real tools' format rules (tests/bundle_formats.py), every
refusal names a fix, and the validators themselves catch each rule the real tools enforced."""

from __future__ import annotations

import json
from functools import lru_cache

import pytest

from infragraph import blueprints
from infragraph import translators as T
from infragraph.errors import InfraGraphError
from infragraph.graph import expand
from infragraph.translators.chakra_et import Workload
from tests.bundle_formats import data_rate_bps, validate
from tests.translator_graphs import clos, single_switch

BACKENDS = ("astra-analytical", "htsim", "ns3")
FABRICS = sorted(n for n in blueprints.names() if n.startswith("std.fabrics."))
EXTRA = {"clos-8nic-rail": ("std.fabrics.clos", {"nics_per_host": 8, "rail_optimized": True}),
         "dgx": ("std.devices.dgx", {}), "host": ("std.devices.host", {})}


@lru_cache(maxsize=None)
def _graph(key: str):
    name, params = EXTRA.get(key, (key, {}))
    return blueprints.graph(name, **params)


# what a refusal's hint offers, tried when the default is refused
FIXES = {"astra-analytical": T.Options(approximate=True), "ns3": T.Options(settings={"forwarding-nodes": "true"})}


@pytest.mark.parametrize("key", FABRICS + sorted(EXTRA))
def test_every_bundle_passes_the_format_rules_and_every_refusal_names_a_fix(key):
    g = _graph(key)
    made = 0
    for backend in BACKENDS:
        for workload in (Workload("all-reduce", 1 << 20), Workload("all-to-all", 1 << 20)):
            for options in (T.Options(workload=workload), FIXES.get(backend)):
                if options is None:
                    break
                options.workload = workload
                try:
                    bundle = T.get(backend).translate(g, options)
                except InfraGraphError as e:
                    for d in e.diagnostics:
                        assert d.hint, f"{key} -> {backend}: refusal without a fix: {d.message}"
                    continue
                made += 1
                assert validate(bundle) == [], (key, backend, workload.collective, options)
                break
    assert made, f"{key}: no backend takes it"


def test_the_multi_nic_rail_optimized_clos_translates_for_htsim_and_ns3():
    g = _graph("clos-8nic-rail")
    for backend in ("htsim", "ns3"):
        b = T.get(backend).translate(g)
        assert validate(b) == [] and len(b.rank_order) == 32


def test_all_to_all_never_names_halving_doubling():
    for key in ("std.fabrics.single_switch", "std.fabrics.stack", "std.fabrics.clos"):
        for backend in BACKENDS:
            try:
                b = T.get(backend).translate(_graph(key), T.Options(workload=Workload("all-to-all", 1 << 20)))
            except InfraGraphError:
                continue
            assert "halvingDoubling" not in json.loads(b.files["system.json"])["all-to-all-implementation"]


# --- the validators catch what the real tools rejected ------------------------------------------

def _ns3_bundle():
    return T.get("ns3").translate(expand(clos(4, 2)))


def _with(b, name, text):
    return T.Bundle(b.backend, {**b.files, name: text}, b.notes, b.rank_order)


def test_validator_catches_ns3_missing_flow_file():
    b = _ns3_bundle()
    files = dict(b.files)
    del files["flow.txt"]
    assert any("flow.txt is not in the bundle" in p for p in validate(T.Bundle("ns3", files)))


def test_validator_catches_decimal_thresholds_and_untruncated_rate_keys():
    b = _ns3_bundle()
    cfg = b.files["config.txt"]
    kmax = next(ln for ln in cfg.splitlines() if ln.startswith("KMAX_MAP"))
    decimal = cfg.replace(kmax, kmax.rsplit(" ", 1)[0] + " 6871.9476736")
    assert any("integer thresholds" in p for p in validate(_with(b, "config.txt", decimal)))
    topo = b.files["topology.txt"].replace("400Gbps", "1.001Gbps")
    keyed = cfg.replace("400000000000", "1001000000")  # the key as a naive rate*1e9 would write it
    assert any("must set kmax" in p for p in validate(_with(_with(b, "topology.txt", topo), "config.txt", keyed)))
    assert data_rate_bps("1.001Gbps") == 1000999999 and data_rate_bps("3.2Tbps") is None


def test_validator_catches_tbps_and_only_npu_forwarding():
    b = _ns3_bundle()
    assert any("Tbps" in p for p in validate(_with(b, "topology.txt", b.files["topology.txt"].replace("400Gbps", "0.4Tbps"))))
    ring = "4 0 4\n\n0 1 400Gbps 0.0005ms 0\n1 2 400Gbps 0.0005ms 0\n2 3 400Gbps 0.0005ms 0\n3 0 400Gbps 0.0005ms 0\n"
    files = {**b.files, "topology.txt": ring, "logical_topology.json": '{"logical-dims": ["4"]}'}
    files = {k: v for k, v in files.items() if not k.startswith("workload/") or int(k.split(".")[-2]) < 4}
    files["ranks.txt"] = "".join(f"{i}\tn{i}\n" for i in range(4))
    assert any("only through other NPUs" in p for p in validate(T.Bundle("ns3", files)))


def test_validator_catches_astra_rules():
    b = T.get("astra-analytical").translate(expand(single_switch(8)))
    sysj = json.loads(b.files["system.json"])
    bad = {**sysj, "all-to-all-implementation": ["halvingDoubling"], "endpoint-delay": 0}
    problems = validate(_with(b, "system.json", json.dumps(bad)))
    assert any("unknown communication type" in p for p in problems) and any("aborts on 0" in p for p in problems)
    assert any("topology 'switch'" in p for p in validate(_with(b, "network.yml", b.files["network.yml"].replace("Switch", "switch"))))
    et = b.files["workload/all_reduce.3.et"]
    assert any("id 0" in p or "workload" in p for p in validate(_with(b, "workload/all_reduce.3.et", et.replace(b"\x08\x03", b"\x08\x05"))))
    aware = b.files["run.sh"].replace("Unaware", "Aware")
    two_d = "topology: [ Switch, Switch ]\nnpus_count: [ 2, 4 ]\nbandwidth: [ 1.0, 1.0 ]\nlatency: [ 1.0, 1.0 ]\n"
    assert any("1-dim" in p for p in validate(_with(_with(b, "run.sh", aware), "network.yml", two_d)))


def test_validator_catches_htsim_rules():
    b = T.get("htsim").translate(expand(clos(4, 2)))
    topo = b.files["fat_tree.topo"]
    assert any("Queue_Up" in p for p in validate(_with(b, "fat_tree.topo", topo + "Queue_Up 8\n")))
    assert any("Radix_Up0" in p or "agg_per_pod" in p
               for p in validate(_with(b, "fat_tree.topo", topo.replace("Radix_Up 2", "Radix_Up 1", 1))))
    sysj = json.loads(b.files["system.json"])
    hd = {**sysj, "all-reduce-implementation": ["halvingDoubling"]}
    assert any("notify_sender" in p for p in validate(_with(b, "system.json", json.dumps(hd))))


def test_validator_catches_the_ns3_fork_limits():
    # found by running ASTRA-sim's ns-3 backend: parallel links collapse to one (nbr2if keeps one
    # interface per neighbour), a switch node past 1024 ports segfaults, link subnets run out after
    # 64,770 links, BUFFER_SIZE is multiplied into 32 bits
    b = _ns3_bundle()
    head, switches, *links = b.files["topology.txt"].rstrip("\n").split("\n")
    total, nsw, nlinks = map(int, head.split())
    doubled = "\n".join([f"{total} {nsw} {nlinks + 1}", switches, *links, links[0]]) + "\n"
    assert any("joined by 2 links" in p for p in validate(_with(b, "topology.txt", doubled)))
    sw = int(switches.split()[0])
    ports = sum(str(sw) in ln.split()[:2] for ln in links)
    star = [f"{sw} {total + i} 400Gbps 0.0005ms 0" for i in range(1025 - ports)]
    wide = "\n".join([f"{total + len(star)} {nsw} {nlinks + len(star)}", switches, *links, *star]) + "\n"
    assert any(f"switch node {sw} has 1025 links" in p for p in validate(_with(b, "topology.txt", wide)))
    fits = "\n".join([f"{total + len(star) - 1} {nsw} {nlinks + len(star) - 1}", switches, *links, *star[1:]]) + "\n"
    assert not any("switch node" in p for p in validate(_with(b, "topology.txt", fits)))
    many = "\n".join([f"{total} {nsw} 64771", switches, *links]) + "\n"
    assert any("64,771 links" in p for p in validate(_with(b, "topology.txt", many)))
    cfg = b.files["config.txt"].replace("BUFFER_SIZE 32", "BUFFER_SIZE 4096")
    assert any("BUFFER_SIZE 4096" in p for p in validate(_with(b, "config.txt", cfg)))
    assert validate(b) == []
