"""Package data (infragraph/paths.py): found through importlib.resources, shipped by the wheel's
include globs, and an empty or missing library is an error rather than an empty answer.

The installed wheel itself is exercised by scripts/smoke_wheel.sh (run by .ci/run).
"""

from __future__ import annotations

import glob
import sys
from importlib.resources import files
from pathlib import Path

import pytest

from infragraph import blueprints, paths
from infragraph.cli import main
from infragraph.lint import docs

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

CHECKOUT = Path(__file__).resolve().parents[1]
# Top-level folder -> the files of it the tool reads (all of them, except the docs' pictures).
READ = {"blueprints": "**/*", "schemas": "**/*", "grammar": "**/*", "docs": "*.md"}


def test_data_is_found_through_importlib_resources_and_resolves_to_the_edited_folders():
    assert paths.DATA == files("infragraph") / "_data"
    for folder, path in [("blueprints", paths.BLUEPRINTS), ("schemas", paths.SCHEMAS),
                         ("grammar", paths.GRAMMAR), ("docs", paths.DOCS)]:
        assert path == (CHECKOUT / folder).resolve(), folder
        assert (CHECKOUT / "infragraph" / "_data" / folder).is_symlink(), folder


def test_the_wheel_include_globs_cover_every_file_the_tool_reads():
    """A blueprint, schema or rule doc added to its folder ships without editing pyproject.toml;
    a file of a kind the globs miss (say a .toml blueprint helper) fails here, not in a user's install."""
    include = tomllib.loads((CHECKOUT / "pyproject.toml").read_text())["tool"]["maturin"]["include"]
    shipped: set[str] = set()
    for entry in include:
        formats = entry["format"] if isinstance(entry["format"], list) else [entry["format"]]
        if "wheel" in formats:
            shipped.update(glob.glob(entry["path"], root_dir=CHECKOUT, recursive=True))
    for folder, pattern in READ.items():
        read = {f"infragraph/_data/{folder}/{p.relative_to(CHECKOUT / folder).as_posix()}"
                for p in (CHECKOUT / folder).glob(pattern) if p.is_file() and not p.name.startswith(".")}
        assert read, folder
        assert read <= shipped, sorted(read - shipped)


def test_every_blueprint_file_is_listed():
    assert len(blueprints.names()) == len(list((CHECKOUT / "blueprints").rglob("*.igl")))


def test_an_empty_blueprint_library_is_an_error_not_an_empty_list(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(paths, "BLUEPRINTS", tmp_path)
    with pytest.raises(paths.PackageDataError, match="blueprint library is empty"):
        blueprints.names()
    assert main(["blueprints", "list"]) == 3
    err = capsys.readouterr().err
    assert "blueprint library is empty" in err and str(tmp_path) in err
    monkeypatch.setattr(paths, "BLUEPRINTS", tmp_path / "absent")
    assert main(["info", "std.fabrics.clos"]) == 3
    assert "blueprint library is empty" in capsys.readouterr().err


def test_a_missing_schema_names_the_file(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "SCHEMAS", tmp_path)
    with pytest.raises(paths.PackageDataError, match="schema 'fqg' is missing .*fqg.schema.json"):
        paths.schema_path("fqg")


def test_rule_docs_are_package_data_and_an_install_asks_no_git(tmp_path, monkeypatch):
    assert "IG001" in docs.sections()
    docs.repository_docs.cache_clear()
    monkeypatch.setattr(docs, "DOCS", tmp_path / "docs")  # an install: no .git beside the data
    try:
        assert docs.repository_docs() is None
    finally:
        docs.repository_docs.cache_clear()
