"""The binary schedule file (.igsched): a schedule's columns on disk, for schedules too large for JSON.

Why a second format: the JSON format (schedule.py, schemas/collective-schedule.schema.json) is the
interchange format and stays the one for small schedules, but at ~40 B of JSON per transfer a
16,384-NPU all-reduce (536,838,144 (2 × 16,384 × 16,383) transfers) would be ~21 GB of text that Python cannot decode in
memory. This format is the same schedule as columns (columns.py), 7 B per transfer at up to 65,536
ranks and chunks, written and read column by column without per-transfer objects.

Layout (all integers little-endian):

    bytes 0-7     magic b"IGSCHED1"
    bytes 8-15    H, the header's length in bytes (uint64)
    bytes 16..    the header: UTF-8 JSON, one object (below)
    then          each column at the byte offset the header gives (a multiple of 64)

Header keys: "collective", "ranks", "chunks_per_rank", "dependencies", "name", "description",
"synthesis" (as in the JSON format; "steps" is absent), "transfers" (T), "step_count" (S) and
"columns": a list of {"name", "dtype", "offset", "length"} for exactly these names, in any order:

    step_ptr  "<u8", S + 1 values: transfers of step s are rows step_ptr[s] .. step_ptr[s + 1];
              0 first, never decreasing, T last
    src, dst  "<u2" or "<u4", T values: the sending and receiving rank, 0 .. ranks - 1, different
    chunk     same dtype as src, T values: 0 .. ranks x chunks_per_rank - 1
    op        "|u1", T values: 0 copy, 1 reduce
    path      (optional, with the header's "paths") "<i4", T values: the path a transfer names, an
              index into "paths" (node names between the two NPUs, schedule.py), -1 for none

The header's schema is schemas/collective-schedule-file.schema.json. The reader checks every
value and locates an error as the JSON reader does: the file, then the
document path of the offending item (/columns/2/dtype, /steps/S/T/dst for transfer T of step S).
"""
from __future__ import annotations

import json
import os
from typing import BinaryIO

import numpy as np

from .columns import COLLECTIVES, DEPENDENCIES, ScheduleColumns, ScheduleError, index_dtype, read_paths, whole_number

MAGIC = b"IGSCHED1"
SUFFIX = ".igsched"
ALIGN = 64
COLUMNS = ("step_ptr", "src", "dst", "chunk", "op")
OPTIONAL_COLUMNS = ("path",)
HEADER_KEYS = ("collective", "ranks", "chunks_per_rank", "dependencies", "name", "description", "synthesis",
               "transfers", "step_count", "columns", "paths")
BLOCK = 1 << 24  # rows checked at a time: bounded temporary memory


def is_schedule_file(head: bytes) -> bool:
    """Whether a file starting with `head` is a binary schedule (recognised by content)."""
    return head[:len(MAGIC)] == MAGIC


def write_schedule_file(out: str | BinaryIO, cols: ScheduleColumns) -> int:
    """Write `cols` to `out` (a path, or a binary file at its start, e.g. output.open_output's);
    returns the bytes written. Columns go to disk one at a time, from the arrays themselves (no
    copy unless a column's dtype must change)."""
    width = index_dtype(cols.ranks, cols.chunks)
    data = [("step_ptr", np.asarray(cols.step_ptr, dtype="<u8")), ("src", np.asarray(cols.src, dtype=width)),
            ("dst", np.asarray(cols.dst, dtype=width)), ("chunk", np.asarray(cols.chunk, dtype=width)),
            ("op", np.asarray(cols.reduce).view(np.uint8) if cols.reduce.dtype == bool else np.asarray(cols.reduce, "u1"))]
    meta = {"collective": cols.collective, "ranks": cols.ranks, "chunks_per_rank": cols.chunks_per_rank,
            "dependencies": cols.dependencies, "name": cols.name, "description": cols.description,
            "synthesis": cols.synthesis, "transfers": cols.transfers, "step_count": cols.steps}
    if cols.path is not None:
        data.append(("path", np.asarray(cols.path, dtype="<i4")))
        meta["paths"] = [list(p) for p in cols.paths]

    def header(offsets: list[int]) -> bytes:
        spec = [{"name": n, "dtype": a.dtype.str, "offset": o, "length": int(a.size)} for (n, a), o in zip(data, offsets)]
        return json.dumps({**meta, "columns": spec}, separators=(",", ":")).encode()

    # Offsets depend on the header's length, which depends on the offsets' digits: settle it.
    offsets = [0] * len(data)
    for _ in range(4):
        at = _align(16 + len(header(offsets)))
        new = []
        for _, a in data:
            new.append(at)
            at = _align(at + a.nbytes)
        if new == offsets:
            break
        offsets = new
    head = header(offsets)
    if isinstance(out, str):
        with open(out, "wb") as fh:
            return write_schedule_file(fh, cols)
    at = out.write(MAGIC + len(head).to_bytes(8, "little") + head)
    for (_, a), o in zip(data, offsets):
        at += out.write(b"\0" * (o - at))
        at += out.write(memoryview(np.ascontiguousarray(a)).cast("B"))
    return at


