"""Write docs/api.md, the Python API reference, from the docstrings and signatures of the public API.

    python scripts/gen_api_docs.py          # rewrite docs/api.md
    python scripts/gen_api_docs.py --check  # exit 1 when docs/api.md is not what this would write

tests/test_api_docs.py runs the check, so a changed signature or docstring that is not regenerated
fails the tests. The list below (API) is the public surface: what a script needs to load a fabric,
look at it, lint, analyze, simulate, translate and import. A dataclass is shown with its fields,
their types and defaults, and the comment written beside (or above) each field in the source.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUTPUT = ROOT / "docs" / "api.md"

# (module, names, what the section is for)
API: list[tuple[str, list[str], str]] = [
    ("infragraph.sources", ["load_graph", "load_document"], "Load a fabric"),
    ("infragraph.blueprints", ["names", "describe", "instantiate", "graph"], "The blueprint library (std.*)"),
    ("infragraph.graph", ["FQG", "expand"], "The fully qualified graph"),
    ("infragraph.graph.summary", ["summary"], "What `infragraph info` reports"),
    ("infragraph.graph.tiers", ["tier_table"], "Switch tiers and the bill of materials"),
    ("infragraph.graph.failures", ["FailureSpec", "with_failures"], "Failures (`--fail`, `--fail-random`)"),
    ("infragraph.lint.engine", ["lint_files", "LintReport"], "Lint"),
    ("infragraph.lint.config", ["LintConfig"], None),
    ("infragraph.analyze", ["analyze"], "Analyze (bisection, diameter, single points of failure)"),
    ("infragraph.simulate", ["SimulationOptions", "simulate", "prepare", "sweep"], "Simulate"),
    ("infragraph.translators", ["get"], "Translate (ASTRA-sim, ns-3, HTSim, engine bundles)"),
    ("infragraph.translators.base", ["Options"], None),
    ("infragraph.importers", ["import_source", "ImportOptions"], "Import"),
    ("infragraph.units", ["parse_quantity", "format_bandwidth", "parse_size_bytes"], "Units"),
    ("infragraph.errors", ["InfraGraphError", "Diagnostic", "Location"], "Errors"),
]

HEADER = """# Python API

Generated from the docstrings by `python scripts/gen_api_docs.py` (do not edit by hand;
tests/test_api_docs.py fails when this file is out of date). The command line is a thin layer over
these functions (`infragraph --help`). Units follow the graph: bandwidth in Gbit/s (1e9 bit/s) per
direction, latency in ns, sizes in bytes; errors in the input are raised as `InfraGraphError`, whose
diagnostics carry a location (file:line:col, document path, or the option or keyword).

```python
from infragraph.sources import load_graph
from infragraph.simulate import SimulationOptions, prepare, simulate

g = load_graph("std.fabrics.clos")                 # or an .igl file, a YAML/JSON document
result = simulate(prepare(g), SimulationOptions(size="1MiB", algorithm="ring"))
print(result["time_ns"])
```
"""


def _doc(obj) -> str:
    return inspect.cleandoc(obj.__doc__) if obj.__doc__ else "(no docstring)"


def _signature(name: str, obj) -> str:
    try:
        sig = str(inspect.signature(obj))
    except (TypeError, ValueError):
        return name
    sig = re.sub(r" at 0x[0-9a-f]+", "", sig)
    return f"{name}{sig}"


def _field_comments(cls) -> dict[str, str]:
    """The comment beside each field (`x: int = 1  # why`) or on the lines just above it."""
    try:
        lines = inspect.getsource(cls).splitlines()
    except (OSError, TypeError):
        return {}
    out: dict[str, str] = {}
    above: list[str] = []
    for line in lines:
        stripped = line.strip()
        if stripped.startswith("#"):
            above.append(stripped.lstrip("# ").rstrip())
            continue
        m = re.match(r"\s+(\w+)\s*:[^=#]*(?:=[^#]*)?(?:#\s*(.*))?$", line)
        if m and not stripped.startswith(("def ", "class ", "@", '"""', "return")):
            text = " ".join(above + ([m.group(2).strip()] if m.group(2) else []))
            if text:
                out[m.group(1)] = text
        above = []
    return out


def _fields(cls) -> list[str]:
    comments = _field_comments(cls)
    rows = ["| field | type | default | meaning |", "|---|---|---|---|"]
    for f in dataclasses.fields(cls):
        if f.default is not dataclasses.MISSING:
            default = repr(f.default)
        elif f.default_factory is not dataclasses.MISSING:  # type: ignore[misc]
            default = f"{f.default_factory.__name__}()"  # type: ignore[misc]
        else:
            default = "(required)"
        kind = f.type if isinstance(f.type, str) else getattr(f.type, "__name__", str(f.type))
        kind, default, cell = (x.replace("|", "\\|") for x in (kind, default, comments.get(f.name, "")))
        rows.append(f"| `{f.name}` | `{kind}` | `{default}` | {cell} |")
    return rows


def _entry(module: str, name: str) -> list[str]:
    obj = getattr(importlib.import_module(module), name)
    out = [f"### `{module}.{name}`", ""]
    if inspect.isclass(obj):
        out += ["```python", f"class {name}", "```", "", _doc(obj), ""]
        if dataclasses.is_dataclass(obj):
            out += _fields(obj) + [""]
    else:
        out += ["```python", _signature(name, obj), "```", "", _doc(obj), ""]
    return out


def render() -> str:
    lines = [HEADER]
    for module, names, section in API:
        if section:
            lines += [f"## {section}", ""]
        for name in names:
            lines += _entry(module, name)
    return "\n".join(lines).rstrip() + "\n"


def main(argv: list[str]) -> int:
    text = render()
    if "--check" in argv:
        if not OUTPUT.exists() or OUTPUT.read_text(encoding="utf-8") != text:
            print(f"{OUTPUT.relative_to(ROOT)} is out of date: run python scripts/gen_api_docs.py", file=sys.stderr)
            return 1
        return 0
    OUTPUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUTPUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
