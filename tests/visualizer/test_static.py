"""Graphviz pictures: parse the SVG and check what is drawn (boxes, lines, labels, legend, notes)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from tests import vis_graphs as vg
from tests.docparts import edge
from infragraph.errors import InfraGraphError
from infragraph.visualizer import graphviz, prepare, visualize
from infragraph.visualizer.picture import dot_text
from infragraph.visualizer.structure import detect
from infragraph.visualizer.views import device_view, fabric_view

NS = {"s": "http://www.w3.org/2000/svg"}
needs_dot = pytest.mark.skipif(not graphviz.available("dot"), reason="Graphviz (dot) is not installed: apt-get install graphviz")


def svg(tmp_path, g, **kw):
    out = tmp_path / "out.svg"
    visualize(g, str(out), **kw)
    root = ET.parse(out).getroot()
    groups = {"node": [], "edge": []}
    for el in root.iter("{http://www.w3.org/2000/svg}g"):
        if el.get("class") in groups:
            groups[el.get("class")].append(el)
    titles = lambda cls: [e.find("s:title", NS).text for e in groups[cls]]
    text = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
    return titles("node"), titles("edge"), text


def test_fabric_view_merges_parallel_links_and_drops_internal_ones():
    g = vg.build(vg.clos2_doc(leaves=2, spines=1, hosts_per_leaf=2))
    v = fabric_view(g)
    assert v.num_nodes == 4 + 2 + 1 and v.num_edges == 4 + 2  # internal pcie/asic links are inside the boxes
    # two parallel cables between one leaf and one spine become one line ×2 with 2× the bandwidth
    doc = vg.clos2_doc(leaves=2, spines=1, hosts_per_leaf=2)
    doc["devices"][1]["components"][1]["count"] = 4
    doc["devices"][2]["components"][1]["count"] = 4
    doc["edges"] += [edge(f"leaf[{j}]", "port[3]", "spine[0]", f"port[{2 + j}]", "uplink") for j in range(2)]
    v2 = fabric_view(vg.build(doc))
    up = [k for k in range(v2.num_edges) if v2.label[v2.dst[k]] == "spine.0"]
    assert sorted(int(v2.count[k]) for k in up) == [2, 2]
    assert all(v2.bandwidth[k] == 1600 for k in up)


def test_structures_are_recognised():
    assert detect(fabric_view(vg.clos2())).description == "2-tier Clos"
    assert detect(fabric_view(vg.clos3())).description == "3-tier Clos"
    assert detect(fabric_view(vg.torus())).description == "4×4×4 torus"
    assert detect(fabric_view(vg.torus((4, 3)))).description == "4×3 torus"
    assert detect(fabric_view(vg.dragonfly())).description == "dragonfly: 9 groups of 4 routers"
    assert detect(device_view(vg.gpu_noc(), "gpu")).description == "8×4 mesh"
    # a 2x4 mesh is not a 2x4 torus, and the annotation names the shape directly
    s = detect(fabric_view(vg.torus((8, 8))), {"topology": "torus", "shape": "8x8"})
    assert s.shape == (8, 8) and s.wrap


@needs_dot
def test_clos_fabric_picture_has_every_box_line_and_the_legend(tmp_path):
    nodes, edges, text = svg(tmp_path, vg.clos2())
    boxes = [n for n in nodes if n != "legend" and not n.startswith("outline ")]
    assert len(boxes) == 32 + 8 + 4 and "legend" in nodes
    assert len([n for n in nodes if n.startswith("outline ")]) == 8 and "rack 7: host.28–31" in text
    assert len(edges) == 32 + 8 * 4
    assert "leaf.7" in boxes and "spine.3" in boxes and "host.31" in boxes
    assert "2-tier Clos" in text and "legend" in text and "xpu" in text and "switch" in text
    assert "line width" in text


@needs_dot
def test_torus_and_noc_are_drawn_on_their_grid(tmp_path):
    nodes, edges, text = svg(tmp_path, vg.torus())
    assert len([n for n in nodes if n != "legend"]) == 64 and len(edges) == 192
    assert "4×4×4 torus" in text
    dot = dot_text(prepare(vg.torus(), "fabric"))
    pos = dict(re.findall(r'"(npu\.\d+)" \[.*?pos="([-\d.,]+)!"', dot))
    x0, y0 = map(float, pos["npu.0"].split(","))
    x1, y1 = map(float, pos["npu.1"].split(","))
    x4, y4 = map(float, pos["npu.4"].split(","))
    assert y1 == y0 and x1 > x0 and x4 == x0 and y4 != y0  # x along a row, y down a column
    nodes, edges, text = svg(tmp_path, vg.gpu_noc(), level="device", device="gpu")
    assert len([n for n in nodes if n != "legend"]) == 448 and "8×4 mesh" in text
    assert {"xpu", "router", "memory", "port"} <= set(text.split())


@needs_dot
def test_large_clos_is_aggregated_and_says_so(tmp_path):
    g = vg.clos3(pods=8, leaves=4, aggs=4, hosts_per_leaf=8, cores_per_agg=4)
    nodes, edges, text = svg(tmp_path, g)
    boxes = [n for n in nodes if n != "legend"]
    assert len(boxes) < 60 < fabric_view(g).num_nodes
    assert "aggregated: 8 pods" in text and "host ×32" in text and "pod 0" in text
    assert any("×" in t for t in re.findall(r"×[\d,]+", text))


@needs_dot
def test_levels_device_and_full(tmp_path):
    g = vg.clos2(leaves=2, spines=1, hosts_per_leaf=2)
    nodes, edges, _ = svg(tmp_path, g, level="device", device="leaf.1")
    assert sorted(n for n in nodes if n != "legend") == ["leaf.1.asic.0"] + [f"leaf.1.port.{i}" for i in range(3)]
    assert len(edges) == 3
    nodes, edges, text = svg(tmp_path, g, level="full")
    assert len([n for n in nodes if n != "legend"]) == g.num_nodes and len(edges) == g.num_edges
    assert "host.0" in text  # device copies are drawn as labelled clusters


def test_bad_requests_are_clear_errors(tmp_path, monkeypatch):
    g = vg.clos2()
    with pytest.raises(InfraGraphError, match="no device or instance named 'leef'.*") as e:
        visualize(g, str(tmp_path / "x.svg"), level="device", device="leef")
    assert "did you mean 'leaf'" in str(e.value)
    with pytest.raises(InfraGraphError, match="copies 0..7"):
        visualize(g, str(tmp_path / "x.svg"), level="device", device="leaf.9")
    with pytest.raises(InfraGraphError, match="suffix must be one of"):
        visualize(g, str(tmp_path / "x.txt"))
    monkeypatch.setenv("PATH", str(tmp_path))  # no Graphviz on PATH
    with pytest.raises(InfraGraphError, match="Graphviz program 'neato' was not found.*") as e:  # a Clos: fixed positions
        visualize(g, str(tmp_path / "x.svg"))
    assert "apt-get install graphviz" in str(e.value)
