"""Bad YAML/JSON documents through `infragraph validate` (and lint, check, decompile): each case
asserts the exit code, the message and the file:line:col it points at."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from .input_cases import at, cli, write

MINI = (Path(__file__).parents[1] / "data" / "mini.yaml").read_text()
BW = "gigabits_per_second: 400}"
LAT = "ns: 500}"


def swap(old: str, new: str, text: str = MINI) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


# (id, document text, message, marker the error points at (None: the file only), occurrence)
YAML_CASES = [
    ("bandwidth-nan", swap(BW, "gigabits_per_second: .nan}"),
     "links[0].physical.bandwidth.gigabits_per_second: error: link 'eth': bandwidth must be a finite number "
     "greater than 0, got nan", ".nan", 1),
    ("bandwidth-inf", swap(BW, "gigabits_per_second: .inf}"),
     "bandwidth must be a finite number greater than 0, got inf", ".inf", 1),
    ("bandwidth-minus-inf", swap(BW, "gigabits_per_second: -.inf}"),
     "-inf is less than or equal to the minimum of 0", "-.inf", 1),
    ("bandwidth-zero", swap(BW, "gigabits_per_second: 0}"),
     "0 is less than or equal to the minimum of 0", "0}", 1),
    ("bandwidth-negative", swap(BW, "gigabits_per_second: -400}"),
     "-400 is less than or equal to the minimum of 0", "-400", 1),
    ("latency-nan", swap(LAT, "ns: .nan}"), "link 'eth': latency must be a finite number 0 or more, got nan",
     ".nan", 1),
    ("latency-inf", swap(LAT, "ns: .inf}"), "latency must be a finite number 0 or more, got inf", ".inf", 1),
    ("latency-negative", swap(LAT, "ns: -5}"), "-5 is less than the minimum of 0", "-5", 1),
    ("gigabytes-nan", swap(BW, "gigabits_per_second: 1}").replace(
        "choice: gigabits_per_second, gigabits_per_second: 1",
        "choice: gigabytes_per_second, gigabytes_per_second: .NaN"),
     "links[0].physical.bandwidth.gigabytes_per_second: error: link 'eth': bandwidth must be a finite number",
     ".NaN", 1),
    ("device-link-nan", swap("links: [{name: pcie}]",
                             "links: [{name: pcie, physical: {latency: {choice: us, us: .nan}}}]"),
     "devices[0].links[0].physical.latency.us: error: link 'pcie': latency must be a finite number", ".nan", 1),
    ("device-link-inf-bandwidth", swap("links: [{name: ic}]", "links: [{name: ic, physical: {bandwidth: "
                                       "{choice: gigabits_per_second, gigabits_per_second: .inf}}}]"),
     "devices[1].links[0].physical.bandwidth.gigabits_per_second: error: link 'ic': bandwidth must be a finite",
     ".inf", 1),
    ("duplicate-top-level-key", MINI + "name: other\n", "error: duplicate key 'name' (first at line 1, column 1)",
     "name: other", 1),
    ("duplicate-count", swap("{name: xpu, choice: xpu, count: 2}", "{name: xpu, choice: xpu, count: 2, count: 3}"),
     "duplicate key 'count' (first at line 4, column 41)", "count: 3", 1),
    ("duplicate-latency", swap(LAT, "ns: 500, ns: 400}"), "duplicate key 'ns'", "ns: 400", 1),
    ("duplicate-instance-key", swap("{name: sw, device: switch, count: 1}", "{name: sw, device: switch, device: host, "
                                                                             "count: 1}"),
     "duplicate key 'device'", "device: host,", 2),
    ("duplicate-block-key", swap("links:\n- name: eth", "links:\n- name: eth\n  name: eth2"),
     "duplicate key 'name' (first at line 13, column 3)", "name: eth2", 1),
    ("count-float-fraction", swap("count: 2}, {name: nic", "count: 2.5}, {name: nic"),
     "devices[0].components[0].count: error: 2.5 is not of type 'integer'", "2.5", 1),
    ("count-nan", swap("count: 2}, {name: nic", "count: .nan}, {name: nic"),
     "devices[0].components[0].count: error: nan is not of type 'integer'", ".nan", 1),
    ("count-zero", swap("count: 2}]\n", "count: 0}]\n"),
     "devices[0].components[1].count: error: 0 is less than the minimum of 1", "0}]", 1),
    ("count-negative", swap("{name: host, device: host, count: 2}", "{name: host, device: host, count: -2}"),
     "instances[0].count: error: -2 is less than the minimum of 1", "-2", 1),
    ("count-string", swap("{name: host, device: host, count: 2}", "{name: host, device: host, count: '2'}"),
     "instances[0].count: error: '2' is not of type 'integer'", "'2'", 1),
    ("not-a-mapping", "- name: x\n", "<document>: error: [{'name': 'x'}] is not of type 'object'", "- name", 1),
    ("scalar-document", "hello\n", "'hello' is not of type 'object'", "hello", 1),
    ("unknown-key", swap("instances:", "instancez:"), "Additional properties are not allowed ('instancez' was "
                                                       "unexpected); allowed keys: annotations, description, devices",
     "name: mini", 1),
    ("tab-indent", "name: x\ndevices:\n\t- name: y\n", "error: invalid YAML: found character that cannot start "
                                                       "any token", "\t", 1),
    ("wrapper-form-nan", "infrastructure:\n" + "".join("  " + line + "\n" for line in
                                                        swap(BW, "gigabits_per_second: .nan}").splitlines()),
     "links[0].physical.bandwidth.gigabits_per_second: error: link 'eth': bandwidth must be a finite", ".nan", 1),
    ("flow-depth-101", "name: x\ndescription: " + "[" * 101 + "]" * 101 + "\n",
     "error: document nested more than 100 levels deep", "[", 101),
    ("flow-depth-1000", "name: x\ndescription: " + "[" * 1000 + "]" * 1000 + "\n",
     "error: document nested more than 100 levels deep", "[", 101),
    ("mapping-depth-500", "name: x\ndescription: " + "{a: " * 500 + "1" + "}" * 500 + "\n",
     "error: document nested more than 100 levels deep", "{", 101),
    ("dash-depth-300", "- " * 300 + "1\n", "error: document nested more than 100 levels deep", "- ", 101),
    ("billion-laughs", "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 10)}]\n" for i in range(8)) + "name: x\n",
     "error: YAML aliases expand this value to more than 1,000,000 nodes", "&f [", 1),
]


@pytest.mark.parametrize("name,text,message,marker,occurrence", YAML_CASES, ids=[c[0] for c in YAML_CASES])
def test_yaml_document(tmp_path, capsys, name, text, message, marker, occurrence):
    path = write(tmp_path, "doc.yaml", text)
    code, out = cli(capsys, "validate", path)
    assert code == 1
    assert message in out
    assert out.startswith(at(path, text, marker, occurrence) + ":"), out[:300]
    assert "Traceback" not in out


@pytest.mark.parametrize("text,what", [("", "empty"), ("# only a comment\n\n# another\n", "comments"),
                                        ("---\n...\n", "markers"), ("   \n\n", "blank")])
def test_empty_yaml_file_is_one_located_error(tmp_path, capsys, text, what):
    path = write(tmp_path, "empty.yaml", text)
    code, out = cli(capsys, "validate", path)
    assert code == 1
    assert out.startswith(f"{path}:1:1: error: the file is empty (or only comments); a document needs at least 'name'")


def test_document_with_only_a_name_is_an_empty_graph_error(tmp_path, capsys):
    path = write(tmp_path, "x.yaml", "name: x\n")
    code, out = cli(capsys, "validate", path)
    assert code == 1
    assert out.startswith(f"{path}:1:1: instances: error: 'x' has no instances, so its graph is empty (0 nodes)")
    assert "it has no devices and no instances" in out


def test_devices_without_instances_names_the_devices(tmp_path, capsys):
    text = MINI[: MINI.index("instances:")]
    path = write(tmp_path, "lib.yaml", text)
    code, out = cli(capsys, "check", path)
    assert code == 1
    assert out.startswith(f"{path}:1:1: instances: error: 'mini' has no instances")
    assert "it defines 2 device(s) (host, switch) but places none" in out


def test_empty_document_fails_lint_too(tmp_path, capsys):
    path = write(tmp_path, "x.yaml", "name: x\n")
    code, out = cli(capsys, "lint", path)
    assert code == 2
    assert f"{path}:1:1: instances: error: IG000" in out or f"{path}:1:1" in out
    assert "has no instances" in out


def test_count_written_as_float_reads_as_that_integer(tmp_path, capsys):
    text = swap("{name: host, device: host, count: 2}", "{name: host, device: host, count: 2.0}")
    path = write(tmp_path, "d.yaml", text)
    code, out = cli(capsys, "validate", path)
    assert code == 0 and "valid (13 nodes, 12 edges)" in out


def test_nan_bandwidth_fails_lint_with_input_error(tmp_path, capsys):
    text = swap(BW, "gigabits_per_second: .nan}")
    path = write(tmp_path, "d.yaml", text)
    code, out = cli(capsys, "lint", path)
    assert code == 2
    assert at(path, text, ".nan") in out and "bandwidth must be a finite number greater than 0, got nan" in out


def test_nan_latency_fails_decompile(tmp_path, capsys):
    text = swap(LAT, "ns: .nan}")
    path = write(tmp_path, "d.yaml", text)
    code, out = cli(capsys, "decompile", path, "-o", tmp_path / "d.igl")
    assert code == 1
    assert out.startswith(at(path, text, ".nan") + ": links[0].physical.latency.ns: error: link 'eth': latency")
    assert not (tmp_path / "d.igl").exists()


def test_duplicate_key_fails_check(tmp_path, capsys):
    text = swap("{name: sw, device: switch, count: 1}", "{name: sw, device: switch, count: 1, count: 9}")
    path = write(tmp_path, "d.yaml", text)
    code, out = cli(capsys, "check", path)
    assert code == 1 and out.startswith(at(path, text, "count: 9") + ": error: duplicate key 'count'")


def test_100000_deep_yaml_is_refused_without_a_crash(tmp_path):
    """PyYAML's C loader kills the process with SIGSEGV at this depth: run it in a child process."""
    path = write(tmp_path, "deep.yaml", "name: x\ndescription: " + "[" * 100_000 + "]" * 100_000 + "\n")
    r = subprocess.run([sys.executable, "-m", "infragraph", "validate", str(path)], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 1
    assert r.stderr.startswith(f"{path}:2:114: error: document nested more than 100 levels deep")


def test_100000_deep_dashes_are_refused_without_a_crash(tmp_path):
    path = write(tmp_path, "deep.yaml", "- " * 100_000 + "1\n")
    r = subprocess.run([sys.executable, "-m", "infragraph", "validate", str(path)], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 1
    assert r.stderr.startswith(f"{path}:1:201: error: document nested more than 100 levels deep")


def test_anchors_that_expand_modestly_still_load(tmp_path, capsys):
    text = swap("links: [{name: pcie}]", "links: [{name: pcie, physical: &p {latency: {choice: ns, ns: 5}}}]")
    text = swap("links: [{name: ic}]", "links: [{name: ic, physical: *p}]", text)
    path = write(tmp_path, "d.yaml", text)
    code, out = cli(capsys, "validate", path)
    assert code == 0 and "valid (13 nodes, 12 edges)" in out


# --- JSON ----------------------------------------------------------------------------------------

DATA = yaml.safe_load(MINI)


def json_text(change) -> str:
    data = json.loads(json.dumps(DATA))
    change(data)
    return json.dumps(data, indent=1)


def _set(*path_value):
    *path, value = path_value

    def change(d):
        for key in path[:-1]:
            d = d[key]
        d[path[-1]] = value
    return change


PHYS = ("links", 0, "physical")
JSON_CASES = [
    ("json-bandwidth-nan", json_text(_set(*PHYS, "bandwidth", "gigabits_per_second", float("nan"))),
     "links[0].physical.bandwidth.gigabits_per_second: error: link 'eth': bandwidth must be a finite number greater "
     "than 0, got nan", "NaN"),
    ("json-bandwidth-infinity", json_text(_set(*PHYS, "bandwidth", "gigabits_per_second", float("inf"))),
     "bandwidth must be a finite number greater than 0, got inf", "Infinity"),
    ("json-bandwidth-minus-infinity", json_text(_set(*PHYS, "bandwidth", "gigabits_per_second", -float("inf"))),
     "-inf is less than or equal to the minimum of 0", "-Infinity"),
    ("json-latency-nan", json_text(_set(*PHYS, "latency", "ns", float("nan"))),
     "links[0].physical.latency.ns: error: link 'eth': latency must be a finite number 0 or more, got nan", "NaN"),
    ("json-latency-infinity", json_text(_set(*PHYS, "latency", "ns", float("inf"))),
     "latency must be a finite number 0 or more, got inf", "Infinity"),
    ("json-duplicate-name", '{"name": "a", "name": "b"}', "error: duplicate key 'name' (first at line 1, column 2)",
     '"name": "b"'),
    ("json-duplicate-nested", json_text(lambda d: None).replace('"count": 4', '"count": 4, "count": 5', 1),
     "error: duplicate key 'count'", '"count": 5'),
    ("json-count-fraction", json_text(_set("instances", 0, "count", 1.5)),
     "instances[0].count: error: 1.5 is not of type 'integer'", "1.5"),
    # an integer to the schema (no fraction) but no exact one: was int(1e300), then the size limit
    ("json-count-inexact", json_text(lambda d: None).replace('"count": 4', '"count": 1e300', 1),
     "error: expected an integer, found 1e+300 (beyond 2**53", "1e300"),
    ("json-trailing-comma", '{"name": "a",}', "error: invalid JSON: Expecting property name enclosed in double quotes",
     "}"),
    ("json-depth-200", '{"name": "x", "description": ' + "[" * 200 + "]" * 200 + "}",
     "error: document nested more than 100 levels deep", "[" * 101),
    ("json-depth-100000", '{"name": "x", "description": ' + "[" * 100_000 + "]" * 100_000 + "}",
     "error: document nested more than 100 levels deep", "[" * 101),
]


@pytest.mark.parametrize("name,text,message,marker", JSON_CASES, ids=[c[0] for c in JSON_CASES])
def test_json_document(tmp_path, capsys, name, text, message, marker):
    path = write(tmp_path, "doc.json", text)
    code, out = cli(capsys, "validate", path)
    assert code == 1
    assert message in out
    shift = 99 if marker.startswith("[" * 101) else 0  # the outer object is level 1: the 100th '[' is level 101
    assert out.startswith(at(path, text, marker, shift=shift) + ":"), out[:300]


def test_empty_json_file(tmp_path, capsys):
    path = write(tmp_path, "d.json", "\n")
    code, out = cli(capsys, "validate", path)
    assert code == 1 and out.startswith(f"{path}:1:1: error: the file is empty")


def test_json_count_written_as_float_reads_as_that_integer(tmp_path, capsys):
    path = write(tmp_path, "d.json", json_text(_set("instances", 1, "count", 1.0)))
    code, out = cli(capsys, "validate", path)
    assert code == 0 and "valid (13 nodes, 12 edges)" in out


@pytest.mark.parametrize("name", ["fabrics", "fabric.yaml"])
def test_a_directory_given_as_the_source_says_so(tmp_path, capsys, name):
    """Was "unknown file type ''; expected .igl, .yaml, .yml or .json" (or, for a folder named like a
    document, an unreadable-file error)."""
    (tmp_path / name).mkdir()
    code, out = cli(capsys, "simulate", tmp_path / name)
    assert code == 1 and out.startswith(f"{tmp_path / name}: error: is a directory; expected an .igl program"), out
