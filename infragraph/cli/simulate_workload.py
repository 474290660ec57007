"""`infragraph simulate FABRIC --workload PREFIX|FILE.txt`: replay a training step (docs/workloads.md).

    infragraph simulate fabric.igl --workload traces/step --comm-group traces/step.json --model astra
    infragraph simulate fabric.igl --workload tutorial.txt --chunks 4 --scheduling lifo --model astra
    infragraph simulate fabric.igl --workload step --roofline --peak-perf 989 --json r.json \\
        --trace r.trace.json --breakdown r.png

The collective options of `infragraph simulate` (--model, --algorithm, --chunks, ...) apply to
every collective of the workload; --collective, --size, --group and --root do not (the trace says).
"""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path
from typing import Callable

from ..output import check_output, write_json
from .common import emit, load_graph_with_progress, option_error, progress


def add_arguments(p) -> None:
    w = p.add_argument_group("workload replay (docs/workloads.md)")
    w.add_argument("--workload", metavar="PREFIX|FILE.txt",
                   help="replay a workload instead of one collective: a Chakra ET set (PREFIX.<rank>.et for every "
                        "NPU) or an ASTRA-sim text workload (.txt, converted by Chakra's converter)")
    w.add_argument("--comm-group", metavar="JSON", help="the ET set's communicator groups ({\"1\": [0, 1], ...})")
    w.add_argument("--passes", type=int, default=None, help="text workload: training passes (default 1)")
    w.add_argument("--text-update-times", action="store_true",
                   help="text workload (one-layer MICRO): wait the line's update time (ns) after the collective, as "
                        "ASTRA-sim's pre-Chakra workload layer did (the ASPLOS 2023 tutorial's 45,681 ns); Chakra's "
                        "converter and ASTRA-sim 518bd51 drop it")
    w.add_argument("--roofline", action="store_true",
                   help="time GPU compute nodes by roofline from num_ops/tensor_size (ASTRA-sim's roofline-enabled)")
    w.add_argument("--peak-perf", default=None, metavar="TFLOPS",
                   help="roofline peak compute in TFLOP/s (1e12 FLOP/s; default 900, ASTRA-sim's example)")
    w.add_argument("--remote-mem-bw", default=None, metavar="GB/s",
                   help="memory load/store nodes: remote memory bandwidth in GB/s (1e9 B/s)")
    w.add_argument("--remote-mem-latency", default=None, metavar="NS",
                   help="memory load/store latency in ns (default 0)")
    w.add_argument("--network", choices=("shared", "alone"), default=None,
                   help="the contention-aware models (fair, aware, astra-aware): collectives and messages in flight "
                        "at once share one network (shared, the default), or each is timed alone on the fabric, "
                        "as --model astra always is (alone: no contention between concurrent collectives)")
    w.add_argument("--breakdown", metavar="PNG", help="write the per-NPU time breakdown as a picture")
    w.add_argument("--trace-ranks", metavar="RANKS",
                   help="--trace: only these NPUs, e.g. 0-7 or 0,128,256 (default every NPU; a large step's "
                        "full trace runs to gigabytes)")


def _positive(text: str | None, option: str) -> float | None:
    if text is None:
        return None
    try:
        v = float(text)
    except ValueError:
        v = math.nan
    if not math.isfinite(v) or v <= 0:
        raise option_error(option, f"bad {option} '{text}'; expected a finite number > 0")
    return v


WORKLOAD_ONLY = ("comm_group", "passes", "text_update_times", "roofline", "peak_perf", "remote_mem_bw",
                 "remote_mem_latency", "network", "breakdown", "trace_ranks")


def refuse_without_workload(args) -> None:
    """The workload replay's options name what a replay does; without --workload they were ignored
    in silence (`--breakdown b.png` wrote no picture)."""
    for name in WORKLOAD_ONLY:
        if getattr(args, name) not in (None, False):
            option = "--" + name.replace("_", "-")
            raise option_error(option, f"{option} is for a workload replay; give --workload PREFIX or FILE.txt, "
                                       "or drop it")


def _not_for_workload(args, given: list[str]) -> None:
    """--collective, --size, --root (given at all, even at their default) and --group are refused."""
    for option in given + (["--group"] if args.group else []):
        raise option_error(option, f"{option} does not apply to --workload: the trace names each node's "
                                   "collective, size and group")


