"""A blueprint's documentation: its docstring and parameters, without elaborating it.

Parameters are the file's top-level `param`s followed by those of the fabric it compiles (both
can be overridden with -D). Docs come from `##` comments and docstrings. A library's devices and
functions with parameters (`hgx(links, nvlink_bandwidth, ...)`, `fn a100(nic_speed)`) are what
users call from a program or `-D host_device=...`, so they are listed too ("templates"): a
blueprint whose root fabric has one parameter must not hide the dozen its device takes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import Diagnostic, InfraGraphError, Location
from ..paths import BLUEPRINTS
from . import ast as A
from .syntax import parse


def _path(path_or_module: str) -> Path:
    p = Path(path_or_module)
    if p.suffix == ".igl" or p.exists():
        return p
    parts = path_or_module.split(".")
    if parts[0] == "std":
        parts = parts[1:]
    return BLUEPRINTS.joinpath(*parts).with_suffix(".igl")


def describe(path_or_module: str) -> dict[str, Any]:
    """{doc, params: [{name, type, default, doc}], fabric} for an .igl file or a module name (std.x.y)."""
    p = _path(str(path_or_module))
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise InfraGraphError(Diagnostic(f"cannot read blueprint '{path_or_module}': {e}", Location(str(p)))) from None
    program = parse(text, str(p))
    params = [x.param for x in program.items if isinstance(x, A.ParamDecl)]
    fabrics = [x for x in program.items if isinstance(x, A.FabricDecl)]
    root = next((f for f in fabrics if f.name == p.stem), fabrics[-1] if fabrics else None)
    if root is not None:
        params += root.params or []
    doc = program.doc or (root.doc if root else "")
    templates = [{"kind": "device" if isinstance(x, A.DeviceDecl) else "fn", "name": x.name,
                  "doc": (x.doc or "").strip(), "params": [_param(q) for q in x.params]}
                 for x in program.items if isinstance(x, (A.DeviceDecl, A.FnDecl)) and x.params]
    return {
        "doc": doc,
        "fabric": root.name if root else None,
        "params": [_param(q) for q in params],
        "templates": templates,
    }


def _param(q: A.Param) -> dict[str, Any]:
    return {"name": q.name, "type": q.type.name, "default": q.default_text or None, "doc": q.doc}
