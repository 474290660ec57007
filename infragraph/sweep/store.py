"""The results table on disk: RESULTS.parquet and RESULTS.csv, one row per point, and a journal.

While a sweep runs, every finished point is appended to RESULTS.partial.jsonl and flushed, so a
run that is killed keeps each point it finished. The next run (the same command) reads the table
and the journal — every row checked (columns.check_row), a bad one refused with its file and line
or row, since a row taken on trust would enter the table as a result — and the driver reuses the
rows that still match their point. Only the last line of the journal may be cut short (a kill in
the middle of a write): it is dropped, and the journal is trimmed to its last whole line before
new rows are appended. Both tables are written to a temporary name, flushed to disk and renamed
(output.open_output, durable), so a reader never sees half a file and a crash leaves the old table
or the new one; the journal is removed once both tables hold its rows. A Ctrl-C while the tables
are written (the sweep's last step, also after an interrupted run) waits until they are
(output.sigint_deferred), then interrupts. RESULTS.lock (lock.py) keeps a second sweep out for the
whole run.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Iterable

from ..errors import Diagnostic, InfraGraphError, Location, error
from ..output import TABLE_SUFFIXES, open_output, sigint_deferred
from .columns import FIRST, METRICS, PREFIXES, STATUS, WORKLOAD_METRICS, RowError, check_row
from .lock import OutputLock


class ResultStore:
    def __init__(self, output: str | Path):
        out = Path(output)
        if str(output).endswith(("/", os.sep)) or out.name in ("", ".", "..") or out.is_dir():
            raise error(f"'{output}' names a folder; give the results a name, e.g. {out / 'results'} "
                        f"(writes {out / 'results.parquet'} and {out / 'results.csv'})", "-o")
        stem = out.with_suffix("") if out.suffix in TABLE_SUFFIXES else out
        self.parquet = stem.with_name(stem.name + ".parquet")
        self.csv = stem.with_name(stem.name + ".csv")
        self.journal = stem.with_name(stem.name + ".partial.jsonl")
        self.lock = OutputLock(stem.with_name(stem.name + ".lock"))
        self.workloads = stem.with_name(stem.name + ".workloads")  # a workload sweep's ET sets (etcache.py)
        self._fh = None
        self._journal_end: int | None = None  # bytes of whole lines in the journal (a cut-short tail after)

    def __enter__(self) -> ResultStore:
        """Hold the output's lock (refused if another sweep holds it) and clear a killed run's temporaries."""
        folder = self.parquet.parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            reason = (f"'{e.filename}' is not a folder" if isinstance(e, (FileExistsError, NotADirectoryError))
                      else e.strerror or str(e))
            raise InfraGraphError(Diagnostic(f"cannot write results: {reason}", Location(str(self.parquet)))) from None
        self.lock.acquire()
        for table in (self.parquet, self.csv):
            for tmp in table.parent.glob(f".{table.name}.*.part"):  # open_output's, left by a kill -9
                tmp.unlink(missing_ok=True)
        return self

    def __exit__(self, *exc) -> None:
        self.close()
        self.lock.release()

    def previous(self) -> list[dict[str, Any]]:
        """Rows of earlier runs, each checked: the table's, then the journal's (later rows win)."""
        rows: list[dict[str, Any]] = []
        if self.parquet.exists():
            import pyarrow.parquet as pq

            try:
                table = pq.read_table(self.parquet).to_pylist()
            except Exception as e:  # pyarrow raises several types for a damaged file
                raise InfraGraphError(Diagnostic(f"cannot read earlier results: {e}", Location(str(self.parquet)),
                                                 "delete the file to start the sweep afresh")) from None
            for i, row in enumerate(table):
                try:
                    rows.append(check_row(row))
                except RowError as e:
                    raise InfraGraphError(Diagnostic(f"corrupt results table: {e}",
                                                     Location(str(self.parquet), path=f"rows[{i}]"),
                                                     "delete the file to run its points again")) from None
        if self.journal.exists():
            rows += self._journal_rows()
        return rows

    def _journal_rows(self) -> list[dict[str, Any]]:
        try:
            data = self.journal.read_bytes()
        except OSError as e:
            raise InfraGraphError(Diagnostic(f"cannot read the sweep journal: {e.strerror or e}",
                                             Location(str(self.journal)))) from None
        rows = []
        lines = data.split(b"\n")
        self._journal_end = len(data) - len(lines[-1])  # the last piece has no newline: cut short, or empty
        for number, line in enumerate(lines[:-1], 1):
            try:
                rows.append(check_row(json.loads(line)))
            except (json.JSONDecodeError, UnicodeDecodeError) as e:
                raise self._corrupt(number, f"not JSON: {e}") from None
            except RowError as e:
                raise self._corrupt(number, str(e)) from None
        return rows

    def _corrupt(self, line: int, message: str) -> InfraGraphError:
        return InfraGraphError(Diagnostic(f"corrupt sweep journal: {message}", Location(str(self.journal), line),
                                          f"delete {self.journal.name} to run its points again (or mend the line)"))

    def open(self) -> None:
        """Open the journal for appending, before any point runs (an unwritable output fails now)."""
        try:
            if self._journal_end is not None:
                os.truncate(self.journal, self._journal_end)  # drop a line a kill cut short
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

    def write(self, rows: list[dict[str, Any]], report: list[str] | None = None) -> None:
        """Write both tables from `rows` (in order) and drop the journal; `report` names the spec's
        report columns (placed after the metrics)."""
        import pyarrow as pa
        import pyarrow.csv as pacsv
        import pyarrow.parquet as pq

        self.close()
        table = pa.table({name: _column([r.get(name) for r in rows]) for name in _columns(rows, report or [])})
        with sigint_deferred():
            with open_output(self.parquet, binary=True, durable=True) as fh:
                pq.write_table(table, fh)
            with open_output(self.csv, binary=True, durable=True) as fh:
                pacsv.write_csv(table, fh)
            self.journal.unlink(missing_ok=True)


def _columns(rows: Iterable[dict[str, Any]], report: list[str]) -> list[str]:
    """FIRST, the inputs in the order they appear, STATUS, then metrics, the report columns, per-tier
    columns last."""
    seen: dict[str, None] = {}
    for r in rows:
        seen.update(dict.fromkeys(r))
    names = [n for n in seen if n not in (*FIRST, *STATUS, *report)]
    tiers = sorted(n for n in names if n.startswith(PREFIXES))
    rest = [n for n in names if not n.startswith(PREFIXES)]
    kind = WORKLOAD_METRICS if "step_time_ns" in rest else METRICS  # a workload sweep's table, or a collective's
    inputs = [n for n in rest if n not in kind]
    metrics = [n for n in kind if n in rest]
    return [*FIRST, *inputs, *STATUS, *metrics, *report, *tiers]


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
