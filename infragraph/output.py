"""Writing output files: the one place every command's `-o`, `--json` and `--trace` goes through.

Two promises, for every output of every command:

* A path that cannot be written is a one-line located error (the path, what is wrong, what to do),
  found *before* the expensive work where possible (`check_output`), never a traceback.
* A failed run never leaves half a file: regular files are written to a temporary file in the same
  folder and renamed over the target only once complete (`open_output`). Special files that exist
  (`/dev/stdout`, a FIFO, `/dev/full`) are written in place — renaming over them would replace the
  device node. A file that must survive a crash too (a sweep's table, which replaces the journal of
  its rows) is also flushed to disk before the rename (`durable`), and a Ctrl-C that arrives while
  files that belong together are written waits until they are (`sigint_deferred`).
"""

from __future__ import annotations

import json
import os
import signal
import stat
import tempfile
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, Iterator, Sequence

from .errors import Diagnostic, InfraGraphError, Location

# A sweep's results table: written as both by sweep/store.py, either read by visualizer/table.py
# (plots). One definition, so that every name the sweep writes is one the plots read.
TABLE_SUFFIXES = (".parquet", ".csv")


def output_error(path: str | Path, message: str, hint: str | None = None, option: str | None = None) -> InfraGraphError:
    """'PATH: error: cannot write (OPTION): MESSAGE' as an InfraGraphError."""
    what = f"cannot write {option} output" if option else "cannot write"
    return InfraGraphError(Diagnostic(f"{what}: {message}", Location(str(path)), hint))


def _special(path: Path) -> bool:
    """An existing file that is not a regular file or a directory (a device, a FIFO, a socket)."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


def check_output(path: str | Path, suffixes: Sequence[str] | None = None, option: str | None = None,
                 suffix_hint: str = "name the file with one of these suffixes") -> Path:
    """Refuse an output path that cannot work, before any work is done: a directory, a folder that
    does not exist or is not a folder, a folder we may not write, or (when `suffixes` is given) a
    suffix that names another format. Returns the path."""
    p = Path(path)
    if p.is_dir():
        example = f", e.g. {p / ('out' + suffixes[0])}" if suffixes else " inside it"
        raise output_error(p, "it is a directory", f"give a file name{example}", option)
    if suffixes is not None and p.suffix.lower() not in suffixes and not _special(p):
        raise output_error(p, f"unknown output type '{p.suffix or '(no suffix)'}'; expected "
                              f"{', '.join(suffixes)}", suffix_hint, option)
    parent = p.parent
    if not parent.exists():
        raise output_error(p, f"the folder '{parent}' does not exist", f"create it first: mkdir -p {parent}", option)
    if not parent.is_dir():
        raise output_error(p, f"'{parent}' is not a folder", option=option)
    if not _special(p) and not os.access(parent, os.W_OK | os.X_OK):
        raise output_error(p, f"no permission to create files in '{parent}'", option=option)
    if p.exists() and not os.access(p, os.W_OK):
        raise output_error(p, "the file exists and is read-only", option=option)
    return p


def _file_mode() -> int:
    """The permissions a plainly created file gets (0666 less the umask); mkstemp makes 0600."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


@contextmanager
def open_output(path: str | Path, binary: bool = False, option: str | None = None,
                durable: bool = False) -> Iterator[IO]:
    """A file object to write `path` through; the target appears (or is replaced) only when the
    block finishes without an exception. OSError (full disk, missing folder, …) becomes a located
    InfraGraphError; any other exception propagates after the temporary file is removed.
    `durable`: the data is on disk (fsync) before the rename, and the rename after it (the
    folder's fsync), so a crash leaves the old file or the new one, never an empty one."""
    p = check_output(path, option=option)
    mode = "wb" if binary else "w"
    encoding = None if binary else "utf-8"
    if _special(p):
        try:
            with open(p, mode, encoding=encoding) as fh:
                yield fh
        except OSError as e:
            raise output_error(p, e.strerror or str(e), option=option) from None
        return
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".part", dir=str(p.parent))
    except OSError as e:
        raise output_error(p, e.strerror or str(e), option=option) from None
    try:
        with os.fdopen(fd, mode, encoding=encoding) as fh:
            yield fh
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
        os.chmod(tmp, _file_mode())
        os.replace(tmp, p)
        if durable:
            _sync_folder(p.parent)
    except OSError as e:
        _remove(tmp)
        raise output_error(p, e.strerror or str(e), option=option) from None
    except BaseException:
        _remove(tmp)
        raise


def _sync_folder(folder: Path) -> None:
    """fsync a folder, so that a rename in it is on disk (a no-op where folders cannot be opened)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems refuse fsync on a folder; the rename itself has happened
    finally:
        os.close(fd)


@contextmanager
def sigint_deferred() -> Iterator[None]:
    """Hold a Ctrl-C (SIGINT) that arrives inside the block until the block has finished, then
    deliver it to the handler in force before (Python's: KeyboardInterrupt at the block's end), so
    that files written together (a sweep's .parquet and .csv, then the journal they replace) are all
    written or none replaced. Only the main thread can take signals; elsewhere the block runs as is."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, _frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught:
        signal.raise_signal(signal.SIGINT)


def _remove(tmp: str) -> None:
    try:
        os.unlink(tmp)
    except OSError:
        pass


def write_text(path: str | Path, text: str, option: str | None = None) -> None:
    """Write `text` (UTF-8) to `path` atomically, with located errors."""
    with open_output(path, option=option) as fh:
        fh.write(text)


def write_json(path: str | Path, data: Any, option: str | None = None) -> None:
    """`data` as JSON at `path`, atomically; gzip-compressed when the name ends in .gz (a trace
    named t.json.gz was plain JSON under a .gz name; Perfetto opens both)."""
    if str(path).endswith(".gz"):
        import gzip

        with open_output(path, binary=True, option=option) as fh:
            with gzip.GzipFile(fileobj=fh, mode="wb", mtime=0) as gz:
                gz.write(json.dumps(data).encode("utf-8"))
        return
    with open_output(path, option=option) as fh:
        json.dump(data, fh)


def write_bytes(path: str | Path, data: bytes, option: str | None = None) -> None:
    """Write `data` to `path` atomically, with located errors."""
    with open_output(path, binary=True, option=option) as fh:
        fh.write(data)


def check_output_dir(path: str | Path, option: str | None = None) -> Path:
    """Refuse an output folder that exists as something else (checked before the work is done)."""
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise output_error(p, "it exists and is not a folder (this output is a folder of files)", option=option)
    return p


def make_output_dir(path: str | Path, option: str | None = None) -> Path:
    """Create the output folder `path` (and its parents), with a located error when it cannot be."""
    p = check_output_dir(path, option)
    try:
        p.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise output_error(p, f"cannot create the folder: {e.strerror or e}", option=option) from None
    return p


__all__ = ["check_output", "check_output_dir", "make_output_dir", "open_output", "output_error", "write_bytes", "write_json",
           "write_text"]
