"""Bisection bandwidth as a max-flow, healthy and under random cable failures.

The bisection here is the cut between the first and the second half of the NPUs in rank order
(`graph.ranks`): the maximum rate the first half can send to the second half at once, each link
carrying up to its bandwidth in each direction (full duplex), links without a stated bandwidth
unlimited. It is this split's min cut — on the blueprints' numbering (a Clos's first half of pods,
a torus's lower half) the usual bisection — not the minimum over every balanced split, which is
NP-hard in general.

Random trials fail `k` cables (edges between instance copies, `graph.failures.cables`) drawn by
numpy's PCG64 from seeds `seed0 .. seed0 + trials - 1`; each trial re-evaluates only what its
failures change (`ReducedNetwork.values_after`) and runs one max-flow on the reduced core.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

from ..errors import error
from ..graph.failures import cables, draw_cables
from ..graph.fqg import FQG
from ..graph.ranks import npu_order
from ..processes import process_pool
from .maxflow import FlowValue, ReducedNetwork, Trials


@dataclass
class Bisection:
    network: ReducedNetwork
    capacity: np.ndarray  # Gbit/s per edge, inf where unstated
    cables: np.ndarray
    halves: tuple[int, int]  # NPUs on each side

    def healthy(self) -> FlowValue:
        return self.network.max_flow(self.capacity)


def bisection(g: FQG) -> Bisection:
    """The reduced flow network between the two halves of `g`'s NPUs."""
    npus = npu_order(g)
    if npus.size < 2:
        raise error(f"graph '{g.name}' has {npus.size} NPU{'' if npus.size == 1 else 's'}; a bisection needs at least 2",
                    hint="NPUs are the components of kind xpu (or the endpoints annotated with a rank)")
    half = npus.size // 2
    cap = np.asarray(g.edge_bandwidth_gbps(), dtype=np.float64)
    cap = np.where(np.isnan(cap), np.inf, cap)
    net = ReducedNetwork(g.num_nodes, g.edge_src, g.edge_dst, npus[:half], npus[half:])
    return Bisection(net, cap, cables(g), (int(half), int(npus.size - half)))


_WORKER: dict = {}


def _init(b: Bisection) -> None:
    _WORKER["b"] = b
    _WORKER["trials"] = Trials(b.network, b.capacity)


def _trial(args: tuple[int, int]) -> tuple[int, float, bool]:
    k, seed = args
    fv = _WORKER["trials"].run(draw_cables(_WORKER["b"].cables, k, seed))
    return seed, fv.gbps, fv.exact


def random_trials(b: Bisection, k: int, trials: int, seed0: int = 0, workers: int | None = None) -> np.ndarray:
    """Bisection (Gbit/s) after failing `k` random cables, one value per seed seed0.. (in seed order).
    `workers` processes share the trials (default: up to 2, the CPUs available, when trials >= 50)."""
    if k < 1 or k > b.cables.size:
        raise error(f"cannot fail {k} of {b.cables.size} cables; give 1..{b.cables.size}", "--random-failures")
    if trials < 1:
        raise error(f"the number of trials must be at least 1, got {trials}", "--trials")
    jobs = [(k, seed0 + i) for i in range(trials)]
    if workers is None:
        workers = min(2, os.cpu_count() or 1) if trials >= 50 else 1
    if workers <= 1:
        _init(b)
        out = [_trial(j) for j in jobs]
    else:
        with process_pool(workers, initializer=_init, initargs=(b,)) as pool:
            out = list(pool.map(_trial, jobs, chunksize=max(1, trials // (4 * workers))))
    return np.array([v for _, v, _ in out])
