"""Synthesize a topology-aware schedule for the actual fabric (issue 22, item 3).

    all-gather     = greedy link-chunk matching over the time-expanded network (matching.py)
    reduce-scatter = that all-gather run backwards: every copy u -> v of chunk c becomes a reduce
                     v -> u, in the reverse order, over the reversed path
    all-reduce     = reduce-scatter, then all-gather (each chunk's all-gather starts as soon as its
                     owner holds it reduced: the replay overlaps the two)

The graph is the fully qualified graph with its failures applied (failed links are gone, degraded
ones slower), NPUs numbered as `simulate` numbers them (graph.ranks). The result is a schedule
(schedule.py) whose steps are rounds (replay.py: a round uses each physical link at most once and
follows every round its transfers depend on), its predicted time in the synthesizer's timing model
and the lower bound (bound.py) it is judged against.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ..errors import error
from ..graph import FQG
from ..graph.failures import with_failures
from ..graph.ranks import npu_order
from .bound import Bound, lower_bound
from .links import LogicalLinks, logical_links, path_names
from .matching import all_gather, check_connected, engine_arrays
from .replay import work_conserving_order
from .schedule import COLLECTIVES, Schedule, ScheduleColumns, schedule_from_columns

MODEL = ("synthesizer: each transfer holds every link of its NPU-to-NPU path for 8 B / bottleneck bandwidth "
         "and lands after that plus the path's latency (docs/collectives.md)")


@dataclass(frozen=True)
class Synthesis:
    """A synthesized collective: its schedule as columns (columns.py, grouped by step; no
    per-transfer Python objects, 7 B per transfer up to 65,536 ranks and chunks), the first start
    of each step and the last landing in the synthesizer's model, and the bound."""

    collective: str
    ranks: int
    chunks_per_rank: int
    size_bytes: float  # per-NPU buffer (all-gather: each NPU's shard, as simulate takes it)
    chunk_bytes: float
    cols: ScheduleColumns  # without name, description and synthesis block (see `columns`)
    step_start_ns: np.ndarray  # per step, its first start (ns)
    time_ns: float  # the last landing (ns)
    bound: Bound
    logical_links: int

    @property
    def src(self) -> np.ndarray:
        return self.cols.src

    @property
    def dst(self) -> np.ndarray:
        return self.cols.dst

    @property
    def efficiency(self) -> float:
        """Lower bound / predicted time: 1.0 is optimal."""
        return self.bound.time_ns / self.time_ns if self.time_ns > 0 else 1.0

    def columns(self, dependencies: str = "rank-steps", engine: dict | None = None) -> ScheduleColumns:
        """The schedule as columns with its name, description and `synthesis` block (what it was
        made for; `engine`, engine_time's result, added to it when given): what the binary
        schedule file (schedule_file.py) holds."""
        return replace(self.cols, name=f"synthesized {self.collective}", description=(
            f"infragraph synthesize: greedy link-chunk matching for {self.ranks} ranks, {self.chunks_per_rank} chunk(s) "
            f"per rank, predicted {self.time_ns:.0f} ns against a lower bound of {self.bound.time_ns:.0f} ns for "
            f"{self.size_bytes:.0f} B per NPU"), dependencies=dependencies, synthesis={
            "size_bytes": self.size_bytes, "chunk_bytes": self.chunk_bytes, "predicted_time_ns": self.time_ns,
            "lower_bound_ns": self.bound.time_ns, "lower_bound": self.bound.reason, "efficiency": self.efficiency,
            "model": MODEL, "logical_links": self.logical_links,
            "step_start_ns": [round(t, 3) for t in self.step_start_ns.tolist()],  # the first start in each step
            **({"engine": engine} if engine else {})})

    def schedule(self, dependencies: str = "rank-steps") -> Schedule:
        """The schedule (schedule.py) for the engine and the exporters. Its steps are rounds, so
        either dependency mode proves the same collective; the engine times them differently
        (docs/collectives.md, "Synthesize")."""
        return schedule_from_columns(replace(self.cols, dependencies=dependencies))

    def document(self, dependencies: str = "rank-steps", engine: dict | None = None) -> dict:
        """The schedule as a JSON-ready document (schedule.py's format), with the `synthesis` block."""
        cols = self.columns(dependencies, engine)
        ptr = cols.step_ptr.tolist()
        ops = np.where(cols.reduce, "reduce", "copy").tolist()
        flat = [{"src": a, "dst": b, "chunk": c, "op": op}
                for a, b, c, op in zip(cols.src.tolist(), cols.dst.tolist(), cols.chunk.tolist(), ops)]
        if cols.path is not None:
            for t, k in zip(flat, cols.path.tolist()):
                t["path"] = k
        return {"collective": cols.collective, "ranks": cols.ranks, "chunks_per_rank": cols.chunks_per_rank,
                "name": cols.name, "description": cols.description, "dependencies": dependencies,
                **({"paths": [list(p) for p in cols.paths]} if cols.paths else {}),
                "steps": [flat[ptr[s]:ptr[s + 1]] for s in range(len(ptr) - 1)], "synthesis": cols.synthesis}


