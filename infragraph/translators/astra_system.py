"""The ASTRA-sim system layer every ASTRA-sim-family bundle shares (analytical, ns-3, HTSim) and the
engine bundle mirrors: the system.json settings and their defaults, the per-dimension collective
algorithms (topology-aware), the inputs ASTRA-sim is known to abort or hang on, and ranks.txt.

The engine's spellings of the same algorithms are here too (ENGINE_ALGORITHM), so a bundle and
`infragraph simulate` name one algorithm the same way without importing each other.
"""

from __future__ import annotations

import json
from typing import Any, Callable

import numpy as np

from ..errors import Diagnostic, Location
from .base import Setting, choice, list_of, parse_int, parse_positive_float, parse_positive_int, render
from .chakra_et import Workload
from .structure import FC, RING, SW, Dimension, Fabric

DEFAULT_ALGORITHM = {RING: "ring", FC: "direct", SW: "halvingDoubling"}
# all-to-all has no halvingDoubling in ASTRA-sim: exit 1, "unknown communication type for HalvingDoubling"
ALGORITHMS = {
    "all-reduce-implementation": ("ring", "direct", "halvingDoubling", "doubleBinaryTree"),
    "reduce-scatter-implementation": ("ring", "direct", "halvingDoubling"),
    "all-gather-implementation": ("ring", "direct", "halvingDoubling"),
    "all-to-all-implementation": ("ring", "direct"),
}
COLLECTIVE_KEY = {"all-reduce": "all-reduce-implementation", "reduce-scatter": "reduce-scatter-implementation",
                  "all-gather": "all-gather-implementation", "all-to-all": "all-to-all-implementation"}
# The engine's name for each ASTRA-sim algorithm (`infragraph simulate --algorithm`).
ENGINE_ALGORITHM = {"ring": "ring", "direct": "direct", "halvingDoubling": "halving-doubling",
                    "doubleBinaryTree": "double-binary-tree"}

SYSTEM_SETTINGS: tuple[Setting, ...] = (
    Setting("scheduling-policy", "LIFO", "order in which ready chunks are served (LIFO|FIFO)", choice("LIFO", "FIFO")),
    Setting("endpoint-delay", "10", "ns an NPU spends per message endpoint (integer >= 1; 0 aborts ASTRA-sim)",
            parse_int),
    Setting("active-chunks-per-dimension", "1", "chunks in flight per dimension queue", parse_positive_int),
    Setting("preferred-dataset-splits", "4", "chunks per collective (missing -> ASTRA divides by zero)",
            parse_positive_int),
    *(Setting(key, "", f"one algorithm per dimension ({'|'.join(algs)}); empty = the backend's default "
              "(analytical and ns-3: Ring->ring, FullyConnected->direct, Switch->halvingDoubling, or direct "
              "when its size is not a power of two or the collective is all-to-all; HTSim: ring)",
              list_of(choice(*algs))) for key, algs in ALGORITHMS.items()),
    Setting("collective-optimization", "localBWAware",
            "localBWAware: reduce-scatter/all-gather around the last dimension; baseline: all-reduce per dimension",
            choice("baseline", "localBWAware")),
    Setting("local-mem-bw", "1600", "GB/s (GB = 1e9 here) for reductions; missing -> undefined delay",
            parse_positive_float),
    Setting("intra-dimension-scheduling", "FIFO", "where a chunk waits in a dimension's queue (FIFO|SCF|"
            "lessRemainingPhaseFirst); ASTRA-sim 518bd51's JSON loader ignores it (runs FIFO)",
            choice("FIFO", "SCF", "lessRemainingPhaseFirst")),
    Setting("inter-dimension-scheduling", "baseline", "order in which chunks visit the dimensions (baseline|"
            "ascending|themis|offlineGreedy|offlineGreedyFlex); ASTRA-sim 518bd51's JSON loader ignores it (runs "
            "baseline)", choice("baseline", "ascending", "themis", "offlineGreedy", "offlineGreedyFlex")),
)


