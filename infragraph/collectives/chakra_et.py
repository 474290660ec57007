"""A schedule as ASTRA-sim's custom-collective input: one Chakra ET of sends and receives per NPU.

Why: ASTRA-sim (518bd51) runs a custom collective from `"all-reduce-implementation-custom":
[PREFIX]` in its system JSON; each NPU reads PREFIX.<rank>.et through Chakra's feeder
(astra-sim/system/astraccl/custom_collectives/CustomAlgorithm.cc). Exporting lets the same
schedule be timed there and here.

What ASTRA-sim does with the ET (CustomAlgorithm.cc): it issues every node whose dependencies are
done; COMM_SEND_NODE sends `comm_size` bytes to `comm_dst` with `comm_tag`, COMM_RECV_NODE waits
for `comm_size` bytes from `comm_src` with `comm_tag`, COMP_NODE takes duration_micros x 1,000 ns
(0: 1 ns); it uses the sizes in the ET, not the workload's collective size. Ranks in the ET are
positions in the communicator group.

What we write, per rank, following the schedule's dependencies (docs/collectives.md). With the
default (rank-steps), for each
step, one send node per receiver and one receive node per sender (transfers between one pair in
one step are one message of their summed chunks, tag = the step), all depending on the rank's
receive (and reduction) nodes of its latest earlier step with receipts; a receive that brings
`reduce` chunks is followed by a COMP node of the reduction time: ASTRA-sim's built-in
3 x floor(bytes / local-mem-bw) ns in whole microseconds cut down, as the ET stores it and
ASTRA-sim's own MSCCL converter writes it (simengine `custom_reductions::micros`, which the
engine's astra models charge per received message, concurrently, as ASTRA-sim runs these nodes). Node attributes are those of ASTRA-sim's
own example ETs (examples/system/custom_collectives): comm_type 5 (send) / 6 (receive),
comm_size, comm_src or comm_dst, comm_tag. The endpoint delay our engine adds per receiving step
has no node: ASTRA-sim's custom algorithm has none. With `"dependencies": "chunks"`, one node
per transfer, a send waiting only for the rank's receipts of its chunk in the latest earlier step
that brought it any.
"""
from __future__ import annotations

import math
from collections import defaultdict

from ..errors import error
from ..output import check_output, write_bytes
from .schedule import Schedule, Transfer


def chunk_bytes(schedule: Schedule, size_bytes: float) -> int:
    """Bytes of one chunk for a per-NPU buffer of `size_bytes` (all-gather: the shard), whole bytes
    as ASTRA-sim counts them."""
    parts = schedule.chunks_per_rank * (1 if schedule.collective == "all-gather" else schedule.ranks)
    return int(size_bytes // parts)


RankSteps = list[tuple[int, list[Transfer]]]


def steps_of_ranks(schedule: Schedule) -> list[RankSteps]:
    """Per rank, the steps it sends or receives in, each with its transfers of that step, in
    schedule order: one pass over the schedule, so that writing every rank's ET costs the
    transfers, not ranks x transfers (a 1,024-rank ring all-reduce: 4 million, not 2 billion)."""
    mine: list[RankSteps] = [[] for _ in range(schedule.ranks)]
    for s, step in enumerate(schedule.steps):
        touched: dict[int, list[Transfer]] = defaultdict(list)
        for t in step:
            touched[t.src].append(t)
            touched[t.dst].append(t)
        for r, transfers in touched.items():
            mine[r].append((s, transfers))
    return mine


def rank_nodes(schedule: Schedule, rank: int, steps: RankSteps, chunk: int, local_mem_bw_gb_per_s: float | None) -> list:
    """The Chakra nodes of one rank (see the module docstring); `steps`: its steps_of_ranks entry
    (a step it takes no part in adds no node)."""
    if schedule.dependencies == "chunks":
        return _chunk_nodes(schedule, rank, steps, chunk, local_mem_bw_gb_per_s)
    from ..workload.chakra import make_node

    nodes = []
    frontier: list[int] = []
    for s, step in steps:
        out: dict[int, int] = defaultdict(int)
        into: dict[int, list[int]] = defaultdict(lambda: [0, 0])  # src -> [chunks, reduce chunks]
        for t in step:
            if t.src == rank:
                out[t.dst] += 1
            elif t.dst == rank:
                into[t.src][0] += 1
                into[t.src][1] += t.op == "reduce"
        for dst, count in out.items():
            nodes.append(make_node(len(nodes), f"send_step{s}_to{dst}", "send", tuple(frontier), comm_type=5,
                                   comm_size=count * chunk, comm_dst=dst, comm_tag=s))
        ends = []
        for src, (count, reduced) in into.items():
            ends.append(_receive(nodes, f"step{s}_from{src}", tuple(frontier), src, s, count * chunk, reduced * chunk,
                                 local_mem_bw_gb_per_s))
        if ends:
            frontier = ends
    return nodes


def _receive(nodes: list, name: str, deps: tuple[int, ...], src: int, tag: int, size: int, reduced_bytes: int,
             local_mem_bw_gb_per_s: float | None) -> int:
    """A receive node, followed by its reduction's COMP node when it brings `reduce` chunks; the id
    of the last of them (what later nodes wait for)."""
    from ..workload.chakra import make_node

    nodes.append(make_node(len(nodes), f"recv_{name}", "recv", deps, comm_type=6, comm_size=size, comm_src=src,
                           comm_tag=tag))
    if reduced_bytes and local_mem_bw_gb_per_s is not None:
        from .._simengine import custom_reduction_micros

        us = custom_reduction_micros(float(reduced_bytes), float(local_mem_bw_gb_per_s))
        nodes.append(make_node(len(nodes), f"reduce_{name}", "compute", (len(nodes) - 1,), duration_us=us))
    return len(nodes) - 1


def _chunk_nodes(schedule: Schedule, rank: int, steps: RankSteps, chunk: int, local_mem_bw_gb_per_s: float | None) -> list:
    """`"dependencies": "chunks"`: one send or receive per transfer (tag = step x chunks + chunk), a
    send waiting only for the rank's receipts of its chunk in the latest earlier step with any (the
    engine's per-chunk step waits for all of them)."""
    from ..workload.chakra import make_node

    nodes: list = []
    last: dict[int, tuple[int, ...]] = {}  # chunk -> the nodes its receipts of its latest step with any end with
    total = schedule.chunks
    for s, step in steps:
        arrived: dict[int, list[int]] = defaultdict(list)
        for t in step:
            deps = last.get(t.chunk, ())
            if t.src == rank:
                nodes.append(make_node(len(nodes), f"send_step{s}_chunk{t.chunk}_to{t.dst}", "send", deps, comm_type=5,
                                       comm_size=chunk, comm_dst=t.dst, comm_tag=s * total + t.chunk))
            elif t.dst == rank:
                arrived[t.chunk].append(_receive(nodes, f"step{s}_chunk{t.chunk}_from{t.src}", deps, t.src,
                                                 s * total + t.chunk, chunk, chunk if t.op == "reduce" else 0,
                                                 local_mem_bw_gb_per_s))
        last.update((c, tuple(ends)) for c, ends in arrived.items())
    return nodes


def largest_messages(schedule: Schedule) -> tuple[int, int]:
    """The most chunks one message of the ETs carries, and the most of them one receipt reduces:
    per (step, sender, receiver) under rank-steps, one chunk under per-chunk dependencies."""
    if schedule.dependencies == "chunks":
        return 1, int(any(t.op == "reduce" for step in schedule.steps for t in step))
    carried, reduced = 0, 0
    for step in schedule.steps:
        pairs: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0])
        for t in step:
            pair = pairs[t.src, t.dst]
            pair[0] += 1
            pair[1] += t.op == "reduce"
        for n, r in pairs.values():
            carried, reduced = max(carried, n), max(reduced, r)
    return carried, reduced


