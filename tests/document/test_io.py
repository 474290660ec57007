"""Reading and writing the public document format."""

import json
from pathlib import Path

import pytest

from infragraph.document import io
from infragraph.document.model import Annotations, NodeAnnotation
from infragraph.errors import InfraGraphError
from tests.helpers import doc

MINI = Path(__file__).parent.parent / "data" / "mini.yaml"


def test_minimal_document_loads_into_typed_model():
    d = io.load(MINI)
    assert [x.name for x in d.devices] == ["host", "switch"]
    assert d.devices[0].components[0].count == 2
    assert d.links[0].bandwidth.gbps() == 400 and d.links[0].latency.ns() == 500
    assert d.edges[1].ep1.instance == "host[1]" and d.edges[1].scheme == "one2one"


@pytest.mark.parametrize("fmt", ["yaml", "json"])
def test_round_trip_is_identity(fmt, tmp_path):
    d = io.load(MINI)
    d.annotations = Annotations(nodes=[NodeAnnotation("host.0.xpu.1", {"rank": 1, "ok": True, "w": 0.5, "s": "x"})])
    out = tmp_path / f"out.{fmt}"
    io.dump(d, out)
    again = io.load(out)
    assert again == d
    assert again.annotations.nodes[0].attributes == {"rank": 1, "ok": True, "w": 0.5, "s": "x"}


def test_written_annotation_values_are_strings_as_the_public_schema_requires(tmp_path):
    d = io.load(MINI)
    d.annotations = Annotations(nodes=[NodeAnnotation("host.0.xpu.1", {"rank": 7})])
    data = json.loads(io.dumps(d, "json"))
    assert data["annotations"]["nodes"][0]["attributes"] == [{"attribute": "rank", "value": "7"}]


def test_public_wrapper_form_with_infrastructure_and_annotations():
    text = (
        "infrastructure:\n  name: w\n  devices: [{name: d, components: [{name: x, choice: xpu, count: 2}]}]\n"
        "  instances: [{name: i, device: d, count: 1}]\n"
        "annotations:\n  nodes: [{name: i.0.x.1, attributes: [{attribute: rank, value: '1'}]}]\n"
    )
    d = io.loads(text, "wrap.yaml")
    assert d.name == "w" and d.annotations.nodes[0].attributes == {"rank": 1}


def test_units_of_bandwidth_and_latency_are_kept_and_converted():
    d = doc("""
        name: u
        links:
        - {name: a, physical: {bandwidth: {choice: gigabytes_per_second, gigabytes_per_second: 50},
                               latency: {choice: us, us: 1.5}}}
    """)
    assert d.links[0].bandwidth.gbps() == 400 and d.links[0].latency.ns() == 1500
    assert "gigabytes_per_second: 50" in io.dumps(d)


def test_invalid_yaml_is_located():
    with pytest.raises(InfraGraphError) as e:
        io.loads("name: x\ndevices: [\n", "broken.yaml")
    assert str(e.value).startswith("broken.yaml:3:1: error: invalid YAML")


def test_invalid_json_is_located():
    with pytest.raises(InfraGraphError, match=r"broken.json:1:10: error: invalid JSON"):
        io.loads('{"name": }', "broken.json")


def test_schema_violation_names_path_line_and_allowed_keys():
    with pytest.raises(InfraGraphError) as e:
        io.loads("name: x\ndevices:\n- name: d\n  compnents: []\n", "typo.yaml")
    msg = str(e.value)
    assert "typo.yaml:3:3: devices[0]" in msg
    assert "'compnents' was unexpected" in msg and "allowed keys: components" in msg


def test_bad_enum_and_name_pattern():
    with pytest.raises(InfraGraphError) as e:
        io.loads("name: x\ndevices:\n- name: d.e\n  components: [{name: c, choice: gpu, count: 1}]\n", "e.yaml")
    msg = str(e.value)
    assert "devices[0].components[0].choice: error: 'gpu' is not one of: custom, device, cpu" in msg
    assert "devices[0].name: error: 'd.e' is not a valid name" in msg


def test_unreadable_file_is_an_error_not_a_traceback(tmp_path):
    with pytest.raises(InfraGraphError, match="cannot read document"):
        io.load(tmp_path / "missing.yaml")
