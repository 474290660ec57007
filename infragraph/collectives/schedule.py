"""A collective schedule as steps of chunk transfers, its reader and its validator.

Why: custom collectives (MSCCL programs, synthesized schedules) are only worth simulating if
they are proven to implement the collective; a schedule that loses a chunk or adds a
contribution twice would give a fast, wrong number.

Format (JSON): ``{"collective": "all-gather"|"reduce-scatter"|"all-reduce", "ranks": N,
"chunks_per_rank": K, "steps": [[{"src": r, "dst": r, "chunk": c, "op": "copy"|"reduce"}, ...],
...]}``. There are N*K chunks; chunk c belongs to rank c // K. All transfers of one step read
the state at the start of the step. ``copy`` replaces the receiver's copy, ``reduce`` adds the
sender's contributions to it. All-gather: rank c // K starts with chunk c, every rank must end
with every chunk. Reduce-scatter: every rank starts with its own contribution to every chunk,
rank c // K must end with chunk c reduced over all N ranks, each exactly once. All-reduce: as
reduce-scatter, but every rank must end with every chunk fully reduced.

Paths (optional): ``"paths": [["switch.0"], ...]`` lists ways between NPUs as the graph nodes
passed between the sender's NPU and the receiver's ([]: a link joining them directly), and a transfer's ``"path": i`` makes the
engine send it that way instead of routing it (a DGX's four NVSwitch chips carry four chunks
between one GPU pair side by side; routed, they would share one way). The engine resolves the
names against the graph it runs on (infragraph/simulate/schedule_paths.py).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .columns import COLLECTIVES, DEPENDENCIES, ChunkSpace, ScheduleColumns, ScheduleError, index_dtype, read_paths, whole_number

__all__ = ["COLLECTIVES", "OPS", "Schedule", "ScheduleColumns", "ScheduleError", "Transfer", "read_schedule",
           "read_schedule_columns", "schedule_doc", "schedule_from_columns", "validate", "validate_exact", "load_schedule"]

OPS = ("copy", "reduce")
# The buffers an MSCCL XML algorithm and an MSCCL++ JSON execution plan name: input, output,
# scratch. Both formats spell them with these letters; one definition for both readers (msccl.py,
# mscclpp.py), which turn them into this module's Schedule.
BUFFERS = ("i", "o", "s")


class Transfer(NamedTuple):
    """One chunk moved from src to dst; a NamedTuple because a 1,024-rank schedule has millions.
    `path`: index into the schedule's `paths`, or -1 (the engine routes it)."""

    src: int
    dst: int
    chunk: int
    op: str
    path: int = -1


@dataclass(frozen=True)
class Schedule(ChunkSpace):
    collective: str
    ranks: int
    chunks_per_rank: int
    steps: tuple[tuple[Transfer, ...], ...]
    name: str = ""
    description: str = ""
    # What a transfer waits for (docs/collectives.md): "rank-steps", every receipt of its sender's
    # earlier steps; "chunks", only the sender's earlier receipts of the same chunk.
    dependencies: str = "rank-steps"
    # Ways between NPUs that transfers name (`Transfer.path`): per path, the names of the graph
    # nodes passed between the sender's NPU and the receiver's.
    paths: tuple[tuple[str, ...], ...] = ()

    @property
    def step_count(self) -> int:
        return len(self.steps)

    @property
    def transfers(self) -> int:
        return sum(len(s) for s in self.steps)

    def columns(self) -> ScheduleColumns:
        """The schedule as typed columns (columns.py), for the proof and the binary file."""
        flat = [t for step in self.steps for t in step]
        width = index_dtype(self.ranks, self.chunks)
        ptr = np.zeros(len(self.steps) + 1, dtype=np.uint64)
        np.cumsum([len(s) for s in self.steps], out=ptr[1:])
        cols = [np.fromiter((t[i] for t in flat), dtype=np.int64, count=len(flat)).astype(width) for i in range(3)]
        reduce = np.fromiter((t.op == "reduce" for t in flat), dtype=bool, count=len(flat))
        path = np.fromiter((t.path for t in flat), dtype=np.int64, count=len(flat)) if self.paths else None
        return ScheduleColumns(self.collective, self.ranks, self.chunks_per_rank, ptr, *cols, reduce, self.name,
                               self.description, self.dependencies, path=path, paths=self.paths)

    def engine_arrays(self, collective: str | None = None) -> tuple | None:
        """What the engine takes: the columns' (ScheduleColumns.engine_arrays)."""
        return self.columns().engine_arrays(collective)


