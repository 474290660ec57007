"""simulate.affinity: GPUs leave their server through the NIC NCCL binds them to, and GPUs in a
switched scale-up domain forward nobody's traffic (a small rail-optimized Clos of DGX-like hosts)."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from infragraph import blueprints
from infragraph.simulate import SimulationOptions as Opts
from infragraph.simulate import prepare, simulate
from infragraph.simulate.affinity import NO_NIC, affinity


@lru_cache(maxsize=1)
def dgx_clos():
    """4 DGX-like hosts (8 GPUs, 8 NICs, 4 PCIe switches, 4 NVSwitch chips), rail-optimized: 32 GPUs."""
    return prepare(blueprints.graph("std.fabrics.clos", radix=8, tiers=2, nics_per_host=8, rail_optimized=True,
                                    host_device="dgx.dgx()"))


def test_gpu_i_is_bound_to_nic_i_of_its_own_host():
    p = dgx_clos()
    a = affinity(p.g, p.npu_nodes)
    names = [p.g.node_name(int(n)) for n in p.npu_nodes]
    assert NO_NIC not in a.nic
    for gpu, nic in zip(names, (p.g.node_name(n) for n in a.nic)):
        host, _, i = gpu.rpartition(".gpu.")  # host.3.gpu.5 -> host.3.nic.5.asic.0
        assert nic == f"{host}.nic.{i}.asic.0", (gpu, nic)
    assert len(set(a.server.tolist())) == 4 and a.server[:8].tolist() == [a.server[0]] * 8
    assert len(a.quiet_gpus) == 32  # no GPU is cabled to a GPU: none forwards


def _cable_bytes(r: dict, tier: str) -> np.ndarray:
    return np.array([link["bytes"] for link in r["links"] if link["tier"] == tier])


def test_all_reduce_loads_every_nic_cable_evenly():
    r = simulate(dgx_clos(), Opts(algorithm=("ring",), size_bytes=64 << 20, local_mem_bw_gb_per_s=None, links="cables",
                                  top_links=None))
    nic = _cable_bytes(r, "host–leaf")
    assert nic.size == 2 * 32  # every NIC cable, both directions
    assert nic.max() / nic.min() <= 1.1


def test_all_to_all_crosses_the_spines_and_no_gpu_forwards():
    size = 32 << 20  # flat: GPU i also sends to GPU j != i of other hosts, across rails
    r = simulate(dgx_clos(), Opts(collective="all-to-all", algorithm=("direct",), size_bytes=size, dims=(32,),
                                  local_mem_bw_gb_per_s=None, pxn=False))
    tiers = {t["tier"]: t["bytes"] for t in r["tiers"]}
    assert tiers["leaf–spine"] > 0
    # Every block to a GPU of the same host crosses two NVLinks (GPU -> NVSwitch -> GPU) and
    # nothing else does: a GPU forwarding traffic would add bytes here.
    intra = 32 * 7 * size / 32
    assert tiers["host: scale-up (per switch)"] == intra * 2


def test_the_old_routes_stay_available():
    base = Opts(collective="all-to-all", algorithm=("direct",), size_bytes=1 << 20, dims=(32,),
                local_mem_bw_gb_per_s=None)
    old = simulate(dgx_clos(), Opts(**{**base.__dict__, "gpu_transit": True, "nic_affinity": False}))
    tiers = {t["tier"]: t["bytes"] for t in old["tiers"]}
    assert tiers["host: scale-up (per switch)"] > 32 * 7 * (1 << 20) / 32 * 2  # GPUs forward again


def test_pxn_keeps_an_all_to_all_on_the_rails():
    base = Opts(collective="all-to-all", algorithm=("direct",), size_bytes=8 << 20, dims=(32,),
                local_mem_bw_gb_per_s=None)
    tiers = {}
    for pxn in (None, True, False):
        r = simulate(dgx_clos(), Opts(**{**base.__dict__, "pxn": pxn}))
        tiers[pxn] = {t["tier"]: t["bytes"] for t in r["tiers"]}
    # PXN (on by default for all-to-all): every message leaves through the NIC on the destination's
    # rail, and a rail is one leaf here, so nothing crosses the spines; without it, cross-rail blocks do.
    assert tiers[None] == tiers[True]
    assert tiers[True]["leaf–spine"] == 0
    assert tiers[False]["leaf–spine"] > 0
    assert tiers[True]["host: scale-up (per switch)"] > tiers[False]["host: scale-up (per switch)"]


def test_disjoint_planes_are_crossed_through_the_gpu_on_the_destination_rail():
    # Two planes that never meet: NIC 0 (plane 0) cannot reach NIC 1 (plane 1) of another host, so
    # that connection goes as PXN does, even with PXN off, instead of failing (or, before, being
    # relayed by GPUs and CPUs).
    p = prepare(blueprints.graph("std.fabrics.clos", radix=8, tiers=2, nics_per_host=8, planes=2,
                                 rail_optimized=True, host_device="dgx.dgx()"))
    r = simulate(p, Opts(collective="all-to-all", algorithm=("direct",), size_bytes=1 << 20,
                         dims=(int(p.npu_nodes.size),), pxn=False, local_mem_bw_gb_per_s=None))
    assert r["flows"]["delivered"] == r["flows"]["count"]