def _check_fits(schedule: Schedule, size_bytes: float, chunk: int, local_mem_bw_gb_per_s: float | None) -> None:
    """Every number the ETs will hold fits its uint64 field: a message's comm_size (--size), and a
    reduction's duration_micros, which ASTRA-sim turns into ns (x 1,000, --local-mem-bw). Checked
    before any file is written; the error names the option, what it gives and what fits."""
    from .._simengine import custom_reduction_micros
    from ..workload.chakra import MAX_U64

    carried, reduced = largest_messages(schedule)
    if carried * chunk > MAX_U64:
        most = MAX_U64 // carried * (size_bytes / chunk)
        raise error(f"--size {size_bytes:g} B makes messages of up to {carried:,} chunks x {chunk:,} B = "
                    f"{carried * chunk:,} B; an ET's comm_size holds at most {MAX_U64:,} B (uint64): expected "
                    f"--size at most {most:g} B", "--size")
    if reduced and local_mem_bw_gb_per_s is not None:
        us = custom_reduction_micros(float(reduced * chunk), float(local_mem_bw_gb_per_s))
        if us > MAX_U64 // 1000:
            least = 3.0 * reduced * chunk / (MAX_U64 // 1000 * 1000)
            raise error(f"--local-mem-bw {local_mem_bw_gb_per_s:g} GB/s makes the reduction of {reduced * chunk:,} B "
                        f"take {3.0 * reduced * chunk / local_mem_bw_gb_per_s:g} ns; ASTRA-sim counts an ET's "
                        f"duration_micros in uint64 ns (at most {MAX_U64 // 1000:,} us): expected --local-mem-bw at "
                        f"least {least:g} GB/s", "--local-mem-bw")


def write_ets(schedule: Schedule, prefix: str, size_bytes: float, local_mem_bw_gb_per_s: float | None = 1600.0) -> list[str]:
    """Write PREFIX.<rank>.et for every rank; returns the paths. The schedule should be validated."""
    from ..workload.chakra import et_bytes

    if not (size_bytes > 0 and math.isfinite(size_bytes)):
        raise error(f"--size {size_bytes!r}: expected a positive number of bytes", "--size")
    chunk = chunk_bytes(schedule, size_bytes)
    if chunk < 1:
        raise error(f"--size {size_bytes:g} B leaves chunks of 0 B for {schedule.ranks} ranks x "
                    f"{schedule.chunks_per_rank} chunks; give a larger size", "--size")
    _check_fits(schedule, size_bytes, chunk, local_mem_bw_gb_per_s)
    check_output(f"{prefix}.0.et", option="-o")  # the folder exists and takes files: "mkdir -p" hint
    paths = []
    for r, steps in enumerate(steps_of_ranks(schedule)):
        path = f"{prefix}.{r}.et"
        write_bytes(path, et_bytes(rank_nodes(schedule, r, steps, chunk, local_mem_bw_gb_per_s)), option="-o")
        paths.append(path)
    return paths
