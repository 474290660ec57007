"""NCCL topology XML (what NCCL_TOPO_FILE reads and NCCL_TOPO_DUMP_FILE writes) -> one server device.

The dump nests `<pci>` devices under `<cpu>` elements: a PCI bridge (class 0x0604xx) is a PCIe
switch, a `<pci>` holding `<gpu>` a GPU, one holding `<nic>` a NIC whose `<net>` children are its
ports (`speed` in Mbit/s). A PCIe link's rate is `link_speed` (GT/s) x `link_width` lanes after
line encoding. `<nvlink target=BUSID count=N>` under a GPU is N NVLinks to another GPU or, with
tclass 0x068000, to an NVSwitch (one `nvswitch` per target bus id). The dump gives no per-link
NVLink rate; it depends on the GPU generation (`sm`), so the physical per-direction rate of one
link is taken from NVIDIA's published figures below (NCCL's own model uses lower, effective
values) unless `nvlink_gbps` is given. Two or more CPUs are joined by a CPU interconnect whose
rate the dump does not state either: `cpu_link_gbps` (default 512 Gbit/s = 64 GB/s), reported as
an assumption.
"""

from __future__ import annotations

import math
import re

from .common import name_from_path
from .server import Server, pcie_gbps
from .xmlfile import XmlTree, parse_xml

# GB/s per direction of one NVLink, by SM major.minor (NVLink 1 on P100 ... NVLink 5 on B200).
NVLINK_GBYTES_PER_S = {60: 20.0, 70: 25.0, 80: 25.0, 86: 14.0625, 90: 25.0, 100: 50.0}
NVSWITCH_CLASS = "0x068000"
# NVLinks one <nvlink> element may state: B200 has 18 per GPU in all; a count far above is a corrupt file
# (and would build that many links).
MAX_NVLINKS_PER_TARGET = 64


def _number(tree: XmlTree, element, attribute: str, what: str, positive: bool = True) -> float:
    text = element.get(attribute)
    try:
        value = float(re.match(r"\s*([0-9.eE+-]+)", text or "").group(1))  # type: ignore[union-attr]
    except (AttributeError, ValueError):
        raise tree.error(element, f"<{element.tag}> {attribute}=\"{text or ''}\": expected {what}") from None
    if not math.isfinite(value) or value < 0 or (positive and value == 0):
        raise tree.error(element, f"<{element.tag}> {attribute}=\"{text}\": {what} must be finite and "
                                  f"{'positive' if positive else 'non-negative'}")
    return value


def _pcie(tree: XmlTree, pci) -> float:
    return pcie_gbps(_number(tree, pci, "link_speed", "a PCIe rate such as '16.0 GT/s PCIe'"),
                     int(_number(tree, pci, "link_width", "a lane count such as '16'")))


