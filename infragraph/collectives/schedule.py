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

from .columns import COLLECTIVES, ScheduleColumns, ScheduleError, index_dtype, read_paths

__all__ = ["COLLECTIVES", "OPS", "Schedule", "ScheduleColumns", "ScheduleError", "Transfer", "read_schedule",
           "schedule_doc", "schedule_from_columns", "validate", "validate_exact", "load_schedule"]

OPS = ("copy", "reduce")


class Transfer(NamedTuple):
    """One chunk moved from src to dst; a NamedTuple because a 1,024-rank schedule has millions.
    `path`: index into the schedule's `paths`, or -1 (the engine routes it)."""

    src: int
    dst: int
    chunk: int
    op: str
    path: int = -1


@dataclass(frozen=True)
class Schedule:
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
    def chunks(self) -> int:
        return self.ranks * self.chunks_per_rank

    def half(self, collective: str) -> "Schedule | None":
        """The reduce-scatter or all-gather half of an all-reduce made of reduce steps then copy
        steps, when that half implements its collective on its own (validated); else None. Why:
        a multi-dimensional all-reduce under localBWAware runs reduce-scatter and all-gather
        phases on all but its last dimension."""
        if self.collective != "all-reduce" or collective not in ("reduce-scatter", "all-gather"):
            return None
        kinds = [{t.op for t in step} for step in self.steps]
        split = next((i for i, k in enumerate(kinds) if "copy" in k), len(kinds))
        if any(k - {"reduce"} for k in kinds[:split]) or any(k - {"copy"} for k in kinds[split:]):
            return None
        steps = self.steps[:split] if collective == "reduce-scatter" else self.steps[split:]
        part = Schedule(collective, self.ranks, self.chunks_per_rank, steps, dependencies=self.dependencies,
                        paths=self.paths)
        try:
            validate(part)
        except ScheduleError:
            return None
        return part

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
        """The schedule as the engine takes it (simengine/src/schedule_program.rs): (collective,
        ranks, chunks per rank, steps, per transfer its step, src, dst, chunk and whether it reduces,
        whether dependencies are per chunk, per transfer its path (-1: none; empty: no transfer
        names one) and the paths' node names, which simulate resolves on the graph);
        for another `collective`, its half (see `half`) or None."""
        if collective not in (None, self.collective):
            part = self.half(collective)
            return None if part is None else part.engine_arrays()
        step: list[int] = []
        src: list[int] = []
        dst: list[int] = []
        chunk: list[int] = []
        reduce: list[bool] = []
        path: list[int] = []
        for s, transfers in enumerate(self.steps):
            step.extend([s] * len(transfers))
            src.extend(t.src for t in transfers)
            dst.extend(t.dst for t in transfers)
            chunk.extend(t.chunk for t in transfers)
            reduce.extend(t.op == "reduce" for t in transfers)
            if self.paths:
                path.extend(t.path for t in transfers)
        return (self.collective, self.ranks, self.chunks_per_rank, len(self.steps), step, src, dst, chunk, reduce,
                self.dependencies == "chunks", path, self.paths)


def _int(value: object, where: str, low: int, high: int | None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScheduleError(f"{where}: expected an integer, found {value!r}")
    if value < low or (high is not None and value > high):
        top = "" if high is None else f"..{high}"
        raise ScheduleError(f"{where}: expected {low}{top}, found {value}")
    return value


KEYS = ("collective", "ranks", "chunks_per_rank", "steps", "name", "description", "dependencies", "paths", "synthesis")
DEPENDENCIES = ("rank-steps", "chunks")
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
    ranks = _int(doc.get("ranks"), f"{source}: /ranks", 1, None)
    per = _int(doc.get("chunks_per_rank"), f"{source}: /chunks_per_rank", 1, None)
    paths = read_paths(doc.get("paths", []), f"{source}: /paths")
    raw_steps = doc.get("steps")
    if not isinstance(raw_steps, list):
        raise ScheduleError(f"{source}: /steps: expected a list of steps, found {raw_steps!r}")
    steps = []
    chunks = ranks * per
    for s, raw in enumerate(raw_steps):
        if not isinstance(raw, list):
            raise ScheduleError(f"{source}: /steps/{s}: expected a list of transfers")
        transfers = []
        for t, item in enumerate(raw):
            # Fast path for a well-formed transfer (a 1,024-rank all-reduce has two million);
            # anything else goes through _transfer, which locates the error.
            if type(item) is dict and item.keys() <= _TRANSFER_KEY_SET:
                src, dst, chunk, op = item.get("src"), item.get("dst"), item.get("chunk"), item.get("op", "copy")
                path = item.get("path", -1)
                if (type(src) is int and type(dst) is int and type(chunk) is int and 0 <= src < ranks
                        and 0 <= dst < ranks and src != dst and 0 <= chunk < chunks and op in OPS
                        and type(path) is int and -1 <= path < len(paths) and (path >= 0 or "path" not in item)):
                    transfers.append(Transfer(src, dst, chunk, op, path))
                    continue
            transfers.append(_transfer(item, f"{source}: /steps/{s}/{t}", ranks, chunks, len(paths)))
        steps.append(tuple(transfers))
    dependencies = doc.get("dependencies", "rank-steps")
    if dependencies not in DEPENDENCIES:
        raise ScheduleError(f"{source}: /dependencies: expected rank-steps or chunks, found {dependencies!r}")
    return Schedule(collective, ranks, per, tuple(steps), text["name"], text["description"], dependencies, paths)




def _transfer(item: object, where: str, ranks: int, chunks: int, paths: int = 0) -> Transfer:
    """One transfer, every field checked, errors located at `where` (the document path)."""
    if not isinstance(item, dict):
        raise ScheduleError(f"{where}: expected an object")
    _known_keys(item, TRANSFER_KEYS, where)
    src = _int(item.get("src"), f"{where}/src", 0, ranks - 1)
    dst = _int(item.get("dst"), f"{where}/dst", 0, ranks - 1)
    if src == dst:
        raise ScheduleError(f"{where}: src and dst are both rank {src}")
    chunk = _int(item.get("chunk"), f"{where}/chunk", 0, chunks - 1)
    op = item.get("op", "copy")
    if op not in OPS:
        raise ScheduleError(f"{where}/op: expected copy or reduce, found {op!r}")
    if "path" not in item:
        return Transfer(src, dst, chunk, op)
    if not paths:
        raise ScheduleError(f"{where}/path: the schedule lists no paths (/paths)")
    return Transfer(src, dst, chunk, op, _int(item["path"], f"{where}/path", 0, paths - 1))


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
