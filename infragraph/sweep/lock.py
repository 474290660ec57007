"""One sweep at a time per output: RESULTS.lock, held with a POSIX record lock for the whole run.

Two sweeps writing one journal would interleave their rows and each rewrite the table from its
own view, so the second is refused, naming the holder (pid, host, start time — written into the
file for that message only). The lock itself is the kernel's: it is released when its process
ends, however it ends (SIGKILL and OOM kills included), so a lock file left by a dead process is
stale by construction and is simply taken over; nothing has to guess from a pid whether the
holder still lives. The file is removed on a clean release.

Why a record lock (`lockf`, fcntl F_SETLK) and not `flock`: a `flock` belongs to the open file,
which every child the run forks shares until it execs. Starting the worker pool vforks the
forkserver and the resource tracker; a run killed in that window left a dying child holding the
lock after the run itself was gone, and the next run was refused (seen in CI). A record lock
belongs to the process alone and is never inherited. The kernel does not refuse a process its
own record lock, so this process's held paths are also kept in `_HELD`: a second sweep into the
same output from another thread is refused as one from another process is. Record locks, like
`flock`, are local to one machine (and unreliable on some network file systems): two hosts
sweeping into one shared folder are not guarded against each other.
"""

from __future__ import annotations

import fcntl
import os
import socket
import threading
import time
from pathlib import Path

from ..errors import Diagnostic, InfraGraphError, Location

_HELD: set[tuple[int, int]] = set()  # (device, inode) of the lock files this process holds
_HELD_GUARD = threading.Lock()


class OutputLock:
    """`with OutputLock(path):` holds `path` exclusively, or raises a located InfraGraphError."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._fd: int | None = None

    def __enter__(self) -> OutputLock:
        self.acquire()
        return self

    def __exit__(self, *exc) -> None:
        self.release()

    def acquire(self) -> None:
        with _HELD_GUARD:  # one acquire or release at a time in this process: _HELD stays exact
            fd, key = self._lock()
            os.ftruncate(fd, 0)
            os.write(fd, (f"pid {os.getpid()} on {socket.gethostname()}, since "
                          f"{time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime())}\n").encode())
            _HELD.add(key)
            self._fd = fd

    def _lock(self) -> tuple[int, tuple[int, int]]:
        """The locked descriptor of the file now at `path`, and that file's (device, inode)."""
        while True:
            fd = self._open()
            st = os.fstat(fd)
            key = (st.st_dev, st.st_ino)
            try:
                if key in _HELD:
                    raise BlockingIOError
                fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except (BlockingIOError, PermissionError):  # EAGAIN or EACCES, by platform
                holder = _read(fd)
                if key not in _HELD:  # closing a descriptor of a file this process holds drops its record lock:
                    os.close(fd)      # that one is kept open until exit (only a same-process second sweep)
                raise InfraGraphError(Diagnostic(
                    f"another sweep is writing these results ({holder or 'holder unknown'})", Location(str(self.path)),
                    "wait for it to finish, or write elsewhere with another -o; the lock is released when that "
                    "process ends, however it ends")) from None
            # The file may have been removed (a holder releasing) between our open and our lock: then
            # this lock is on an orphaned file; open the path again.
            try:
                same = os.path.samestat(st, os.stat(self.path))
            except FileNotFoundError:
                same = False
            if same:
                return fd, key
            os.close(fd)

    def release(self) -> None:
        with _HELD_GUARD:
            if self._fd is None:
                return
            st = os.fstat(self._fd)
            self.path.unlink(missing_ok=True)  # still holding it: nobody can take the file being removed
            os.close(self._fd)
            _HELD.discard((st.st_dev, st.st_ino))
            self._fd = None

    def _open(self) -> int:
        try:
            return os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as e:
            raise InfraGraphError(Diagnostic(f"cannot create the sweep's lock file: {e.strerror or e}",
                                             Location(str(self.path)))) from None


def _read(fd: int) -> str:
    try:
        return os.pread(fd, 200, 0).decode("utf-8", "replace").strip()
    except OSError:
        return ""
