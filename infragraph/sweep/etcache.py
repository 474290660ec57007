"""The ET sets of a workload sweep, generated once per distinct workload and shared by its points.

`RESULTS.workloads/<key>/step.<rank>.et` + `step.json`, where `<key>` is a content hash of the
point's LlmSpec and the toolchain (sweep/workloads.py `job_key`): points that differ only in the
fabric or the simulation options replay one ET set. No two writers ever share a folder: a worker
generates into a temporary folder of its own (host, pid, a random suffix) and renames it to
`<key>` in one step, so a reader sees a whole set or none. A per-key `flock` makes the other
workers of this machine wait for the set being written instead of generating it again; across
hosts (Dask on a shared folder) the rename alone keeps the set whole, at worst generated twice.
A killed run's temporary folders are removed when the next run starts (`clean`).
"""

from __future__ import annotations

import fcntl
import os
import shutil
import socket
import uuid
from pathlib import Path

from ..workload.llm import Generator, LlmSpec

PREFIX = "step"  # the ET set's file prefix inside its folder


def ensure(cache: str | os.PathLike, key: str, spec: LlmSpec) -> tuple[str, bool]:
    """The prefix of `spec`'s ET set in `cache` (generated now if missing) and whether this call
    generated it."""
    cache = Path(cache)
    final = cache / key
    prefix = str(final / PREFIX)
    if final.is_dir():
        return prefix, False
    cache.mkdir(parents=True, exist_ok=True)
    with open(cache / f".{key}.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another worker writing this set: wait for it
        try:
            if final.is_dir():
                return prefix, False
            tmp = cache / f".{key}.{socket.gethostname()}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp"
            try:
                Generator(spec).write(tmp / PREFIX)
                os.rename(tmp, final)
            except OSError:
                shutil.rmtree(tmp, ignore_errors=True)
                if not final.is_dir():  # not another host's set arriving first: a real failure
                    raise
                return prefix, False
            return prefix, True
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def clean(cache: Path) -> None:
    """Remove the temporary folders a killed run left (called while the sweep holds its output's
    lock, before any worker starts)."""
    if cache.is_dir():
        for tmp in cache.glob(".*.tmp"):
            shutil.rmtree(tmp, ignore_errors=True)
