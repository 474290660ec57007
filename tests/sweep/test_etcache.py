"""The ET-set cache of workload sweeps (infragraph/sweep/etcache.py): one set per workload, written
by one worker into a folder of its own and renamed whole; concurrent workers wait for it."""

from __future__ import annotations

from pathlib import Path

from infragraph.processes import safe_context
from infragraph.sweep import etcache
from infragraph.workload.llm import LlmSpec

SPEC = LlmSpec(layers=2, hidden=256, heads=4, seq=128, vocab=100, global_batch=4, tp=2, dp=2)


def test_a_set_is_generated_once_and_then_reused(tmp_path):
    prefix, generated = etcache.ensure(tmp_path, "k1", SPEC)
    assert generated and prefix == str(tmp_path / "k1" / etcache.PREFIX)
    assert sorted(p.name for p in (tmp_path / "k1").iterdir()) == [f"step.{r}.et" for r in range(4)] + ["step.json"]
    mtime = Path(f"{prefix}.0.et").stat().st_mtime_ns
    assert etcache.ensure(tmp_path, "k1", SPEC) == (prefix, False)
    assert Path(f"{prefix}.0.et").stat().st_mtime_ns == mtime


def _ensure(cache: str) -> bool:
    return etcache.ensure(cache, "shared", SPEC)[1]


def test_concurrent_workers_generate_one_set_between_them(tmp_path):
    with safe_context().Pool(3) as pool:
        generated = pool.map(_ensure, [str(tmp_path)] * 3)
    assert generated.count(True) == 1
    assert not list(tmp_path.glob(".*.tmp"))  # no writer's folder left behind
    assert len(list((tmp_path / "shared").glob("step.*.et"))) == 4


def test_a_killed_writers_folder_is_removed_and_never_read(tmp_path):
    stale = tmp_path / ".k2.host.123.abcd.tmp"
    stale.mkdir()
    (stale / "step.0.et").write_bytes(b"half")
    etcache.clean(tmp_path)
    assert not stale.exists()
    assert etcache.ensure(tmp_path, "k2", SPEC)[1]
