"""`infragraph blueprints list` and `infragraph blueprints show NAME`: the blueprint library.

Compiling one is `infragraph compile std.fabrics.clos -D radix=32 -o clos.json` (any command that
reads a source accepts a blueprint name).
"""

from __future__ import annotations

import json

from .. import blueprints


def register(sub) -> None:
    p = sub.add_parser("blueprints", help="list the blueprint library or show one blueprint's parameters")
    bsub = p.add_subparsers(dest="action", metavar="ACTION")
    bsub.required = True
    ls = bsub.add_parser("list", help="every blueprint with its one-line summary")
    ls.add_argument("--json", action="store_true", help="print JSON")
    ls.set_defaults(func=run_list)
    show = bsub.add_parser("show", help="a blueprint's docstring and parameters (name, type, default)")
    show.add_argument("name", metavar="NAME", help="e.g. std.fabrics.clos")
    show.add_argument("--json", action="store_true", help="print JSON")
    show.set_defaults(func=run_show)


def run_list(args) -> int:
    items = blueprints.list_blueprints()
    if args.json:
        print(json.dumps(items, indent=2))
        return 0
    width = max((len(x["name"]) for x in items), default=0)
    for x in items:
        print(f"{x['name']:<{width}}  {x['summary']}")
    return 0


def format_description(d: dict) -> str:
    """The text `blueprints show` prints: name, docstring, then one line per parameter."""
    lines = [d["name"] + (f"  (fabric {d['fabric']})" if d.get("fabric") else "  (devices only)"), ""]
    lines += [d["doc"].strip() or "(no docstring)", ""]
    if not d["params"]:
        lines.append("no parameters")
    else:
        lines.append("parameters (override with -D NAME=VALUE):")
        lines += _param_lines(d["params"], "  ")
    if d.get("templates"):
        lines += ["", "devices and functions (call them in a program or a -D value, e.g. -D host_device=...):"]
    for t in d.get("templates", []):
        lines.append(f"  {t['kind']} {t['name']}(...)" + (f": {t['doc']}" if t["doc"] else ""))
        lines += _param_lines(t["params"], "      ")
    return "\n".join(lines)


def _param_lines(params: list[dict], indent: str) -> list[str]:
    """One line per parameter (type, default, the per-direction note on bandwidths), then its doc."""
    out = []
    for p in params:
        default = "" if p["default"] is None else f" = {p['default']}"
        unit = "  (per direction; links are full duplex)" if p["type"] == "bandwidth" else ""
        out.append(f"{indent}{p['name']}: {p['type']}{default}{unit}")
        if p["doc"]:
            out.append(f"{indent}    {p['doc']}")
    return out


def run_show(args) -> int:
    d = blueprints.describe(args.name)
    print(json.dumps(d, indent=2) if args.json else format_description(d))
    return 0
