"""ns-3 translator: the note's 8-NPU single-switch file, folding, logical dims, config, refusals, and the
limits of ASTRA-sim's ns-3 fork (parallel links, 1024 switch ports, 64,770 links, BUFFER_SIZE)."""

import json

import numpy as np
import pytest

from infragraph import blueprints
from infragraph import translators as T
from infragraph.cli import main
from infragraph.errors import InfraGraphError
from infragraph.graph import expand
from infragraph.translators.ns3 import (MAX_BUFFER_MIB, MAX_LINKS, _fork_limits, delay, merge_parallel_links,
                                        rate)
from infragraph.translators.structure import fabric
from tests.translator_graphs import clos, ring_direct, single_switch, stack


def test_eight_npu_single_switch_is_the_note_file():
    b = T.get("ns3").translate(expand(single_switch(8, gbps=400, ns=500)))
    lines = b.files["topology.txt"].splitlines()
    assert lines[0] == "9 1 8" and lines[1] == "8"
    assert lines[2:] == [f"8 {i} 400Gbps 0.0005ms 0" for i in range(8)]
    assert json.loads(b.files["logical_topology.json"]) == {"logical-dims": ["8"]}


def test_units():
    assert rate(400.0) == "400Gbps" and rate(12.5) == "12.5Gbps"
    assert delay(500.0) == "0.0005ms" and delay(1.0) == "0.000001ms"


def test_internal_path_folded_slowest_bandwidth_summed_latency():
    doc = single_switch(4, gbps=400, ns=500)
    doc.devices[0].links[0].bandwidth.value = 200.0  # PCIe slower than the cable
    doc.devices[0].links[0].latency.value = 100.0
    lines = T.get("ns3").translate(expand(doc)).files["topology.txt"].splitlines()
    assert lines[2] == "4 0 200Gbps 0.0006ms 0"


def test_npus_first_in_rank_order_switches_after():
    b = T.get("ns3").translate(expand(clos(4, 2)))
    lines = b.files["topology.txt"].splitlines()
    total, nsw, nlinks = map(int, lines[0].split())
    assert (total, nsw, nlinks) == (8 + 6, 6, 16)
    assert lines[1].split() == [str(i) for i in range(8, 14)]
    npu_ends = {int(x) for ln in lines[2:] for x in ln.split()[:2] if int(x) < 8}
    assert npu_ends == set(range(8))
    assert b.rank_order[0] == "host.0.xpu.0" and b.rank_order[7] == "host.7.xpu.0"


def test_logical_dims_from_the_product_and_override():
    g = expand(stack("FC(4)_SW(2)"))
    assert json.loads(T.get("ns3").translate(g).files["logical_topology.json"]) == {"logical-dims": ["4", "2"]}
    b = T.get("ns3").translate(g, T.Options(settings={"logical-dims": "2,4"}))
    assert json.loads(b.files["logical_topology.json"]) == {"logical-dims": ["2", "4"]}
    d = T.get("ns3").check(g, T.Options(settings={"logical-dims": "3,3"}))
    assert "multiply to 9, the graph has 8 NPUs" in d[0].message


def test_config_has_every_key_with_overrides_and_ecn_maps_per_rate():
    b = T.get("ns3").translate(expand(single_switch(8)), T.Options(settings={"CC_MODE": "3", "BUFFER_SIZE": "16"}))
    cfg = dict(ln.split(" ", 1) for ln in b.files["config.txt"].splitlines())
    for key in ("TOPOLOGY_FILE", "FLOW_FILE", "TRACE_FILE", "TRACE_OUTPUT_FILE", "FCT_OUTPUT_FILE", "PFC_OUTPUT_FILE",
                "QLEN_MON_FILE", "SIMULATOR_STOP_TIME", "CC_MODE", "PACKET_PAYLOAD_SIZE", "BUFFER_SIZE",
                "ERROR_RATE_PER_LINK", "KMAX_MAP", "KMIN_MAP", "PMAX_MAP", "ENABLE_QCN", "USE_DYNAMIC_PFC_THRESHOLD",
                "L2_CHUNK_SIZE", "L2_ACK_INTERVAL", "HAS_WIN", "GLOBAL_T", "VAR_WIN", "U_TARGET", "RATE_BOUND",
                "LINK_DOWN", "ENABLE_TRACE"):
        assert key in cfg
    assert cfg["CC_MODE"] == "3" and cfg["BUFFER_SIZE"] == "16" and cfg["LINK_DOWN"] == "0 0 0"
    assert cfg["TOPOLOGY_FILE"] == "topology.txt"
    assert cfg["KMAX_MAP"] == "1 400000000000 6400" and cfg["PMAX_MAP"] == "1 400000000000 0.2"
    assert "(set)" in b.files["README.md"]


