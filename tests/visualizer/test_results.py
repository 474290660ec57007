"""Simulation results read back for pictures (visualizer/results.py): a link's `edge` is an integer
as schemas/simulation-result.schema.json says ("integer": 3.0 is 3), anything else is located."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from infragraph.cli import main
from infragraph.errors import InfraGraphError
from infragraph.schemas import schema_errors
from infragraph.sources import load_graph
from infragraph.visualizer.results import link_utilization

RING = str(Path(__file__).parents[2] / "examples" / "ring8.igl")


@pytest.fixture(scope="module")
def result(tmp_path_factory) -> dict:
    out = tmp_path_factory.mktemp("r") / "r.json"
    assert main(["simulate", RING, "--json", str(out), "--links", "all", "-q", "--no-cache"]) == 0
    return json.loads(out.read_text())


@pytest.mark.parametrize("text, outcome", [("1", "read"), ("1.0", "read"), ("1e0", "read"), ("1.5", "both"),
                                           ("true", "both"), ('"1"', "both"), ("1e300", "reader")])
def test_an_edge_is_an_integer_as_the_schema_says(tmp_path, result, text, outcome):
    """"reader": an integer to the schema (no fraction) but no exact one, refused by the reader alone."""
    data = json.loads(json.dumps(result))
    data["links"][0]["edge"] = "@EDGE@"
    path = tmp_path / "r.json"
    path.write_text(json.dumps(data).replace('"@EDGE@"', text))  # the text as any JSON parser reads it
    assert (schema_errors("simulation-result", json.loads(path.read_text())) == []) == (outcome != "both"), text
    g = load_graph(RING)
    if outcome == "read":
        data["links"][0]["edge"] = 1
        plain = tmp_path / "plain.json"
        plain.write_text(json.dumps(data))
        assert np.array_equal(link_utilization(g, path), link_utilization(g, plain), equal_nan=True)
    else:
        with pytest.raises(InfraGraphError, match=r"r.json: links\[0\].edge: error: edge .* is not an edge of 'ring8'"):
            link_utilization(g, path)
