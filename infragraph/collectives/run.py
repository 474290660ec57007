"""Run a custom collective schedule on a fabric in the collective engine, under any model.

Why here: the engine (infragraph.simulate) runs a schedule as its algorithm `schedule`; this module
is the one entry point callers use (the CLI's `--algorithm schedule:FILE`, the synthesizer), so the
schedule is proven before it is timed: a schedule that loses a chunk would give a fast, wrong number.

How the engine times a schedule (simengine/src/schedule_program.rs): rank r walks the schedule's
steps in order; at step s it sends its transfers of step s (those to one receiver go as one message
of their summed chunks), waits for the messages of step s sent to it, then pays the endpoint delay
(if it received any) and the reduction of the chunks it received with `reduce` (local-mem-bw, as
the built-in algorithms are charged; under the astra models as ASTRA-sim charges an exported
schedule: per message, concurrently, in whole microseconds, and a rank done only when its own
messages have landed too; simengine/src/custom_reductions.rs). Steps are sequence points per rank, not a global barrier: a
rank's step s starts when its own step s - 1 is done. With "dependencies": "chunks" each chunk's
transfers run as their own process group, and under fair each link carries one transfer at a time
in step order (pair_gate.rs). A transfer carries size / (ranks x
chunks_per_rank) bytes (all-gather: the shard / chunks_per_rank). The engine's --chunks splits the
collective further, each chunk running the whole schedule, as with the built-in algorithms.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..errors import error
from ..graph import FQG
from ..simulate.run import PreparedGraph, SimulationOptions, prepare, simulate
from .schedule import Schedule, ScheduleColumns, ScheduleError, validate


def schedule_options(schedule: Schedule | ScheduleColumns, options: SimulationOptions = SimulationOptions(),
                     check: bool = True) -> SimulationOptions:
    """`options` set to run `schedule` alone over the whole group (flat), after proving it
    (`check=False`: the caller has proven it already)."""
    if check:
        try:
            validate(schedule)
        except ScheduleError as exc:
            raise error(f"the schedule does not implement its {schedule.collective}: {exc}") from None
    dims = None if options.dims is None or len(options.dims) <= 1 else options.dims
    if dims is not None:
        raise error(f"a single schedule runs over the whole group; --dims {','.join(map(str, dims))} needs one "
                    "algorithm per dimension (e.g. --algorithm schedule:A.json,ring)")
    return replace(options, collective=schedule.collective, algorithm=("schedule",), schedules=(schedule,))


def simulate_schedule(graph: FQG | PreparedGraph, schedule: Schedule | ScheduleColumns, size_bytes: float,
                      options: SimulationOptions = SimulationOptions(), check: bool = True) -> dict[str, Any]:
    """Validate `schedule`, run it on `graph` with `options` (model, chunks, delays, ...; its
    collective and algorithm are the schedule's) for a per-NPU buffer of `size_bytes` (all-gather:
    the shard), and return the simulate result dict (collective_time_ns, ranks, links, ...).

    The graph's NPUs in rank order are the schedule's ranks; the group (options.groups) must have
    exactly `schedule.ranks` members. Raises InfraGraphError (located) on any mismatch.
    `check=False` skips the proof (0.8 s for a 1,024-rank ring all-reduce) for a schedule the
    caller has validated already, e.g. one timed at many sizes; pass a PreparedGraph
    (infragraph.simulate.prepare) to convert the graph once."""
    opts = replace(schedule_options(schedule, options, check), size_bytes=float(size_bytes))
    p = graph if isinstance(graph, PreparedGraph) else prepare(graph)
    members = len(opts.groups[0]) if opts.groups else int(p.npu_nodes.size)
    if members != schedule.ranks:
        raise error(f"the schedule has {schedule.ranks} ranks but the group has {members} NPUs")
    return simulate(p, opts)
