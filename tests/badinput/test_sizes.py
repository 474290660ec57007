"""Size before building: documents whose counts multiply beyond the limits are refused before any
array is allocated, naming the record that makes them large (and `--max-nodes`/`--max-edges`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from infragraph.document import io
from infragraph.graph import expand
from infragraph.graph.size import size_errors
from infragraph.limits import Limits

from .input_cases import at, cli, write

MINI = (Path(__file__).parents[1] / "data" / "mini.yaml").read_text()


def swap(old: str, new: str, text: str = MINI) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


# (id, document, message, marker)
CASES = [
    ("instance-count-10-pow-30", swap("{name: host, device: host, count: 2}",
                                      "{name: host, device: host, count: 1000000000000000000000000000000}"),
     "instances[0]: error: the graph would have about 4e+30 nodes, more than the limit of 20,000,000: instance "
     "'host' is 1,000,000,000,000,000,000,000,000,000,000 copies of device 'host' (4 nodes each)", "{name: host, d"),
    ("instance-count-float-1e20", swap("{name: host, device: host, count: 2}", "{name: host, device: host, "
                                                                               "count: 1.0e+20}"),
     # an integer to the schema, but not an exact one: refused before its size is worked out
     "instances[0].count: error: expected an integer, found 1e+20 (beyond 2**53", "1.0e+20"),
    ("component-count-10-pow-9", swap("{name: port, choice: port, count: 4}", "{name: port, choice: port, "
                                                                              "count: 1000000000}"),
     "devices[1].components[1]: error: the graph would have 1,000,000,009 nodes, more than the limit of "
     "20,000,000: component 'port' of device 'switch' has 1,000,000,000 nodes", "{name: port"),
    ("device-many2many", swap("{name: asic, choice: switch, count: 1}", "{name: asic, choice: switch, count: 100000}")
     .replace("{name: port, choice: port, count: 4}", "{name: port, choice: port, count: 100000}"),
     "devices[1].edges[0]: error: the graph would have 10,000,000,008 edges, more than the limit of 50,000,000: "
     "edge record 0 of device 'switch' makes 10,000,000,000 edges per copy", "{ep1: {component: asic}"),
    ("component-count-times-copies", swap("{name: xpu, choice: xpu, count: 2}", "{name: xpu, choice: xpu, "
                                                                            "count: 30000000}"),
     "devices[0].components[0]: error: the graph would have 60,000,009 nodes", "{name: xpu"),
]


@pytest.mark.parametrize("name,text,message,marker", CASES, ids=[c[0] for c in CASES])
def test_document_too_large(tmp_path, capsys, name, text, message, marker):
    path = write(tmp_path, "big.yaml", text)
    code, out = cli(capsys, "validate", path)
    assert code == 1
    assert out.startswith(at(path, text, marker) + ": ")
    assert message in out, out[:400]


def test_composition_reaching_10_pow_12_nodes(tmp_path, capsys):
    text = "name: deep\ndevices:\n- {name: d0, components: [{name: x, choice: xpu, count: 1000}]}\n" + "".join(
        f"- {{name: d{i}, components: [{{name: d{i - 1}, choice: device, count: 1000}}]}}\n" for i in range(1, 4)
    ) + "instances: [{name: a, device: d3, count: 1}]\n"
    path = write(tmp_path, "deep.yaml", text)
    code, out = cli(capsys, "validate", path)
    assert code == 1
    assert out.startswith(at(path, text, "{name: d1, choice") + ": devices[2].components[0]: error: the graph would "
                          "have 1,000,000,000,000 nodes")


def test_max_nodes_applies_to_documents(tmp_path, capsys):
    path = write(tmp_path, "mini.yaml", MINI)
    code, out = cli(capsys, "validate", path, "--max-nodes", "12")
    assert code == 1
    assert "instances[0]: error: the graph would have 13 nodes, more than the limit of 12" in out
    assert cli(capsys, "validate", path, "--max-nodes", "13")[0] == 0


def test_lint_has_the_limits_too(tmp_path, capsys):
    path = write(tmp_path, "mini.yaml", MINI)
    code, out = cli(capsys, "lint", path, "--max-edges", "5")
    assert code == 2 and "the graph would have 12 edges, more than the limit of 5" in out


def test_counts_match_the_expanded_graph():
    """The size check multiplies out exactly what expansion builds (nodes and edges)."""
    doc = io.loads(MINI, "mini.yaml")
    g = expand(doc)
    assert size_errors(doc, Limits(g.num_nodes, g.num_edges)) == []
    assert size_errors(doc, Limits(g.num_nodes - 1, g.num_edges))
    assert size_errors(doc, Limits(g.num_nodes, g.num_edges - 1))


def test_simulate_group_range_too_large_is_refused_before_listing(tmp_path, capsys):
    path = write(tmp_path, "mini.yaml", MINI)
    code, out = cli(capsys, "simulate", path, "--group", "0-999999999")
    assert code == 1
    assert "bad --group '0-999999999': 1,000,000,000 ranks, more than 10,000,000" in out
