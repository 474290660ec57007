"""FQG exports: JSON against schemas/fqg.schema.json, read-back, GraphML, networkx."""

import json
from pathlib import Path

import networkx as nx
import pytest

from infragraph.document import io
from infragraph.errors import InfraGraphError
from infragraph.graph import expand
from infragraph.graph.export import read_fqg, to_json_dict, to_networkx, write_graphml, write_json
from infragraph.schemas import validate
from tests.graph.test_expand import NESTED
from tests.helpers import graph

MINI = Path(__file__).parent.parent / "data" / "mini.yaml"


@pytest.fixture
def g():
    return expand(io.load(MINI))


def test_fqg_json_validates_against_the_schema(g):
    data = to_json_dict(g)
    validate("fqg", data)
    assert data["units"] == {"bandwidth": "Gbit/s (1e9 bit/s)", "latency": "ns"}
    assert data["nodes"][9] == {"name": "sw.0.port.0", "type": "port", "instance": "sw", "instance_index": 0,
                                "device": "switch", "component": "port", "component_index": 0,
                                "parent_device": "switch"}
    assert data["links"][2]["bandwidth_gbps"] == 400 and data["links"][2]["latency_ns"] == 500


def test_nested_graph_json_validates_and_reads_back_identically(tmp_path):
    g = graph(NESTED)
    out = tmp_path / "g.json"
    write_json(g, out)
    validate("fqg", json.loads(out.read_text()))
    h = read_fqg(out)
    assert h.node_names == g.node_names
    assert (h.edge_src == g.edge_src).all() and (h.edge_dst == g.edge_dst).all()
    assert [x.qualified_name for x in h.links] == [x.qualified_name for x in g.links]
    assert len(set(h.node_owner.tolist())) == len(set(g.node_owner.tolist()))


def test_reading_a_corrupt_fqg_is_a_located_error(tmp_path, g):
    data = to_json_dict(g)
    data["edges"][-1]["dst"] = 999
    out = tmp_path / "bad.json"
    out.write_text(json.dumps(data))
    with pytest.raises(InfraGraphError, match=r"bad.json: edges\[11\].dst: error: edge dst 999 refers to a node that does not exist \(13 nodes\)"):
        read_fqg(out)
    data = to_json_dict(g)
    del data["nodes"][0]["type"]
    out.write_text(json.dumps(data))
    with pytest.raises(InfraGraphError, match=r"nodes\[0\]: error: 'type' is a required property"):
        read_fqg(out)


def test_networkx_multigraph_keeps_parallel_links_and_attributes(g):
    m = to_networkx(g)
    assert isinstance(m, nx.MultiGraph) and m.number_of_nodes() == 13 and m.number_of_edges() == 12
    assert m.nodes["host.1.xpu.0"]["type"] == "xpu"
    (_, _, data), = [e for e in m.edges("host.0.nic.0", data=True) if e[2]["link"] == "eth"]
    assert data["bandwidth_gbps"] == 400 and data["latency_ns"] == 500


def test_graphml_round_trips_through_networkx(tmp_path, g):
    out = tmp_path / "g.graphml"
    write_graphml(g, out)
    back = nx.read_graphml(out, force_multigraph=True)
    assert back.number_of_nodes() == 13 and back.number_of_edges() == 12
    assert back.nodes["sw.0.asic.0"]["type"] == "switch"
