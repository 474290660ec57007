"""Pieces of public-format InfraGraph documents (as dicts) shared by the test graph generators."""

from __future__ import annotations


def link(name: str, gbps: float | None = None, ns: float | None = None) -> dict:
    """A link; bandwidth in Gbit/s and latency in ns, each omitted when None."""
    out: dict = {"name": name}
    phys = {}
    if gbps is not None:
        phys["bandwidth"] = {"choice": "gigabits_per_second", "gigabits_per_second": gbps}
    if ns is not None:
        phys["latency"] = {"choice": "ns", "ns": ns}
    if phys:
        out["physical"] = phys
    return out


def edge(i1: str, c1: str, i2: str, c2: str, link: str, scheme: str = "one2one") -> dict:
    """An infrastructure edge between `i1`.`c1` and `i2`.`c2`."""
    return {"ep1": {"instance": i1, "component": c1}, "ep2": {"instance": i2, "component": c2},
            "scheme": scheme, "link": link}


def switch_device(name: str, ports: int, gbps: float | None = None, ns: float | None = None) -> dict:
    """A switch: one ASIC joined to `ports` ports by an internal `fabric` link."""
    return {"name": name,
            "components": [{"name": "asic", "choice": "switch", "count": 1},
                           {"name": "port", "choice": "port", "count": ports}],
            "links": [link("fabric", gbps, ns)],
            "edges": [{"ep1": {"component": "asic"}, "ep2": {"component": "port"},
                       "scheme": "many2many", "link": "fabric"}]}
