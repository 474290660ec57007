"""A collective schedule as typed columns, and its proof (the validator) over them.

Why columns: a schedule is a list of (step, src, dst, chunk, op) transfers, and a synthesized
16,384-NPU all-reduce has 536,838,144 (2 × 16,384 × 16,383) of them. As Python objects (schedule.Transfer) that is about
100 B each; as columns it is 7 B each (src, dst, chunk as 16-bit values when ranks and chunks fit,
op as one byte) plus one offset per step. The synthesizer (synthesize.py), the binary schedule
file (schedule_file.py), the validator and the engine (`engine_arrays`: the columns cross as
little-endian bytes, simengine/src/schedule_columns.rs) use this form; schedule.Schedule (tuples
of transfers) stays the form of the importers and exporters.

The proof runs in the engine (simengine/src/schedule_proof.rs): per (rank, chunk) the exact
count of contributions held and a random fingerprint of which ranks they came from, so that it
needs 12 B per (rank, chunk) instead of one bit per (rank, chunk, rank). A correct schedule is
always accepted; a wrong one passes with probability below 4.4e-19 per (rank, chunk), the weights
drawn afresh from the OS on every call (docs/collectives.md, "Validation").
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass, field

import numpy as np

from ..integers import exact_integer, not_an_integer

COLLECTIVES = ("all-gather", "reduce-scatter", "all-reduce")


class ScheduleError(ValueError):
    """A schedule that is malformed or does not implement its collective; the message is located."""


# The proof (prove below, simengine/src/schedule_proof.rs) keeps 12 B per (rank, chunk) pair, ranks x
# ranks x chunks_per_rank of them: "ranks": 99999999999 aborted the process for memory. A valid
# schedule has at least ranks x (ranks - 1) x chunks_per_rank transfers (every chunk reaches, or is
# reduced from, every other rank), so past MAX_PROOF_PAIRS the pairs may not exceed twice the transfers.
MAX_PROOF_PAIRS = 1 << 26


def check_proof_size(ranks: int, chunks_per_rank: int, transfers: int) -> None:
    """Refuse a schedule whose proof state would dwarf its transfers (it cannot be valid)."""
    pairs = ranks * ranks * chunks_per_rank
    if pairs > max(MAX_PROOF_PAIRS, 2 * transfers):
        raise ScheduleError(f"/ranks, /chunks_per_rank: {ranks:,} ranks x {chunks_per_rank:,} chunks per rank make "
                            f"{pairs:,} (rank, chunk) pairs to prove for {transfers:,} transfers; expected at most "
                            f"{max(MAX_PROOF_PAIRS, 2 * transfers):,} (a valid schedule has at least ranks x (ranks - 1) "
                            "x chunks_per_rank transfers)")


# What a transfer waits for (docs/collectives.md): "rank-steps", every receipt of its sender's
# earlier steps; "chunks", only the sender's earlier receipts of the same chunk. One definition for
# the JSON reader (schedule.py), the binary file's (schedule_file.py) and synthesize's option.
DEPENDENCIES = ("rank-steps", "chunks")


class ChunkSpace:
    """The chunk count of a schedule, in objects (schedule.Schedule) or columns (ScheduleColumns):
    one definition because chunk c belongs to rank c // chunks_per_rank in both, and every index
    width and proof array is sized by it."""

    ranks: int
    chunks_per_rank: int

    @property
    def chunks(self) -> int:
        return self.ranks * self.chunks_per_rank


@dataclass(frozen=True, eq=False)
class ScheduleColumns(ChunkSpace):
    """Transfers of step s are rows step_ptr[s] .. step_ptr[s + 1] of src, dst, chunk (unsigned
    ints) and reduce (bool: True reduces, False copies). Chunk c belongs to rank c // K."""

    collective: str
    ranks: int
    chunks_per_rank: int
    step_ptr: np.ndarray  # uint64, steps + 1, from 0 to the number of transfers
    src: np.ndarray
    dst: np.ndarray
    chunk: np.ndarray
    reduce: np.ndarray  # bool
    name: str = ""
    description: str = ""
    dependencies: str = "rank-steps"
    synthesis: dict = field(default_factory=dict)  # what the synthesizer predicted (informative)
    # The path each transfer names (index into `paths`, -1: routed by the engine; None: no transfer
    # names one) and the paths: node names between the two NPUs (schedule.py, "Paths").
    path: np.ndarray | None = None
    paths: tuple[tuple[str, ...], ...] = ()

    @property
    def steps(self) -> int:
        return int(self.step_ptr.size) - 1

    @property
    def transfers(self) -> int:
        return int(self.reduce.size)

    @property
    def step_count(self) -> int:
        """The steps (what simulate's EngineSchedule reads; `steps` is the same number)."""
        return self.steps

    def step_of(self) -> np.ndarray:
        """The step of every transfer (int64; 8 B per transfer: for moderate schedules)."""
        return np.repeat(np.arange(self.steps, dtype=np.int64), np.diff(self.step_ptr.astype(np.int64)))

    def prove(self) -> None:
        """Prove the schedule implements its collective (module docstring) or raise a
        ScheduleError naming the step and ranks, or the rank and chunk that ends wrong."""
        from .._simengine import prove_schedule

        check_proof_size(self.ranks, self.chunks_per_rank, len(self.src))
        width = index_width(self.ranks, self.chunks)
        try:
            prove_schedule(collective=self.collective, ranks=self.ranks, chunks_per_rank=self.chunks_per_rank,
                           step_ptr=_le_bytes(self.step_ptr, "<u8"), src=_le_bytes(self.src, f"<u{width}"),
                           dst=_le_bytes(self.dst, f"<u{width}"), chunk=_le_bytes(self.chunk, f"<u{width}"), width=width,
                           reduce=_le_bytes(self.reduce, "u1"), seed=secrets.randbits(64))
        except ValueError as exc:
            raise ScheduleError(str(exc)) from None


    def half(self, collective: str) -> "ScheduleColumns | None":
        """The reduce-scatter or all-gather half of an all-reduce made of reduce steps then copy
        steps, when that half implements its collective on its own (proven); else None. Why: a
        multi-dimensional all-reduce under localBWAware runs reduce-scatter and all-gather phases
        on all but its last dimension."""
        if self.collective != "all-reduce" or collective not in ("reduce-scatter", "all-gather"):
            return None
        ptr = self.step_ptr.astype(np.int64)
        copied = np.concatenate([[0], np.cumsum(~self.reduce, dtype=np.int64)])
        copies = copied[ptr[1:]] - copied[ptr[:-1]]  # copy transfers per step
        with_copy = np.flatnonzero(copies)
        split = int(with_copy[0]) if with_copy.size else self.steps
        if copies[split:].sum() != ptr[-1] - ptr[split]:  # a reduce after the first copy step
            return None
        lo, hi = (0, split) if collective == "reduce-scatter" else (split, self.steps)
        rows = slice(int(ptr[lo]), int(ptr[hi]))
        part = ScheduleColumns(collective, self.ranks, self.chunks_per_rank, (self.step_ptr[lo:hi + 1] - self.step_ptr[lo]),
                               self.src[rows], self.dst[rows], self.chunk[rows], self.reduce[rows],
                               dependencies=self.dependencies, path=None if self.path is None else self.path[rows],
                               paths=self.paths)
        try:
            part.prove()
        except ScheduleError:
            return None
        return part

    def engine_arrays(self, collective: str | None = None) -> tuple | None:
        """The schedule as the engine takes it (simengine/src/python.rs, ScheduleArrays): (collective,
        ranks, chunks per rank, the step offsets, src, dst and chunk columns and their width in
        bytes, the reduce column, whether dependencies are per chunk, the path column (int32, -1:
        routed; None: no transfer names one) and the paths' node names, which simulate resolves on
        the graph); for another `collective`, its half (see `half`) or None. The columns go as
        little-endian bytes, those of a .igsched file without a copy: no Python object per transfer."""
        if collective not in (None, self.collective):
            part = self.half(collective)
            return None if part is None else part.engine_arrays()
        width = index_width(self.ranks, self.chunks)
        return (self.collective, self.ranks, self.chunks_per_rank, _le_bytes(self.step_ptr, "<u8"),
                *(_le_bytes(a, f"<u{width}") for a in (self.src, self.dst, self.chunk)), width,
                _le_bytes(self.reduce, "u1"), self.dependencies == "chunks",
                None if self.path is None else np.asarray(self.path, dtype=np.int32), self.paths)


