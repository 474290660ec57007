"""The output lock (infragraph/sweep/lock.py): held by the sweep's own process only."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from infragraph.errors import InfraGraphError
from infragraph.sweep.lock import OutputLock

ROOT = Path(__file__).resolve().parents[2]

# Takes the lock, forks a child that keeps every inherited descriptor and lives on, prints the
# child's pid, then dies by SIGKILL without releasing: a run killed while its pool was starting.
KILLED_WITH_A_CHILD = """
import os, signal, sys, time
from infragraph.sweep.lock import OutputLock
OutputLock(sys.argv[1]).acquire()
child = os.fork()
if child == 0:
    time.sleep(120)
    os._exit(0)
print(child, flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_a_killed_holders_forked_child_does_not_keep_the_lock(tmp_path):
    """Under `flock` the child shared the open file and so the lock: the next run was refused
    until the child died (a CI failure: a run SIGKILLed while it vforked its forkserver)."""
    lock = tmp_path / "r.lock"
    holder = subprocess.Popen([sys.executable, "-c", KILLED_WITH_A_CHILD, str(lock)], cwd=ROOT, stdout=subprocess.PIPE,
                              text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    child = int(holder.stdout.readline())
    try:
        assert holder.wait(timeout=60) == -signal.SIGKILL
        os.kill(child, 0)  # the child still lives, holding the holder's descriptors
        with OutputLock(lock):
            assert lock.read_text().startswith(f"pid {os.getpid()} ")
        assert not lock.exists()
    finally:
        os.kill(child, signal.SIGKILL)


def test_a_second_lock_on_the_same_output_in_this_process_is_refused(tmp_path):
    """The kernel never refuses a process its own record lock, so the lock refuses it itself,
    from any thread, and the first holder keeps its lock."""
    lock = tmp_path / "r.lock"
    with OutputLock(lock):
        errors: list[Exception] = []

        def second() -> None:
            try:
                OutputLock(lock).acquire()
            except InfraGraphError as e:
                errors.append(e)

        thread = threading.Thread(target=second)
        thread.start()
        thread.join()
        assert len(errors) == 1
        assert str(errors[0]).startswith(f"{lock}: error: another sweep is writing these results (pid {os.getpid()} on ")
        # still held against another process after the refused attempt
        other = subprocess.run([sys.executable, "-c", "import sys\nfrom infragraph.sweep.lock import OutputLock\n"
                                "OutputLock(sys.argv[1]).acquire()", str(lock)], cwd=ROOT, capture_output=True, text=True,
                               env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60)
        assert other.returncode != 0 and "another sweep is writing these results" in other.stderr
    with OutputLock(lock):  # released: free again in this process
        pass


def test_a_lock_released_is_taken_again_and_its_file_removed(tmp_path):
    lock = OutputLock(tmp_path / "r.lock")
    for _ in range(3):
        lock.acquire()
        assert (tmp_path / "r.lock").exists()
        lock.release()
        assert not (tmp_path / "r.lock").exists()
    lock.release()  # a second release is a no-op


def test_a_lock_that_cannot_be_created_is_a_located_error(tmp_path):
    with pytest.raises(InfraGraphError) as e:
        OutputLock(tmp_path / "missing" / "r.lock").acquire()
    assert str(e.value).startswith(f"{tmp_path / 'missing' / 'r.lock'}: error: cannot create the sweep's lock file: ")
