"""Where the toolchain's data lives: the blueprint library, the JSON schemas, the grammar and the
lint rule documentation, found through `importlib.resources` as package data of `infragraph`.

The files are edited in the repository's top-level folders (blueprints/, schemas/, grammar/,
docs/). `infragraph/_data/<folder>` is a symbolic link to each, so a development checkout and an
installed wheel find them the same way: `infragraph/_data/...` under the imported package. The
wheel build (pyproject.toml, `[tool.maturin] include`, by glob) follows the links and stores the
files themselves, so an install needs no checkout. Paths are resolved, so a message about a
blueprint names the file a developer edits (blueprints/fabrics/clos.igl), not the link.

The data must be on the file system (every pip install is): the compiler, the cache and the
error messages need real paths, not a zip member.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


class PackageDataError(RuntimeError):
    """A data file or folder of the installation is missing or empty: a broken install (or a
    wheel built without its package data), never a problem with the user's input."""


def _data_root() -> Path:
    root = files("infragraph").joinpath("_data")
    if not isinstance(root, Path):
        raise PackageDataError(f"infragraph's package data is not on the file system ({root!r}); "
                               f"install the package with pip rather than importing it from an archive")
    return root


DATA = _data_root()
SCHEMAS = (DATA / "schemas").resolve()
BLUEPRINTS = (DATA / "blueprints").resolve()
GRAMMAR = (DATA / "grammar").resolve()
DOCS = (DATA / "docs").resolve()


def schema_path(name: str) -> Path:
    """Path of schemas/<name>.schema.json; PackageDataError when the installation lacks it."""
    path = SCHEMAS / f"{name}.schema.json"
    if not path.is_file():
        raise PackageDataError(f"schema '{name}' is missing from the installation (looked for {path}); "
                               f"reinstall infragraph-toolchain")
    return path


def blueprint_files() -> list[Path]:
    """Every .igl file of the blueprint library, sorted. The library is never empty in a working
    installation, so an empty one is an error rather than an empty (and silently wrong) answer."""
    found = sorted(BLUEPRINTS.rglob("*.igl")) if BLUEPRINTS.is_dir() else []
    if not found:
        raise PackageDataError(f"the blueprint library is empty: no .igl files under {BLUEPRINTS}; "
                               f"the installation is incomplete, reinstall infragraph-toolchain")
    return found
