"""`infragraph schedule validate|import|export`: custom collective schedules (docs/collectives.md).

    infragraph schedule validate ring.xml                       # our JSON or .igsched, MSCCL XML or MSCCL++ JSON
    infragraph schedule import program.xml -o schedule.json     # to our JSON (validated)
    infragraph schedule import schedule.json -o schedule.igsched  # to the binary schedule file, or back
    infragraph schedule export schedule.json --to msccl -o program.xml [--proto LL128]
    infragraph schedule export schedule.json --to chakra -o out/ring --size 1MiB [--local-mem-bw 50]

Run one with `infragraph simulate FABRIC --algorithm schedule:FILE`.
"""

from __future__ import annotations

import argparse

from .common import add_quiet_argument

QUIET = "no success message (the exit code says; errors and warnings still print)"


def register(sub) -> None:
    p = sub.add_parser("schedule", help="validate, import and export custom collective schedules (MSCCL, Chakra)",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    verbs = p.add_subparsers(dest="verb", metavar="VERB")
    verbs.required = True
    v = verbs.add_parser("validate", help="read a schedule (any format) and prove it implements its collective")
    v.add_argument("file")
    add_quiet_argument(v, QUIET)
    v.set_defaults(func=run_validate)
    i = verbs.add_parser("import", help="convert an MSCCL XML program, MSCCL++ plan or binary schedule file to our "
                                        "schedule JSON, or any of them to the binary file (-o ending in .igsched)")
    i.add_argument("file")
    i.add_argument("-o", "--output", required=True, help="the schedule JSON (or .igsched binary schedule file) to write")
    add_quiet_argument(i, QUIET)
    i.set_defaults(func=run_import)
    e = verbs.add_parser("export", help="write a schedule as an MSCCL XML program or ASTRA-sim's Chakra ETs")
    e.add_argument("file")
    e.add_argument("--to", required=True, choices=("msccl", "chakra"))
    e.add_argument("-o", "--output", required=True,
                   help="msccl: the XML file; chakra: a prefix, writing PREFIX.<rank>.et per rank")
    e.add_argument("--proto", default="Simple", choices=("Simple", "LL", "LL128"), help="msccl: NCCL protocol")
    e.add_argument("--name", help="msccl: the program's name (default: the schedule's)")
    e.add_argument("--size", help="chakra: per-NPU buffer (all-gather: shard), e.g. 1MiB; sets every message's bytes")
    e.add_argument("--local-mem-bw", default="1600",
                   help="chakra: GB/s (1e9 B/s) for the reduction nodes, 3 x floor(bytes / bandwidth) ns cut to whole "
                        "microseconds as the ET stores them (what --model astra charges a schedule), or 'none' "
                        "(default 1600)")
    add_quiet_argument(e, QUIET)
    e.set_defaults(func=run_export)


def _load(path: str, columns: bool = False):
    """The schedule of `path`, proven; every error located. `columns`: a binary schedule file's
    as columns (formats.load_any)."""
    from ..collectives.formats import load_any
    from ..collectives.schedule import ScheduleError, validate
    from ..errors import Diagnostic, InfraGraphError, Location

    schedule = load_any(path, columns)
    try:
        validate(schedule)
    except ScheduleError as exc:
        raise InfraGraphError(Diagnostic(f"the schedule does not implement its {schedule.collective}: {exc}",
                                         Location(path))) from None
    return schedule


def _summary(schedule) -> str:
    from ..collectives.schedule import ScheduleColumns

    if isinstance(schedule, ScheduleColumns):
        steps, transfers = schedule.steps, schedule.transfers
    else:
        steps, transfers = len(schedule.steps), sum(len(s) for s in schedule.steps)
    return (f"{schedule.collective} over {schedule.ranks} ranks, {schedule.chunks_per_rank} chunk(s) per rank, "
            f"{steps:,} steps, {transfers:,} transfers")


def run_validate(args) -> int:
    schedule = _load(args.file, columns=True)
    if not args.quiet:
        print(f"{args.file}: valid {_summary(schedule)}")
    return 0


def run_import(args) -> int:
    import json

    from ..collectives.schedule import Schedule, schedule_doc
    from ..collectives.schedule_file import SUFFIX, write_schedule_file
    from ..output import check_output, open_output

    check_output(args.output, option="-o")
    binary = args.output.endswith(SUFFIX)
    schedule = _load(args.file, columns=binary)
    with open_output(args.output, binary=binary, option="-o") as fh:
        if binary:
            write_schedule_file(fh, schedule.columns() if isinstance(schedule, Schedule) else schedule)
        else:
            json.dump(schedule_doc(schedule), fh, separators=(",", ":"))
            fh.write("\n")
    if not args.quiet:
        print(f"wrote {args.output}: {_summary(schedule)}")
    return 0


def run_export(args) -> int:
    import sys

    from .common import option_error
    from ..collectives.export_paths import dropped_paths
    from ..output import check_output, open_output

    schedule = _load(args.file)
    dropped = dropped_paths(schedule, args.to)
    if args.to == "msccl":
        from ..collectives.msccl import from_schedule, write_msccl

        check_output(args.output, option="-o")
        program = from_schedule(schedule, name=args.name, proto=args.proto)
        with open_output(args.output, option="-o") as fh:
            fh.write(write_msccl(program))
        blocks = max(len(g.tbs) for g in program.gpus)
        if not args.quiet:
            print(f"wrote {args.output}: MSCCL program '{program.name}' ({program.coll}, {program.proto}), "
                  f"{program.ngpus} GPUs, up to {blocks} thread blocks per GPU")
        if dropped:
            print(f"warning: {args.output}: {dropped}", file=sys.stderr)
        return 0
    from ..collectives.chakra_et import write_ets
    from ..units import UnitError, parse_size_bytes

    if args.size is None:
        raise option_error("--size", "--to chakra needs --size (the per-NPU buffer, e.g. 1MiB): ASTRA-sim takes "
                                     "every message's bytes from the ET")
    try:
        size = float(parse_size_bytes(args.size))
    except UnitError as exc:
        raise option_error("--size", f"bad --size '{args.size}': {exc}") from None
    from .simulate import _mem_bw

    paths = write_ets(schedule, args.output, size, _mem_bw(args.local_mem_bw))
    if not args.quiet:
        print(f"wrote {len(paths)} ETs {args.output}.<rank>.et; in ASTRA-sim's system JSON: "
              f"\"{schedule.collective}-implementation-custom\": [\"{args.output}\"]")
    if dropped:
        print(f"warning: {args.output}.<rank>.et: {dropped}", file=sys.stderr)
    return 0
