"""SimGrid's cluster notations as blueprint shortcuts.

SimGrid describes a cluster's network with a topology name and a parameter string:
`FAT_TREE h;m_1,..,m_h;w_1,..,w_h;p_1,..,p_h` (a parallel generalized fat tree) and
`DRAGONFLY g,l;c,l;r,l;n` (groups, chassis, routers, hosts per router, each with its parallel link
count). Both map one to one onto a blueprint (std.fabrics.pgft, std.fabrics.simgrid_dragonfly);
this module only parses the notation into that blueprint's parameters. A notation comes either
as text (`FAT_TREE:2;4,4;1,2;1,2`, also usable as a source `simgrid:FAT_TREE:...`) or inside a
SimGrid platform XML `<cluster topology=... topo_parameters=... bw=... lat=... radical=...>`,
whose bandwidth and latency become the cable (SimGrid's units: a bare bandwidth is bytes/s, a bare
latency seconds) and whose host count must agree with the topology.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import Diagnostic, InfraGraphError, Location
from ..limits import Limits
from ..units import UnitError, parse_quantity, to_gbps, to_ns
from .xmlfile import parse_xml

SOURCE_PREFIX = "simgrid:"
BLUEPRINTS = {"FAT_TREE": "std.fabrics.pgft", "DRAGONFLY": "std.fabrics.simgrid_dragonfly"}


@dataclass(frozen=True)
class Shortcut:
    """A parsed notation: the blueprint it names and the blueprint's parameters (Python values)."""

    blueprint: str
    params: dict
    hosts: int
    nodes: int  # of the graph the blueprint builds (hosts and switches), multiplied out with Python ints
    edges: int

    def check_size(self, text: str, where: Location, limits: Limits) -> None:
        """Refuse a notation whose graph exceeds `limits`, naming the limit, before the blueprint runs
        (its loops would take minutes and gigabytes on a 30-digit count)."""
        for amount, limit, what in ((self.nodes, limits.max_nodes, "nodes"), (self.edges, limits.max_edges, "edges")):
            if amount > limit:
                raise _fail(f"{text} would build {_count(amount)} {what}, more than the limit of {limit:,} {what}",
                            where, "use smaller counts (the limit guards against a notation larger than intended)")


def _count(n: int) -> str:
    return f"{n:,}" if n < 10**15 else f"about {n:.3g}".replace("e+", "e")


def _product(values) -> int:
    out = 1
    for v in values:
        out *= v
    return out


def _fail(message: str, where: Location, hint: str | None = None) -> InfraGraphError:
    return InfraGraphError(Diagnostic(message, where, hint))


def _numbers(text: str, field: str, want: int | None, where: Location) -> list[int]:
    parts = text.split(",")
    if not all(re.fullmatch(r"\s*[0-9]+\s*", p) for p in parts):
        raise _fail(f"{field}: expected comma-separated positive integers, got '{text}'", where)
    values = [int(p) for p in parts]
    if want is not None and len(values) != want:
        raise _fail(f"{field}: expected {want} value{'s' if want != 1 else ''}, got {len(values)} ('{text}')", where)
    if any(v < 1 for v in values):
        raise _fail(f"{field}: every value must be at least 1, got '{text}'", where)
    return values


def parse_notation(topology: str, parameters: str, where: Location, limits: Limits = Limits()) -> Shortcut:
    """`FAT_TREE` / `DRAGONFLY` and SimGrid's parameter string -> the blueprint and its parameters;
    a graph larger than `limits` is refused here."""
    shortcut = _parse_notation(topology, parameters, where)
    shortcut.check_size(f"{topology} {parameters}", where, limits)
    return shortcut


