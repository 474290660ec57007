"""The blueprint library (blueprints/*.igl) from Python: list, describe, instantiate.

A blueprint is an ordinary .igl program; `std.fabrics.clos` names blueprints/fabrics/clos.igl,
exactly as `import std.fabrics.clos` does inside the language. Instantiating one compiles it
with its parameters overridden, the same path as `infragraph compile std.fabrics.clos -D radix=32`,
so Python, the CLI and the language cannot disagree about what a blueprint builds. Parameter
checks (`assert`s in the .igl) therefore report the blueprint's own message.
"""

from __future__ import annotations

import copy
from functools import lru_cache
from pathlib import Path
from typing import Any

from .errors import Diagnostic, InfraGraphError, Location, did_you_mean
from . import paths

PREFIX = "std."


def is_blueprint_name(text: str) -> bool:
    """`std.x.y` (a module name, not a file path)."""
    return text.startswith(PREFIX) and "/" not in text and not text.endswith(".igl")


def names() -> list[str]:
    """Every blueprint's module name, sorted (std.devices.switch, std.fabrics.clos, ...); an empty
    library raises PackageDataError (a broken installation)."""
    return sorted(PREFIX + ".".join(p.relative_to(paths.BLUEPRINTS).with_suffix("").parts)
                  for p in paths.blueprint_files())


def resolve(name: str) -> Path:
    """blueprints/x/y.igl for `std.x.y`; an error with a suggestion when there is none."""
    rel = name[len(PREFIX):] if name.startswith(PREFIX) else name
    path = paths.BLUEPRINTS.joinpath(*rel.split(".")).with_suffix(".igl")
    if not rel or not path.is_file():
        known = names()
        raise InfraGraphError(Diagnostic(
            f"no blueprint named '{name}'", Location(name),
            did_you_mean(name, known) or f"blueprints: {', '.join(known)}"))
    return path


def describe(name: str) -> dict[str, Any]:
    """{name, path, doc, fabric, params: [{name, type, default, doc}]} of one blueprint."""
    path = resolve(name)
    info = _describe_file(str(path), path.stat().st_mtime_ns)
    return {"name": name, "path": str(path), **copy.deepcopy(info)}


@lru_cache(maxsize=256)
def _describe_file(path: str, mtime_ns: int) -> dict[str, Any]:
    """lang.describe, once per file version: instantiate() needs the parameter types on every
    call, and parsing is the slow part of a compile (an edited file has a new mtime)."""
    from . import lang

    return lang.describe(path)


def list_blueprints() -> list[dict[str, Any]]:
    """[{name, summary}] for every blueprint; summary = the first line of its docstring."""
    out = []
    for name in names():
        doc = describe(name)["doc"]
        out.append({"name": name, "summary": doc.strip().splitlines()[0] if doc.strip() else ""})
    return out


def to_igl(value: Any, type_name: str | None = None) -> str:
    """A Python value as .igl source text for a -D override. Strings pass through as source
    (so "400 Gbps", "[1, 2]" or "dgx(gpus=4)" work) unless the parameter is a string."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        if type_name == "string":
            return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
        return value
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(to_igl(x) for x in value) + "]"
    raise TypeError(f"cannot pass a {type(value).__name__} to a blueprint parameter")


def defines_for(name: str, params: dict[str, Any]) -> dict[str, str]:
    """-D texts for `params`; an unknown parameter is an error naming the known ones."""
    declared = {p["name"]: p["type"] for p in describe(name)["params"]}
    out = {}
    for key, value in params.items():
        if key not in declared:
            raise InfraGraphError(Diagnostic(
                f"blueprint '{name}' has no parameter '{key}'", Location(name),
                did_you_mean(key, declared) or f"parameters: {', '.join(declared) or '(none)'}"))
        out[key] = to_igl(value, declared[key])
    return out


def instantiate(name: str, **params: Any):
    """The InfraGraph document of blueprint `name` with `params` overridden (others default)."""
    from . import lang

    return lang.compile_file(str(resolve(name)), defines=defines_for(name, params))


def graph(name: str, **params: Any):
    """The fully qualified graph of blueprint `name` (instantiate, then expand)."""
    from .graph import expand

    return expand(instantiate(name, **params))