def test_direct_ring_refused_with_reason():
    t = T.get("ns3")
    g = expand(ring_direct(8))
    d = t.check(g)
    assert len(d) == 1 and "ns-3 NPUs do not forward" in d[0].message and "8 NPUs including 'npu.0.xpu.0'" in d[0].message
    assert d[0].location.path.startswith("edges[") and "forwarding-nodes=true" in d[0].hint
    with pytest.raises(InfraGraphError):
        t.translate(g)


def test_fully_connected_needs_no_forwarding():
    assert T.get("ns3").check(expand(stack("FC(4)_SW(2)"))) == []


def test_forwarding_nodes_on_request_flagged():
    b = T.get("ns3").translate(expand(ring_direct(4, gbps=400)), T.Options(settings={"forwarding-nodes": "true"}))
    lines = b.files["topology.txt"].splitlines()
    assert lines[0] == "8 4 8" and lines[1] == "4 5 6 7"
    links = [ln.split() for ln in lines[2:]]
    assert all(int(a) >= 4 and int(b) >= 4 for a, b, *_ in links[:4])  # NPU-NPU links now join forwarding nodes
    assert [ln[:3] for ln in links[4:]] == [["4", "0", "800Gbps"], ["5", "1", "800Gbps"], ["6", "2", "800Gbps"],
                                            ["7", "3", "800Gbps"]]
    assert any(n.startswith("FLAGGED") for n in b.notes)


def test_shared_nic_becomes_a_forwarding_node():
    b = T.get("ns3").translate(expand(clos(4, 2, npus=4, nics=2)))
    total, nsw, _ = map(int, b.files["topology.txt"].splitlines()[0].split())
    hosts = 4  # 8 host ports / 2 NICs
    assert total == hosts * 4 + hosts * 2 + 6 and nsw == hosts * 2 + 6
    assert any("shared by several NPUs" in n for n in b.notes)


def test_run_script_flags():
    run = T.get("ns3").translate(expand(single_switch(2))).files["run.sh"]
    for flag in ("--network-configuration=\"$here/config.txt\"", "--logical-topology-configuration",
                 "--system-configuration", "--remote-memory-configuration", "--workload-configuration"):
        assert flag in run


def _topology_links(b: T.Bundle) -> list[list[str]]:
    return [ln.split() for ln in b.files["topology.txt"].splitlines()[2:] if ln.strip()]


def test_parallel_links_become_one_link_of_their_summed_rate_flagged():
    # ns-3's fork keeps one interface per neighbour: on the real binary two 200 Gbps links per NPU ran
    # exactly as one (156,024 ns both), so the pgft's doubled links must be merged, not written twice
    g = blueprints.graph("std.fabrics.pgft")
    b = T.get("ns3").translate(g)
    links = _topology_links(b)
    pairs = [tuple(sorted((int(x[0]), int(x[1])))) for x in links]
    assert len(pairs) == len(set(pairs)) == 24
    assert sum(float(x[2][:-4]) for x in links) == pytest.approx(float(fabric(g).bw_gbps.sum()))
    assert {x[2] for x in links} == {"100Gbps", "200Gbps"}
    assert any(n.startswith("FLAGGED: 8 pair(s) of nodes joined by several links") for n in b.notes)
    assert "FLAGGED: 8 pair(s)" in b.files["README.md"]


