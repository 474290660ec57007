"""Regenerate the FQG JSON fixtures: clean.yaml expanded and exported, then broken on purpose in
ways expansion would reject in a document (so only a graph written elsewhere can carry them).

    python tests/data/lint/make_fqg_fixtures.py
"""

import json
from pathlib import Path

from infragraph.graph import expand
from infragraph.graph.export import to_json_dict
from infragraph.sources import load_document

HERE = Path(__file__).parent


def graph() -> dict:
    return to_json_dict(expand(load_document(HERE / "clean.yaml")))


def node(data: dict, name: str) -> int:
    return next(i for i, n in enumerate(data["nodes"]) if n["name"] == name)


def edge(data: dict, a: str, b: str) -> dict:
    ia, ib = node(data, a), node(data, b)
    return next(e for e in data["edges"] if {e["src"], e["dst"]} == {ia, ib})


def write(name: str, data: dict) -> None:
    (HERE / name).write_text(json.dumps(data, indent=1) + "\n")


def main() -> None:
    write("clean.fqg.json", graph())

    data = graph()  # IG001: host.0.nic.1 moved from sw.0.port.1 onto sw.0.port.0
    edge(data, "host.0.nic.1", "sw.0.port.1")["dst"] = node(data, "sw.0.port.0")
    write("IG001_port_cabled_twice.fqg.json", data)

    data = graph()  # IG003: an extra edge from host.1.xpu.0 to itself
    x = node(data, "host.1.xpu.0")
    data["edges"].append({"src": x, "dst": x, "link": edge(data, "host.1.xpu.0", "host.1.nic.0")["link"]})
    write("IG003_self_loop.fqg.json", data)


if __name__ == "__main__":
    main()
