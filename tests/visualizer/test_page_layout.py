"""What the page shows at first sight: a mid-size Clos aggregated (not a grey block of lines),
short aggregated captions, switch ports around their ASIC in index order, no boxes on top of
each other inside a device."""

from __future__ import annotations

import math

import numpy as np

from infragraph.visualizer import prepare
from infragraph.visualizer.page import page_data
from infragraph.visualizer.views import fabric_view
from tests import vis_graphs as vg


def test_a_mid_size_clos_opens_aggregated():
    g = vg.clos3(pods=8, leaves=4, aggs=4, hosts_per_leaf=8, cores_per_agg=4)
    v = fabric_view(g)
    assert 300 < v.num_nodes < 2000  # below the old threshold, which drew every box at full view
    d = page_data(g)
    assert d["agg"] is not None and len(d["agg"]["x"]) < v.num_nodes
    tops = [label for label in d["agg"]["label"] if label.startswith("core")]
    assert tops and all(len(line) <= 12 for label in tops for line in label.split("\n")), tops


def test_switch_ports_sit_around_the_asic_in_index_order():
    g = vg.clos2()
    scene = prepare(g, "device", "leaf.0")
    v, xy = scene.view, scene.xy
    hub = v.label.index("asic.0")
    ports = sorted((int(lab.split(".")[1]), i) for i, lab in enumerate(v.label) if lab.startswith("port."))
    angles = [math.atan2(*(xy[i] - xy[hub])[::-1]) for _, i in ports]
    steps = np.diff(np.unwrap(angles))
    assert (steps > 0).all() or (steps < 0).all()  # one way round, in index order
    radii = [np.hypot(*(xy[i] - xy[hub])) for _, i in ports]
    assert max(radii) - min(radii) < 1e-6


def test_boxes_inside_a_device_do_not_overlap():
    from infragraph.sources import load_graph

    g = load_graph("std.fabrics.clos", {"radix": "8", "host_device": "dgx.dgx()", "nics_per_host": "4", "planes": "4"})
    scene = prepare(g, "device", "host.0")
    assert scene.structure.kind == "free"
    xy = scene.xy
    d = np.hypot(*(xy[:, None, :] - xy[None, :, :]).transpose(2, 0, 1))
    d[np.diag_indices_from(d)] = np.inf
    assert d.min() > 0.45 * np.median(d.min(axis=1))  # was 0.23: GPUs drawn on top of the NVSwitches
