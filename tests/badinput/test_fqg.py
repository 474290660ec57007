"""Bad FQG JSON files (as written by `compile`, then damaged) read back by `validate` and `lint`:
every record is checked, including those past the schema's sample, each error naming
the file and the record."""

from __future__ import annotations

import json

import pytest

from infragraph.graph import readback

from .input_cases import cli, write

SCHEMA_SAMPLE = 100  # the schema checks this many records here (2,000 in use), to keep the suite fast
N = 300  # nodes and edges: past the schema sample, so the per-record checks are what catches these
PROGRAM = f"""device h {{ component x: xpu }}
fabric f {{
    instance a[{N}]: h
    a.x -- a.x ring via link(100 Gbps, 10 ns)
}}
"""
LATE = SCHEMA_SAMPLE + 150


@pytest.fixture(autouse=True)
def small_schema_sample(monkeypatch):
    monkeypatch.setattr(readback, "SCHEMA_SAMPLE", SCHEMA_SAMPLE)


@pytest.fixture(scope="module")
def fqg(tmp_path_factory):
    from infragraph.graph import expand
    from infragraph.graph.export import to_json_dict
    from infragraph.lang import compile_source

    return json.dumps(to_json_dict(expand(compile_source(PROGRAM, "ring.igl"))))


def damaged(fqg: str, change) -> str:
    data = json.loads(fqg)
    change(data)
    return json.dumps(data)


def put(section, index, key, value):
    def change(d):
        d[section][index][key] = value
    return change


def drop(section, index, key):
    def change(d):
        del d[section][index][key]
    return change


# (id, change, document path, message)
CASES = [
    ("inexact-src", put("edges", LATE, "src", 1e300), f"edges[{LATE}].src",
     "'src': expected an integer, found 1e+300 (beyond 2**53"),
    ("float-dst-fraction", put("edges", LATE, "dst", 7.5), f"edges[{LATE}].dst", "'dst': expected an integer, found 7.5"),
    ("string-dst", put("edges", LATE, "dst", "7"), f"edges[{LATE}].dst", "'dst': expected an integer, found '7'"),
    ("bool-link", put("edges", LATE, "link", True), f"edges[{LATE}].link", "'link': expected an integer, found True"),
    ("null-src", put("edges", LATE, "src", None), f"edges[{LATE}].src", "'src': expected an integer, found None"),
    ("missing-src", drop("edges", LATE, "src"), f"edges[{LATE}]", "record has no 'src'"),
    ("missing-type", drop("nodes", LATE, "type"), f"nodes[{LATE}]", "record has no 'type'"),
    ("missing-name", drop("nodes", N - 1, "name"), f"nodes[{N - 1}]", "record has no 'name'"),
    ("numeric-type", put("nodes", LATE, "type", 3), f"nodes[{LATE}].type", "'type' must be a string, got 3"),
    ("fractional-instance-index", put("nodes", LATE, "instance_index", 250.5), f"nodes[{LATE}].instance_index",
     "'instance_index': expected an integer, found 250.5"),
    ("edge-not-an-object", lambda d: d["edges"].__setitem__(LATE, [1, 2, 0]), f"edges[{LATE}]",
     "a record must be an object, got [1, 2, 0]"),
    ("node-not-an-object", lambda d: d["nodes"].__setitem__(LATE, "a.0.x.0"), f"nodes[{LATE}]",
     "a record must be an object, got 'a.0.x.0'"),
    ("src-out-of-range", put("edges", LATE, "src", N), f"edges[{LATE}].src",
     f"edge src {N} refers to a node that does not exist ({N} nodes)"),
    ("dst-negative", put("edges", LATE, "dst", -1), f"edges[{LATE}].dst",
     f"edge dst -1 refers to a node that does not exist ({N} nodes)"),
    ("dst-huge", put("edges", LATE, "dst", 10**30), f"edges[{LATE}].dst",
     f"edge dst {10**30} refers to a node that does not exist"),
    ("link-out-of-range", put("edges", LATE, "link", 5), f"edges[{LATE}].link",
     "edge link 5 refers to a link that does not exist (1 links)"),
    ("instance-index-out-of-range", put("nodes", LATE, "instance_index", N), f"nodes[{LATE}].instance_index",
     f"instance_index {N} is out of range for instance 'a' ({N} copies)"),
    ("unknown-instance", put("nodes", LATE, "instance", "b"), f"nodes[{LATE}].instance",
     "node names instance 'b', which is not in the instances table"),
    ("renamed-node", put("nodes", N - 1, "name", "a.0.x.0"), f"nodes[{N - 1}].name",
     f"node {N - 1} is named 'a.0.x.0' but its position says 'a.{N - 1}.x.0'"),
    ("bandwidth-nan", put("links", 0, "bandwidth_gbps", float("nan")), "links[0].bandwidth_gbps",
     "link 'link-100Gbps-10ns': bandwidth must be a finite number greater than 0, got nan"),
    ("bandwidth-infinity", put("links", 0, "bandwidth_gbps", float("inf")), "links[0].bandwidth_gbps",
     "bandwidth must be a finite number greater than 0, got inf"),
    ("latency-nan", put("links", 0, "latency_ns", float("nan")), "links[0].latency_ns",
     "latency must be a finite number 0 or more, got nan"),
    ("bandwidth-zero", put("links", 0, "bandwidth_gbps", 0), "links[0].bandwidth_gbps",
     "0 is less than or equal to the minimum of 0"),
    ("latency-negative", put("links", 0, "latency_ns", -3), "links[0].latency_ns",
     "-3 is less than the minimum of 0"),
    ("bandwidth-string", put("links", 0, "bandwidth_gbps", "100"), "links[0].bandwidth_gbps",
     "'100' is not of type 'number', 'null'"),
    ("instance-count-float", lambda d: d["instances"][0].__setitem__("count", 299.5), "instances[0].count",
     "299.5 is not of type 'integer'"),
    ("more-copies-than-nodes", lambda d: d["instances"][0].__setitem__("count", N + 1), "nodes",
     f"nodes do not match the instances table ({N} nodes, instances account for {N + 1})"),
    ("wrong-format-version", lambda d: d.__setitem__("version", 2), "version", "1 was expected"),
]