KEYS = ("collective", "ranks", "chunks_per_rank", "steps", "name", "description", "dependencies", "paths", "synthesis")
TRANSFER_KEYS = ("src", "dst", "chunk", "op", "path")
_TRANSFER_KEY_SET = frozenset(TRANSFER_KEYS)


def _known_keys(item: dict, keys: tuple[str, ...], where: str) -> None:
    unknown = sorted(set(item) - set(keys))
    if unknown:
        raise ScheduleError(f"{where}: unknown key {unknown[0]!r}; allowed keys: {', '.join(keys)}")


def read_schedule(doc: object, source: str = "<schedule>") -> Schedule:
    """Check a decoded JSON document and build a Schedule; errors name the document path.
    It accepts what schemas/collective-schedule.schema.json accepts, and also checks what a
    schema cannot (ranks and chunks in range, src != dst)."""
    return schedule_from_columns(read_schedule_columns(doc, source))


def read_schedule_columns(doc: object, source: str = "<schedule>") -> ScheduleColumns:
    """read_schedule's checks, the schedule as columns: no Python object per transfer outlives the
    call (what the engine runs, `--algorithm schedule:FILE`; the decoded document is the caller's)."""
    if not isinstance(doc, dict):
        raise ScheduleError(f"{source}: expected an object, found {type(doc).__name__}")
    _known_keys(doc, KEYS, source)
    text = {}
    for key in ("name", "description"):
        text[key] = doc.get(key, "")
        if not isinstance(text[key], str):
            raise ScheduleError(f"{source}: /{key}: expected a string, found {text[key]!r}")
    if not isinstance(doc.get("synthesis", {}), dict):  # what the synthesizer predicted (synthesize.py); informative
        raise ScheduleError(f"{source}: /synthesis: expected an object, found {doc['synthesis']!r}")
    collective = doc.get("collective")
    if collective not in COLLECTIVES:
        raise ScheduleError(f"{source}: /collective: expected one of {', '.join(COLLECTIVES)}, found {collective!r}")
    ranks = whole_number(doc.get("ranks"), f"{source}: /ranks", 1, None)
    per = whole_number(doc.get("chunks_per_rank"), f"{source}: /chunks_per_rank", 1, None)
    paths = read_paths(doc.get("paths", []), f"{source}: /paths")
    raw_steps = doc.get("steps")
    if not isinstance(raw_steps, list):
        raise ScheduleError(f"{source}: /steps: expected a list of steps, found {raw_steps!r}")
    cols = _well_formed_columns(raw_steps, ranks, ranks * per, len(paths))
    if cols is None:  # something is wrong: find and locate the first bad entry, in document order
        cols = _checked_columns(raw_steps, source, ranks, ranks * per, len(paths))
    dependencies = doc.get("dependencies", "rank-steps")
    if dependencies not in DEPENDENCIES:
        raise ScheduleError(f"{source}: /dependencies: expected rank-steps or chunks, found {dependencies!r}")
    ptr, src, dst, chunk, reduce, path = cols
    width = index_dtype(ranks, ranks * per)
    return ScheduleColumns(collective, ranks, per, ptr, src.astype(width), dst.astype(width), chunk.astype(width),
                           reduce, text["name"], text["description"], dependencies,
                           path=path.astype(np.int32) if paths else None, paths=paths)