def _align(x: int) -> int:
    return -(-x // ALIGN) * ALIGN


def read_schedule_file(path: str) -> ScheduleColumns:
    """The schedule in binary file `path`, every value checked (errors: path, then the document path)."""
    try:
        size = os.path.getsize(path)
        with open(path, "rb") as fh:
            head = fh.read(16)
            if not is_schedule_file(head) or len(head) < 16:
                raise ScheduleError(f"{path}: not a binary schedule (it does not start with {MAGIC.decode()})")
            length = int.from_bytes(head[8:16], "little")
            if length > size - 16:
                raise ScheduleError(f"{path}: header of {length} B does not fit the file's {size} B")
            raw = fh.read(length)
            meta = _header(raw, path)
            cols = {}
            for i, spec in enumerate(meta["columns"]):
                dtype, count = _column_spec(spec, i, path, size, meta)
                fh.seek(spec["offset"])
                buf = fh.read(count * dtype.itemsize)  # a bytes object: the engine proves it without a copy
                cols[spec["name"]] = np.frombuffer(buf, dtype=dtype)
    except OSError as exc:
        raise ScheduleError(f"{path}: cannot read the schedule: {exc.strerror}") from None
    _check_rows(cols, meta, path)
    paths = tuple(tuple(p) for p in meta.get("paths", ()))
    return ScheduleColumns(meta["collective"], meta["ranks"], meta["chunks_per_rank"], cols["step_ptr"], cols["src"],
                           cols["dst"], cols["chunk"], cols["op"].view(bool), meta["name"], meta["description"],
                           meta["dependencies"], meta["synthesis"], cols.get("path"), paths)


def _header(raw: bytes, path: str) -> dict:
    try:
        meta = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ScheduleError(f"{path}: header byte {16 + exc.start} is not UTF-8") from None
    except json.JSONDecodeError as exc:
        raise ScheduleError(f"{path}: header (from byte 16) is not JSON at line {exc.lineno} column {exc.colno}: "
                            f"{exc.msg}") from None
    if not isinstance(meta, dict):
        raise ScheduleError(f"{path}: the header must be an object, found {type(meta).__name__}")
    unknown = sorted(set(meta) - set(HEADER_KEYS))
    if unknown:
        raise ScheduleError(f"{path}: unknown header key {unknown[0]!r}; allowed keys: {', '.join(HEADER_KEYS)}")
    if meta.get("collective") not in COLLECTIVES:
        raise ScheduleError(f"{path}: /collective: expected one of {', '.join(COLLECTIVES)}, found {meta.get('collective')!r}")
    for key, low in (("ranks", 1), ("chunks_per_rank", 1), ("transfers", 0), ("step_count", 0)):
        meta[key] = whole_number(meta.get(key), f"{path}: /{key}", low)
    meta.setdefault("dependencies", "rank-steps")
    if meta["dependencies"] not in DEPENDENCIES:
        raise ScheduleError(f"{path}: /dependencies: expected rank-steps or chunks, found {meta['dependencies']!r}")
    for key in ("name", "description"):
        meta.setdefault(key, "")
        if not isinstance(meta[key], str):
            raise ScheduleError(f"{path}: /{key}: expected a string, found {meta[key]!r}")
    meta.setdefault("synthesis", {})
    if not isinstance(meta["synthesis"], dict):
        raise ScheduleError(f"{path}: /synthesis: expected an object, found {meta['synthesis']!r}")
    columns = meta.get("columns")
    names = [c.get("name") if isinstance(c, dict) else None for c in columns] if isinstance(columns, list) else None
    expected = COLUMNS + (OPTIONAL_COLUMNS if "paths" in meta else ())
    if names is None or sorted(map(str, names)) != sorted(expected):
        raise ScheduleError(f"{path}: /columns: expected one entry each for {', '.join(expected)}, found {names!r}")
    if "paths" in meta:
        read_paths(meta["paths"], f"{path}: /paths")
    return meta


def _column_spec(spec: dict, i: int, path: str, size: int, meta: dict) -> tuple[np.dtype, int]:
    """The column's dtype and length, checked against the header and the file's size."""
    where = f"{path}: /columns/{i}"
    name = spec["name"]
    width = index_dtype(meta["ranks"], meta["ranks"] * meta["chunks_per_rank"]).str
    allowed = {"step_ptr": ("<u8",), "op": ("|u1",), "path": ("<i4",)}.get(name, ("<u2", "<u4"))
    if spec.get("dtype") not in allowed:
        raise ScheduleError(f"{where}/dtype: {name} must be {' or '.join(allowed)}, found {spec.get('dtype')!r}")
    if name in ("src", "dst", "chunk") and spec["dtype"] == "<u2" and width == "<u4":
        raise ScheduleError(f"{where}/dtype: {meta['ranks']} ranks x {meta['chunks_per_rank']} chunks need <u4, found <u2")
    count = meta["step_count"] + 1 if name == "step_ptr" else meta["transfers"]
    if spec.get("length") != count:
        what = "step_count + 1" if name == "step_ptr" else "transfers"
        raise ScheduleError(f"{where}/length: expected {count} ({what}), found {spec.get('length')!r}")
    dtype = np.dtype(spec["dtype"])
    offset = spec["offset"] = whole_number(spec.get("offset"), f"{where}/offset", 0)
    if offset < 16 or offset % ALIGN or offset + count * dtype.itemsize > size:
        raise ScheduleError(f"{where}/offset: expected a multiple of {ALIGN} with the column's {count * dtype.itemsize} B "
                            f"inside the file's {size} B, found {offset!r}")
    return dtype, count


def _check_rows(cols: dict[str, np.ndarray], meta: dict, path: str) -> None:
    """Every value in range, in blocks of BLOCK rows; the first bad one located as /steps/S/T/key."""
    ptr = cols["step_ptr"]
    t = meta["transfers"]
    if ptr[0] != 0 or ptr[-1] != t:
        raise ScheduleError(f"{path}: /columns step_ptr: must run from 0 to the {t} transfers, found {int(ptr[0])} .. {int(ptr[-1])}")
    drop = np.flatnonzero(np.diff(ptr.astype(np.int64)) < 0)
    if drop.size:
        raise ScheduleError(f"{path}: /columns step_ptr: step {int(drop[0])} ends before it starts")
    ranks, chunks = meta["ranks"], meta["ranks"] * meta["chunks_per_rank"]
    for lo in range(0, t, BLOCK):
        hi = min(lo + BLOCK, t)
        src, dst, chunk, op = (cols[k][lo:hi] for k in ("src", "dst", "chunk", "op"))
        checks = [("src", src >= ranks, f"0..{ranks - 1}"), ("dst", dst >= ranks, f"0..{ranks - 1}"),
                  ("chunk", chunk >= chunks, f"0..{chunks - 1}"), ("op", op > 1, "0 (copy) or 1 (reduce)"),
                  ("dst", src == dst, "a rank other than src")]
        if "path" in cols:
            p, top = cols["path"][lo:hi], len(meta["paths"])
            checks.append(("path", (p < -1) | (p >= top), f"-1 (none) or 0..{top - 1}"))
        for key, bad, expected in checks:
            at = np.flatnonzero(bad)
            if at.size:
                i = lo + int(at[0])
                s = int(np.searchsorted(ptr, i, side="right")) - 1
                found = int(cols[key][i])
                raise ScheduleError(f"{path}: /steps/{s}/{i - int(ptr[s])}/{key}: expected {expected}, found {found}")
