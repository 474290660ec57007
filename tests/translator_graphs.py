"""Test-only generators of InfraGraph documents for the translator tests and benchmark.

Until the blueprint library exists these build the shapes of topologies.md directly as public-format
dicts, compactly (one edge record per slice pattern, never one per cable), so that the translators
are exercised through the real document -> expand -> FQG path:

- `stack("RI(4)_FC(8)_SW(32)", ...)`: multi-dimensional RI/FC/SW stacks; NPU id = x1 + n1*x2 + ...
  Each NPU is a device with one xpu and one port per neighbour, joined by an unrated internal link, so
  the translators must collapse xpu -> port -> cable into one NPU-to-NPU (or NPU-to-switch) link.
- `single_switch(n)`: n NPUs on one switch; cables written switch-side first (ns-3 note's "8 0 ...").
- `clos(k, tiers, ...)`: 2/3-tier folded Clos of radix k with hosts of `npus` xpus and `nics` NICs
  (xpu i uses NIC i*nics//npus), host port p = host*nics + nic goes to leaf p // (k/2).
- `rails(directory)`: a hand-written (no blueprint) rail-optimized Clos of 8 DGX-like servers in 2
  scalable units, stating its logical dimensions SW(8)_SW(8) as a designer would.
"""

from __future__ import annotations

import json
import re

from pathlib import Path

from infragraph.document import io
from infragraph.document.model import Infrastructure
from infragraph.graph.fqg import FQG
from infragraph.sources import load_graph
from tests.docparts import edge as _edge
from tests.docparts import link as _link
from tests.docparts import switch_device as _switch_device


def _document(d: dict) -> Infrastructure:
    return io.loads(json.dumps(d), "generated.json")


def parse_stack(shape: str) -> list[tuple[str, int]]:
    """'RI(4)_FC(8)_SW(32)' -> [('RI', 4), ('FC', 8), ('SW', 32)]."""
    out = []
    for part in shape.split("_"):
        m = re.fullmatch(r"(RI|FC|SW)\((\d+)\)", part)
        assert m, f"bad stack part {part!r}"
        out.append((m.group(1), int(m.group(2))))
    return out


