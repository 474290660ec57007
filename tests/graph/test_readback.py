"""The FQG JSON reader agrees with schemas/fqg.schema.json on integer fields: JSON Schema's
"integer" is any number with no fraction (3.0, 3e0), so the reader takes those as the exact int
and refuses what the schema refuses. Each JSON text runs through both: with every record in the
schema's sample, and with none (records past the sample are the reader's alone)."""

from __future__ import annotations

import json

import pytest

from infragraph.errors import InfraGraphError
from infragraph.graph import expand, readback
from infragraph.graph.export import from_json_dict, to_json_dict
from infragraph.lang import compile_source
from infragraph.schemas import schema_errors

PROGRAM = """device h { component x: xpu }
fabric f {
    instance a[4]: h
    a.x -- a.x ring via link(100 Gbps, 10 ns)
}
"""

# (section, index, key, JSON text, the int read, or "both" / "reader": who refuses it). The
# unchanged values are edges[0] = {src 0, dst 1, link 0}, a count of 4, index 0 everywhere.
INTEGER_TEXT = [
    ("edges", 0, "src", "0", 0),
    ("edges", 0, "src", "0.0", 0),
    ("edges", 0, "src", "0e0", 0),
    ("edges", 0, "src", "-0.0", 0),
    ("edges", 0, "dst", "1.0", 1),
    ("edges", 0, "dst", "1E+0", 1),
    ("edges", 0, "dst", "1.5", "both"),
    ("edges", 0, "dst", "-1.0", "both"),
    ("edges", 0, "dst", "true", "both"),
    ("edges", 0, "dst", '"1"', "both"),
    ("edges", 0, "dst", "null", "both"),
    ("edges", 0, "dst", "NaN", "both"),
    ("edges", 0, "dst", "Infinity", "both"),
    ("edges", 0, "dst", "1e300", "reader"),  # an integer to the schema, not an exact one
    ("edges", 0, "dst", "123456789012345678901234567890", "reader"),  # exact, but no such node
    ("edges", 0, "link", "0.0", 0),
    ("edges", 0, "link", "0.5", "both"),
    ("nodes", 0, "instance_index", "0.0", 0),
    ("nodes", 0, "instance_index", "0.25", "both"),
    ("nodes", 0, "component_index", "0.0", 0),
    ("nodes", 0, "component_index", "false", "both"),
    ("instances", 0, "count", "4.0", 4),
    ("instances", 0, "count", "4e0", 4),
    ("instances", 0, "count", "4.5", "both"),
    ("instances", 0, "count", '"4"', "both"),
    ("instances", 0, "count", "1e300", "reader"),
]


@pytest.fixture(scope="module")
def fqg_text() -> str:
    return json.dumps(to_json_dict(expand(compile_source(PROGRAM, "ring.igl"))))


def _read(section: str, index: int, key: str) -> object:
    g_field = {("edges", "src"): lambda g: g.edge_src[index], ("edges", "dst"): lambda g: g.edge_dst[index],
               ("edges", "link"): lambda g: g.edge_link[index], ("nodes", "instance_index"): lambda g: g.node_copy[index],
               ("instances", "count"): lambda g: g.instances[index].count}
    return g_field.get((section, key))


@pytest.mark.parametrize("sample", [2000, 0], ids=["schema-sampled", "reader-alone"])
@pytest.mark.parametrize("section, index, key, text, outcome", INTEGER_TEXT,
                         ids=[f"{s}[{i}].{k}={t}" for s, i, k, t, _ in INTEGER_TEXT])
def test_integer_fields_agree_with_the_schema(monkeypatch, fqg_text, sample, section, index, key, text, outcome):
    monkeypatch.setattr(readback, "SCHEMA_SAMPLE", sample)
    data = json.loads(fqg_text)
    data[section][index][key] = "@VALUE@"
    data = json.loads(json.dumps(data).replace('"@VALUE@"', text))  # the text as any JSON parser reads it
    assert (schema_errors("fqg", data) == []) == (outcome != "both"), text
    where = f"{section}[{index}].{key}"
    if isinstance(outcome, int):
        g = from_json_dict(data, "g.json")
        assert data[section][index][key] == outcome and type(data[section][index][key]) is int
        read = _read(section, index, key)
        if read is not None:
            assert read(g) == outcome
    else:
        with pytest.raises(InfraGraphError) as err:
            from_json_dict(data, "g.json")
        first = err.value.diagnostics[0]
        assert first.location.file == "g.json" and first.location.path == where, str(err.value)


def test_a_fraction_and_an_inexact_number_are_named():
    data = json.loads(json.dumps(to_json_dict(expand(compile_source(PROGRAM, "ring.igl")))))
    data["edges"][2]["src"] = 2.5
    with pytest.raises(InfraGraphError, match=r"^g.json: edges\[2\].src: error: 2.5 is not of type 'integer'"):
        from_json_dict(json.loads(json.dumps(data)), "g.json")
    data["edges"][2]["src"] = 1e300
    with pytest.raises(InfraGraphError, match=r"^g.json: edges\[2\].src: error: 'src': expected an integer, "
                                              r"found 1e\+300 \(beyond 2\*\*53"):
        from_json_dict(data, "g.json")
