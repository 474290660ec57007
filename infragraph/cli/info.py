"""`infragraph info FILE [--json [OUT]]`: what a fabric is made of, for its designer: nodes and edges
by type, link classes, per switch tier the boxes, ports used, down/up cables and their speeds and
the oversubscription, the bisection bandwidth, and a bill of materials (switches, cables and
transceivers per tier and speed). Bandwidth is per direction, in Gbit/s / Tbit/s."""

from __future__ import annotations

from .common import add_json_argument, add_source_arguments, emit, json_and_file, load_graph_with_progress, progress


def register(sub) -> None:
    p = sub.add_parser("info", help="what a fabric is made of: counts, link classes, tiers, oversubscription, "
                                    "bisection, bill of materials", description=__doc__)
    add_source_arguments(p, optional_file=True)
    add_json_argument(p, "the summary")
    p.add_argument("--no-bisection", action="store_true",
                   help="skip the bisection (a max-flow; the one part of info that is not a count)")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..graph.ranks import NPU_TYPE
    from ..graph.summary import format_summary, summary
    from ..output import check_output

    json_and_file(args, "info")
    if args.json not in (None, "-"):
        check_output(args.json, option="--json")
    g = load_graph_with_progress(args)
    s = summary(g)
    if not args.no_bisection and s["nodes_by_type"].get(NPU_TYPE, 0) >= 2:
        from ..analyze.bisection import bisection

        with progress(args).phase("bisection"):
            b = bisection(g)
            healthy = b.healthy()
        s["bisection"] = {"gbps": healthy.gbps, "per_npu_gbps": healthy.gbps / b.halves[0], "halves": list(b.halves),
                          "exact": healthy.exact}
    emit(args, s, format_summary(s))
    return 0