def whole_number(value: object, where: str, low: int, high: int | None = None) -> int:
    """An integer field's value as an int, by the rule every reader shares (`infragraph.integers`:
    4.0 is 4; 1.5, true, "1", NaN are not integers), in low..high; else an error at `where`."""
    number = exact_integer(value)
    if number is None:
        raise ScheduleError(f"{where}: {not_an_integer(value)}")
    if number < low or (high is not None and number > high):
        wanted = f"an integer >= {low}" if high is None else f"{low}..{high}"
        raise ScheduleError(f"{where}: expected {wanted}, found {number}")
    return number


def read_paths(raw: object, where: str) -> tuple[tuple[str, ...], ...]:
    """The `paths` table: a list of lists of node names (non-empty strings; an empty list is the
    link joining the two NPUs directly)."""
    if not isinstance(raw, list):
        raise ScheduleError(f"{where}: expected a list of paths (lists of node names), found {raw!r}")
    out = []
    for i, path in enumerate(raw):
        if not isinstance(path, list):
            raise ScheduleError(f"{where}/{i}: expected a list of node names, found {path!r}")
        for j, name in enumerate(path):
            if not isinstance(name, str) or not name:
                raise ScheduleError(f"{where}/{i}/{j}: expected a node name, found {name!r}")
        out.append(tuple(path))
    return tuple(out)


def index_width(ranks: int, chunks: int) -> int:
    """Bytes per src/dst/chunk value: 2 while ranks and chunks fit 16 bits, else 4."""
    return 2 if ranks <= 1 << 16 and chunks <= 1 << 16 else 4


def index_dtype(ranks: int, chunks: int) -> np.dtype:
    return np.dtype(f"<u{index_width(ranks, chunks)}")


def _le_bytes(a: np.ndarray, dtype: str):
    """`a` as little-endian bytes of `dtype` for the engine: the bytes object under `a` when `a`
    already is exactly that (columns from the engine or a file: no copy), else a converted copy."""
    bits = 8 * np.dtype(dtype).itemsize
    if a.dtype.kind in "iu" and a.dtype.itemsize * 8 > bits and a.size and (int(a.max()) >> bits or int(a.min()) < 0):
        raise ScheduleError(f"a column holds {int(a.max())} (or {int(a.min())}), outside the {bits}-bit values its "
                            "ranks and chunks allow")
    base = a.base
    while isinstance(base, np.ndarray):  # a view of a view (the op column read as bool)
        base = base.base
    same = a.dtype == np.dtype(dtype) or (a.dtype == bool and np.dtype(dtype) == np.uint8)
    if same and isinstance(base, bytes) and len(base) == a.nbytes and a.flags.c_contiguous:
        return base
    return np.ascontiguousarray(a, dtype=dtype).tobytes()
