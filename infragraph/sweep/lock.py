"""One sweep at a time per output: RESULTS.lock, held with an advisory `flock` for the whole run.

Two sweeps writing one journal would interleave their rows and each rewrite the table from its
own view, so the second is refused, naming the holder (pid, host, start time — written into the
file for that message only). The lock itself is the kernel's: it is released when its process
ends, however it ends (SIGKILL and OOM kills included), so a lock file left by a dead process is
stale by construction and is simply taken over; nothing has to guess from a pid whether the
holder still lives. The file is removed on a clean release. `flock` is local to one machine (and
unreliable on some network file systems): two hosts sweeping into one shared folder are not
guarded against each other.
"""

from __future__ import annotations

import fcntl
import os
import socket
import time
from pathlib import Path

from ..errors import Diagnostic, InfraGraphError, Location


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
        while True:
            fd = self._open()
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = _read(fd)
                os.close(fd)
                raise InfraGraphError(Diagnostic(
                    f"another sweep is writing these results ({holder or 'holder unknown'})", Location(str(self.path)),
                    "wait for it to finish, or write elsewhere with another -o; the lock is released when that "
                    "process ends, however it ends")) from None
            # The file may have been removed (a holder releasing) between our open and our flock: then
            # this lock is on an orphaned file; open the path again.
            try:
                same = os.path.samestat(os.fstat(fd), os.stat(self.path))
            except FileNotFoundError:
                same = False
            if same:
                break
            os.close(fd)
        os.ftruncate(fd, 0)
        os.write(fd, (f"pid {os.getpid()} on {socket.gethostname()}, since "
                      f"{time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime())}\n").encode())
        self._fd = fd

    def release(self) -> None:
        if self._fd is None:
            return
        self.path.unlink(missing_ok=True)  # still holding it: nobody can take the file being removed
        os.close(self._fd)
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
