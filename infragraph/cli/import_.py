"""`infragraph import SOURCE --from KIND -o OUT`: a fabric or server from another tool's format.

OUT ending in .igl gets readable .igl (a server device can then be imported and passed as
`host_device` to std.fabrics.clos); .yaml/.yml/.json get the public InfraGraph document.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

from ..errors import Diagnostic, InfraGraphError, Location
from ..output import check_output, write_text
from .common import add_quiet_argument, one_of

def register(sub) -> None:
    p = sub.add_parser("import", help="turn another tool's topology (ASTRA-sim, ns-3, hwloc, NCCL, GraphML, edge "
                                      "list, SimGrid) into .igl or a document",
                       description=__doc__)
    p.add_argument("file", metavar="SOURCE", help="the file to import (for --from simgrid also a notation such as "
                                                  "'FAT_TREE:2;4,4;1,2;1,2')")
    p.add_argument("--from", dest="source", required=True, type=one_of("infragraph.importers", "KINDS", "format"),
                   metavar="FORMAT", help="format of SOURCE: astra-analytical, ns3, hwloc, nccl, graphml, edgelist or "
                                          "simgrid")
    p.add_argument("-o", "--output", required=True, metavar="OUT", help="what to write: .igl, .yaml, .yml or .json")
    p.add_argument("--map", dest="mapping", metavar="FILE", help="graphml/edgelist: node kinds, bandwidth and latency "
                                                                   "mapping (YAML; see docs/import.md)")
    p.add_argument("--nic-speed", metavar="BANDWIDTH", help="hwloc: NIC port speed, e.g. '400 Gbps' (hwloc states none)")
    p.add_argument("--nvlink-bandwidth", metavar="BANDWIDTH",
                   help="nccl: one NVLink's rate per direction, e.g. '25 GB/s' (default: by the GPU's sm)")
    p.add_argument("--cpu-link", metavar="BANDWIDTH", help="nccl: CPU interconnect rate (default 64 GB/s)")
    add_quiet_argument(p)
    p.set_defaults(func=run)


def _bandwidth(option: str, text: str | None) -> float | None:
    """A bandwidth option in Gbit/s; anything but a finite positive bandwidth names the option."""
    if text is None:
        return None
    from ..units import UnitError, parse_quantity, to_gbps

    try:
        value = to_gbps(parse_quantity(text))
    except (UnitError, ValueError) as e:
        raise InfraGraphError(Diagnostic(f"{option} '{text}': {e}", Location(option),
                                         "a bandwidth with its unit, e.g. '400 Gbps' or '50 GB/s'")) from None
    if not math.isfinite(value) or value <= 0:
        raise InfraGraphError(Diagnostic(f"{option} '{text}' must be a finite positive bandwidth", Location(option)))
    return value


def run(args) -> int:
    from ..importers import ImportOptions, import_source

    suffix = Path(args.output).suffix.lower()
    check_output(args.output, (".igl", ".yaml", ".yml", ".json"), "-o")
    options = ImportOptions(mapping=args.mapping, nic_gbps=_bandwidth("--nic-speed", args.nic_speed),
                            nvlink_gbps=_bandwidth("--nvlink-bandwidth", args.nvlink_bandwidth),
                            cpu_link_gbps=_bandwidth("--cpu-link", args.cpu_link))
    doc, assumptions = import_source(args.source, args.file, options)
    if suffix == ".igl":
        from ..lang.decompile import decompile

        text, unsupported = decompile(doc)
        for item in unsupported:
            print(f"warning: {args.output}: {item}", file=sys.stderr)
        write_text(args.output, text)
    else:
        from ..document import io

        io.dump(doc, args.output)
    if not args.quiet:
        print(f"{args.output}: {len(doc.devices)} device(s), {sum(i.count for i in doc.instances)} instance(s), "
              f"{len(doc.edges)} edge record(s)", file=sys.stderr)
        for note in assumptions:
            print(f"note: {note}", file=sys.stderr)
    return 0
