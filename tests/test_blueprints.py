"""Reaching the library: infragraph.blueprints (list, describe, instantiate) and the CLI
(`blueprints list|show`, compiling `std.x.y` with -D), plus `import std....` from a user's .igl."""

from __future__ import annotations

import pytest

from infragraph import blueprints
from infragraph.cli import main
from infragraph.document.model import Infrastructure
from infragraph.errors import InfraGraphError
from infragraph.graph import expand
from infragraph.graph.export import read_fqg
from infragraph.lang import compile_source
from infragraph.paths import BLUEPRINTS

EXPECTED = {"std.devices.switch", "std.devices.nic", "std.devices.npu", "std.devices.host", "std.devices.dgx",
            "std.devices.gpu_noc", "std.devices.hgx", "std.devices.gb200_nvl72", "std.fabrics.clos", "std.fabrics.single_switch", "std.fabrics.torus",
            "std.fabrics.mesh", "std.fabrics.hypercube", "std.fabrics.dragonfly", "std.fabrics.ring",
            "std.fabrics.fully_connected", "std.fabrics.stack", "std.fabrics.gpu_cluster",
            "std.fabrics.pgft", "std.fabrics.simgrid_dragonfly", "std.fabrics.superpod"}


def test_every_blueprint_is_listed_with_a_docstring():
    items = {x["name"]: x["summary"] for x in blueprints.list_blueprints()}
    assert set(items) == EXPECTED
    assert all(len(s) > 20 for s in items.values()), items
    assert len(list(BLUEPRINTS.rglob("*.igl"))) == len(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_blueprint_has_typed_parameters_with_defaults(name):
    d = blueprints.describe(name)
    assert d["doc"].strip()
    for p in d["params"]:
        assert p["type"] and p["default"] is not None, (name, p)


def test_describe_shows_clos_parameters_with_their_docs():
    d = blueprints.describe("std.fabrics.clos")
    params = {p["name"]: p for p in d["params"]}
    assert params["radix"]["type"] == "int" and params["radix"]["default"] == "8"
    assert "oversubscription" in params and "ratio" in params["oversubscription"]["doc"]
    assert d["fabric"] == "clos"


def test_instantiate_returns_a_document_with_the_overrides_applied():
    doc = blueprints.instantiate("std.fabrics.clos", radix=4, tiers=2)
    assert isinstance(doc, Infrastructure)
    assert {i.name: i.count for i in doc.instances} == {"host": 8, "leaf": 4, "spine": 2}
    assert expand(doc).graph_annotations["clos_radix"] == 4


def test_to_igl_turns_python_values_into_source():
    assert blueprints.to_igl(True) == "true" and blueprints.to_igl(3) == "3"
    assert blueprints.to_igl(["200 GB/s", 2]) == "[200 GB/s, 2]"
    assert blueprints.to_igl('a"b', "string") == '"a\\"b"'


def test_unknown_blueprint_and_parameter_are_errors_with_suggestions():
    with pytest.raises(InfraGraphError, match="did you mean 'std.fabrics.clos'"):
        blueprints.instantiate("std.fabrics.cls")
    with pytest.raises(InfraGraphError, match="(?s)has no parameter 'radx'.*did you mean 'radix'"):
        blueprints.instantiate("std.fabrics.clos", radx=8)


def test_cli_list_and_show(capsys):
    assert main(["blueprints", "list"]) == 0
    out = capsys.readouterr().out
    assert all(name in out for name in EXPECTED)
    assert main(["blueprints", "show", "std.fabrics.dragonfly"]) == 0
    out = capsys.readouterr().out
    assert "arrangement: string = \"absolute\"" in out and "absolute | relative | circulant" in out
    assert main(["blueprints", "show", "std.fabrics.nope"]) == 1
    assert "no blueprint named 'std.fabrics.nope'" in capsys.readouterr().err


def test_cli_compiles_a_blueprint_by_name_with_overrides(tmp_path, capsys):
    out = tmp_path / "clos.json"
    assert main(["compile", "std.fabrics.clos", "-D", "radix=4", "-D", "tiers=3", "-o", str(out), "-q"]) == 0
    g = read_fqg(out)
    assert {i.name: i.count for i in g.instances} == {"host": 16, "leaf": 8, "agg": 8, "core": 4}
    assert main(["compile", "std.fabrics.clos", "-D", "tiers=7", "-o", str(out), "-q"]) == 1
    assert "tiers must be 1, 2, 3 or 4, got 7" in capsys.readouterr().err


def test_a_user_program_imports_and_composes_blueprints():
    src = """
import std.fabrics.clos as clos
import std.devices.dgx as dgx
fabric pod {
    include clos.clos(radix = 16, tiers = 2, nics_per_host = 8, rail_optimized = true, host_device = dgx.dgx())
}
"""
    doc = compile_source(src, "pod.igl")
    # the Clos's annotations reach the including program (issue 24.6): simulate runs its dims, not flat
    assert doc.annotations.graph["dims"] == "SW(*)_SW(16)"
    assert doc.annotations.graph["topology"] == "clos"
    assert doc.annotations.graph["max_oversubscription"] == 1
    g = expand(doc)
    # radix 16, 2 tiers: 128 host ports / 8 NICs = 16 DGX hosts of 8 GPUs, rails of 8 leaves
    assert {i.name: i.count for i in g.instances} == {"host": 16, "leaf": 16, "spine": 8}
    assert int((g.node_type == g.type_names.index("xpu")).sum()) == 128