def synthesize(g: FQG, collective: str, chunks_per_rank: int = 1, size_bytes: float = float(1 << 30),
               seed: int = 0, links: LogicalLinks | None = None, pieces: int = 1, by_ports: bool = True,
               work_conserving: bool = False) -> Synthesis:
    """Synthesize `collective` on `g` (its failure annotations applied). `size_bytes` is the
    per-NPU buffer (all-gather: each NPU's shard); `links` may be passed when already built.
    All-reduce only: `pieces` P > 1 splits every chunk into P pieces whose reduce-scatter and
    all-gather pipeline (piece p's all-gather beside piece p+1's reduce-scatter), so the schedule
    has chunks_per_rank x P chunks per rank; `by_ports` reduces each chunk where the NPUs' ports
    suggest (reduction_owners), False: chunks_per_rank of them at each rank. All-reduce only:
    `work_conserving` orders the transfers as links that never idle while a later-listed transfer is ready would
    (replay.work_conserving_order): the all-gather of a chunk may then pass the reduce-scatter of
    others on a link, which overlaps the two phases where ports idle in one of them."""
    if collective not in COLLECTIVES:
        raise error(f"cannot synthesize '{collective}'; expected one of {', '.join(COLLECTIVES)}")
    if not (isinstance(chunks_per_rank, int) and chunks_per_rank >= 1):
        raise error(f"chunks per rank must be a whole number >= 1, found {chunks_per_rank!r}")
    if not (isinstance(pieces, int) and pieces >= 1):
        raise error(f"pieces must be a whole number >= 1, found {pieces!r}")
    if collective != "all-reduce":
        pieces, work_conserving = 1, False  # only an all-reduce has two phases to pipeline or overlap
    if not (np.isfinite(size_bytes) and size_bytes > 0):
        raise error(f"the buffer size must be a finite number of bytes > 0, found {size_bytes!r}")
    if links is None:
        g = with_failures(g)[0]
        npus = npu_order(g)
        if npus.size < 2:
            raise error(f"graph '{g.name}' has {npus.size} NPU; a collective needs at least 2")
        links = logical_links(g, npus)
    n, k = links.npus, chunks_per_rank
    if transfers(n, collective, k, pieces) > MAX_TRANSFERS:
        raise error(f"{k:,} chunks per rank x {pieces} piece(s) on {n:,} NPUs is {transfers(n, collective, k, pieces):,} "
                    f"transfers, more than the synthesizer holds ({MAX_TRANSFERS:,}, about 17 B each); expected at most "
                    f"{max_chunks_per_rank(n, collective, pieces):,} chunks per rank")
    total = n * k
    chunk_bytes = size_bytes / k if collective == "all-gather" else size_bytes / total
    gathered = size_bytes * n if collective == "all-gather" else size_bytes
    check_connected(links)
    bound = lower_bound(links, collective, gathered)  # over every link, also those the matching skips
    links = links.without_slow_detours()
    owner = reduction_owners(links, k) if collective == "all-reduce" and by_ports else None
    from .._simengine import synth_replay_columns, synth_schedule

    both = _concat(links.reversed(), links)
    named = _parallel_links(links)  # name every transfer's path (Synthesis.path_table) where routing could not tell
    if pieces == 1 and not work_conserving:  # composed in the engine from the matching: no per-transfer arrays here
        raw = _engine(synth_schedule, matching=engine_arrays(links, chunk_bytes), both=engine_arrays(both, chunk_bytes),
                      collective=collective, chunks_per_rank=k, seed=seed,
                      owner=None if owner is None else np.asarray(owner, dtype="<u4").tobytes(), keep_link=named)
    else:
        ag = all_gather(links, k, chunk_bytes, seed, owner=owner)
        link, chunk, reduce = _pipelined_all_reduce(ag, links.count, k, pieces)
        k, chunk_bytes = k * pieces, chunk_bytes / pieces
        if work_conserving:
            first = work_conserving_order(both, link, chunk, reduce, chunk_bytes, n * k)
            link, chunk, reduce = link[first], chunk[first], reduce[first]
        raw = _engine(synth_replay_columns, links=engine_arrays(both, chunk_bytes), link=link.astype("<u4").tobytes(),
                      chunk=chunk.astype("<u4").tobytes(), reduce=reduce.astype(np.uint8).tobytes(), chunks=n * k,
                      keep_link=named)
    width = f"<u{raw['width']}"
    path, paths = _path_table(g, links, np.frombuffer(raw["link"], dtype="<u4")) if named else (None, ())
    cols = ScheduleColumns(collective, n, k, np.frombuffer(raw["step_ptr"], dtype="<u8"),
                           *(np.frombuffer(raw[key], dtype=width) for key in ("src", "dst", "chunk")),
                           np.frombuffer(raw["reduce"], dtype=bool), path=path, paths=paths)
    return Synthesis(collective, n, k, float(size_bytes), float(chunk_bytes), cols,
                     np.frombuffer(raw["step_start"], dtype="<f8"), float(raw["time_ns"]), bound, links.count)


