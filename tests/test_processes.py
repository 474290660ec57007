"""Process pools stay usable after the engine ran its rayon thread pool in the parent.

A plain fork at that point hangs the child's first parallel engine call (rayon's pool state is
copied without its threads; seen in CI as a corpus test's workers asleep in `HubTrees::new`).
`process_pool` must never fork the parent."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from infragraph.processes import process_pool, safe_context, watch_owner
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


def _running(pid: int) -> bool:
    """Alive and not a zombie (an orphan's zombie waits for whoever reaps it)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError):
        return False


def test_watch_owner_calls_back_when_the_process_exits():
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    gone = threading.Event()
    watch_owner(child.pid, gone.set)
    assert not gone.wait(0.2)
    child.kill()
    child.wait()
    assert gone.wait(120)


OWNER = """
import os, sys, time
from infragraph.processes import process_pool
pool = process_pool(1)
print(pool.submit(os.getpid).result(timeout=300), flush=True)
time.sleep(600)
"""


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_workers_exit_when_the_pool_owner_is_killed():
    """A sweep killed with SIGKILL left its pool's workers alive and idle forever."""
    owner = subprocess.Popen([sys.executable, "-c", OWNER], stdout=subprocess.PIPE, text=True)
    try:
        worker = int(owner.stdout.readline())
        assert _running(worker)
    finally:
        owner.kill()
        owner.wait()
    deadline = time.monotonic() + 120  # the worker exits at once (pidfd); generous under load
    while _running(worker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _running(worker)
