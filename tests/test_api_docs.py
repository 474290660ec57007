"""docs/api.md is what scripts/gen_api_docs.py writes from the docstrings: a changed signature or
docstring must be regenerated (python scripts/gen_api_docs.py)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _generator():
    spec = importlib.util.spec_from_file_location("gen_api_docs", ROOT / "scripts" / "gen_api_docs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_api_docs_are_current():
    gen = _generator()
    assert (ROOT / "docs" / "api.md").read_text(encoding="utf-8") == gen.render(), \
        "docs/api.md is out of date: run python scripts/gen_api_docs.py"


def test_api_docs_cover_the_public_surface_with_docstrings():
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    for name in ("infragraph.sources.load_graph", "infragraph.simulate.SimulationOptions", "infragraph.simulate.simulate",
                 "infragraph.analyze.analyze", "infragraph.lint.engine.lint_files", "infragraph.importers.import_source"):
        assert f"### `{name}`" in text
    assert "(no docstring)" not in text
    assert "| `size_bytes` | `float` | `1048576` | per-NPU buffer" in text  # fields with their comments
    assert 'size="1MiB"' in text  # the CLI spellings are documented