def read_nccl(text: str, filename: str, nvlink_gbps: float | None = None, cpu_link_gbps: float = 512.0) -> Server:
    tree = parse_xml(text, filename, root="system")
    server = Server(name_from_path(filename))
    gpu_by_bus: dict[str, tuple[tuple[str, int], object]] = {}
    nvswitch_by_bus: dict[str, tuple[str, int]] = {}

    def walk(element, parent) -> None:
        for pci in element:
            if pci.tag == "nic":  # a NIC straight under a CPU: no PCIe link to take a rate from
                raise tree.error(pci, "<nic> outside a <pci> device: the dump states no link rate for it")
            if pci.tag != "pci":
                continue
            cls = (pci.get("class") or "").lower()
            gpu = next((c for c in pci if c.tag == "gpu"), None)
            nic = next((c for c in pci if c.tag == "nic"), None)
            if cls.startswith("0x0604"):
                end = server.add("pcie_switch")
                server.links.append((parent, end, _pcie(tree, pci), "PCIe"))
                walk(pci, end)
            elif gpu is not None:
                end = server.add("gpu")
                server.links.append((parent, end, _pcie(tree, pci), "PCIe"))
                gpu_by_bus[(pci.get("busid") or "").lower()] = (end, gpu)
            elif nic is not None:
                nets = [n for n in nic if n.tag == "net"]
                if not nets:
                    raise tree.error(nic, "<nic> without <net> ports")
                speeds = {_number(tree, n, "speed", "a port speed in Mbit/s") for n in nets}
                if len(speeds) > 1:
                    raise tree.error(nic, f"the ports of one NIC have different speeds: {sorted(speeds)} Mbit/s")
                end = server.add_nic(len(nets), speeds.pop() / 1000.0)
                server.links.append((parent, end, _pcie(tree, pci), "PCIe"))
            elif cls == NVSWITCH_CLASS:
                nvswitch_by_bus[(pci.get("busid") or "").lower()] = server.add("nvswitch")
            else:
                server.notes.append(f"skipped PCI device {pci.get('busid')} (class {cls or '?'}): not a GPU, NIC "
                                    f"or switch")

    cpus = [c for c in tree.root if c.tag == "cpu"]
    if not cpus:
        raise tree.error(tree.root, "no <cpu> in the topology")
    tree.require_unique((e for e in tree.root.iter() if e.tag == "pci"), "busid", "PCI busid")
    tree.require_unique((e for e in tree.root.iter() if e.tag == "gpu"), "dev", "GPU dev")
    for cpu in cpus:
        walk(cpu, server.add("cpu"))
    for i in range(1, len(cpus)):
        server.links.append((("cpu", 0), ("cpu", i), cpu_link_gbps, "CPU interconnect"))
    if len(cpus) > 1:
        server.notes.append(f"assumed CPU interconnect {cpu_link_gbps:g} Gbit/s per direction (the dump states none)")
    _nvlinks(tree, server, gpu_by_bus, nvswitch_by_bus, nvlink_gbps)
    return server


def _nvlinks(tree: XmlTree, server: Server, gpus: dict, nvswitches: dict, nvlink_gbps: float | None) -> None:
    counts: dict[tuple, int] = {}
    for bus, (end, gpu) in gpus.items():
        links = [n for n in gpu if n.tag == "nvlink"]
        if not links:
            continue
        if nvlink_gbps is None:
            sm = int(_number(tree, gpu, "sm", "the GPU's SM version (e.g. 80)"))
            if sm not in NVLINK_GBYTES_PER_S:
                raise tree.error(gpu, f"no NVLink rate known for sm {sm}",
                                 f"give the per-link rate (--nvlink-bandwidth); known: {sorted(NVLINK_GBYTES_PER_S)}")
            rate = NVLINK_GBYTES_PER_S[sm] * 8
        else:
            rate = nvlink_gbps
        for link in links:
            target = (link.get("target") or "").lower()
            count = _number(tree, link, "count", "a link count")
            if count != int(count) or count > MAX_NVLINKS_PER_TARGET:
                raise tree.error(link, f"<nvlink> count=\"{link.get('count')}\": expected a whole number of links "
                                       f"from 1 to {MAX_NVLINKS_PER_TARGET}")
            count = int(count)
            if (link.get("tclass") or "").lower() == NVSWITCH_CLASS or target in nvswitches:
                if target not in nvswitches:
                    nvswitches[target] = server.add("nvswitch")
                server.links += [(end, nvswitches[target], rate, "NVLink")] * count
            elif target in gpus:
                pair = tuple(sorted((end, gpus[target][0])))
                if pair in counts and counts[pair] != count:
                    raise tree.error(link, f"GPU {bus} lists {count} NVLinks to {target}, which lists {counts[pair]} back")
                if pair not in counts:
                    counts[pair] = count
                    server.links += [(pair[0], pair[1], rate, "NVLink")] * count
            else:
                raise tree.error(link, f"NVLink target {target or '(none)'} is neither a GPU nor an NVSwitch of this "
                                       f"topology")