def _parse_notation(topology: str, parameters: str, where: Location) -> Shortcut:
    fields = parameters.split(";")
    if topology == "FAT_TREE":
        if len(fields) != 4:
            raise _fail(f"FAT_TREE takes 4 ';'-separated fields (levels;down;up;parallel), got {len(fields)}: "
                        f"'{parameters}'", where, "example: FAT_TREE:2;4,4;1,2;1,2")
        levels = _numbers(fields[0], "levels", 1, where)[0]
        down, up, parallel = (_numbers(fields[i], name, levels, where)
                              for i, name in ((1, "down (children per switch)"), (2, "up (parents per node)"),
                                              (3, "parallel (links per parent)")))
        hosts = _product(down)
        # level l holds prod(up[:l]) * prod(down[l:]) nodes (l = 0: the hosts), each with up[l] * parallel[l] uplinks
        below = [_product(up[:l]) * _product(down[l:]) for l in range(levels + 1)]
        edges = sum(below[l] * up[l] * parallel[l] for l in range(levels))
        return Shortcut(BLUEPRINTS[topology], {"levels": levels, "down": down, "up": up, "parallel": parallel}, hosts,
                        sum(below), edges)
    if topology == "DRAGONFLY":
        if len(fields) != 4:
            raise _fail(f"DRAGONFLY takes 4 ';'-separated fields (groups,links;chassis,links;routers,links;nodes), "
                        f"got {len(fields)}: '{parameters}'", where, "example: DRAGONFLY:3,4;4,3;5,1;2")
        g, gl = _numbers(fields[0], "groups,links", 2, where)
        c, cl = _numbers(fields[1], "chassis,links", 2, where)
        r, rl = _numbers(fields[2], "routers,links", 2, where)
        n = _numbers(fields[3], "nodes per router", 1, where)[0]
        if g > c * r:
            raise _fail(f"DRAGONFLY: {g} groups but {c * r} routers per group; router j of group i links to group j, "
                        f"so groups may not exceed chassis x routers", where)
        params = {"groups": g, "group_links": gl, "chassis": c, "chassis_links": cl, "routers": r,
                  "router_links": rl, "nodes": n}
        routers = g * c * r
        edges = (routers * n + g * c * (r * (r - 1) // 2) * rl + g * (c * (c - 1) // 2) * r * cl
                 + (g * (g - 1) // 2) * gl)
        return Shortcut(BLUEPRINTS[topology], params, routers * n, routers * (n + 1), edges)
    raise _fail(f"unknown SimGrid cluster topology '{topology}'", where,
                f"expected one of: {', '.join(BLUEPRINTS)} (FLAT and TORUS clusters map to std.fabrics.single_switch "
                f"and std.fabrics.torus directly)")


def parse_shortcut(text: str, limits: Limits = Limits()) -> Shortcut:
    """`FAT_TREE:2;4,4;1,2;1,2` (the `simgrid:` prefix optional; a space may stand for the colon)."""
    body = text[len(SOURCE_PREFIX):] if text.startswith(SOURCE_PREFIX) else text
    m = re.fullmatch(r"\s*([A-Za-z_]+)\s*[:\s]\s*(\S.*?)\s*", body)
    if not m:
        raise _fail(f"expected TOPOLOGY:PARAMETERS, got '{text}'", Location(text),
                    "e.g. 'FAT_TREE:2;4,4;1,2;1,2' or 'DRAGONFLY:3,4;4,3;5,1;2'")
    return parse_notation(m.group(1), m.group(2), Location(text), limits)


def _quantity(text: str, bare_unit: str, convert, what: str, tree, element) -> float:
    """A SimGrid bandwidth or latency attribute in the graph's unit (a bare number is `bare_unit`)."""
    value = text.strip()
    if re.fullmatch(r"[0-9.eE+-]+", value):
        value += bare_unit
    try:
        out = convert(parse_quantity(value))
    except (UnitError, ValueError) as e:
        raise tree.error(element, f"{what} '{text}': {e}") from None
    if not (out == out and out not in (float("inf"), float("-inf"))) or out < 0 or (what == "bw" and out == 0):
        raise tree.error(element, f"{what} '{text}' must be a finite {'positive' if what == 'bw' else 'non-negative'} "
                                  f"quantity")
    return out


def _radical_count(text: str, tree, element) -> int:
    """Hosts named by a SimGrid radical such as `0-15` or `0-3,8-11`."""
    total = 0
    for part in text.split(","):
        m = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", part)
        if not m or (m.group(2) and int(m.group(2)) < int(m.group(1))):
            raise tree.error(element, f"radical '{text}': expected ranges like '0-15' or '0-3,8-11'")
        total += int(m.group(2)) - int(m.group(1)) + 1 if m.group(2) else 1
    return total


def read_platform(text: str, filename: str, limits: Limits = Limits()) -> tuple[Shortcut, str]:
    """The one FAT_TREE/DRAGONFLY `<cluster>` of a SimGrid platform file: its shortcut, and the
    .igl link its `bw`/`lat` describe (for the blueprint's `cable` parameter)."""
    tree = parse_xml(text, filename, root="platform")
    clusters = [e for e in tree.root.iter() if e.tag == "cluster"]
    if len(clusters) != 1:
        raise tree.error(tree.root, f"expected exactly one <cluster> in the platform, found {len(clusters)}",
                         "import each cluster from a file of its own")
    cluster = clusters[0]
    attrs = cluster.attrib
    missing = [k for k in ("topology", "topo_parameters", "bw", "lat", "radical") if k not in attrs]
    if attrs.get("topology", "FAT_TREE") in BLUEPRINTS and missing:
        raise tree.error(cluster, f"<cluster> lacks {', '.join(missing)}")
    if "topology" not in attrs:
        raise tree.error(cluster, "<cluster> lacks topology")
    shortcut = parse_notation(attrs["topology"], attrs["topo_parameters"], tree.at(cluster), limits)
    hosts = _radical_count(attrs["radical"], tree, cluster)
    if hosts != shortcut.hosts:
        raise tree.error(cluster, f"radical '{attrs['radical']}' names {hosts} hosts but {attrs['topology']} "
                                  f"{attrs['topo_parameters']} has {shortcut.hosts}")
    gbps = _quantity(attrs["bw"], "Bps", to_gbps, "bw", tree, cluster)
    ns = _quantity(attrs["lat"], "s", to_ns, "lat", tree, cluster)
    cable = f'link({gbps!r} Gbps, {ns!r} ns, "{attrs.get("id", "cluster")} link (bw {attrs["bw"]}, lat {attrs["lat"]})")'
    return shortcut, cable


def import_simgrid(source: str | Path, limits: Limits = Limits()):
    """A notation (`FAT_TREE:2;4,4;1,2;1,2`) or a SimGrid platform XML file -> its blueprint's document."""
    from .. import blueprints
    from .common import read_text

    text = str(source)
    if Path(text).suffix.lower() == ".xml" or Path(text).is_file():
        shortcut, cable = read_platform(read_text(source), text, limits)
        return blueprints.instantiate(shortcut.blueprint, **shortcut.params, cable=cable)
    shortcut = parse_shortcut(text, limits)
    return blueprints.instantiate(shortcut.blueprint, **shortcut.params)
