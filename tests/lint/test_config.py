"""Configuration: discovery (pyproject table, .infragraph-lint.toml), validation with located
errors, and command-line overrides."""

from __future__ import annotations

import pytest

from infragraph.errors import InfraGraphError
from infragraph.lint.config import LintConfig, discover_config, load_config_file


def test_pyproject_table_is_found_from_a_subdirectory(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\n\n[tool.infragraph.lint]\nignore = ["IG010"]\n'
        'severity = {IG009 = "error"}\nmax-oversubscription = 3.0\nfor = "ns3"\n')
    sub = tmp_path / "fabrics" / "prod"
    sub.mkdir(parents=True)
    cfg = discover_config(sub)
    assert cfg.ignore == ("IG010",) and cfg.severity == {"IG009": "error"}
    assert cfg.max_oversubscription == 3.0 and cfg.target == "ns3"
    assert cfg.source == str(tmp_path / "pyproject.toml")
    assert "IG010" not in [r.id for r in cfg.rules()]


def test_dedicated_file_wins_over_pyproject(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.infragraph.lint]\nignore = ["IG010"]\n')
    (tmp_path / ".infragraph-lint.toml").write_text('select = ["IG001", "ig004"]\n')
    cfg = discover_config(tmp_path)
    assert [r.id for r in cfg.rules()] == ["IG001", "IG004"] and cfg.ignore == ()


def test_no_configuration_means_defaults(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n')
    assert discover_config(tmp_path) == LintConfig()


def test_unknown_key_is_located(tmp_path):
    (tmp_path / ".infragraph-lint.toml").write_text('max_oversubscription = 2\n')
    with pytest.raises(InfraGraphError) as info:
        discover_config(tmp_path)
    text = str(info.value)
    assert str(tmp_path / ".infragraph-lint.toml") in text and "max-oversubscription" in text


def test_unknown_rule_id_suggests_one(tmp_path):
    path = tmp_path / "pyproject.toml"
    path.write_text('[tool.infragraph.lint]\nignore = ["IG01"]\n')
    with pytest.raises(InfraGraphError) as info:
        load_config_file(path)
    d = info.value.diagnostics[0]
    assert "unknown rule id 'IG01'" in d.message and d.location.path == "tool.infragraph.lint.ignore"
    assert d.hint and "IG0" in d.hint


def test_bad_toml_is_located(tmp_path):
    path = tmp_path / ".infragraph-lint.toml"
    path.write_text('ignore = ["IG010"]\nselect = [IG001]\n')
    with pytest.raises(InfraGraphError) as info:
        load_config_file(path)
    d = info.value.diagnostics[0]
    assert d.message.startswith("invalid TOML") and (d.location.line, d.location.column) == (2, 11)


def test_command_line_overrides():
    cfg = LintConfig(ignore=("IG010",), max_oversubscription=3.0).with_overrides(
        select=["IG009,IG010", "IG011"], ignore=["ig011"], max_oversubscription=2.0, target="htsim")
    assert [r.id for r in cfg.rules()] == ["IG009"]  # select replaces, ignore adds
    assert cfg.max_oversubscription == 2.0 and cfg.target == "htsim"
    with pytest.raises(InfraGraphError, match="unknown rule id 'XX1'"):
        LintConfig().with_overrides(select=["XX1"])
    with pytest.raises(InfraGraphError, match="must be positive"):
        LintConfig().with_overrides(max_oversubscription=0.0)


@pytest.mark.parametrize("text, outcome", [
    ("3", 3), ("3.0", 3), ("3e0", 3), ("3.5", "3.5 is not of type 'integer'"), ('"3"', "'3' is not of type 'integer'"),
    ("1e300", "expected an integer, found 1e+300 (beyond 2**53"),
])
def test_max_findings_is_an_integer_as_the_schema_says(tmp_path, text, outcome):
    """The schema's "integer" takes 3.0 (TOML's float with no fraction); the reader takes it as the int 3."""
    (tmp_path / ".infragraph-lint.toml").write_text(f"max-findings-per-rule = {text}\n")
    if isinstance(outcome, int):
        cfg = discover_config(tmp_path)
        assert cfg.max_per_rule == outcome and type(cfg.max_per_rule) is int
    else:
        with pytest.raises(InfraGraphError) as info:
            discover_config(tmp_path)
        [d] = info.value.diagnostics
        assert outcome in d.message and d.location.path == "max-findings-per-rule", str(info.value)
