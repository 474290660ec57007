"""Worker processes that stay safe once the Rust engine has run in the parent.

The engine spreads some work (switch trees, ET decoding) over rayon's global thread pool. A
process forked after that pool exists inherits the pool's state but none of its threads, so the
child's first parallel call waits forever (seen in CI: a test's forked workers asleep in
`HubTrees::new`). Every process pool the toolchain starts therefore uses `forkserver` (a clean
server process forks the workers), or `spawn` where there is no forkserver, never plain `fork`.

Workers end with the process that started the pool. A worker blocks reading its task queue, whose
write end it holds itself, so it never sees the pool's owner die: a sweep killed with `kill -9`
left its workers (each holding up to 8 compiled graphs) alive and idle forever. Each worker
therefore watches its owner (`watch_owner`) and exits when the owner has gone.
"""

from __future__ import annotations

import multiprocessing
import os
import select
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.context import BaseContext
from typing import Any, Callable, Sequence


def safe_context(preload: Sequence[str] = ()) -> BaseContext:
    """A start method that never forks the calling process; `preload`: modules the forkserver
    imports once, so each worker starts warm."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    ctx = multiprocessing.get_context("forkserver")
    if preload:
        ctx.set_forkserver_preload(list(preload))
    return ctx


def process_pool(workers: int, preload: Sequence[str] = (), initializer: Callable[..., Any] | None = None,
                 initargs: tuple = (), **kwargs: Any) -> ProcessPoolExecutor:
    """A ProcessPoolExecutor of `workers` processes started by `safe_context`, each of which exits
    when this process has gone (then runs `initializer(*initargs)`, if given)."""
    return ProcessPoolExecutor(max_workers=workers, mp_context=safe_context(preload), initializer=_start_worker,
                               initargs=(os.getpid(), initializer, initargs), **kwargs)


def _start_worker(owner: int, initializer: Callable[..., Any] | None, initargs: tuple) -> None:
    watch_owner(owner, lambda: os._exit(1))
    if initializer is not None:
        initializer(*initargs)


def watch_owner(pid: int, on_gone: Callable[[], None]) -> threading.Thread:
    """Call `on_gone` (from a daemon thread) once process `pid` has exited: at once through a pidfd
    where the kernel has them (Linux 5.3+), else by checking every second."""
    try:
        fd: int | None = os.pidfd_open(pid)
    except ProcessLookupError:  # gone already
        fd = -1
    except (AttributeError, OSError):  # no pidfds here
        fd = None

    def wait() -> None:
        if fd is not None and fd >= 0:
            select.select([fd], [], [])
            os.close(fd)
        elif fd is None:
            while _alive(pid):
                time.sleep(1.0)
        on_gone()

    t = threading.Thread(target=wait, name=f"watch-owner-{pid}", daemon=True)
    t.start()
    return t


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # exists, owned by someone else
        return True
    return True