Columns = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _well_formed_columns(raw_steps: list, ranks: int, chunks: int, paths: int) -> Columns | None:
    """The columns of a well-formed `steps` list, every value checked a column at a time (a
    1,024-rank all-reduce has two million transfers); None when anything is not well formed."""
    if set(map(type, raw_steps)) - {list}:
        return None
    flat = list(itertools.chain.from_iterable(raw_steps))
    if set(map(type, flat)) - {dict} or set(itertools.chain.from_iterable(flat)) - _TRANSFER_KEY_SET:
        return None
    ints = []
    for key, high in (("src", ranks), ("dst", ranks), ("chunk", chunks)):
        values = [t.get(key) for t in flat]
        if set(map(type, values)) - {int} or (values and (min(values) < 0 or max(values) >= high)):
            return None  # also a missing key (None), a bool or a value out of range
        ints.append(np.array(values, dtype=np.int64))
    src, dst, chunk = ints
    ops = [t.get("op", "copy") for t in flat]
    if set(map(type, ops)) - {str} or set(ops) - set(OPS) or np.any(src == dst):
        return None
    marks = [t.get("path") for t in flat]
    kinds = set(map(type, marks))
    if kinds - {int, type(None)} or (int in kinds and not paths):
        return None
    path = np.array([-1 if k is None else k for k in marks], dtype=np.int64)
    # a path given is 0 .. paths - 1 (an explicit -1 counts as a -1 beyond the transfers without one)
    if np.any((path < -1) | (path >= paths)) or int(np.count_nonzero(path == -1)) != marks.count(None):
        return None
    ptr = np.zeros(len(raw_steps) + 1, dtype=np.uint64)
    np.cumsum(list(map(len, raw_steps)), out=ptr[1:])
    return ptr, src, dst, chunk, np.fromiter(map("reduce".__eq__, ops), dtype=bool, count=len(ops)), path


def _checked_columns(raw_steps: list, source: str, ranks: int, chunks: int, paths: int) -> Columns:
    """The columns of `steps`, each transfer checked on its own (_transfer): the first bad entry
    raises a ScheduleError at its document path (/steps/S/T/key)."""
    flat = []
    ptr = [0]
    for s, raw in enumerate(raw_steps):
        if not isinstance(raw, list):
            raise ScheduleError(f"{source}: /steps/{s}: expected a list of transfers")
        flat.extend(_transfer(item, f"{source}: /steps/{s}/{t}", ranks, chunks, paths) for t, item in enumerate(raw))
        ptr.append(len(flat))
    src, dst, chunk, path = (np.array([t[i] for t in flat], dtype=np.int64) for i in (0, 1, 2, 4))
    return (np.array(ptr, dtype=np.uint64), src, dst, chunk, np.array([t.op == "reduce" for t in flat], dtype=bool), path)


def _transfer(item: object, where: str, ranks: int, chunks: int, paths: int = 0) -> Transfer:
    """One transfer, every field checked, errors located at `where` (the document path)."""
    if not isinstance(item, dict):
        raise ScheduleError(f"{where}: expected an object")
    _known_keys(item, TRANSFER_KEYS, where)
    src = whole_number(item.get("src"), f"{where}/src", 0, ranks - 1)
    dst = whole_number(item.get("dst"), f"{where}/dst", 0, ranks - 1)
    if src == dst:
        raise ScheduleError(f"{where}: src and dst are both rank {src}")
    chunk = whole_number(item.get("chunk"), f"{where}/chunk", 0, chunks - 1)
    op = item.get("op", "copy")
    if op not in OPS:
        raise ScheduleError(f"{where}/op: expected copy or reduce, found {op!r}")
    if "path" not in item:
        return Transfer(src, dst, chunk, op)
    if not paths:
        raise ScheduleError(f"{where}/path: the schedule lists no paths (/paths)")
    return Transfer(src, dst, chunk, op, whole_number(item["path"], f"{where}/path", 0, paths - 1))


def schedule_doc(schedule: Schedule) -> dict:
    """The JSON document of a schedule (what read_schedule reads back to an equal Schedule)."""
    doc: dict = {"collective": schedule.collective, "ranks": schedule.ranks, "chunks_per_rank": schedule.chunks_per_rank}
    for key in ("name", "description"):
        if getattr(schedule, key):
            doc[key] = getattr(schedule, key)
    if schedule.dependencies != "rank-steps":
        doc["dependencies"] = schedule.dependencies
    if schedule.paths:
        doc["paths"] = [list(p) for p in schedule.paths]
    doc["steps"] = [[{"src": t.src, "dst": t.dst, "chunk": t.chunk, "op": t.op, **({"path": t.path} if t.path >= 0 else {})}
                     for t in step] for step in schedule.steps]
    return doc


