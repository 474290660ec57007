"""The README's commands use files that ship with the repository, and they work."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from infragraph.cli import main

ROOT = Path(__file__).parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_every_example_file_the_readme_names_exists():
    named = set(re.findall(r"\b(examples/[\w./-]+\.(?:igl|yaml|yml|json))\b", README))
    assert "examples/fabric.yaml" in named
    assert [n for n in sorted(named) if not (ROOT / n).exists()] == []


@pytest.mark.parametrize("argv", [["validate", "examples/fabric.yaml"], ["check", "examples/leaf_spine.igl"]])
def test_readme_commands_run(monkeypatch, argv):
    monkeypatch.chdir(ROOT)
    assert main(argv) == 0


def test_fabric_yaml_is_the_leaf_spine_program(monkeypatch):
    from infragraph.graph.export import to_json_dict
    from infragraph.sources import load_graph

    monkeypatch.chdir(ROOT)
    a, b = to_json_dict(load_graph("examples/fabric.yaml")), to_json_dict(load_graph("examples/leaf_spine.igl"))
    assert a["nodes"] == b["nodes"] and a["edges"] == b["edges"]
