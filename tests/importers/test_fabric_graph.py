"""GraphML and edge lists: the examples, a round trip through our own GraphML, every bad input located."""

from collections import Counter
from pathlib import Path

import pytest

from infragraph.errors import InfraGraphError
from infragraph.graph import expand
from infragraph.graph.export import write_graphml
from infragraph.importers.fabric_graph import import_edge_list, import_graphml
from infragraph.sources import load_graph

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_topology_zoo_style_example():
    doc = import_graphml(EXAMPLES / "import" / "zoo_fabric.graphml", EXAMPLES / "import" / "zoo_mapping.yaml")
    g = expand(doc)
    kinds = Counter(g.type_names[t] for t in g.node_type)
    assert kinds == {"switch": 4, "xpu": 2}
    cables = Counter((round(b, 6), round(l, 6)) for b, l in zip(g.edge_bandwidth_gbps(),
                                                                g.edge_latency_ns()))
    assert cables == {(100.0, 4e6): 1, (100.0, 5e6): 1, (40.0, 2e6): 2, (10.0, 6e6): 2, (400.0, 1000.0): 2}
    assert {a.attributes["import_id"] for a in doc.annotations.nodes} == {str(i) for i in range(6)}


def test_edge_list_example():
    g = expand(import_edge_list(EXAMPLES / "import" / "leaf_spine.edges",
                                EXAMPLES / "import" / "leaf_spine_mapping.yaml"))
    assert Counter(zip(g.edge_bandwidth_gbps(), g.edge_latency_ns())) == {(400.0, 500.0): 4,
                                                                                         (800.0, 700.0): 4}


def test_our_graphml_imports_back_to_the_same_cables(tmp_path):
    """A portless fabric with parallel links (a flattened graph with ports cables each port twice,
    inside and outside its device, which the document's one-cable-per-port rule refuses)."""
    original = load_graph("simgrid:DRAGONFLY:3,2;2,2;2,1;2")
    path = tmp_path / "g.graphml"
    write_graphml(original, path)
    doc = import_graphml(path)
    back = expand(doc)
    rename = {f"{a.name.split('.')[0]}.{a.name.split('.')[1]}": a.attributes["import_id"] for a in doc.annotations.nodes}
    names = [rename[".".join(back.node_name(i).split(".")[:2])] for i in range(back.num_nodes)]
    got = Counter((tuple(sorted((names[a], names[b]))), bw, lat) for a, b, bw, lat in
                  zip(back.edge_src, back.edge_dst, back.edge_bandwidth_gbps(), back.edge_latency_ns()))
    want_names = [original.node_name(i) for i in range(original.num_nodes)]
    want = Counter((tuple(sorted((want_names[a], want_names[b]))), bw, lat) for a, b, bw, lat in
                   zip(original.edge_src, original.edge_dst, original.edge_bandwidth_gbps(),
                       original.edge_latency_ns()))
    assert got == want
    assert Counter(back.type_names[t] for t in back.node_type) == Counter(original.type_names[t]
                                                                          for t in original.node_type)


GRAPHML = ('<graphml>\n  <key id="t" for="node" attr.name="type"/>\n  <key id="b" for="edge" attr.name="bw"/>\n'
           '  <graph edgedefault="{directed}">\n    <node id="a"><data key="t">xpu</data></node>\n'
           '    <node id="s"><data key="t">switch</data></node>\n{edges}  </graph>\n</graphml>\n')


