"""Lower bounds on a collective's time on a fabric: what no schedule can beat (docs/collectives.md).

Why: a synthesized schedule is only judged against something it cannot beat. The bounds count
bytes that must cross NPU ports, with each NPU's port bandwidth read off its logical links
(links.py: the distinct first hops out of an NPU, the distinct last hops into it), so a mesh
corner's two unused ports or a failed link do not count. Units: bytes, Gbit/s, ns.

For n ranks, per-NPU buffer D bytes (all-gather: the output, n shards), B_in(v) / B_out(v) an
NPU's port bandwidth into / out of it:
- all-gather: every rank receives the (n-1)/n D it does not own: T >= max_v (n-1)/n D / B_in(v);
- reduce-scatter: every rank sends its contribution to the n-1 chunks it does not own:
  T >= max_v (n-1)/n D / B_out(v);
- all-reduce: per rank, every element's sum depends on the other ranks' contributions and every
  other rank's sum on this rank's, so each rank receives at least one value per element and sends
  at least one, D bytes each way wherever the chunks are reduced: T >= max_v D / B_in(v) and
  max_v D / B_out(v). And the aggregate one: combining n contributions of a chunk and returning
  the sum to all n ranks takes at least 2(n-1) one-way transfers of that chunk (one-way gossip
  needs 2n-2 calls), so the ranks send at least 2(n-1) D bytes in total:
  T >= 2(n-1) D / sum_v B_out(v), which is 2(n-1)/n D / B on a fabric of equal NPUs.
Not counted: latency, and cuts between groups of NPUs (a tighter bound where a cut, not the NPU
ports, is the bottleneck).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .links import LogicalLinks


@dataclass(frozen=True)
class Bound:
    time_ns: float
    reason: str  # which bound binds, in words


def lower_bound(links: LogicalLinks, collective: str, size_bytes: float) -> Bound:
    """The largest of the bounds above for `collective` with per-NPU buffer `size_bytes` (all-gather:
    the gathered output)."""
    n = links.npus
    # Bits each rank must receive (all-gather) or send (reduce-scatter); all-reduce: both, all D.
    share = (size_bytes if collective == "all-reduce" else (n - 1) / n * size_bytes) * 8.0
    candidates: list[Bound] = []
    if collective in ("all-gather", "all-reduce"):
        v = int(np.argmin(links.ingress_gbps))
        candidates.append(Bound(share / links.ingress_gbps[v],
                                f"rank {v} receives {'all' if collective == 'all-reduce' else '(n-1)/n'} of the buffer over {links.ingress_gbps[v]:g} Gbit/s of ports"))
    if collective in ("reduce-scatter", "all-reduce"):
        v = int(np.argmin(links.egress_gbps))
        candidates.append(Bound(share / links.egress_gbps[v],
                                f"rank {v} sends {'all' if collective == 'all-reduce' else '(n-1)/n'} of the buffer over {links.egress_gbps[v]:g} Gbit/s of ports"))
    if collective == "all-reduce":
        total = float(links.egress_gbps.sum())
        candidates.append(Bound(2 * (n - 1) * size_bytes * 8.0 / total,
                                f"2(n-1) x the buffer leaves the ranks over {total:g} Gbit/s of NPU ports in all"))
    return max(candidates, key=lambda b: b.time_ns)
