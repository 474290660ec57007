"""Runs inside the separate environment that has the public `infragraph` package (3.1.0) installed.

It cannot share an interpreter with this project (both are `import infragraph`), so the tests call
it as a subprocess:
  public_driver.py export MODULE:CLASS [ARGS_JSON]   -> the public object's YAML on stdout
  public_driver.py expand FILE                        -> {"nodes": [...], "edges": [[a, b], ...]} as JSON
"""

import importlib
import json
import sys

from infragraph import Infrastructure
from infragraph.infragraph_service import InfraGraphService


def export(target: str, args: str = "{}") -> None:
    module, cls = target.split(":")
    kwargs = json.loads(args)
    for key, spec in list(kwargs.items()):
        if isinstance(spec, str) and ":" in spec:  # a device argument given as MODULE:CLASS
            m, c = spec.split(":")
            kwargs[key] = getattr(importlib.import_module(m), c)()
    obj = getattr(importlib.import_module(module), cls)(**kwargs)
    sys.stdout.write(obj.serialize(encoding=Infrastructure.YAML))


def expand(path: str) -> None:
    with open(path) as fh:
        infra = Infrastructure().deserialize(fh.read())
    service = InfraGraphService()
    service.set_graph(infra)
    g = service.get_networkx_graph()
    json.dump({"nodes": sorted(g.nodes), "edges": sorted(sorted(e) for e in g.edges)}, sys.stdout)


if __name__ == "__main__":
    {"export": export, "expand": expand}[sys.argv[1]](*sys.argv[2:])
