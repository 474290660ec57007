"""Pictures show the design (issue 24 item 8): rails in their colours, tiers and switches in index
order, racks / scalable units outlined, each bundle's mean / max load and used links, and a failed
line's rated speed."""

from __future__ import annotations

import re

import numpy as np
import pytest

from infragraph.graph.failures import FailureSpec, marked, resolve_failures
from infragraph.sources import load_graph
from infragraph.visualizer.page import page_data
from infragraph.visualizer.picture import dot_text
from infragraph.visualizer.scene import prepare
from infragraph.visualizer.style import RAIL_COLOURS
from infragraph.visualizer.views import fabric_view
from tests import translator_graphs
from tests import vis_graphs as vg


@pytest.fixture(scope="module")
def rails(tmp_path_factory):
    return translator_graphs.rails(tmp_path_factory.mktemp("rails"))


def _line(v, a: str, b: str) -> int:
    i, j = v.label.index(a), v.label.index(b)
    return int(np.flatnonzero(((v.src == i) & (v.dst == j)) | ((v.src == j) & (v.dst == i)))[0])


def test_every_cable_carries_its_rail(rails):
    v = fabric_view(rails)
    assert v.rail_names == [f"nic.{i}" for i in range(8)]
    assert v.rail[_line(v, "host.5", "leaf.11")] == 3  # host 5 is in unit 1: NIC 3 -> leaf 8 + 3
    assert v.rail[_line(v, "leaf.11", "spine.2")] == 3  # a rail's leaf passes its rail up
    assert (v.rail >= 0).all()
    dot = dot_text(prepare(rails))
    assert re.search(rf'"host\.5" -- "leaf\.11" \[[^\]]*color="{RAIL_COLOURS[3]}"', dot) or \
        re.search(rf'"leaf\.11" -- "host\.5" \[[^\]]*color="{RAIL_COLOURS[3]}"', dot)
    assert "rail 7 (nic.7)" in dot and "line colour: rail" in dot


def test_no_rails_when_every_nic_of_a_host_goes_to_one_switch():
    g = load_graph("std.fabrics.clos", {"radix": "8", "nics_per_host": "2", "host_device": "dgx.dgx(gpus=2)"})
    v = fabric_view(g)
    assert v.rail is None and "line colour: rail" not in dot_text(prepare(g))


def test_tiers_and_switches_in_index_order_and_units_outlined(rails):
    scene = prepare(rails)
    v, xy = scene.view, scene.xy
    for name, n in (("spine", 4), ("leaf", 16), ("host", 8)):
        xs = [xy[v.label.index(f"{name}.{i}"), 0] for i in range(n)]
        assert xs == sorted(xs) and len(set(xs)) == n, name
    assert xy[v.label.index("spine.0"), 1] < xy[v.label.index("leaf.0"), 1] < xy[v.label.index("host.0"), 1]
    dot = dot_text(scene)
    assert 'label="SU 0: host.0–3"' in dot and 'label="SU 1: host.4–7"' in dot
    assert [u["label"] for u in page_data(rails)["units"]] == ["SU 0: host.0–3", "SU 1: host.4–7"]
    assert len(re.findall(r'label="rack \d+: ', dot_text(prepare(vg.clos2())))) == 8  # one leaf each: racks


def test_each_bundle_states_mean_max_and_used_links():
    g = load_graph("std.fabrics.clos", {"radix": "8", "nics_per_host": "2", "host_device": "dgx.dgx(gpus=2)"})
    util = np.full(g.num_edges, np.nan)
    cables = [e for e in range(g.num_edges) if g.node_name(int(g.edge_src[e])).startswith("host.0.nic.")
              and g.node_name(int(g.edge_dst[e])).startswith("leaf.")
              or g.node_name(int(g.edge_dst[e])).startswith("host.0.nic.")
              and g.node_name(int(g.edge_src[e])).startswith("leaf.")]
    assert len(cables) == 2  # host.0's two NICs on leaf.0: one line of 2 links
    util[cables[0]] = 0.9  # one link busy, the other idle
    scene = prepare(g, utilization=util)
    v = scene.view
    j = _line(v, "host.0", "leaf.0")
    assert v.count[j] == 2 and v.used[j] == 1 and v.util_sum[j] == pytest.approx(0.9)
    dot = dot_text(scene)
    assert "utilization mean 45%, max 90%, 1/2 links carried traffic" in dot
    assert 'label="×2 800 Gbit/s\\n45/90% · 1/2"' in dot
    layer = page_data(g, util)["fabric"]
    assert layer["umean"][j] == pytest.approx(0.45) and layer["used"][j] == 1


def test_a_failed_line_shows_its_rated_speed_and_failed(rails):
    g = marked(rails, resolve_failures(rails, FailureSpec(fail=("leaf.0.port.4--spine.0.port.0",))))
    scene = prepare(g)
    dot = dot_text(scene)
    line = next(x for x in dot.splitlines() if '"leaf.0" -- "spine.0"' in x or '"spine.0" -- "leaf.0"' in x)
    assert 'label="400 Gbit/s\\nfailed"' in line and "1 link, 400 Gbit/s rated, failed; rail 0 (nic.0)" in line
    assert "? Gbit/s" not in dot
    v = scene.view
    j = _line(v, "leaf.0", "spine.0")
    assert v.bandwidth[j] == 0 and v.rated[j] == 400
    assert page_data(g)["fabric"]["rated"][j] == 400


def test_an_aggregated_clos_is_laid_out_by_its_own_boxes():
    """Aggregated boxes get their own rows (not the centroids of 128 hosts spread 128 boxes wide)."""
    scene = prepare(vg.clos2(leaves=16, spines=4, hosts_per_leaf=8))
    assert scene.shown is not None
    dot = dot_text(scene)
    xs = [float(x) for x in re.findall(r'pos="(-?[\d.]+),-?[\d.]+!"', dot)]
    widest = max(np.bincount(scene.shown.structure.tier))
    assert max(xs) - min(xs) < 2 * widest * 200  # points: a couple of hundred per box at most
    assert "racks in" in dot  # one leaf per piece: racks (several leaves: scalable units)
