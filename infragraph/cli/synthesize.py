"""`infragraph synthesize FABRIC`: a topology-aware collective schedule for the actual fabric.

    infragraph synthesize fabric.igl --collective all-reduce --chunks 2 -o schedule.json
    infragraph synthesize std.fabrics.mesh -D 'sizes=[4,4]' --fail 'npu.0.port.0--npu.1.port.1' -o s.json
    infragraph simulate fabric.igl --algorithm schedule:schedule.json      # run it
    infragraph simulate fabric.igl --algorithm ring,synthesized            # against the textbook ones

Greedy link-chunk matching over the time-expanded network (docs/collectives.md, "Synthesize"):
heterogeneous links, switches (their ports are shared), failed and degraded links. Prints the
lower bound, the synthesizer's predicted time and the engine's time of the schedule.
"""

from __future__ import annotations

import argparse
import json
from contextlib import contextmanager

from ..units import UnitError, parse_size_bytes
from .common import (about_failures, add_failure_arguments, add_source_arguments, at_least, failure_option, one_of,
                     failure_spec, load_graph_with_progress, option_error, progress)

DEPENDENCIES = ("auto", "rank-steps", "chunks")
MODELS = ("fair", "aware", "unaware", "none")


def register(sub) -> None:
    p = sub.add_parser("synthesize", help="synthesize a topology-aware collective schedule for the fabric",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_source_arguments(p)
    p.add_argument("--collective", required=True, metavar="COLLECTIVE",
                   type=one_of("infragraph.collectives.columns", "COLLECTIVES", "collective"),
                   help="the collective to synthesize: all-gather, reduce-scatter or all-reduce")
    p.add_argument("--chunks", default="auto",
                   help="chunks per rank (more: closer to the bound, more transfers), or auto (default): the fastest "
                        "in the synthesizer's model of 1, 2, 4, 8 chunks (all-reduce: in 1 or 2 pieces, and where the NPUs' ports "
                        "differ also 16 chunks, each reduced where the ports suggest or at its rank) within 4 million "
                        "transfers")
    p.add_argument("--pieces", type=int, default=1,
                   help="all-reduce: split each chunk into P pieces whose reduce-scatter and all-gather pipeline "
                        "(default 1; 2 helps meshes in the synthesizer's model; the schedule has chunks x pieces "
                        "chunks per rank)")
    p.add_argument("--size", default="1GiB", help="per-NPU buffer the schedule is timed for (all-gather: each NPU's "
                                                  "shard), e.g. 64MiB (default 1GiB)")
    p.add_argument("--match-seed", type=int, default=0, metavar="N",
                   help="seed of the matching's random picks (default 0; --seed is --fail-random's)")
    p.add_argument("--model", default="fair", choices=MODELS,
                   help="engine model the schedule is also timed with (default fair; none: skip)")
    p.add_argument("--dependencies", default="auto", choices=DEPENDENCIES,
                   help="what a transfer waits for in the engine: rank-steps, chunks, or auto (both run, the faster "
                        "is written; default)")
    p.add_argument("-o", "--output", required=True, metavar="OUT",
                   help="the schedule to write: JSON, or the binary schedule file when OUT ends in .igsched (any "
                        "size; JSON takes at most 8 million transfers)")
    add_failure_arguments(p)
    p.set_defaults(func=run)


def _size(text: str) -> float:
    try:
        value = parse_size_bytes(text)
    except UnitError as e:
        raise option_error("--size", f"bad --size '{text}': {e}") from None
    if value <= 0:
        raise option_error("--size", f"bad --size '{text}'; expected a size > 0, e.g. 1GiB")
    return float(value)


def chunks_option(text: str, option: str = "--chunks") -> int | None:
    """--chunks: a whole number >= 1, or auto (None)."""
    if text.strip() == "auto":
        return None
    try:
        value = int(text)
    except ValueError:
        raise option_error(option, f"bad {option} '{text}'; expected a whole number ≥ 1 or auto") from None
    return at_least(value, option, 1)


# The largest schedule written as JSON (~40 B of text and ~250 B of Python objects per transfer
# while it is written); larger ones go to the binary schedule file (.igsched).
JSON_MAX_TRANSFERS = 8_000_000


def run(args) -> int:
    from ..collectives.schedule import validate
    from ..collectives.schedule_file import SUFFIX, write_schedule_file
    from ..collectives.synthesize import MAX_TRANSFERS, engine_time, max_chunks_per_rank, synthesize, synthesize_best
    from ..graph.ranks import npu_order
    from ..graph.failures import with_failures
    from ..output import check_output, open_output

    chunks = chunks_option(args.chunks)
    pieces = at_least(args.pieces, "--pieces", 1)
    size = _size(args.size)
    at_least(args.match_seed, "--match-seed", 0)
    spec = failure_spec(args)
    check_output(args.output, option="-o")
    g = load_graph_with_progress(args)
    with about_failures(args):
        failed = with_failures(g, spec)[0]
    n = int(npu_order(failed).size)
    if chunks is not None and chunks > max_chunks_per_rank(n, args.collective, pieces):
        raise option_error("--chunks", f"bad --chunks {chunks}: on {n:,} NPUs at most "
                                       f"{max_chunks_per_rank(n, args.collective, pieces):,} chunks per rank"
                                       f"{f' x {pieces} pieces' if pieces > 1 else ''} fit the synthesizer's "
                                       f"{MAX_TRANSFERS:,} transfers")
    with progress(args).phase("synthesizing"), _split_by_failures(args):
        if chunks is None:
            s = synthesize_best(failed, args.collective, size, seed=args.match_seed)
        else:
            s = synthesize(failed, args.collective, chunks, size, seed=args.match_seed, pieces=pieces)
    binary = args.output.endswith(SUFFIX)
    if not binary and s.cols.transfers > JSON_MAX_TRANSFERS:
        raise option_error("-o", f"{s.cols.transfers:,} transfers are too many for a JSON schedule (at most "
                                 f"{JSON_MAX_TRANSFERS:,}); name the output *{SUFFIX} to write the binary schedule file")
    with progress(args).phase("proving the schedule"):
        validate(s.cols)  # proven before it is written
    engine = None
    if args.model != "none":
        with progress(args).phase(f"timing it in the engine ({args.model})"):
            engine = engine_time(failed, s, args.model, args.dependencies)
    mode = engine["dependencies"] if engine else ("rank-steps" if args.dependencies == "auto" else args.dependencies)
    with progress(args).phase("writing the schedule"):
        with open_output(args.output, binary=binary, option="-o") as fh:
            if binary:
                write_schedule_file(fh, s.columns(mode, engine))
            else:
                json.dump(s.document(mode, engine), fh, separators=(",", ":"))
                fh.write("\n")
    print(format_summary(s, engine))
    print(f"wrote {args.output}")
    return 0


@contextmanager
def _split_by_failures(args):
    """A fabric split by --fail / --fail-random is an error of that option (it said `<input>: error`),
    naming what was given and what is expected."""
    from ..collectives.matching import SplitFabricError

    try:
        yield
    except SplitFabricError as exc:
        if not (args.fail or args.fail_random is not None):
            raise
        option = failure_option(args)
        given = " ".join([*(f"--fail '{f}'" for f in args.fail),
                          *([f"--fail-random {args.fail_random}"] if args.fail_random is not None else [])])
        raise option_error(option, f"{given}: {exc.diagnostics[0].message}; expected failures that leave every NPU "
                                   "able to reach every other", hint=exc.diagnostics[0].hint) from None


def format_summary(s, engine: dict | None) -> str:
    """What was synthesized, the bound, and the times (ms) with their share of the bound."""
    bound = s.bound.time_ns

    def line(label: str, t: float) -> str:
        return f"  {label:<28}{t / 1e6:10.3f} ms  ({bound / t * 100:5.1f} % of the bound)"

    lines = [f"synthesized {s.collective} on {s.ranks} NPUs ({s.logical_links:,} NPU-to-NPU links), "
             f"{s.chunks_per_rank} chunk(s) per rank of {s.chunk_bytes:,.0f} B: {s.cols.transfers:,} transfers in "
             f"{s.cols.steps:,} steps",
             f"  {'lower bound':<28}{bound / 1e6:10.3f} ms  ({s.bound.reason})",
             line("synthesizer's model", s.time_ns)]
    if engine:
        lines.append(line(f"engine ({engine['model']}, {engine['dependencies']})", engine["time_ns"])
                     + f"  [as simulate: {engine['endpoint_delay_ns']:g} ns endpoint delay, reductions at "
                       f"{engine['local_mem_bw_gb_per_s']:g} GB/s]")
    return "\n".join(lines)
