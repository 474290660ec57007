"""Every shipped blueprint (blueprints/**/*.igl) lints clean at its defaults: no error and no
warning. Parametrized over the files present, so it runs nothing while there are none and fails
as soon as one lints dirty (or does not compile: that is an IG000 error)."""

from __future__ import annotations

from pathlib import Path

import pytest

from infragraph.lint.config import LintConfig
from infragraph.lint.engine import lint_files

BLUEPRINTS = Path(__file__).parent.parent / "blueprints"
FILES = sorted(BLUEPRINTS.glob("**/*.igl"))


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(BLUEPRINTS)) for p in FILES])
def test_blueprint_lints_clean(path):
    report = lint_files([str(path)], LintConfig())
    dirty = [f"{f.location}: {f.severity} {f.rule}: {f.message}" for f in report.findings
             if f.severity in ("error", "warning")]
    assert dirty == [] and not report.omitted, "\n".join(dirty)
