"""Device blueprints: switch, NIC, NPU, host, DGX-like host, GPU with NoC internals (and its cluster).

Node and edge counts per type follow from the parameters by simple products; the NoC's placement
(memory channels only on the top/bottom router rows, I/O ports only on the left/right columns)
and its mesh diameter are measured on the graph.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import shortest_path

from infragraph.graph.summary import summary
from tests import blueprint_checks as bc


def edge_types(g) -> Counter:
    return Counter({k: v for k, v in summary(g)["edges_by_endpoint_types"].items()})


def test_switch_has_an_asic_and_k_ports_of_the_given_speed():
    g = bc.build("std.devices.switch", ports=12, port_speed="800 Gbps")
    assert bc.type_counts(g) == {"switch": 1, "port": 12}
    assert edge_types(g) == {"switch--port": 12}
    assert set(g.node_annotation("speed").values()) == {"800 Gbit/s"}  # units.format_quantity
    assert set(g.edge_bandwidth_gbps().tolist()) == {800.0}
    assert "a switch needs at least 2 ports, got 1" in bc.rejection("std.devices.switch", ports=1)


def test_npu_has_an_xpu_and_its_ports():
    g = bc.build("std.devices.npu", ports=6)
    assert bc.type_counts(g) == {"xpu": 1, "port": 6}
    assert edge_types(g) == {"xpu--port": 6}
    assert "an NPU needs at least one port, got 0" in bc.rejection("std.devices.npu", ports=0)


def test_nic_has_ports_and_a_pcie_endpoint():
    g = bc.build("std.devices.nic", ports=2)
    assert bc.type_counts(g) == {"nic": 1, "port": 2, "pcie_endpoint": 1}
    assert edge_types(g) == {"nic--port": 2, "nic--pcie_endpoint": 1}


@pytest.mark.parametrize("cpus,gpus,nics,sw,up", [(2, 8, 8, 4, 0), (1, 4, 2, 2, 2), (2, 8, 4, 4, 6)])
def test_host_counts_follow_the_parameters(cpus, gpus, nics, sw, up):
    g = bc.build("std.devices.host", cpus=cpus, gpus=gpus, nics=nics, pcie_switches=sw, scaleup_switches=up)
    want = {"cpu": cpus, "xpu": gpus, "nic": nics, "port": nics, "pcie_endpoint": nics, "pcie_switch": sw}
    if up:
        want["switch"] = up
    assert bc.type_counts(g) == want
    e = edge_types(g)
    assert e["cpu--pcie_switch"] == sw and e["xpu--pcie_switch"] == gpus
    assert e["pcie_endpoint--pcie_switch"] == nics
    assert e.get("cpu--cpu", 0) == cpus * (cpus - 1) // 2
    assert e.get("xpu--switch", 0) == gpus * up
    bc.assert_hygiene(g)  # one host: every GPU reaches every other over PCIe


def test_host_rejects_an_uneven_pcie_split():
    msg = bc.rejection("std.devices.host", gpus=6, pcie_switches=4)
    assert "gpus (6) must split evenly over 4 PCIe switches" in msg


def test_dgx_like_host_has_an_all_to_all_scale_up_domain():
    g = bc.build("std.devices.dgx")
    assert bc.type_counts(g) == {"cpu": 2, "xpu": 8, "nic": 8, "port": 8, "pcie_endpoint": 8,
                                 "pcie_switch": 4, "switch": 4}
    gpus = g.nodes_of_type("xpu")
    adj = coo_matrix((np.ones(g.num_edges), (g.edge_src, g.edge_dst)), shape=(g.num_nodes,) * 2)
    d = shortest_path(adj, unweighted=True, directed=False, indices=gpus)[:, gpus]
    assert d.max() == 2  # GPU -> NVSwitch -> GPU for every pair
    # 450 GB/s per GPU per direction (18 NVLink4 x 25 GB/s) over 4 switches: 900 Gbit/s each
    assert edge_types(g)["xpu--switch"] == 32
    nv = g.edge_bandwidth_gbps()[(g.node_type[g.edge_src] == g.type_names.index("xpu"))
                                 & (g.node_type[g.edge_dst] == g.type_names.index("switch"))]
    assert set(nv.tolist()) == {450 * 8 / 4}


def noc_endpoints(w, h, c, m, p):
    return w * h + w * h * c + 2 * w * m + 2 * h * p


def check_noc(g, w, h, c, m, p):
    assert bc.type_counts(g) == {"switch": w * h, "xpu": w * h * c, "memory": 2 * w * m, "port": 2 * h * p}
    assert g.num_nodes == noc_endpoints(w, h, c, m, p)
    routers = g.nodes_of_type("switch")
    rid = {int(n): i for i, n in enumerate(routers)}
    sel = np.isin(g.edge_src, routers) & np.isin(g.edge_dst, routers)
    assert sel.sum() == (w - 1) * h + w * (h - 1)  # 2-D mesh, no wraparound
    adj = coo_matrix((np.ones(sel.sum()), ([rid[int(x)] for x in g.edge_src[sel]],
                                           [rid[int(x)] for x in g.edge_dst[sel]])), shape=(w * h,) * 2).tocsr()
    assert shortest_path(adj, unweighted=True, directed=False).max() == (w - 1) + (h - 1)

    def router_of(kind):
        out = Counter()
        for n in g.nodes_of_type(kind):
            (r,) = [x for x in bc_neighbors(g, int(n)) if x in rid]
            out[rid[r]] += 1
        return out
    mem = router_of("memory")
    assert set(mem.values()) == {m} and {r // w for r in mem} == {0, h - 1} and len(mem) == 2 * w
    io = router_of("port")
    assert set(io.values()) == {p} and {r % w for r in io} == {0, w - 1} and len(io) == 2 * h
    cu = router_of("xpu")
    assert set(cu.values()) == {c} and len(cu) == w * h


def bc_neighbors(g, n):
    m = (g.edge_src == n) | (g.edge_dst == n)
    return [int(x) for x in np.where(g.edge_src[m] == n, g.edge_dst[m], g.edge_src[m])]


def test_gpu_noc_defaults_give_448_endpoints():
    g = bc.build("std.devices.gpu_noc")
    assert g.num_nodes == 448 == 32 + 128 + 256 + 32
    check_noc(g, 8, 4, 4, 16, 4)
    bc.assert_hygiene(g)  # all 128 CUs reach each other


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(w=st.integers(1, 6), h=st.integers(1, 5), c=st.integers(1, 4), m=st.integers(1, 3), p=st.integers(1, 3))
def test_gpu_noc_sweep(w, h, c, m, p):
    params = dict(width=w, height=h, cus_per_router=c, mem_channels_per_router=m, io_ports_per_router=p)
    if w < 2 or h < 2:
        assert "the NoC mesh needs at least 2x2 routers" in bc.rejection("std.devices.gpu_noc", **params)
        assert f"got {w}x{h}" in bc.rejection("std.devices.gpu_noc", **params)
        return
    check_noc(bc.build("std.devices.gpu_noc", **params), w, h, c, m, p)


def test_128_noc_gpus_on_a_switch_fabric_give_57344_endpoints():
    g = bc.build("std.fabrics.gpu_cluster")
    gpu_nodes = bc.nodes_in(g, "gpu")
    assert len(gpu_nodes) == 128 * 448 == 57_344
    assert bc.copies_per_instance(g) == {"gpu": 128, "sw": 32}
    assert bc.type_counts(g)["xpu"] == 128 * 128
    # every GPU I/O port and every switch port takes exactly one cable
    assert (bc.port_cable_counts(g) == 1).all()
    assert bc.cables_between(g, "gpu", "sw") == 128 * 32
    bc.assert_hygiene(g)  # all 16,384 compute units reach each other


# nccl-tests all_reduce_perf busbw on one HGX H100 (ring), as ASTRA-sim's HGX-H100 validation page
# reports it: 741 GB/s "bidirectional", 370.5 GB/s per direction.
H100_NCCL_RING_BUSBW = 370.5
H100_NVLINK_GB_PER_S = 450.0  # 18 NVLink4 x 25 GB/s, per direction
# nccl-tests all_reduce_perf busbw on one HGX H100 with NVLink SHARP (NCCL >= 2.17 picks NVLS for
# large all-reduces there): NVIDIA/nccl-tests issue 290 (NVIDIA): 476 GB/s; issue 212 (NVIDIA): ~480.
H100_NCCL_NVLS_BUSBW = 476.0


def _dgx_all_reduce(graph, **opts) -> dict:
    from infragraph.simulate import SimulationOptions, simulate
    return simulate(graph, SimulationOptions(size_bytes=1 << 30, local_mem_bw_gb_per_s=None, **opts))


def test_dgx_all_reduce_default_is_nccls_nvls_and_the_ideal_reaches_450():
    """`simulate std.devices.dgx --collective all-reduce --size 1GiB --local-mem-bw none`: the
    NVSwitch chips reduce (NVLink SHARP), so NCCL mode picks NVLS as NCCL does on a DGX H100."""
    g = bc.build("std.devices.dgx")
    r = _dgx_all_reduce(g)
    assert r["nccl"]["algorithm"] == "nvls"
    assert abs(r["bus_bandwidth_gb_per_s"] / H100_NCCL_NVLS_BUSBW - 1) < 0.05
    assert r["bus_bandwidth_gb_per_s"] > H100_NVLINK_GB_PER_S  # the switch reduces: above the NVLinks
    up = [t for t in r["tiers"] if "scale-up" in t["tier"]][0]
    assert up["links_used"] == up["links"] == 64  # 32 NVLink bundles, both directions
    ideal = _dgx_all_reduce(g, algorithm=("ring",))  # fair sharing on the links as stated
    assert 0.95 * H100_NVLINK_GB_PER_S <= ideal["bus_bandwidth_gb_per_s"] <= H100_NVLINK_GB_PER_S


def test_imported_h100_server_matches_the_dgx_blueprint_without_in_switch_reduction():
    """An NCCL topology dump does not say whether the NVSwitch chips reduce (NVLS needs CUDA
    multicast at run time), so the imported server runs NCCL's ring, as the blueprint's host does
    without `scaleup_reduction`."""
    from infragraph.graph import expand
    from infragraph.importers import import_source
    doc, _ = import_source("nccl", Path(__file__).parent.parent / "examples" / "import" / "nccl_h100_server.xml")
    imported = _dgx_all_reduce(expand(doc))
    blueprint = _dgx_all_reduce(bc.build("std.devices.host", scaleup_switches=4, scaleup_bandwidth="450 GB/s"))
    assert imported["nccl"]["algorithm"] == blueprint["nccl"]["algorithm"] == "ring"
    assert imported["bus_bandwidth_gb_per_s"] == pytest.approx(blueprint["bus_bandwidth_gb_per_s"], rel=0.01)


# Per GPU: NVLinks, GB/s per direction each, NVSwitch chips, NIC Gbit/s; NCCL's all-reduce on one
# server (ring on A100's NVSwitch gen2, NVLS on the NVLink SHARP chips of H100/H200/B200) and its
# nccl-tests busbw (GB/s) where published: A100 from NVIDIA/nccl issue 1048 (`all_reduce_perf -g 8`,
# 232.54 GB/s), H100 as above, H200 NVIDIA/nccl-tests issue 272 (8x H200, NCCL 2.20.3: 475 GB/s)
# (docs/simulate.md lists them).
HGX = {"a100": (12, 25, 6, 200, "ring", 232.5), "h100": (18, 25, 4, 400, "nvls", H100_NCCL_NVLS_BUSBW),
       "h200": (18, 25, 4, 400, "nvls", 475.0), "b200": (18, 50, 2, 400, "nvls", None)}


def _nvlinks(g):
    xpu, sw = g.type_names.index("xpu"), g.type_names.index("switch")
    t = g.node_type
    mask = (t[g.edge_src] == xpu) & (t[g.edge_dst] == sw)
    return mask, g.edge_bandwidth_gbps()[mask]


@pytest.mark.parametrize("system", sorted(HGX))
def test_hgx_servers_have_their_datasheet_nvlinks_and_nics(system):
    links, lane_gb, chips, nic_gbps, _, _ = HGX[system]
    g = bc.build("std.devices.hgx", system=system)
    assert bc.type_counts(g) == {"cpu": 2, "xpu": 8, "nic": 8, "port": 8, "pcie_endpoint": 8,
                                 "pcie_switch": 4, "switch": chips}
    mask, bw = _nvlinks(g)
    assert mask.sum() == 8 * links and set(bw.tolist()) == {lane_gb * 8.0}
    per_chip = Counter(zip(g.edge_src[mask].tolist(), g.edge_dst[mask].tolist()))
    gpu0 = sorted(n for (s, _), n in per_chip.items() if s == g.nodes_of_type("xpu")[0])
    assert sum(gpu0) == links and len(gpu0) == chips
    if system in ("h100", "h200"):
        assert sorted(gpu0) == [4, 4, 5, 5]  # the 5/4/4/5 wiring
    nic, port = g.type_names.index("nic"), g.type_names.index("port")
    cable = (g.node_type[g.edge_src] == nic) & (g.node_type[g.edge_dst] == port)
    assert cable.sum() == 8 and set(g.edge_bandwidth_gbps()[cable].tolist()) == {float(nic_gbps)}


def _lint_rules(name: str, **defines) -> list[str]:
    from infragraph import blueprints
    from infragraph.lint.config import LintConfig
    from infragraph.lint.engine import lint_files
    report = lint_files([str(blueprints.resolve(name))], LintConfig(), {k: str(v) for k, v in defines.items()})
    return [f.rule for f in report.findings]


@pytest.mark.parametrize("name, defines", [("std.devices.hgx", {"system": "h100"}),
                                           ("std.devices.hgx", {"system": "b200"}),
                                           ("std.devices.gb200_nvl72", {})])
def test_nvlink_lanes_lint_clean(name, defines):
    assert _lint_rules(name, **defines) == []  # parallel NVLink lanes are a bundle, not IG011


@pytest.mark.parametrize("system", sorted(HGX))
def test_hgx_all_reduce_uses_every_nvlink_and_stays_under_the_nvlink_bound(system):
    links, lane_gb, _, _, algorithm, published = HGX[system]
    bound = links * lane_gb  # GB/s per GPU and direction
    g = bc.build("std.devices.hgx", system=system)
    r = _dgx_all_reduce(g)
    up = [t for t in r["tiers"] if "nvlink" in t["tier"]][0]
    assert up["links_used"] == up["links"] == 2 * 8 * links
    assert r["nccl"]["algorithm"] == algorithm
    # NVLS reduces in the switch: its busbw may exceed the NVLinks, by at most 2(n-1)/(n+1) = 14/9
    limit = bound if algorithm == "ring" else bound * 14 / 9
    assert r["bus_bandwidth_gb_per_s"] < limit
    if published:
        assert abs(r["bus_bandwidth_gb_per_s"] / published - 1) < 0.10
    ideal = _dgx_all_reduce(g, algorithm=("ring",))
    assert 0.95 * bound <= ideal["bus_bandwidth_gb_per_s"] <= bound


def test_gb200_nvl72_is_one_nvlink_domain_of_72_gpus():
    g = bc.build("std.devices.gb200_nvl72")
    assert bc.type_counts(g) == {"cpu": 36, "xpu": 72, "nic": 72, "port": 72, "pcie_endpoint": 72, "switch": 18}
    mask, bw = _nvlinks(g)
    assert mask.sum() == 72 * 18 and set(bw.tolist()) == {50 * 8.0}  # one 50 GB/s lane to each chip
    r = _dgx_all_reduce(g)
    up = [t for t in r["tiers"] if "nvlink" in t["tier"]][0]
    assert up["links_used"] == up["links"] == 2 * 72 * 18
    assert r["num_npus"] == 72 and r["bus_bandwidth_gb_per_s"] < 900
