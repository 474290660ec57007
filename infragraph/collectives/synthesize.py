"""Synthesize a topology-aware schedule for the actual fabric (issue 22, item 3).

    all-gather     = greedy link-chunk matching over the time-expanded network (matching.py)
    reduce-scatter = that all-gather run backwards: every copy u -> v of chunk c becomes a reduce
                     v -> u, in the reverse order, over the reversed path
    all-reduce     = reduce-scatter, then all-gather (each chunk's all-gather starts as soon as its
                     owner holds it reduced: the replay overlaps the two)

The graph is the fully qualified graph with its failures applied (failed links are gone, degraded
ones slower), NPUs numbered as `simulate` numbers them (graph.ranks). The result is a schedule
(schedule.py) whose steps group transfers by their start time in the synthesizer's timing model
(replay.py), its predicted time in that model and the lower bound (bound.py) it is judged against.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import error
from ..graph import FQG
from ..graph.failures import with_failures
from ..graph.ranks import npu_order
from .bound import Bound, lower_bound
from .links import LogicalLinks, logical_links
from .matching import all_gather
from .replay import replay
from .schedule import COLLECTIVES, Schedule, Transfer

MODEL = ("synthesizer: each transfer holds every link of its NPU-to-NPU path for 8 B / bottleneck bandwidth "
         "and lands after that plus the path's latency (docs/collectives.md)")


@dataclass(frozen=True)
class Synthesis:
    """A synthesized collective: transfers as parallel arrays, in start order."""

    collective: str
    ranks: int
    chunks_per_rank: int
    size_bytes: float  # per-NPU buffer (all-gather: each NPU's shard, as simulate takes it)
    chunk_bytes: float
    src: np.ndarray
    dst: np.ndarray
    chunk: np.ndarray
    reduce: np.ndarray  # bool per transfer
    start_ns: np.ndarray
    land_ns: np.ndarray
    step: np.ndarray  # schedule step per transfer (one per distinct start time)
    bound: Bound
    logical_links: int

    @property
    def time_ns(self) -> float:
        return float(self.land_ns.max()) if self.land_ns.size else 0.0

    @property
    def efficiency(self) -> float:
        """Lower bound / predicted time: 1.0 is optimal."""
        return self.bound.time_ns / self.time_ns if self.time_ns > 0 else 1.0

    def schedule(self) -> Schedule:
        """The schedule (schedule.py) for the validator and the engine."""
        steps: list[list[Transfer]] = [[] for _ in range(int(self.step.max()) + 1 if self.step.size else 0)]
        ops = np.where(self.reduce, "reduce", "copy").tolist()
        for s, a, b, c, op in zip(self.step.tolist(), self.src.tolist(), self.dst.tolist(), self.chunk.tolist(), ops):
            steps[s].append(Transfer(a, b, c, op))
        return Schedule(self.collective, self.ranks, self.chunks_per_rank, tuple(tuple(s) for s in steps),
                        dependencies="chunks")

    def document(self) -> dict:
        """The schedule as a JSON-ready document, with a `synthesis` block stating what it was made for."""
        steps: list[list[dict]] = [[] for _ in range(int(self.step.max()) + 1 if self.step.size else 0)]
        ops = np.where(self.reduce, "reduce", "copy").tolist()
        for s, a, b, c, op in zip(self.step.tolist(), self.src.tolist(), self.dst.tolist(), self.chunk.tolist(), ops):
            steps[s].append({"src": a, "dst": b, "chunk": c, "op": op})
        first = np.zeros(len(steps))
        first[self.step] = self.start_ns  # every transfer of a step starts at the same time
        return {
            "collective": self.collective, "ranks": self.ranks, "chunks_per_rank": self.chunks_per_rank,
            "name": f"synthesized {self.collective}",
            "description": (f"infragraph synthesize: greedy link-chunk matching for {self.ranks} ranks, "
                            f"{self.chunks_per_rank} chunk(s) per rank, predicted {self.time_ns:.0f} ns against a "
                            f"lower bound of {self.bound.time_ns:.0f} ns for {self.size_bytes:.0f} B per NPU"),
            "dependencies": "chunks",  # a transfer waits only for its sender's receipts of its chunk
            "steps": steps,
            "synthesis": {
                "size_bytes": self.size_bytes, "chunk_bytes": self.chunk_bytes,
                "predicted_time_ns": self.time_ns, "lower_bound_ns": self.bound.time_ns,
                "lower_bound": self.bound.reason, "efficiency": self.efficiency, "model": MODEL,
                "logical_links": self.logical_links, "step_start_ns": [round(t, 3) for t in first.tolist()],
            },
        }


def synthesize(g: FQG, collective: str, chunks_per_rank: int = 1, size_bytes: float = float(1 << 30),
               seed: int = 0, links: LogicalLinks | None = None) -> Synthesis:
    """Synthesize `collective` on `g` (its failure annotations applied). `size_bytes` is the
    per-NPU buffer (all-gather: each NPU's shard); `links` may be passed when already built."""
    if collective not in COLLECTIVES:
        raise error(f"cannot synthesize '{collective}'; expected one of {', '.join(COLLECTIVES)}")
    if not (isinstance(chunks_per_rank, int) and chunks_per_rank >= 1):
        raise error(f"chunks per rank must be a whole number >= 1, found {chunks_per_rank!r}")
    if not (np.isfinite(size_bytes) and size_bytes > 0):
        raise error(f"the buffer size must be a finite number of bytes > 0, found {size_bytes!r}")
    if links is None:
        g = with_failures(g)[0]
        npus = npu_order(g)
        if npus.size < 2:
            raise error(f"graph '{g.name}' has {npus.size} NPU; a collective needs at least 2")
        links = logical_links(g, npus)
    n, k = links.npus, chunks_per_rank
    total = n * k
    chunk_bytes = size_bytes / k if collective == "all-gather" else size_bytes / total
    gathered = size_bytes * n if collective == "all-gather" else size_bytes
    bound = lower_bound(links, collective, gathered)
    ag = all_gather(links, k, chunk_bytes, seed)
    if collective == "all-gather":
        src, dst, chunk = links.src[ag.link], links.dst[ag.link], ag.chunk
        reduce = np.zeros(ag.link.size, dtype=bool)
        start, land = ag.start, ag.arrive
    else:
        # Backwards: the copy that landed last is the first reduce; over the reversed links.
        back = np.argsort(-ag.arrive, kind="stable")
        both = _concat(links.reversed(), links)
        link = ag.link[back]
        chunk = ag.chunk[back]
        reduce = np.ones(link.size, dtype=bool)
        if collective == "all-reduce":
            link = np.concatenate([link, ag.link + links.count])
            chunk = np.concatenate([chunk, ag.chunk])
            reduce = np.concatenate([reduce, np.zeros(ag.link.size, dtype=bool)])
        start, land = replay(both, link, chunk, reduce, chunk_bytes, total)
        src, dst = both.src[link], both.dst[link]
    order = np.lexsort((np.arange(start.size), start))
    src, dst, chunk, reduce, start, land = (a[order] for a in (src, dst, chunk, reduce, start, land))
    step = np.unique(np.round(start, 3), return_inverse=True)[1].reshape(-1) if start.size else start.astype(np.int64)
    return Synthesis(collective, n, k, float(size_bytes), float(chunk_bytes), src, dst, chunk, reduce, start, land,
                     step.astype(np.int64), bound, links.count)


def _concat(a: LogicalLinks, b: LogicalLinks) -> LogicalLinks:
    """Links of `a` then links of `b` (b's ids shifted by a.count)."""
    return LogicalLinks(a.npus, np.concatenate([a.src, b.src]), np.concatenate([a.dst, b.dst]),
                        np.concatenate([a.bandwidth_gbps, b.bandwidth_gbps]), np.concatenate([a.latency_ns, b.latency_ns]),
                        np.concatenate([a.resource_ptr, b.resource_ptr[1:] + a.resource_ptr[-1]]),
                        np.concatenate([a.resources, b.resources]), a.ingress_gbps, a.egress_gbps)
