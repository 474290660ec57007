"""Worker processes that stay safe once the Rust engine has run in the parent.

The engine spreads some work (switch trees, ET decoding) over rayon's global thread pool. A
process forked after that pool exists inherits the pool's state but none of its threads, so the
child's first parallel call waits forever (seen in CI: a test's forked workers asleep in
`HubTrees::new`). Every process pool the toolchain starts therefore uses `forkserver` (a clean
server process forks the workers), or `spawn` where there is no forkserver, never plain `fork`.
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.context import BaseContext
from typing import Any, Sequence


def safe_context(preload: Sequence[str] = ()) -> BaseContext:
    """A start method that never forks the calling process; `preload`: modules the forkserver
    imports once, so each worker starts warm."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    ctx = multiprocessing.get_context("forkserver")
    if preload:
        ctx.set_forkserver_preload(list(preload))
    return ctx


def process_pool(workers: int, preload: Sequence[str] = (), **kwargs: Any) -> ProcessPoolExecutor:
    """A ProcessPoolExecutor of `workers` processes started by `safe_context`."""
    return ProcessPoolExecutor(max_workers=workers, mp_context=safe_context(preload), **kwargs)
