"""Importers: fabrics and servers users already have, as InfraGraph documents.

| kind | input | result |
|---|---|---|
| astra-analytical | ASTRA-sim analytical network YAML | NPUs and switches per dimension |
| ns3 | ASTRA-sim ns-3 topology file | NPUs, switches, one cable per line |
| hwloc | `lstopo` XML (hwloc 2.x) | one server device (needs --nic-speed when it has NICs) |
| nccl | NCCL topology XML | one server device |
| graphml | GraphML (Topology Zoo, networkx, ours) | the fabric, kinds and units by a mapping |
| edgelist | `SRC DST [key=value ...]` lines | likewise |
| simgrid | `FAT_TREE:...` / `DRAGONFLY:...` or a SimGrid platform XML | std.fabrics.pgft / simgrid_dragonfly |

`import_source` is the one entry point (the CLI's `infragraph import` calls it); each returns the
document and the assumptions the importer had to make, which the caller must show the user.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..document.model import Infrastructure
from ..errors import Diagnostic, InfraGraphError, Location

KINDS = ("astra-analytical", "ns3", "hwloc", "nccl", "graphml", "edgelist", "simgrid")
# Which options each kind reads: an option given to a kind that ignores it is an error, not a no-op.
OPTIONS = {"graphml": {"mapping"}, "edgelist": {"mapping"}, "hwloc": {"nic_gbps"},
           "nccl": {"nvlink_gbps", "cpu_link_gbps"}}
# The command-line option of each ImportOptions field, for messages.
FLAGS = {"mapping": "--map", "nic_gbps": "--nic-speed", "nvlink_gbps": "--nvlink-bandwidth", "cpu_link_gbps": "--cpu-link"}


@dataclass(frozen=True)
class ImportOptions:
    mapping: str | None = None  # graphml/edgelist: the mapping file
    nic_gbps: float | None = None  # hwloc: NIC port speed, Gbit/s
    nvlink_gbps: float | None = None  # nccl: one NVLink's rate, Gbit/s (else by GPU generation)
    cpu_link_gbps: float | None = None  # nccl: CPU interconnect, Gbit/s (else 512)

    def given(self) -> set[str]:
        return {k for k, v in self.__dict__.items() if v is not None}


def import_source(kind: str, source: str | Path, options: ImportOptions = ImportOptions()) \
        -> tuple[Infrastructure, list[str]]:
    """The document for `source` read as `kind`, and the importer's stated assumptions."""
    if kind not in KINDS:
        raise InfraGraphError(Diagnostic(f"unknown import format '{kind}'", Location(str(source)),
                                         f"expected one of: {', '.join(KINDS)}"))
    stray = sorted(FLAGS[k] for k in options.given() - OPTIONS.get(kind, set()))
    if stray:
        readers = {FLAGS[f]: [k for k, fields in OPTIONS.items() if f in fields] for f in options.given()}
        raise InfraGraphError(Diagnostic(
            f"{', '.join(stray)} do{'es' if len(stray) == 1 else ''} not apply to --from {kind} (reading {source})",
            Location(path="/".join(stray)),
            "; ".join(f"{flag} is read by --from {' and '.join(readers[flag])}" for flag in stray)))
    if kind == "astra-analytical":
        from .astra_analytical import import_astra_analytical

        return import_astra_analytical(source), []
    if kind == "ns3":
        from .ns3 import import_ns3

        return import_ns3(source), []
    if kind in ("graphml", "edgelist"):
        from . import fabric_graph

        reader = fabric_graph.import_graphml if kind == "graphml" else fabric_graph.import_edge_list
        return reader(source, options.mapping), []
    if kind == "simgrid":
        from .simgrid import import_simgrid

        return import_simgrid(source), []
    from .common import read_text
    from .server import to_document

    if kind == "hwloc":
        from .hwloc import read_hwloc

        server = read_hwloc(read_text(source), str(source), options.nic_gbps)
    else:
        from .nccl import read_nccl

        server = read_nccl(read_text(source), str(source), options.nvlink_gbps,
                           512.0 if options.cpu_link_gbps is None else options.cpu_link_gbps)
    if not server.gpus and not server.nics:
        raise InfraGraphError(Diagnostic("the topology has no GPU and no NIC: nothing for a fabric to use",
                                         Location(str(source))))
    return to_document(server, f"imported from {kind} topology {source}"), server.assumptions()
