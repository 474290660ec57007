"""hwloc topology XML (`lstopo --of xml`, hwloc 2.x) -> one server device.

What is read: each `Package` is a CPU; PCI devices come from the I/O tree (`Bridge`, `PCIDev`,
`OSDev` objects): class 03xx is a GPU, 02xx a NIC, an object of subtype `NVSwitch` (or NVIDIA class
0680) an NVSwitch. Each device's `pci_link_speed` (GB/s, as hwloc reports it) is the bandwidth of
its link upward. PCIe switches show up in hwloc as an upstream bridge whose children are
downstream bridges: such a bridge (two or more bridge children) becomes one `pcie_switch` and its
downstream ports are folded into it; a bridge with a single child (a root port, a one-port switch)
is a wire and is folded away, its speed capping the links below it. I/O that no `Package` contains hangs off CPU 0 (said in the notes).
NVLinks come from the `NVLinkBandwidth` distances matrix (`distances2` / `distances2hetero`,
objects by `gp_index`, values in MB/s): every nonzero off-diagonal pair is one link of that total
bandwidth. hwloc states no NIC port speed, so `nic_gbps` must be given when there are NICs.
"""

from __future__ import annotations

import math

from .common import name_from_path

# Above this an NVLinkBandwidth value is not a link but a typo or a hostile file: 10 TB/s between two
# objects is more than five times NVLink 5's 1.8 TB/s per GPU (hwloc's MB/s are 1e6 bytes/s).
MAX_NVLINK_MB_PER_S = 10_000_000
from .server import End, Server
from .xmlfile import XmlTree, parse_xml


def _link_gbps(tree: XmlTree, obj) -> float:
    text = obj.get("pci_link_speed")
    try:
        value = float(text)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise tree.error(obj, f"{obj.get('type')} {obj.get('pci_busid', '')}: pci_link_speed=\"{text or ''}\" is not "
                              f"a number (GB/s)") from None
    if not math.isfinite(value) or value <= 0:
        raise tree.error(obj, f"{obj.get('type')} {obj.get('pci_busid', '')}: pci_link_speed {text} must be a finite "
                              f"positive number (GB/s)")
    return value * 8.0


def _children(obj, type_name: str | None = None) -> list:
    return [c for c in obj if c.tag == "object" and (type_name is None or c.get("type") == type_name)]


def _pci_class(obj) -> str:
    return (obj.get("pci_type") or "")[:4].lower()


