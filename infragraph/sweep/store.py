"""The results table on disk: RESULTS.parquet and RESULTS.csv, one row per point, and a journal.

While a sweep runs, every finished point is appended to RESULTS.partial.jsonl and flushed, so a
run that is killed keeps each point it finished. The next run (the same command) reads the table
and the journal, skips every point already done (matched by its key: a hash of the point's inputs
and the source contents), reruns failed ones, and rewrites the table; the journal is removed
once the table holds its rows. Both tables are written to a temporary name and renamed, so a
reader never sees half a file.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Iterable

from ..errors import Diagnostic, InfraGraphError, Location
from .worker import METRICS

FIRST = ("point", "key")
STATUS = ("status", "error")
SUFFIXES = (".parquet", ".csv")


class ResultStore:
    def __init__(self, output: str | Path):
        out = Path(output)
        stem = out.with_suffix("") if out.suffix in SUFFIXES else out
        self.parquet = stem.with_name(stem.name + ".parquet")
        self.csv = stem.with_name(stem.name + ".csv")
        self.journal = stem.with_name(stem.name + ".partial.jsonl")
        self._fh = None

    def previous(self) -> dict[str, dict[str, Any]]:
        """Rows of earlier runs by key: the table, then the journal of a run that did not finish."""
        rows: dict[str, dict[str, Any]] = {}
        if self.parquet.exists():
            import pyarrow.parquet as pq

            try:
                for row in pq.read_table(self.parquet).to_pylist():
                    rows[row["key"]] = row
            except Exception as e:  # pyarrow raises several types for a damaged file
                raise InfraGraphError(Diagnostic(f"cannot read earlier results: {e}", Location(str(self.parquet)),
                                                 "delete the file to start the sweep afresh")) from None
        if self.journal.exists():
            with open(self.journal, encoding="utf-8") as fh:
                for line in fh:
                    try:
                        row = json.loads(line)
                    except json.JSONDecodeError:  # the last line of a killed run may be cut short
                        continue
                    rows[row["key"]] = row
        return rows

    def open(self) -> None:
        """Open the journal for appending, before any point runs (an unwritable output fails now)."""
        try:
            self.parquet.parent.mkdir(parents=True, exist_ok=True)
            self._fh = open(self.journal, "a", encoding="utf-8")
        except OSError as e:
            raise InfraGraphError(Diagnostic(f"cannot write results: {e.strerror or e}",
                                             Location(str(self.journal)))) from None

    def append(self, row: dict[str, Any]) -> None:
        """Journal one finished point (flushed: it survives the process being killed)."""
        if self._fh is None:
            self.open()
        self._fh.write(json.dumps(row, default=_json_default) + "\n")
        self._fh.flush()

    def close(self) -> None:
        """Close the journal; an empty one (nothing ran) is removed."""
        if self._fh is not None:
            self._fh.close()
            self._fh = None
        if self.journal.exists() and self.journal.stat().st_size == 0:
            self.journal.unlink()

    def write(self, rows: list[dict[str, Any]]) -> None:
        """Write both tables from `rows` (in order) and drop the journal."""
        import pyarrow as pa
        import pyarrow.csv as pacsv
        import pyarrow.parquet as pq

        self.close()
        table = pa.table({name: _column([r.get(name) for r in rows]) for name in _columns(rows)})
        _atomic(self.parquet, lambda tmp: pq.write_table(table, tmp))
        _atomic(self.csv, lambda tmp: pacsv.write_csv(table, tmp))
        self.journal.unlink(missing_ok=True)


def _columns(rows: Iterable[dict[str, Any]]) -> list[str]:
    """FIRST, the inputs in the order they appear, STATUS, then metrics, per-tier columns last."""
    seen: dict[str, None] = {}
    for r in rows:
        seen.update(dict.fromkeys(r))
    names = [n for n in seen if n not in FIRST + STATUS]
    tiers = sorted(n for n in names if n.startswith("utilization["))
    rest = [n for n in names if not n.startswith("utilization[")]
    inputs = [n for n in rest if n not in METRICS]
    metrics = [n for n in rest if n in METRICS]
    return [*FIRST, *inputs, *STATUS, *metrics, *tiers]


def _column(values: list[Any]):
    """An Arrow column; a column mixing kinds (numbers and text) is stored as text."""
    import pyarrow as pa

    try:
        return pa.array(values)
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        return pa.array([None if v is None else str(v) for v in values])


def _json_default(value: Any) -> Any:
    if hasattr(value, "item"):  # numpy scalars
        return value.item()
    raise TypeError(f"cannot store a {type(value).__name__} in the results table")


def _atomic(path: Path, write) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        write(str(tmp))
        os.replace(tmp, path)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        raise InfraGraphError(Diagnostic(f"cannot write results: {e.strerror or e}", Location(str(path)))) from None

