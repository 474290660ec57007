"""Process pools stay usable after the engine ran its rayon thread pool in the parent.

A plain fork at that point hangs the child's first parallel engine call (rayon's pool state is
copied without its threads; seen in CI as a corpus test's workers asleep in `HubTrees::new`).
`process_pool` must never fork the parent."""

from __future__ import annotations

from infragraph.processes import process_pool, safe_context
from infragraph.workload.llm import Generator, LlmSpec
from infragraph.workload.trace import read_et_set

SPEC = LlmSpec(layers=2, hidden=256, heads=4, seq=128, vocab=100, global_batch=4, tp=2, dp=2)


def _nodes(prefix: str) -> int:
    """Read the ET set: the engine decodes its four files in parallel (rayon)."""
    return sum(len(c) for c in read_et_set(prefix, 4, prefix + ".json").nodes)


def test_the_pool_never_forks_the_parent():
    assert safe_context().get_start_method() in ("forkserver", "spawn")


def test_workers_run_the_engine_after_the_parent_did(tmp_path):
    Generator(SPEC).write(tmp_path / "step")
    prefix = str(tmp_path / "step")
    here = _nodes(prefix)  # starts rayon's pool in this process
    with process_pool(2) as pool:
        there = list(pool.map(_nodes, [prefix, prefix], timeout=300))
    assert there == [here, here] and here > 0