def read_hwloc(text: str, filename: str, nic_gbps: float | None = None) -> Server:
    tree = parse_xml(text, filename, root="topology")
    server = Server(name_from_path(filename))
    by_gp: dict[str, End] = {}
    packages = [o for o in tree.root.iter("object") if o.get("type") == "Package"]
    cpu_of = {id(p): server.add("cpu") for p in packages} if packages else {}
    if not packages:
        server.add("cpu")
        server.notes.append("assumed one CPU (no Package in the XML)")

    def endpoint(obj, parent: End, cap: float) -> None:
        cls = _pci_class(obj)
        if obj.get("subtype") == "NVSwitch" or (cls == "0680" and "[10de:" in (obj.get("pci_type") or "")):
            by_gp[obj.get("gp_index", "")] = server.add("nvswitch")
            return
        if cls.startswith("03"):
            end = server.add("gpu")
        elif cls.startswith("02"):
            if nic_gbps is None:
                raise tree.error(obj, f"NIC {obj.get('pci_busid')}: hwloc states no port speed",
                                 "give it with --nic-speed (e.g. '400 Gbps')")
            osdevs = _children(obj, "OSDev")
            fabric = [o for o in osdevs if o.get("osdev_type") == "3"] or [o for o in osdevs if o.get("osdev_type") == "2"]
            end = server.add_nic(max(1, len(fabric)), nic_gbps)
        else:
            server.notes.append(f"skipped PCI device {obj.get('pci_busid')} (class {cls or '?'})")
            return
        server.links.append((parent, end, min(cap, _link_gbps(tree, obj)), "PCIe"))
        by_gp[obj.get("gp_index", "")] = end

    def attach(obj, parent: End, in_package: bool, cap: float) -> None:
        """Devices below `obj` hang off `parent`; `cap` is the slowest folded bridge above them."""
        for child in _children(obj):
            kind = child.get("type")
            if kind == "Bridge" and (child.get("bridge_type") or "").startswith("0"):
                if packages and not in_package:
                    server.notes.append(f"host bridge {child.get('gp_index')} lies outside every Package: its "
                                        f"devices are attached to CPU 0")
                attach(child, parent, in_package, cap)  # a host bridge: its devices hang off the CPU
            elif kind == "Bridge":
                downstream = _children(child, "Bridge")
                speed = min(cap, _link_gbps(tree, child))
                if len(downstream) >= 2:
                    switch = server.add("pcie_switch")
                    server.links.append((parent, switch, speed, "PCIe"))
                    for port in downstream:
                        attach(port, switch, in_package, math.inf)
                    for other in _children(child):
                        if other.get("type") != "Bridge":
                            endpoint(other, switch, math.inf)
                else:
                    attach(child, parent, in_package, speed)  # a root port or a one-port bridge: a wire
            elif kind == "PCIDev":
                endpoint(child, parent, cap)
            elif kind == "Package":
                attach(child, cpu_of[id(child)], True, cap)
            elif child.get("subtype") == "NVSwitch":
                endpoint(child, parent, cap)
            elif kind != "OSDev":
                attach(child, parent, in_package, cap)

    if not _children(tree.root):
        raise tree.error(tree.root, "no <object> in the topology")
    objects = [o for o in tree.root.iter("object")]
    tree.require_unique(objects, "pci_busid", "pci_busid")
    tree.require_unique(objects, "gp_index", "gp_index")
    attach(tree.root, ("cpu", 0), False, math.inf)
    for i in range(1, server.cpus):
        server.links.append((("cpu", 0), ("cpu", i), 512.0, "CPU interconnect"))
    if server.cpus > 1:
        server.notes.append("assumed CPU interconnect 512 Gbit/s = 64 GB/s per direction (the XML states none)")
    _nvlinks(tree, server, by_gp)
    return server


def _nvlinks(tree: XmlTree, server: Server, by_gp: dict[str, End]) -> None:
    for dist in tree.root.iter():
        if dist.tag not in ("distances2", "distances2hetero") or dist.get("name") != "NVLinkBandwidth":
            continue
        indexes = next((c for c in dist if c.tag == "indexes"), None)
        values = next((c for c in dist if c.tag == "u64values"), None)
        if indexes is None or values is None:
            raise tree.error(dist, "NVLinkBandwidth distances need <indexes> and <u64values>")
        words = (indexes.text or "").split()
        gp = words[1::2] if dist.tag == "distances2hetero" else words
        try:
            matrix = [int(v) for v in (values.text or "").split()]
        except ValueError:
            raise tree.error(values, "u64values must be integers (MB/s)") from None
        n = len(gp)
        if len(matrix) != n * n:
            raise tree.error(values, f"{len(matrix)} values for {n} objects: expected {n * n}")
        # the diagonal (an object to itself) is not a link and is only required to be non-negative
        bad = next(((k, v) for k, v in enumerate(matrix) if v < 0 or (k // n != k % n and v > MAX_NVLINK_MB_PER_S)),
                   None)
        if bad is not None:
            raise tree.error(values, f"NVLinkBandwidth value {bad[1]} MB/s (row {bad[0] // n + 1}, column "
                                     f"{bad[0] % n + 1}) is out of range: expected 0 (no link) to "
                                     f"{MAX_NVLINK_MB_PER_S:,} MB/s")
        missing = [g for g in gp if g not in by_gp]
        if missing:
            raise tree.error(indexes, f"NVLinkBandwidth names objects {missing} (gp_index) that are not GPUs or "
                                      f"NVSwitches of this topology")
        for i in range(n):
            for j in range(i + 1, n):
                mbps = max(matrix[i * n + j], matrix[j * n + i])
                if mbps > 0:
                    server.links.append((by_gp[gp[i]], by_gp[gp[j]], mbps * 8 / 1000.0, "NVLink"))

