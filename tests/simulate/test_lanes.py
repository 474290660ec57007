"""simulate/lanes.py: a server's NVSwitch chips merged into one link per GPU for the run, and the
merged link's load spread evenly back over the NVLinks it stands for."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from infragraph.simulate.lanes import nvswitch_planes, spread_bundles
from infragraph.sources import load_graph

RING8 = Path(__file__).resolve().parents[2] / "examples" / "ring8.igl"


@pytest.fixture(scope="module")
def hgx():
    g = load_graph("std.devices.hgx")
    bw = g.edge_bandwidth_gbps()
    return g, bw, nvswitch_planes(g, bw)


def test_every_gpus_18_nvlinks_become_one_link_to_the_first_chip(hgx):
    g, bw, planes = hgx
    assert len(planes.bundles) == 8 and all(b.size == 18 for b in planes.bundles)
    for gpu, b in enumerate(planes.bundles):
        carrying = int(b[0])
        # 18 x 200 Gbit/s = 3,600 Gbit/s (450 GB/s per direction, an H100's NVLink bandwidth)
        assert planes.bandwidth_gbps[carrying] == 3600.0 and (planes.bandwidth_gbps[b[1:]] == 200.0).all()
        assert g.node_name(int(planes.edge_src[carrying])) == f"hgx.0.gpu.{gpu}"
        assert g.node_name(int(planes.edge_dst[carrying])) == "hgx.0.nvswitch.0"
        assert {g.node_name(int(g.edge_dst[e])) for e in b} == {f"hgx.0.nvswitch.{c}" for c in range(4)}
    assert (bw == g.edge_bandwidth_gbps()).all()  # the caller's bandwidths are not changed


def test_the_merged_load_is_spread_evenly_and_busy_as_long(hgx):
    g, _, planes = hgx
    b = planes.bundles[0]
    link_bytes, busy = np.zeros(2 * g.num_edges), np.zeros(2 * g.num_edges)
    link_bytes[2 * b[0]], busy[2 * b[0]] = 18e6, 40_000.0  # forward: GPU -> chips
    link_bytes[2 * b[0] + 1], busy[2 * b[0] + 1] = 9e6, 20_000.0  # backward
    v, t = spread_bundles(planes, link_bytes, busy)
    assert (v[2 * b] == 1e6).all() and (t[2 * b] == 40_000.0).all()
    assert (v[2 * b + 1] == 5e5).all() and (t[2 * b + 1] == 20_000.0).all()
    assert v.sum() == link_bytes.sum() and link_bytes[2 * b[0]] == 18e6  # bytes kept; inputs not changed


@pytest.mark.parametrize("source", ["std.fabrics.single_switch", RING8])
def test_nothing_to_merge_without_nvswitch_chips_in_a_server(source):
    g = load_graph(source)
    assert nvswitch_planes(g, g.edge_bandwidth_gbps()) is None
