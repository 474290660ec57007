"""Where the project's data lives (schemas/, blueprints/, grammar/), found from the package.

The toolchain is installed in development mode from a checkout (the README's set-up command), so
the data directories sit beside the `infragraph` package at the repository root.
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "schemas"
BLUEPRINTS = ROOT / "blueprints"
GRAMMAR = ROOT / "grammar"


def schema_path(name: str) -> Path:
    """Path of schemas/<name>.schema.json."""
    return SCHEMAS / f"{name}.schema.json"