def stack(shape: str, gbps: list[float] | None = None, ns: list[float] | None = None,
          name: str | None = None) -> Infrastructure:
    """A multi-dimensional stack; dimension d gets link `dim<d>` with gbps[d] and ns[d]."""
    dims = parse_stack(shape)
    D = len(dims)
    gbps = gbps or [400.0 / (2 ** d) for d in range(D)]
    ns = ns or [100.0 * (d + 1) for d in range(D)]
    N = 1
    for _, n in dims:
        N *= n
    ports_per_dim = [2 if k == "RI" and n > 2 else (n - 1 if k in ("FC", "RI") else 1) for k, n in dims]
    first_port = [sum(ports_per_dim[:d]) for d in range(D)]
    devices = [{"name": "npu",
                "components": [{"name": "xpu", "choice": "xpu", "count": 1},
                               {"name": "port", "choice": "port", "count": sum(ports_per_dim)}],
                "links": [{"name": "internal"}],
                "edges": [{"ep1": {"component": "xpu"}, "ep2": {"component": "port"},
                           "scheme": "many2many", "link": "internal"}]}]
    instances = [{"name": "npu", "device": "npu", "count": N}]
    edges = []
    stride = 1
    for d, (kind, n) in enumerate(dims):
        link = f"dim{d}"
        span = stride * n

        def members(c: int, a: int) -> str:
            """NPUs with coordinate c in this dim and lower coordinates a, all outer blocks."""
            start = a + c * stride
            return f"npu[{start}:{N}:{span}]"

        p0 = first_port[d]
        if kind == "SW":
            devices.append(_switch_device(f"sw{d}", n))
            instances.append({"name": f"sw{d}", "device": f"sw{d}", "count": N // n})
            # switch index of NPU (a, c, b) = a + b*stride; for fixed (c, a): switches a, a+stride, ...
            for c in range(n):
                for a in range(stride):
                    edges.append(_edge(f"sw{d}[{a}:{N // n}:{stride}]", f"port[{c}]",
                                       members(c, a), f"port[{p0}]", link))
        elif kind == "RI" and n > 2:
            for c in range(n):
                for a in range(stride):
                    edges.append(_edge(members(c, a), f"port[{p0 + 1}]",
                                       members((c + 1) % n, a), f"port[{p0}]", link))
        else:  # FC(n), and RI(2) as its single link
            for c1 in range(n):
                for c2 in range(c1 + 1, n):
                    for a in range(stride):
                        edges.append(_edge(members(c1, a), f"port[{p0 + c2 - 1}]",
                                           members(c2, a), f"port[{p0 + c1}]", link))
        stride = span
    return _document({"name": name or shape.replace("(", "").replace(")", "").lower(),
                      "devices": devices,
                      "links": [_link(f"dim{d}", gbps[d], ns[d]) for d in range(D)],
                      "instances": instances, "edges": edges})


def single_switch(n: int = 8, gbps: float = 400.0, ns: float = 500.0) -> Infrastructure:
    """n NPUs (xpu -> nic inside a host device) on one switch; the cable is listed switch-side first."""
    return _document({
        "name": f"switch{n}",
        "devices": [{"name": "gpu", "components": [{"name": "xpu", "choice": "xpu", "count": 1},
                                                    {"name": "nic", "choice": "nic", "count": 1}],
                     "links": [_link("pcie", 1600.0, 0.0)],
                     "edges": [{"ep1": {"component": "xpu"}, "ep2": {"component": "nic"},
                                "scheme": "one2one", "link": "pcie"}]},
                    _switch_device("switch", n)],
        "links": [_link("eth", gbps, ns)],
        "instances": [{"name": "gpu", "device": "gpu", "count": n}, {"name": "sw", "device": "switch", "count": 1}],
        "edges": [_edge("sw[0]", f"port[0:{n}]", f"gpu[0:{n}]", "nic", "eth")],
    })


def clos_dict(k: int, tiers: int = 3, npus: int = 1, nics: int = 1, gbps: float = 400.0, ns: float = 500.0,
              up_gbps: float | None = None, up_ns: float | None = None) -> dict:
    """A non-blocking folded Clos of radix k (2 or 3 tiers) as a public-format dict."""
    assert k % 2 == 0 and tiers in (2, 3)
    h = k // 2
    leaves = k if tiers == 2 else k * h
    host_ports = leaves * h
    assert host_ports % nics == 0
    hosts = host_ports // nics
    up_gbps = gbps if up_gbps is None else up_gbps
    up_ns = ns if up_ns is None else up_ns
    host_edges = ([{"ep1": {"component": "xpu"}, "ep2": {"component": "nic"}, "scheme": "one2one", "link": "pcie"}]
                  if npus == nics else
                  [{"ep1": {"component": f"xpu[{j * npus // nics}:{(j + 1) * npus // nics}]"},
                    "ep2": {"component": f"nic[{j}]"}, "scheme": "many2many", "link": "pcie"} for j in range(nics)])
    devices = [{"name": "host", "components": [{"name": "xpu", "choice": "xpu", "count": npus},
                                               {"name": "nic", "choice": "nic", "count": nics}],
                "links": [_link("pcie", 1600.0, 0.0)], "edges": host_edges},
               _switch_device("switch", k)]
    instances = [{"name": "host", "device": "host", "count": hosts},
                 {"name": "leaf", "device": "switch", "count": leaves}]
    edges = []
    # host port p = host*nics + nic -> leaf p // h, port p % h. For a fixed leaf port q, the hosts
    # reaching it form an arithmetic progression over the leaves.
    for q in range(h):
        nic = q % nics
        first_host = (q - nic) // nics
        step = h // nics if h % nics == 0 else None
        assert step, "nics must divide k/2"
        edges.append(_edge(f"leaf[0:{leaves}]", f"port[{q}]",
                           f"host[{first_host}:{hosts}:{step}]", f"nic[{nic}]", "down"))
    if tiers == 2:
        instances.append({"name": "spine", "device": "switch", "count": h})
        for s in range(h):
            edges.append(_edge(f"leaf[0:{leaves}]", f"port[{h + s}]", f"spine[{s}]", f"port[0:{k}]", "up"))
    else:
        instances += [{"name": "agg", "device": "switch", "count": leaves},
                      {"name": "core", "device": "switch", "count": h * h}]
        for a in range(h):  # leaf (pod p, i) up port h+a <-> agg (p, a) down port i
            edges.append(_edge(f"leaf[0:{leaves}]", f"port[{h + a}]", f"agg[{a}:{leaves}:{h}]", f"port[0:{h}]", "up"))
        for p in range(k):  # agg (p, a) up port h+u <-> core a*h+u port p
            edges.append(_edge(f"agg[{p * h}:{(p + 1) * h}]", f"port[{h}:{k}]", f"core[0:{h * h}]", f"port[{p}]", "core"))
    links = [_link("down", gbps, ns), _link("up", up_gbps, up_ns), _link("core", up_gbps, up_ns)]
    return {"name": f"clos{tiers}_k{k}", "devices": devices, "links": links, "instances": instances, "edges": edges}


def clos(k: int, tiers: int = 3, **kw) -> Infrastructure:
    return _document(clos_dict(k, tiers, **kw))


def ring_direct(n: int = 8, gbps: float = 400.0, ns: float = 100.0) -> Infrastructure:
    """n NPUs in a direct-connect ring (multi-hop without switches: ns-3 must refuse it)."""
    return stack(f"RI({n})", [gbps], [ns], name=f"ring{n}")


# NIC i of a unit's 4 servers on leaf i of the unit (8 leaves per unit), every leaf on all 4 spines.
RAILS_IGL = '''
import std.devices.dgx as dgx
import std.devices.switch as switches

link eth { bandwidth = 400 Gbps; latency = 500 ns }

fabric rails {
    instance host[8]: dgx.dgx()
    instance leaf[16]: switches.switch(8, 400 Gbps)
    instance spine[4]: switches.switch(16, 400 Gbps)
    for g in 0..2 {
        for i in 0..8 {
            host[g * 4:(g + 1) * 4].nic[i].port[0] -- leaf[g * 8 + i].port[0:4] via eth
        }
    }
    for s in 0..4 {
        leaf.port[4 + s] -- spine[s].port[0:16] via eth
    }
    dims = "SW(8)_SW(8)"
}
'''


def rails(directory: Path) -> FQG:
    """The rail-optimized fabric above, compiled from a file in `directory`."""
    path = directory / "rails.igl"
    path.write_text(RAILS_IGL)
    return load_graph(str(path))