def test_merge_keeps_file_order_and_takes_the_largest_delay_and_error():
    src, dst = np.array([0, 2, 1, 2, 0]), np.array([2, 1, 2, 0, 3])
    bw, lat, err = np.array([1.0, 2, 4, 8, 16]), np.array([5.0, 1, 1, 7, 1]), np.array([0, 0, 0.5, 0, 0])
    s, d, b, lt, e, note = merge_parallel_links(src, dst, bw, lat, err, 4, str)
    assert s.tolist() == [0, 2, 0] and d.tolist() == [2, 1, 3]
    assert b.tolist() == [9, 6, 16] and lt.tolist() == [7, 1, 1] and e.tolist() == [0, 0.5, 0]
    assert note.startswith("FLAGGED: 2 pair(s)") and "'0' and '2': 2 links" in note
    assert merge_parallel_links(s, d, b, lt, e, 4, str)[-1] is None


def test_switch_with_more_than_1024_ports_is_refused_with_a_fix():
    # the fork's switch node has port counters for 1..1024; the real binary segfaulted on 1,100
    g = blueprints.graph("std.fabrics.single_switch", ports=1025)
    d = T.get("ns3").check(g)
    assert len(d) == 1 and "'leaf.0.asic.0' has 1,025 links" in d[0].message and "1024 ports" in d[0].message
    assert d[0].location.path.startswith("edges[") and "std.fabrics.clos" in d[0].hint
    assert "fork-limits=false" in d[0].hint
    assert T.get("ns3").check(blueprints.graph("std.fabrics.single_switch", ports=1024)) == []
    b = T.get("ns3").translate(g, T.Options(settings={"fork-limits": "false"}))  # for a build without it
    assert b.files["topology.txt"].startswith("1026 1 1025\n")
    assert any(n.startswith("FLAGGED: fork-limits=false: 'leaf.0.asic.0' has 1,025 links") for n in b.notes)


def test_more_links_than_ns3_has_subnets_for_is_refused():
    fab = fabric(expand(single_switch(2)))
    n = MAX_LINKS + 1
    src, dst = np.arange(n) % 1000, 1000 + np.arange(n) // 1000
    d = _fork_limits(fab, src, dst, np.zeros(0, dtype=np.int64), 2000)
    assert len(d) == 1 and "64,771 links" in d[0].message and "64,770" in d[0].message and d[0].hint
    assert _fork_limits(fab, src[:-1], dst[:-1], np.zeros(0, dtype=np.int64), 2000) == []


@pytest.mark.parametrize("value", ["0", "4096"])
def test_buffer_size_outside_32_bit_bytes_is_refused(value):
    with pytest.raises(InfraGraphError, match="1024 x 1024 in 32 bits"):
        T.get("ns3").translate(expand(single_switch(2)), T.Options(settings={"BUFFER_SIZE": value}))
    assert MAX_BUFFER_MIB == 4095


def test_readme_states_switch_memory_and_units():
    readme = T.get("ns3").translate(expand(clos(4, 2))).files["README.md"]
    assert "33.6 MB of counters per switch node, 0.20 GB for these" in readme  # 6 switches
    assert "kB = 1000 bytes" in readme and "MiB per switch" in readme


TORUS_YAML = ("topology: [ Ring, Ring, Ring ]\nnpus_count: [ 4, 4, 4 ]\nbandwidth: [ 50.0, 50.0, 25.0 ]\n"
              "latency: [ 500.0, 500.0, 500.0 ]\n")


def test_cli_reports_refusal_without_traceback(tmp_path, capsys):
    src = tmp_path / "ring.yml"
    src.write_text(TORUS_YAML)
    main(["import", str(src), "--from", "astra-analytical", "-o", str(tmp_path / "t.yaml"), "-q"])
    assert main(["translate", str(tmp_path / "t.yaml"), "--to", "ns3", "-o", str(tmp_path / "o"), "-q"]) == 1
    err = capsys.readouterr().err
    assert "ns-3 NPUs do not forward" in err and "Traceback" not in err and "t.yaml" in err
    assert main(["translate", str(tmp_path / "t.yaml"), "--to", "ns3", "-o", str(tmp_path / "o"), "-q",
                 "--set", "nope"]) == 1
    assert "expected KEY=VALUE" in capsys.readouterr().err
