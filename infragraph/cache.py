"""A disk cache of compiled .igl programs, so that running simulate, translate or visualize again on
the same blueprint skips the parser, the evaluator and the expansion (most of a small run's time).

What is cached: the fully qualified graph of one successful compile. The key is a SHA-256 of the
program's path and text, the -D values, the import search path, the working directory (relative
imports) and the toolchain itself (size and modification time of every module of this package,
so an edited compiler never serves an old graph). Imports are found while compiling, so each entry
also records every file the compiler read with its SHA-256; an entry whose imported files changed
is a miss. Errors are never cached.

Where: $INFRAGRAPH_CACHE_DIR, else $XDG_CACHE_HOME/infragraph, else ~/.cache/infragraph. Off when
INFRAGRAPH_NO_CACHE is set (to anything but "" or "0"), or with the commands' --no-cache flag.

Safety: entries are written to a temporary file and renamed into place, so concurrent writers
never interleave and a crash never leaves half an entry; an entry that cannot be read back (any
error: truncated, corrupt, from another version) is deleted and treated as a miss. The cache
holds at most MAX_ENTRIES entries (oldest removed first). Entries are Python pickles: the cache
folder must be writable by you only (it is created 0700), as for any cache of Python objects.

Parsed modules (`cached_parse`): a compile-cache miss (a blueprint with new -D values is a new
fabric) still skips the ANTLR parse of every module whose text was parsed before, the slowest part
of compiling std.fabrics.stack in a fresh process (0.08 s of CPU, its three modules; elaboration
and expansion take 0.025 s). The key is the text and the front end that parses it (the contents of
every module of infragraph/lang, the generated lexer and parser included, and the ANTLR runtime's
files), not the file's name: an entry holds the AST without its `Source`, and loading puts the
caller's back (file name, text, import chain), so positions and errors name the caller's file.
Syntax errors are never stored. Same folder, same safety; at most MAX_PARSES entries.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import pickle
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from .graph.fqg import FQG
from .output import open_output

if TYPE_CHECKING:
    from .lang.ast import Program, Source

FORMAT = 1
MAX_ENTRIES = 64
PARSE_FORMAT = 1
MAX_PARSES = 256
_PACKAGE = Path(__file__).resolve().parent


def enabled() -> bool:
    return os.environ.get("INFRAGRAPH_NO_CACHE", "") in ("", "0")


def folder() -> Path:
    if os.environ.get("INFRAGRAPH_CACHE_DIR"):
        return Path(os.environ["INFRAGRAPH_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "infragraph"


def _modules(root: Path):
    """(path, path relative to root) of every Python module under root, in a fixed order (the
    folders and files sorted, __pycache__ skipped): what the cache keys are made of."""
    for at, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(f for f in files if f.endswith(".py")):
            path = os.path.join(at, name)
            yield path, os.path.relpath(path, root)


def _toolchain() -> list:
    """(module path, size, mtime) of every module of the package: any edit changes the key."""
    out = []
    for path, rel in _modules(_PACKAGE):
        st = os.stat(path)
        out.append((rel, st.st_size, st.st_mtime_ns))
    return out


def _sha(path: str) -> str | None:
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return None


def key(path: str | Path, defines: dict[str, str] | None, search_path: list[str] | None) -> str:
    """The entry's key. The working directory is part of it only for a relative `path`: a program's
    imports resolve from its own folder, but a graph compiled from a relative path names its
    files relative to where it ran. An absolute path (a blueprint name, std.fabrics.stack, resolves
    to one) hits from any folder, as a workload replay in each new run folder needs."""
    main = Path(path).resolve()
    parts = [FORMAT, str(main), _sha(str(main)), sorted((defines or {}).items()),
             [str(Path(p).resolve()) for p in search_path or []],
             None if Path(path).is_absolute() else os.getcwd(), _toolchain()]
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()


def _entry(k: str) -> Path:
    return folder() / f"{k}.fqg.pickle"


def load(k: str) -> FQG | None:
    """The cached graph for key `k`, or None (absent, stale imports, or unreadable: then removed)."""
    entry = _entry(k)
    try:
        with open(entry, "rb") as fh:
            data = pickle.load(fh)
        if data["format"] != FORMAT or not isinstance(data["graph"], FQG):
            raise ValueError("another format")
    except FileNotFoundError:
        return None
    except Exception:  # noqa: BLE001 — any unreadable entry is a miss, never an error
        _discard(entry)
        return None
    if any(_sha(p) != digest for p, digest in data["files"]):
        return None
    os.utime(entry)  # recently used: pruned last
    return data["graph"]


def store(k: str, g: FQG, files: list[str]) -> None:
    """Keep `g` under key `k`, with the files it was compiled from. Failing to write is not an error
    (a read-only home, a full disk): the cache is an optimisation only."""
    try:
        d = folder()
        d.mkdir(parents=True, exist_ok=True, mode=0o700)
        state = {f.name: getattr(g, f.name) for f in fields(g)}  # not the cached properties
        bare = FQG(**state)
        with open_output(_entry(k), binary=True) as fh:
            pickle.dump({"format": FORMAT, "files": [(p, _sha(p)) for p in files], "graph": bare}, fh,
                        protocol=pickle.HIGHEST_PROTOCOL)
        _prune(d, "*.fqg.pickle", MAX_ENTRIES)
    except Exception:  # noqa: BLE001
        return


def _prune(d: Path, pattern: str, keep: int) -> None:
    entries = sorted(d.glob(pattern), key=lambda p: p.stat().st_mtime)
    for old in entries[:max(0, len(entries) - keep)]:
        _discard(old)


def _discard(entry: Path) -> None:
    try:
        entry.unlink()
    except OSError:
        pass


def cached_graph(path: str | Path, defines: dict[str, str] | None, search_path: list[str] | None,
                 build: Callable[[list[str]], FQG]) -> FQG:
    """The graph of the .igl program `path`: from the cache when an entry matches, else
    `build(files)` (which appends every file it reads to `files`), then stored."""
    if not enabled():
        return build([])
    k = key(path, defines, search_path)
    g = load(k)
    if g is None:
        files: list[str] = []
        g = build(files)
        store(k, g, files)
    return g


@functools.cache
def _front_end() -> str:
    """SHA-256 of what turns .igl text into an AST: the contents of every module of infragraph/lang
    (an edit elsewhere in the toolchain keeps the parsed modules) and the size and mtime of every
    module of the installed ANTLR runtime."""
    import antlr4

    h = hashlib.sha256()
    for root, own in ((_PACKAGE / "lang", True), (Path(antlr4.__file__).resolve().parent, False)):
        for path, rel in _modules(root):
            h.update(rel.encode() + b"\0")
            st = os.stat(path)
            h.update(Path(path).read_bytes() if own else f"{st.st_size} {st.st_mtime_ns}".encode())
            h.update(b"\0")
    return h.hexdigest()


def _parse_entry(text: str) -> Path:
    h = hashlib.sha256(f"{PARSE_FORMAT} {_front_end()}\n".encode())
    h.update(text.encode("utf-8", "surrogatepass"))
    return folder() / f"{h.hexdigest()}.ast.pickle"


class _WithoutSource(pickle.Pickler):
    """Pickles an AST with its Source (one object, which every Pos refers to) as a reference."""

    def __init__(self, fh, src: Source):
        super().__init__(fh, protocol=pickle.HIGHEST_PROTOCOL)
        self.src = src

    def persistent_id(self, obj):
        return "source" if obj is self.src else None


class _WithSource(pickle.Unpickler):
    """Reads an AST pickled by `_WithoutSource`, its Source reference resolved to `src`."""

    def __init__(self, fh, src: Source):
        super().__init__(fh)
        self.src = src

    def persistent_load(self, pid):
        if pid != "source":
            raise pickle.UnpicklingError(f"unknown reference {pid!r}")
        return self.src


def cached_parse(text: str, filename: str = "<string>", chain: tuple[str, ...] = ()) -> Program:
    """lang.syntax.parse(text, filename, chain): from the cache when the same front end parsed the
    same text before, else parsed and stored (only a successful parse is stored)."""
    from .lang import ast as A
    from .lang.syntax import parse

    if not enabled():
        return parse(text, filename, chain)
    entry = _parse_entry(text)
    src = A.Source(filename, text, chain)
    try:
        with open(entry, "rb") as fh:
            data = _WithSource(fh, src).load()
        if data["format"] != PARSE_FORMAT or not isinstance(data["program"], A.Program) or data["program"].src is not src:
            raise ValueError("another format")
        os.utime(entry)  # recently used: pruned last
        return data["program"]
    except FileNotFoundError:
        pass
    except Exception:  # noqa: BLE001 — any unreadable entry is a miss, never an error
        _discard(entry)
    program = parse(text, filename, chain)
    try:
        entry.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        with open_output(entry, binary=True) as fh:
            _WithoutSource(fh, program.src).dump({"format": PARSE_FORMAT, "program": program})
        _prune(entry.parent, "*.ast.pickle", MAX_PARSES)
    except Exception:  # noqa: BLE001 — failing to write is not an error (read-only home, full disk)
        pass
    return program


__all__ = ["cached_graph", "cached_parse", "enabled", "folder", "key", "load", "store"]