@pytest.mark.parametrize("edges, mapping, message, line", [
    ('    <edge source="a" target="s"><data key="b">400</data></edge>\n', "bandwidth: {attribute: bw}\n"
     "latency: {default: 1 us}\n", "edge a -- s: bandwidth '400' has no unit", 7),
    ('    <edge source="a" target="s"><data key="b">nan Gbps</data></edge>\n', "bandwidth: {attribute: bw}\n"
     "latency: {default: 1 us}\n", "bandwidth 'nan Gbps': expected a number with a unit", 7),
    ('    <edge source="a" target="s"><data key="b">-4 Gbps</data></edge>\n', "bandwidth: {attribute: bw}\n"
     "latency: {default: 1 us}\n", "must be finite and positive", 7),
    ('    <edge source="a" target="s"><data key="b">4 Gbps</data></edge>\n', "bandwidth: {attribute: bw}\n"
     "latency: {default: -1 us}\n", "latency '-1 us' must be finite and non-negative", 7),
    ('    <edge source="a" target="s"><data key="b">4 parsecs</data></edge>\n', "bandwidth: {attribute: bw}\n"
     "latency: {default: 1 us}\n", "bandwidth '4 parsecs'", 7),
    ('    <edge source="a" target="x"><data key="b">4 Gbps</data></edge>\n', "bandwidth: {attribute: bw}\n",
     "names node 'x', which is not declared", 7),
    ('    <edge source="a" target="a"><data key="b">4 Gbps</data></edge>\n', "bandwidth: {attribute: bw}\n",
     "is a self-loop", 7),
    ('    <edge source="a" target="s"><data key="zz">4</data></edge>\n', None, "names no declared <key>", 7),
    ('    <edge source="a"/>\n', None, "<edge> needs source and target", 7),
    ('    <node id="a"/>\n', None, "node 'a' is declared twice", 7),
    ('    <edge source="a" target="s">\n', None, "invalid XML: mismatched tag", 8),
])
def test_bad_graphml_is_located(tmp_path, edges, mapping, message, line):
    path = tmp_path / "f.graphml"
    path.write_text(GRAPHML.format(directed="undirected", edges=edges))
    if mapping:
        (tmp_path / "m.yaml").write_text(mapping)
    with pytest.raises(InfraGraphError) as e:
        import_graphml(path, tmp_path / "m.yaml" if mapping else None)
    assert message in str(e.value)
    assert str(e.value).startswith(f"{path}:{line}:")


def test_directed_graphs_entities_and_mappings_are_refused(tmp_path):
    path = tmp_path / "d.graphml"
    path.write_text(GRAPHML.format(directed="directed", edges=""))
    with pytest.raises(InfraGraphError, match="a directed graph"):
        import_graphml(path)
    path.write_text('<?xml version="1.0"?>\n<!DOCTYPE g [<!ENTITY a "aaaa">]>\n<graphml/>\n')
    with pytest.raises(InfraGraphError, match=r":2:\d+: error: XML entity declarations are not accepted"):
        import_graphml(path)
    (tmp_path / "m.yaml").write_text("bandwith: {unit: Gbps}\n")
    path.write_text(GRAPHML.format(directed="undirected", edges=""))
    with pytest.raises(InfraGraphError, match="unknown mapping key 'bandwith'"):
        import_graphml(path, tmp_path / "m.yaml")
    (tmp_path / "m.yaml").write_text("node_type: {attribute: kind}\n")
    with pytest.raises(InfraGraphError, match=r":5:\d+: error: node 'a' has no 'kind' attribute"):
        import_graphml(path, tmp_path / "m.yaml")


@pytest.mark.parametrize("text, message, where", [
    ("a\n", "expected 'SRC DST [key=value ...]'", "1:1"),
    ("a b bandwidth=400Gbps latency\n", "expected key=value, got 'latency'", "1:23"),
    ("  a b latency=1us\n", "edge a -- b has no 'bandwidth' attribute", "1:3"),
    ("a b bandwidth=400 latency=1us\n", "bandwidth '400' has no unit", "1:1"),
])
def test_bad_edge_lists_are_located(tmp_path, text, message, where):
    path = tmp_path / "f.edges"
    path.write_text(text)
    (tmp_path / "m.yaml").write_text("node_type: {default: switch}\n")
    with pytest.raises(InfraGraphError) as e:
        import_edge_list(path, tmp_path / "m.yaml")
    assert message in str(e.value)
    assert str(e.value).startswith(f"{path}:{where}:")