def run_workload(args, sim_options, given: list[str], check_options: Callable[[int], None]) -> int:
    """`simulate --workload`; `check_options(npus)` checks the collective options against the
    fabric's NPU count (--dims: a whole-system collective's), located at their options."""
    from ..graph.ranks import npu_order
    from ..simulate import prepare
    from ..workload.replay import ReplayOptions, replay
    from ..workload.report import breakdown_picture, chrome_trace, format_report
    from ..workload.trace import read_et_set, read_text

    _not_for_workload(args, given)
    args.passes = 1 if args.passes is None else args.passes
    args.peak_perf = "900" if args.peak_perf is None else args.peak_perf
    args.remote_mem_latency = "0" if args.remote_mem_latency is None else args.remote_mem_latency
    if args.passes < 1:
        raise option_error("--passes", f"bad --passes {args.passes}; expected a whole number >= 1")
    try:
        latency = float(args.remote_mem_latency)
    except ValueError:
        latency = math.nan
    if not (math.isfinite(latency) and 0 <= latency < 2**63 and latency == int(latency)):
        raise option_error("--remote-mem-latency", f"bad --remote-mem-latency '{args.remote_mem_latency}'; "
                                                   "expected whole ns >= 0 (below 2^63)")
    if args.network == "shared" and sim_options.model == "astra":  # it ran alone, saying 'network: alone'
        raise option_error("--network", "--network shared: --model astra times every collective and message alone "
                                        "(ASTRA-sim's congestion-unaware backend has no contention); --model "
                                        "astra-aware shares one network")
    opts = ReplayOptions(sim=replace(sim_options, trace=False), roofline=args.roofline,
                         peak_perf_tflops=_positive(args.peak_perf, "--peak-perf"),
                         remote_mem_bw_gb_per_s=_positive(args.remote_mem_bw, "--remote-mem-bw"),
                         remote_mem_latency_ns=int(latency), keep_timeline=bool(args.trace or args.breakdown),
                         shared_network=args.network != "alone")
    trace_ranks = None
    if args.trace_ranks is not None:
        from ..simulate.spellings import parse_ranks as parse_group

        if not args.trace:
            raise option_error("--trace-ranks", "--trace-ranks selects the NPUs of --trace; give --trace OUT too")
        trace_ranks = parse_group(args.trace_ranks, "--trace-ranks")
    for path, option in ((args.json, "--json"), (args.trace, "--trace")):
        if path and path != "-":
            check_output(path, option=option)
    if args.breakdown:  # a picture: a format matplotlib writes ('b.txt' was an internal error after the replay)
        from ..visualizer.plot import SUFFIXES

        check_output(args.breakdown, SUFFIXES, option="--breakdown")
    g = load_graph_with_progress(args)
    n = int(npu_order(g).size)
    check_options(n)
    if trace_ranks is not None and max(trace_ranks) >= n:
        raise option_error("--trace-ranks", f"bad --trace-ranks '{args.trace_ranks}': rank {max(trace_ranks)} is not "
                                            f"an NPU of the fabric (ranks 0-{n - 1})")
    with progress(args).phase("reading the workload"):
        if args.workload.endswith(".txt"):
            if args.comm_group:
                raise option_error("--comm-group", "a text workload runs every collective on all NPUs; "
                                                   "--comm-group is for Chakra ET sets")
            w = read_text(args.workload, n, args.passes, args.text_update_times)
        else:
            if args.text_update_times:
                raise option_error("--text-update-times", "--text-update-times is for text workloads (FILE.txt); "
                                                          "an ET set's nodes carry their own times")
            if args.passes != 1:
                raise option_error("--passes", f"--passes {args.passes} is for text workloads (FILE.txt); an ET "
                                               "set is the passes its files hold")
            if not Path(f"{args.workload}.0.et").exists() and Path(args.workload).is_file():
                raise option_error("--workload", f"'{args.workload}' is a file; give an ET set's prefix "
                                                 "(PREFIX.<rank>.et) or a text workload ending in .txt")
            w = read_et_set(args.workload, n, args.comm_group)
    with progress(args).phase("replaying"):
        r = replay(prepare(g), w, opts)
    if args.trace:
        write_json(args.trace, chrome_trace(r, trace_ranks), option="--trace")
    if args.breakdown:
        breakdown_picture(r, args.breakdown)
    r.pop("timeline", None)
    emit(args, r, format_report(r, args.top))
    return 0