def _parallel_links(links: LogicalLinks) -> bool:
    """Whether two logical links join the same two NPUs (a DGX's GPUs over four NVSwitch chips).
    Why: there the engine's route for a rank pair is one way (or all of them sprayed), not the
    one the synthesizer gave each transfer, so the schedule names every transfer's path."""
    pair = links.src.astype(np.int64) * links.npus + links.dst
    return bool(np.unique(pair).size < pair.size)


def _path_table(g: FQG, links: LogicalLinks, link: np.ndarray) -> tuple[np.ndarray, tuple[tuple[str, ...], ...]]:
    """Each transfer's path (schedule.py `paths`) from its link among `_concat(links.reversed(),
    links)`: the logical link's nodes between the two NPUs, backwards for a reversed one (the
    reduce-scatter's), equal paths once. Returns (index per transfer into the table, the table)."""
    uniq, index = np.unique(link, return_inverse=True)
    count = links.count
    names = path_names(g, links, np.where(uniq >= count, uniq - count, uniq))
    ways = [p if u >= count else p[::-1] for p, u in zip(names, uniq.tolist())]
    # A path names the nodes between two NPUs, so one entry serves every pair that passes them
    # (a DGX's 448 (pair, chip) links are 4 paths, one per chip).
    table: dict[tuple[str, ...], int] = {}
    entry = np.asarray([table.setdefault(w, len(table)) for w in ways], dtype=np.int64)
    return entry[index], tuple(table)


def _engine(call, **arrays) -> dict:
    """One of the engine's schedule builders (synth_columns.rs), its refusal as a located error."""
    try:
        return call(**arrays)
    except ValueError as exc:
        raise error(f"cannot synthesize: {exc}") from None


AUTO_BUDGET = 4_000_000  # transfers: the largest schedule `synthesize_best` tries
# The largest schedule `synthesize` builds (transfers): the 16,384-NPU all-reduce (536,838,144,
# benchmarks/README.md) fits. Its peak is about 17 B per transfer (9 GB there: the matching's
# link and chunk, a round per transfer, the replay's state, the columns); far beyond it the
# engine's allocations abort the process instead of giving an error.
MAX_TRANSFERS = 1 << 29


