"""Greedy link-chunk matching over a time-expanded network: the all-gather at the heart of synthesis.

Why this method: TACOS (Won et al., "TACOS: Topology-Aware Collective Algorithm Synthesizer",
MICRO 2024) showed that matching chunks to links greedily, each time a link frees, over the
network unrolled in time (the time-expanded network) gives good all-gathers on any topology in
polynomial time. This is our own implementation of the idea, organised around links rather than
around (chunk, destination) pairs, with two choices TACOS leaves to chance made deliberately:

- every logical link (links.py) is a server; when it and every physical link of its path are free
  and its source holds a chunk its destination neither holds nor is receiving, it sends one. Which
  one: of two random picks among those (uniform over the link's list of such chunks when its
  source has at most 8 out-links, as on grids; on switch groups, where a landing chunk would join
  dozens of lists, a scan back from a random place in the source's arrival order, after 64 steps
  the first such chunk of its bitset from a random word), the one fewer ranks hold or are
  receiving (rarest of two:
  keeps neighbours' holdings different, so links rarely starve; pure newest-first, what a ring
  does, starves the fast links of a Ring-FC-Switch system and reaches only 55-75 % of the bound);
- when a path frees, the links sharing a physical link with it are offered it neediest
  destination first (fewest chunks held or coming): without that, one switch group of a 3-D RFS
  system falls behind and finishes alone (72 % of the bound instead of 95 %);
- a link with nothing to send waits until its source receives a chunk; a destination never
  receives a chunk twice (chunks in flight count as held), so each chunk spreads over a tree:
  reversed, that tree is a valid reduction (reduce-scatter).

The loop runs in the Rust engine (simengine/src/synth.rs: a per-link count of the chunks its
source could give keeps each try O(path length); events are bucketed by time, so the cost per
transfer is nearly flat in the number of NPUs). Times are ns; sizes bytes; bandwidth Gbit/s.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ..errors import InfraGraphError, error
from .links import LogicalLinks


@dataclass(frozen=True)
class Timeline:
    """A timed all-gather: transfer i moves `chunk[i]` over logical link `link[i]`, occupying its
    path from `start[i]` for the link's serialization time, and lands at `arrive[i]` (start order).
    Compact: `link` and `chunk` are the engine's uint32 columns (read-only views, 16 B per transfer
    with `start`); `arrive` is computed when first asked for (a 16,384-NPU all-gather has 268 M
    transfers)."""

    link: np.ndarray  # uint32
    chunk: np.ndarray  # uint32
    start: np.ndarray  # float64, ns
    fly_ns: np.ndarray  # per logical link: start to landing
    transfers: int
    time_ns: float

    @cached_property
    def arrive(self) -> np.ndarray:
        return self.start + self.fly_ns[self.link]


def engine_arrays(links: LogicalLinks, chunk_bytes: float) -> dict:
    """The logical links as the engine's synthesis functions take them (bytes of u32 / f64)."""
    ser = 8.0 * chunk_bytes / links.bandwidth_gbps
    res, dense = np.unique(links.resources, return_inverse=True)
    return dict(npus=links.npus, src=links.src.astype("<u4").tobytes(), dst=links.dst.astype("<u4").tobytes(),
                ser=ser.astype("<f8").tobytes(), fly=(ser + links.latency_ns).astype("<f8").tobytes(),
                path_ptr=links.resource_ptr.astype("<u4").tobytes(), path=dense.reshape(-1).astype("<u4").tobytes(),
                resources=int(res.size))


def all_gather(links: LogicalLinks, chunks_per_rank: int, chunk_bytes: float, seed: int = 0,
               record: bool = True, owner: np.ndarray | None = None) -> Timeline:
    """Greedy all-gather: rank r starts with chunks r*K .. r*K+K-1, every rank ends with all n*K;
    `owner` (one rank per chunk, n*K of them) says instead where each chunk starts.
    `record` False keeps only the transfer count and the time (for very large fabrics)."""
    from .._simengine import synth_all_gather

    check_connected(links)
    extra = {} if owner is None else {"owner": np.asarray(owner, dtype="<u4").tobytes()}
    try:
        raw = synth_all_gather(**engine_arrays(links, chunk_bytes), chunks_per_rank=chunks_per_rank, seed=seed,
                               record=record, **extra)
    except ValueError as exc:
        raise error(f"cannot synthesize: {exc}") from None
    fly = 8.0 * chunk_bytes / links.bandwidth_gbps + links.latency_ns
    return Timeline(np.frombuffer(raw["link"], dtype="<u4"), np.frombuffer(raw["chunk"], dtype="<u4"),
                    np.frombuffer(raw["start"], dtype="<f8"), fly, int(raw["transfers"]), float(raw["time_ns"]))


class SplitFabricError(InfraGraphError):
    """The NPUs fall into parts that cannot exchange chunks. Its own type so that a caller which
    applied failures locates it at the failure option (cli/synthesize.py), not at `<input>`."""


def check_connected(links: LogicalLinks) -> None:
    """Every rank must reach every other over logical links (the chunks spread hop by hop)."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import connected_components

    n = links.npus
    m = csr_matrix((np.ones(links.src.size), (links.src, links.dst)), shape=(n, n))
    count, label = connected_components(m, directed=True, connection="strong")
    if count > 1:
        a = int(np.flatnonzero(label == label[0])[-1])
        b = int(np.flatnonzero(label != label[0])[0])
        raise SplitFabricError(error(f"the NPUs are not all connected: rank {a} and rank {b} cannot exchange chunks "
                                     f"over the surviving links ({count} separate parts)",
                                     hint="fail fewer links").diagnostics)