@pytest.mark.parametrize("name,change,path,message", CASES, ids=[c[0] for c in CASES])
def test_damaged_fqg(tmp_path, capsys, fqg, name, change, path, message):
    f = write(tmp_path, "g.json", damaged(fqg, change))
    code, out = cli(capsys, "validate", f)
    assert code == 1
    assert out.startswith(f"{f}: {path}: error: "), out[:300]
    assert message in out


def test_damaged_fqg_fails_lint_as_an_input_error(tmp_path, capsys, fqg):
    f = write(tmp_path, "g.json", damaged(fqg, put("edges", LATE, "src", 7.5)))
    code, out = cli(capsys, "lint", f)
    assert code == 2
    assert f"edges[{LATE}].src" in out and "'src': expected an integer, found 7.5" in out


def test_integral_floats_past_the_sample_are_the_ints_they_equal(tmp_path, capsys, fqg):
    """3.0 is an integer to the schema, so to the reader too, past the sample as within it."""
    def as_floats(d):
        d["edges"][LATE]["src"] = float(d["edges"][LATE]["src"])
        d["nodes"][LATE]["instance_index"] = float(d["nodes"][LATE]["instance_index"])
    f = write(tmp_path, "g.json", damaged(fqg, as_floats))
    code, out = cli(capsys, "validate", f)
    assert code == 0 and f"valid ({N} nodes, {N} edges)" in out, out


def test_fqg_with_no_nodes_is_an_empty_graph_error(tmp_path, capsys, fqg):
    def empty(d):
        d["nodes"], d["edges"], d["instances"] = [], [], []
    f = write(tmp_path, "g.json", damaged(fqg, empty))
    code, out = cli(capsys, "validate", f)
    assert code == 1 and out.startswith(f"{f}: nodes: error: the graph has no nodes")
    code, out = cli(capsys, "lint", f)
    assert code == 2 and f"{f}: nodes: error: the graph has no nodes [IG000 invalid-input]" in out


def test_truncated_fqg_is_invalid_json_with_position(tmp_path, capsys, fqg):
    f = write(tmp_path, "g.json", fqg[:3000])
    code, out = cli(capsys, "validate", f)
    assert code == 1 and out.startswith(f"{f}:1:3001: error: invalid JSON")


def test_intact_fqg_reads_back(tmp_path, capsys, fqg):
    f = write(tmp_path, "g.json", fqg)
    code, out = cli(capsys, "validate", f)
    assert code == 0 and f"valid ({N:,} nodes, {N:,} edges)" in out