def _is_pow2(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


def default_algorithm(dim: Dimension, key: str) -> str:
    """Topology-aware: ring on a Ring, direct on a clique, halvingDoubling on a power-of-two Switch
    (system_config falls back to ring for an all-reduce too small for it)
    (direct otherwise, and always for all-to-all, which has no halvingDoubling)."""
    algo = DEFAULT_ALGORITHM[dim.kind]
    if algo == "halvingDoubling" and (not _is_pow2(dim.size) or "halvingDoubling" not in ALGORITHMS[key]):
        return "direct"
    return algo


def system_config(dims: list[Dimension], values: dict[str, Any], workload: Workload,
                  default: Callable[[Dimension, str], str] = default_algorithm) -> tuple[dict[str, Any], list[Diagnostic]]:
    """The system.json object for these dimensions (every key of the note, user overrides applied),
    and the refusals for inputs ASTRA-sim is known to abort or hang on with this workload."""
    out: dict[str, Any] = {
        "scheduling-policy": values["scheduling-policy"],
        "endpoint-delay": values["endpoint-delay"],
        "active-chunks-per-dimension": values["active-chunks-per-dimension"],
        "preferred-dataset-splits": values["preferred-dataset-splits"],
    }
    diags = []
    if values["endpoint-delay"] < 1:
        diags.append(Diagnostic(f"endpoint-delay {values['endpoint-delay']} ns: ASTRA-sim aborts with 0 (event queue "
                                f"assertion 'get_event_time() > current_time')", Location(path="--set endpoint-delay"),
                                "use --set endpoint-delay=1 or more"))
    npus = int(np.prod([d.size for d in dims])) if dims else 1
    too_small_for_hd = workload.size_bytes // values["preferred-dataset-splits"] < 2 * npus
    for key in ALGORITHMS:
        given = values[key]
        if not given:
            out[key] = [default(d, key) for d in dims]
            if key == "all-reduce-implementation" and too_small_for_hd:  # halvingDoubling would abort: ring
                out[key] = ["ring" if a == "halvingDoubling" else a for a in out[key]]
            continue
        if len(given) != len(dims):
            diags.append(Diagnostic(f"{key} lists {len(given)} algorithm(s) but the network has {len(dims)} "
                                    f"dimension(s)", Location(path=f"--set {key}"),
                                    f"give one per dimension, e.g. {','.join(default(d, key) for d in dims)}"))
            continue
        for i, (algo, d) in enumerate(zip(given, dims)):
            if algo == "halvingDoubling" and not _is_pow2(d.size):
                diags.append(Diagnostic(f"{key}: halvingDoubling on dimension {i} needs a power-of-two size, "
                                        f"the dimension has {d.size} NPUs", Location(path=f"--set {key}")))
        out[key] = list(given)
    out["collective-optimization"] = values["collective-optimization"]
    out["local-mem-bw"] = values["local-mem-bw"]
    out["intra-dimension-scheduling"] = values["intra-dimension-scheduling"]
    out["inter-dimension-scheduling"] = values["inter-dimension-scheduling"]
    diags += workload_refusals(out, dims, workload)
    return out, diags


def workload_refusals(system: dict[str, Any], dims: list[Dimension], w: Workload) -> list[Diagnostic]:
    """Collective sizes ASTRA-sim cannot chunk: it aborts (all-reduce halvingDoubling with fewer than
    2 bytes per NPU per chunk, 'chunk_size > 0') or never finishes (all-gather of fewer bytes than chunks)."""
    splits = system["preferred-dataset-splits"]
    npus = int(np.prod([d.size for d in dims])) if dims else 1
    where = Location(path="--size")  # the user's choice of halvingDoubling (a default falls back to ring)
    if w.collective == "all-reduce" and "halvingDoubling" in system.get("all-reduce-implementation", ()) \
            and w.size_bytes // splits < 2 * npus:
        return [Diagnostic(f"all-reduce of {w.size_bytes} bytes with halvingDoubling and {splits} chunks on {npus} NPUs: "
                           f"ASTRA-sim aborts ('chunk_size > 0') below 2 bytes per NPU per chunk", where,
                           f"use --size {2 * npus * splits}B or more, or --set all-reduce-implementation=ring,...")]
    if w.collective == "all-gather" and w.size_bytes < splits:
        return [Diagnostic(f"all-gather of {w.size_bytes} bytes in {splits} chunks: a 0-byte chunk, which ASTRA-sim "
                           f"never finishes", where, f"use --size {splits}B or more, or fewer "
                           f"preferred-dataset-splits")]
    return []


def rank_names(fab: Fabric, order: np.ndarray | None = None) -> list[str]:
    """The NPU node name of each rank (`order`: NPU vertex per rank when a model renumbers them)."""
    names = fab.g.node_names
    vertices = fab.vertex_node[:fab.num_npus] if order is None else fab.vertex_node[order]
    return [names[i] for i in vertices.tolist()]


def ranks_file(names: list[str]) -> str:
    """ranks.txt: the template's header, then one 'rank<TAB>node' line per NPU (joined here, not in a
    template loop, because it has one line per NPU: 262,144 in the Clos benchmark)."""
    return render("ranks.txt.j2", body="".join(f"{i}\t{n}\n" for i, n in enumerate(names)))


REMOTE_MEMORY = json.dumps({"memory-type": "NO_MEMORY_EXPANSION"}, indent=2) + "\n"
