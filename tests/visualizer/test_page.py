"""The interactive page (data it carries, self-containment), engine results and the sweep plot."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from tests import vis_graphs as vg
from infragraph.cli import main
from infragraph.errors import InfraGraphError
from infragraph.visualizer import plot_sweep, visualize
from infragraph.visualizer.page import page_data
from infragraph.visualizer.results import link_utilization
from infragraph.visualizer.views import fabric_view


def page_json(path) -> dict:
    html = path.read_text()
    return json.loads(re.search(r'<script id="igdata" type="application/json">(.*?)</script>', html, re.S).group(1))


def test_page_is_self_contained_and_carries_fabric_and_devices(tmp_path):
    out = tmp_path / "clos.html"
    visualize(vg.clos2(), str(out))
    html = out.read_text()
    assert not re.search(r'(src|href)="(https?:)?//', html)  # no network: no CDN, no remote assets
    assert "<canvas" in html and "function search" in html
    d = page_json(out)
    assert len(d["fabric"]["x"]) == 44 and len(d["fabric"]["src"]) == 64 and d["agg"] is None
    assert [i["name"] for i in d["instances"]] == ["host", "leaf", "spine"]
    assert set(d["devices"]) == {"host", "leafsw", "spinesw"}
    assert sorted(d["devices"]["leafsw"]["label"]) == ["asic.0"] + [f"port.{i}" for i in range(8)]
    assert "type" not in d["devices"]["host"]["attrs"][0]  # the viewer shows the type once, from the layer
    assert d["devices"]["host"]["attrs"][0]["component"] == d["devices"]["host"]["label"][0].rpartition(".")[0]
    assert "2-tier Clos; 44 boxes, 64 links" in d["notes"]


def test_large_fabric_page_has_an_aggregated_zoomed_out_layer():
    g = vg.clos3(pods=16, leaves=8, aggs=8, hosts_per_leaf=24, cores_per_agg=8)  # 3,072 hosts
    d = page_data(g)
    assert len(d["fabric"]["x"]) == fabric_view(g).num_nodes > 2000
    assert d["agg"] is not None and len(d["agg"]["x"]) <= 150
    assert sum(d["agg"]["size"]) == fabric_view(g).num_nodes  # every device is in exactly one box
    assert any("aggregated: 16 pods" in n for n in d["notes"])


def result_for(g, edges_util: dict[int, float]) -> dict:
    return {"graph": g.name, "links": [{"edge": e, "src": "a", "dst": "b", "link": "l", "bytes": 1.0,
                                        "utilization": u} for e, u in edges_util.items()]}


def test_results_colour_links_by_utilization(tmp_path):
    g = vg.clos2(leaves=2, spines=1, hosts_per_leaf=2)
    cross = [e for e in range(g.num_edges) if g.node_owner[g.edge_src[e]] != g.node_owner[g.edge_dst[e]]]
    res = tmp_path / "r.json"
    res.write_text(json.dumps(result_for(g, {cross[0]: 0.25, cross[-1]: 0.9})))
    util = link_utilization(g, res)
    assert np.nanmax(util) == 0.9 and np.count_nonzero(~np.isnan(util)) == 2
    svg = tmp_path / "heat.svg"
    visualize(g, str(svg), results=str(res))
    text = svg.read_text()
    assert "utilization 90%" in text and "line colour: utilization" in text
    html = tmp_path / "heat.html"
    visualize(g, str(html), results=str(res))
    d = page_json(html)
    assert sorted(u for u in d["fabric"]["util"] if u is not None) == [0.25, 0.9]


def test_bad_results_are_located(tmp_path):
    g = vg.clos2(leaves=2, spines=1, hosts_per_leaf=2)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(result_for(g, {99999: 0.5})))
    with pytest.raises(InfraGraphError, match=r"links\[0\]\.edge: error: edge 99999 is not an edge"):
        link_utilization(g, bad)
    bad.write_text("{oops")
    with pytest.raises(InfraGraphError, match=r"bad.json:1:2: error: not valid JSON"):
        link_utilization(g, bad)


def test_plot_sweep_draws_one_line_per_series(tmp_path):
    runs = []
    for algo, bw in (("ring", 90.0), ("direct", 40.0)):
        runs.append(tmp_path / f"{algo}.json")
        runs[-1].write_text(json.dumps([
            {"graph": "torus", "collective": "all-reduce", "algorithm": [algo], "size_bytes": s,
             "collective_time_ns": s / bw, "bus_bandwidth_gb_per_s": bw * (1 - 1 / (s / 1024 + 1))}
            for s in (1024, 1 << 20, 1 << 30)]))
    out = tmp_path / "sweep.png"
    series = plot_sweep([str(p) for p in runs], str(out))
    assert series == ["torus · all-reduce ring", "torus · all-reduce direct"]
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 10_000


def test_cli_visualize_and_errors(tmp_path, capsys):
    import yaml

    src = tmp_path / "torus.yaml"
    src.write_text(yaml.safe_dump(vg.torus_doc((4, 4))))
    assert main(["visualize", str(src), "-o", str(tmp_path / "t.svg")]) == 0
    assert "16 boxes, 32 lines (4×4 torus)" in capsys.readouterr().err
    assert main(["visualize", str(src), "-o", str(tmp_path / "t.svg"), "--level", "device", "npuu"]) == 1
    assert "did you mean 'npu'" in capsys.readouterr().err
    assert main(["plot", str(tmp_path / "missing.json"), "-o", str(tmp_path / "p.png")]) == 1
    assert "cannot read results" in capsys.readouterr().err


def test_per_tier_load_goes_into_the_caption(tmp_path):
    from infragraph.simulate import SimulationOptions, simulate
    from infragraph.visualizer.results import tier_notes

    g = vg.clos2(leaves=2, spines=1, hosts_per_leaf=2)
    r = simulate(g, SimulationOptions(model="aware", links="cables", top_links=None))
    res = tmp_path / "r.json"
    res.write_text(json.dumps(r))
    notes = tier_notes(res)
    assert notes[0] == f"line colour = utilization; bottleneck tier: {r['bottleneck_tier']}"
    used = [t for t in r["tiers"] if t["links_used"]]
    assert len(notes) == 1 + len(used) and notes[1].startswith(f"load {used[0]['tier']}: p50 ")
    svg = tmp_path / "heat.svg"
    visualize(g, str(svg), results=str(res))
    assert "bottleneck tier: " in svg.read_text()
    html = tmp_path / "heat.html"
    visualize(g, str(html), results=str(res))
    assert notes[1] in page_json(html)["notes"]
    r["tiers"][0] = {"tier": "x"}
    res.write_text(json.dumps(r))
    with pytest.raises(InfraGraphError, match=r"tiers\[0\]: error: expected a tier"):
        tier_notes(res)
