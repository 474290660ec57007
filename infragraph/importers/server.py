"""One server as an InfraGraph device, from what a topology dump says about it.

hwloc and NCCL dumps describe the same things — CPUs, GPUs, NICs, PCIe switches, NVLinks and
NVSwitches — so both importers fill a `Server` and this module turns it into a document with
the shape of std.devices.host: `cpu[i]`, `gpu[i]` (xpu), `pcie_switch[i]`, `nvswitch[i]` and
`nic[i]` as a composed NIC device (`asic`, `port[k]`, `pcie`), so the result can be passed as
`host_device` to std.fabrics.clos (which cables `nic[j].port[0]`). NICs whose port count or speed
differs from the most common kind go into `nic_1`, `nic_2`, ... (a management NIC, say).

Dumps state bandwidths but no latencies: internal links get the latencies std.devices.host uses
(PCIe 150 ns, NVLink and CPU interconnect 100 ns, NIC ASIC to port 0 ns), written into each link's
description and listed by `assumptions` so the CLI can say so.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..document.model import (Annotations, Bandwidth, Component, Device, Edge, Endpoint, Infrastructure, Instance,
                              Latency, Link, LinkAnnotation)

ASSUMED_LATENCY_NS = {"PCIe": 150.0, "NVLink": 100.0, "CPU interconnect": 100.0, "NIC ASIC to port": 0.0}

BUNDLE_ATTRIBUTE = "bundle"  # a link attribute: parallel edges over this link are lanes of one bundle (lint IG011)

End = tuple[str, int]  # ("cpu" | "gpu" | "pcie_switch" | "nvswitch" | "nic", index)


@dataclass
class Server:
    name: str
    cpus: int = 0
    gpus: int = 0
    pcie_switches: int = 0
    nvswitches: int = 0
    nics: list[tuple[int, float]] = field(default_factory=list)  # (ports, port speed in Gbit/s)
    links: list[tuple[End, End, float, str]] = field(default_factory=list)  # (a, b, Gbit/s, kind)
    notes: list[str] = field(default_factory=list)

    def add(self, kind: str) -> End:
        """A new component of `kind` (not a NIC); its end."""
        field_name = {"cpu": "cpus", "gpu": "gpus", "pcie_switch": "pcie_switches", "nvswitch": "nvswitches"}[kind]
        index = getattr(self, field_name)
        setattr(self, field_name, index + 1)
        return (kind, index)

    def add_nic(self, ports: int, gbps: float) -> End:
        self.nics.append((ports, gbps))
        return ("nic", len(self.nics) - 1)

    def assumptions(self) -> list[str]:
        kinds = {kind for *_, kind in self.links} | ({"NIC ASIC to port"} if self.nics else set())
        return [f"assumed {kind} latency {ASSUMED_LATENCY_NS[kind]:g} ns (the dump states none)"
                for kind in sorted(kinds)] + self.notes


def _gbps_name(gbps: float) -> str:
    return f"{gbps:.6g}".replace(".", "p") + "Gbps"


def to_document(server: Server, description: str) -> Infrastructure:
    """The server as a document: its NIC device(s), the server device, one instance of it."""
    classes = [cls for cls, _ in Counter(server.nics).most_common()]
    nic_component = {cls: "nic" if i == 0 else f"nic_{i}" for i, cls in enumerate(classes)}
    slot: list[str] = []
    seen: Counter = Counter()
    for cls in server.nics:
        slot.append(f"{nic_component[cls]}[{seen[cls]}]")
        seen[cls] += 1
    devices: list[Device] = []
    for (ports, gbps), comp in nic_component.items():
        members = {("nic", i) for i, c in enumerate(server.nics) if c == (ports, gbps)}
        pcie = max((g for a, b, g, kind in server.links if kind == "PCIe" and (a in members or b in members)),
                   default=gbps)
        lat = ASSUMED_LATENCY_NS["NIC ASIC to port"]
        devices.append(Device(comp, [Component("asic", 1, "nic"), Component("port", ports, "port"),
                                     Component("pcie", 1, "custom", custom_type="pcie_endpoint")],
                              [Link("asic_port", f"NIC ASIC to port (latency assumed {lat:g} ns)", Bandwidth(gbps),
                                    Latency(lat)),
                               Link("asic_pcie", "NIC host interface", Bandwidth(pcie), Latency(0.0))],
                              [Edge(Endpoint("asic"), Endpoint("port"), "asic_port", "many2many"),
                               Edge(Endpoint("asic"), Endpoint("pcie"), "asic_pcie")],
                              f"a NIC with {ports} port(s) of {gbps:g} Gbit/s"))
    components = [Component(name, n, choice, custom_type=custom) for name, n, choice, custom in (
        ("cpu", server.cpus, "cpu", None), ("gpu", server.gpus, "xpu", None),
        ("pcie_switch", server.pcie_switches, "custom", "pcie_switch"),
        ("nvswitch", server.nvswitches, "switch", None)) if n]
    components += [Component(comp, seen[cls], "device") for cls, comp in nic_component.items()]

    def endpoint(end: End) -> Endpoint:
        kind, i = end
        return Endpoint(slot[i] + ".pcie") if kind == "nic" else Endpoint(f"{kind}[{i}]")

    links: dict[tuple[float, str], Link] = {}
    edges = []
    for a, b, gbps, kind in server.links:
        lat = ASSUMED_LATENCY_NS[kind]
        link = links.setdefault((round(gbps, 9), kind), Link(
            f"{kind.replace(' ', '_')}_{_gbps_name(gbps)}", f"{kind} (latency assumed {lat:g} ns)",
            Bandwidth(round(gbps, 9)), Latency(lat)))
        edges.append(Edge(endpoint(a), endpoint(b), link.name))
    devices.append(Device(server.name, components, list(links.values()), edges, description))
    # Parallel NVLinks between two chips are one bundle (lint IG011 does not call them duplicates;
    # simulate sprays over them): BUNDLE_ATTRIBUTE on their link class.
    pairs = Counter((a, b, kind) for a, b, _, kind in server.links if kind == "NVLink")
    bundled = sorted({links[(round(g, 9), k)].name for a, b, g, k in server.links if pairs[(a, b, k)] > 1})
    return Infrastructure(name=server.name, description=description, devices=devices,
                          instances=[Instance(server.name, server.name, 1)],
                          annotations=Annotations(links=[LinkAnnotation(f"{server.name}.{n}", {BUNDLE_ATTRIBUTE: True})
                                                         for n in bundled]))


def pcie_gbps(gt_per_s: float, lanes: int) -> float:
    """PCIe payload bit rate of a link: line rate x lanes x encoding efficiency (8b/10b up to
    5 GT/s, 128b/130b for 8-32 GT/s, 242/256 FLIT for 64 GT/s)."""
    efficiency = 0.8 if gt_per_s <= 5.0 else 128 / 130 if gt_per_s <= 32.0 else 242 / 256
    return gt_per_s * lanes * efficiency