def transfers(n: int, collective: str, chunks_per_rank: int, pieces: int = 1) -> int:
    """How many transfers a schedule of `chunks_per_rank` x `pieces` chunks per rank has on n NPUs:
    every chunk reaches the n - 1 others once per phase (all-reduce: two)."""
    phases = 2 if collective == "all-reduce" else 1
    return n * (n - 1) * phases * chunks_per_rank * (pieces if collective == "all-reduce" else 1)


def max_chunks_per_rank(n: int, collective: str, pieces: int = 1) -> int:
    """The most chunks per rank `synthesize` accepts on n NPUs (MAX_TRANSFERS)."""
    return max(1, MAX_TRANSFERS // max(transfers(n, collective, 1, pieces), 1))


def synthesize_best(g: FQG, collective: str, size_bytes: float = float(1 << 30), seed: int = 0,
                    links: LogicalLinks | None = None, budget: int = AUTO_BUDGET) -> Synthesis:
    """The fastest, in the synthesizer's model, of the schedules with 1, 2, 4 or 8 chunks per rank
    (all-reduce: in 1 or 2 pieces; where the NPUs' ports differ, also 16 chunks, each reduced where
    the ports suggest or at its rank, and 4, 8, 16 chunks in 2 or 4 pieces and 8, 16 in 8 pieces in
    work-conserving order)
    whose transfers fit in `budget`; always at least the 1-chunk one. More chunks shorten the last rounds (a 16-NPU RFS system: 83 % of the bound with 1
    or 2, 95 % with 4) and, when a few NPUs start every chunk of the all-gather, its first ones;
    pieces help where an NPU's ports bound both all-reduce phases (meshes)."""
    if links is None:
        g = with_failures(g)[0]
        links = logical_links(g, npu_order(g))
    n = links.npus
    uneven = collective == "all-reduce" and reduction_owners(links, 1) is not None
    tries = [(k, pieces, by_ports, False) for k in ((1, 2, 4, 8, 16) if uneven else (1, 2, 4, 8))
             for pieces in ((1, 2) if collective == "all-reduce" else (1,)) for by_ports in ((True, False) if uneven else (True,))]
    if uneven:  # the phases overlap (work-conserving order), in 2, 4 or 8 pieces
        tries += [(k, pieces, True, True) for k in (4, 8, 16) for pieces in (2, 4)] + [(8, 8, True, True), (16, 8, True, True)]
    best: Synthesis | None = None
    for k, pieces, by_ports, work_conserving in tries:
        if best is not None and transfers(n, collective, k, pieces) > budget:
            continue
        s = synthesize(g, collective, k, size_bytes, seed, links, pieces, by_ports, work_conserving)
        if best is None or s.time_ns < best.time_ns * (1 - 1e-9):
            best = s
    assert best is not None
    return best


def reduction_owners(links: LogicalLinks, k: int) -> np.ndarray | None:
    """Where an all-reduce reduces each of its n k chunks (the rank that starts its all-gather),
    or None when that is k chunks per rank (every rank has the same ports).

    Why: rank r sends (1 - w_r) of the buffer in the reduce-scatter and receives as much in the
    all-gather, w_r its share of the chunks, over ports of b_r = min(in, out) bandwidth. Equal
    shares leave the NPUs with the fewest ports (a mesh's corners) the slowest in both phases; the
    shares w_r = max(0, 1 - x b_r) summing to 1 make every rank that reduces anything equally
    fast, (1 - w_r) / b_r = x, and x is then the smallest possible per-phase port time. Where every
    b_r is equal that is 1/n each; a 4x4 mesh reduces everything at its 4 corners, and the two
    phases' port bounds then sum to 83 % of the aggregate bound instead of 67 %. The shares are
    rounded to whole chunks (largest remainders), chunk ids in rank order."""
    n = links.npus
    b = np.minimum(links.ingress_gbps, links.egress_gbps).astype(np.float64)
    if np.all(b == b[0]):
        return None
    lo, hi = 0.0, 1.0 / float(b[b > 0].min())
    for _ in range(100):  # bisection: sum_r max(0, 1 - x b_r) decreases in x from n to 0
        x = (lo + hi) / 2
        lo, hi = (x, hi) if np.maximum(0.0, 1.0 - x * b).sum() > 1.0 else (lo, x)
    share = np.maximum(0.0, 1.0 - hi * b) * (n * k)
    counts = np.floor(share).astype(np.int64)
    rest = n * k - int(counts.sum())
    counts[np.argsort(-(share - counts), kind="stable")[:rest]] += 1
    return np.repeat(np.arange(n), counts)


def _pipelined_all_reduce(ag, count: int, k: int, pieces: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """All-reduce transfers (links of `_concat(reversed, forward)`, chunk ids, reduce flags) in
    replay order: per piece p, the reduce-scatter (the all-gather backwards, timed as if it started
    at p T) and the all-gather (as if at (p + 1) T), T the all-gather's time, merged by those
    nominal times. Piece p of chunk c (owner r, index i) is chunk r k P + p k + i."""
    t = ag.time_ns
    back = np.argsort(-ag.arrive, kind="stable")
    rs_link, rs_chunk, rs_at = ag.link[back], ag.chunk[back], t - ag.arrive[back]
    links_, chunks_, reduces_, times_ = [], [], [], []
    for p in range(pieces):
        for lk, ch, at, red in ((rs_link, rs_chunk, rs_at + p * t, True), (ag.link + count, ag.chunk, ag.start + (p + 1) * t, False)):
            links_.append(lk)
            chunks_.append((ch // k) * k * pieces + p * k + ch % k)
            reduces_.append(np.full(lk.size, red))
            times_.append(at)
    order = np.argsort(np.concatenate(times_), kind="stable")
    return (np.concatenate(links_)[order], np.concatenate(chunks_)[order], np.concatenate(reduces_)[order])


def _concat(a: LogicalLinks, b: LogicalLinks) -> LogicalLinks:
    """Links of `a` then links of `b` (b's ids shifted by a.count)."""
    return LogicalLinks(a.npus, np.concatenate([a.src, b.src]), np.concatenate([a.dst, b.dst]),
                        np.concatenate([a.bandwidth_gbps, b.bandwidth_gbps]), np.concatenate([a.latency_ns, b.latency_ns]),
                        np.concatenate([a.resource_ptr, b.resource_ptr[1:] + a.resource_ptr[-1]]),
                        np.concatenate([a.resources, b.resources]), a.ingress_gbps, a.egress_gbps)


def engine_time(g: FQG, synthesis: Synthesis, model: str = "fair", dependencies: str = "auto",
                free: bool = False) -> dict:
    """The synthesized schedule run in the collective engine (collectives.run) under `model`:
    {model, dependencies, time_ns, endpoint_delay_ns, local_mem_bw_gb_per_s}. By default with
    simulate's defaults (10 ns endpoint delay, reductions at 1600 GB/s), so the time is the one
    `simulate --algorithm schedule:FILE` gives (synthesize printed a time with free reductions that
    simulate did not reproduce); `free=True` times it as the synthesizer's model and the bound do
    (free reductions, no endpoint delay). The assumptions are returned with the time.
    `dependencies` "auto" runs both modes and keeps the faster."""
    from ..simulate import SimulationOptions, prepare
    from .run import simulate_schedule

    modes = ("rank-steps", "chunks") if dependencies == "auto" else (dependencies,)
    p = prepare(g)
    opts = SimulationOptions(model=model)
    if free:
        opts = replace(opts, local_mem_bw_gb_per_s=None, endpoint_delay_ns=0.0)
    best: dict | None = None
    for mode in modes:
        r = simulate_schedule(p, replace(synthesis.cols, dependencies=mode), synthesis.size_bytes, opts, check=False)
        t = float(r["collective_time_ns"])
        if best is None or t < best["time_ns"]:
            best = {"model": model, "dependencies": mode, "time_ns": t, "endpoint_delay_ns": opts.endpoint_delay_ns,
                    "local_mem_bw_gb_per_s": opts.local_mem_bw_gb_per_s}
    assert best is not None
    return best