def schedule_from_columns(cols: ScheduleColumns) -> Schedule:
    """The schedule of `cols` as steps of Transfers (for the exporters and the engine; about 100 B
    per transfer, so for schedules of millions of transfers, not hundreds of millions)."""
    ptr = cols.step_ptr.tolist()
    path = cols.path.tolist() if cols.path is not None else itertools.repeat(-1)
    flat = [Transfer(a, b, c, "reduce" if r else "copy", k) for a, b, c, r, k in
            zip(cols.src.tolist(), cols.dst.tolist(), cols.chunk.tolist(), cols.reduce.tolist(), path)]
    steps = tuple(tuple(flat[ptr[s]:ptr[s + 1]]) for s in range(len(ptr) - 1))
    return Schedule(cols.collective, cols.ranks, cols.chunks_per_rank, steps, cols.name, cols.description,
                    cols.dependencies, cols.paths)


# The exact validator (validate_exact) keeps one Python int of n bits per (rank, chunk): up to
# this many (rank, chunk) pairs it also names the ranks a failing schedule lost or added twice.
EXACT_MAX_PAIRS = 1 << 20


def validate(schedule: Schedule | ScheduleColumns) -> None:
    """Prove the schedule implements its collective or raise a ScheduleError naming rank and step.

    The proof runs over columns in the engine (columns.py: exact counts and random fingerprints
    of the contributions; seconds for hundreds of millions of transfers). When it fails on a
    schedule of at most EXACT_MAX_PAIRS (rank, chunk) pairs, validate_exact says why, naming the
    ranks whose contributions are missing or doubled at the step where that happens."""
    cols = schedule if isinstance(schedule, ScheduleColumns) else schedule.columns()
    try:
        cols.prove()
    except ScheduleError:
        if cols.ranks * cols.chunks <= EXACT_MAX_PAIRS:
            validate_exact(schedule if isinstance(schedule, Schedule) else schedule_from_columns(cols))
        raise


def validate_exact(schedule: Schedule) -> None:
    """The exact proof, or a ScheduleError naming rank and step (and the ranks concerned).

    State: for each (rank, chunk) the set of ranks whose contributions it holds, as a bit mask
    (n^2 K Python ints of n bits: for small schedules; `validate` uses it to explain a failure).
    """
    n, k = schedule.ranks, schedule.chunks_per_rank
    full = (1 << n) - 1
    if schedule.collective == "all-gather":
        held = [[0] * (n * k) for _ in range(n)]
        for c in range(n * k):
            held[c // k][c] = full
    else:
        held = [[1 << r] * (n * k) for r in range(n)]
    for s, transfers in enumerate(schedule.steps):
        updates: dict[tuple[int, int], int] = {}
        for t in transfers:
            have = held[t.src][t.chunk]
            if not have:
                raise ScheduleError(f"step {s}: rank {t.src} sends chunk {t.chunk} to rank {t.dst} but does not hold it")
            key = (t.dst, t.chunk)
            if t.op == "copy":
                if key in updates:
                    raise ScheduleError(f"step {s}: rank {t.dst} receives chunk {t.chunk} twice by copy")
                updates[key] = have
            else:
                base = updates.get(key, held[t.dst][t.chunk])
                twice = base & have
                if twice:
                    again = sorted(r for r in range(n) if twice >> r & 1)
                    raise ScheduleError(
                        f"step {s}: rank {t.dst} reduces chunk {t.chunk} from rank {t.src} and would add "
                        f"the contribution of rank(s) {again[:8]} twice")
                updates[key] = base | have
        for (r, c), mask in updates.items():
            held[r][c] = mask
    for c in range(n * k):
        owners = range(n) if schedule.collective != "reduce-scatter" else (c // k,)
        for r in owners:
            have = held[r][c]
            if have != full:
                missing = sorted(x for x in range(n) if not have >> x & 1)
                what = "without it" if not have else f"missing the contribution of rank(s) {missing[:8]}"
                raise ScheduleError(f"after the last step ({len(schedule.steps) - 1}): rank {r} ends with chunk {c} {what}")


def load_schedule(path: str) -> Schedule:
    """Read a schedule file; a JSON syntax error is located at path:line:col."""
    import json

    try:
        with open(path, encoding="utf-8") as fh:
            doc = json.load(fh)
    except OSError as exc:
        raise ScheduleError(f"{path}: cannot read the schedule: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise ScheduleError(f"{path}:{exc.lineno}:{exc.colno}: not JSON: {exc.msg}") from None
    return read_schedule(doc, path)
