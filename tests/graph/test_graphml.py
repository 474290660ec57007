"""GraphML and FQG JSON written from templates: the same graph as the record-by-record views
(`to_networkx`, `FQG.node_attributes`), for annotated, nested and multi-instance graphs."""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx
import pytest

from infragraph.graph.export import to_networkx, write_graphml, write_json
from infragraph.sources import load_graph
from tests.helpers import graph

ROOT = Path(__file__).parent.parent.parent

ANNOTATED = """
    name: a
    devices:
    - name: h
      components: [{name: x, choice: xpu, count: 4}, {name: "n<1>", choice: nic, count: 1}]
      links: [{name: nv}]
      edges: [{ep1: {component: x}, ep2: {component: x}, link: nv, scheme: ring},
              {ep1: {component: "x[0]"}, ep2: {component: "n<1>"}, link: nv, scheme: one2one}]
    instances: [{name: h, device: h, count: 2}]
    annotations:
      nodes:
      - {name: h.1.x.3, attributes: [{attribute: rank, value: '7'}]}
      - {name: "h[0].x[0:2]", attributes: [{attribute: tier, value: '0'}]}
      - {name: "h.0.x.2", attributes: [{attribute: role, value: 'spare "one"'}, {attribute: hot, value: 'true'}]}
      edges: [{ep1: h.0.x.0, ep2: h.0.x.1, attributes: [{attribute: weight, value: '2.5'}]}]
      links: [{name: h.nv, attributes: [{attribute: media, value: copper}]}]
      graph: [{attribute: dims, value: '4,2'}]
"""


def _graphs():
    yield "annotated", graph(ANNOTATED)
    yield "ring8", load_graph(ROOT / "examples" / "ring8.igl")
    yield "host8gpu (nested devices)", load_graph(ROOT / "examples" / "host8gpu.igl")
    yield "leaf_spine", load_graph(ROOT / "examples" / "leaf_spine.igl")


@pytest.mark.parametrize("name, g", list(_graphs()), ids=lambda x: x if isinstance(x, str) else "")
def test_graphml_reads_back_as_the_networkx_view(tmp_path, name, g):
    path = tmp_path / "g.graphml"
    write_graphml(g, path)
    back = nx.read_graphml(path, force_multigraph=True)
    want = to_networkx(g)
    assert dict(back.nodes(data=True)) == dict(want.nodes(data=True))
    key = lambda e: (e[0], e[1], int(e[2]))  # noqa: E731
    assert sorted(((s, d, int(k), a) for s, d, k, a in back.edges(keys=True, data=True)), key=key) == \
        sorted(((s, d, k, a) for s, d, k, a in want.edges(keys=True, data=True)), key=key)
    assert back.graph["name"] == g.name
    assert {k: v for k, v in back.graph.items() if k in g.graph_annotations} == dict(g.graph_annotations)


@pytest.mark.parametrize("name, g", list(_graphs()), ids=lambda x: x if isinstance(x, str) else "")
def test_json_records_match_the_graph(tmp_path, name, g):
    path = tmp_path / "g.json"
    write_json(g, path)
    data = json.loads(path.read_text())
    assert len(data["nodes"]) == g.num_nodes and len(data["edges"]) == g.num_edges
    for n, rec in enumerate(data["nodes"]):
        attrs = g.node_attributes(n)
        builtins = {k: attrs[k] for k in ("type", "instance", "instance_index", "device", "component",
                                          "component_index", "parent_device")}
        assert rec.pop("name") == g.node_name(n)
        assert rec.pop("attributes", {}) == {a: v[n] for a, v in g.node_attrs.items() if n in v}
        assert rec == builtins
    for e, rec in enumerate(data["edges"]):
        assert (rec["src"], rec["dst"], rec["link"]) == (g.edge_src[e], g.edge_dst[e], g.edge_link[e])
        assert rec.get("attributes", {}) == {a: v[e] for a, v in g.edge_attrs.items() if e in v}


@pytest.mark.parametrize("name, g", list(_graphs())[:2], ids=lambda x: x if isinstance(x, str) else "")
def test_small_chunks_give_the_same_text(tmp_path, monkeypatch, name, g):
    from infragraph.graph import text

    whole = {}
    for chunk in (text.CHUNK, 3):
        monkeypatch.setattr(text, "CHUNK", chunk)
        write_json(g, tmp_path / "g.json")
        write_graphml(g, tmp_path / "g.graphml")
        whole[chunk] = ((tmp_path / "g.json").read_text(), (tmp_path / "g.graphml").read_text())
    assert len(whole) == 2 and whole[3] == next(v for k, v in whole.items() if k != 3)
