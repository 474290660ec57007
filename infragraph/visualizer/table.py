"""Sweep tables (`infragraph sweep` output, .parquet or .csv) read for plotting.

The table's columns run: point, key, the inputs (axes, derived values, simulation options), status,
error, then the metrics. Plots need to know which inputs really vary independently: a derived
column (a torus shape chosen by the NPU count) adds nothing to a legend, so `independent` keeps an
input only when it splits the rows further than the ones kept before it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from ..errors import Diagnostic, InfraGraphError, Location, did_you_mean
from ..output import TABLE_SUFFIXES
# Short names for the metrics a plot usually wants, with their axis labels.
METRIC_ALIASES = {"time": "time_ns", "busbw": "busbw_gb_per_s", "algbw": "algbw_gb_per_s",
                  "utilization": "utilization_max", "step": "step_time_ns"}


@dataclass
class SweepTable:
    path: str
    rows: list[dict[str, Any]]  # successful points only
    inputs: list[str]  # input columns, table order
    columns: list[str]
    failed: int  # rows with status != ok (not plotted)

    def column(self, name: str, what: str = "column") -> str:
        """`name` (or a metric alias) as a column of this table; a located error otherwise."""
        if name == "time" and "time_ns" not in self.columns and "step_time_ns" in self.columns:
            name = "step"  # a workload sweep's table: its time is the step's
        name = METRIC_ALIASES.get(name, name)
        if name not in self.columns:
            raise InfraGraphError(Diagnostic(
                f"no {what} '{name}' in the results; columns: {', '.join(self.columns)}", Location(self.path),
                did_you_mean(name, self.columns)))
        return name

    def numeric(self, column: str) -> str:
        """`column` when every plotted row holds a finite number there; a located error naming the
        column and the first row (its point) that does not: text in a metric would otherwise be drawn
        as categories, or not at all, without a word."""
        values = [_number(r.get(column)) for r in self.rows]  # a CSV column with one text cell is all text
        bad = next((r for r, v in zip(self.rows, values) if v is None), None)
        if bad is not None:
            where = f"point {bad['point']}" if bad.get("point") is not None else f"key {bad.get('key')}"
            raise InfraGraphError(Diagnostic(
                f"column '{column}' must hold numbers to be plotted; {where} has {bad.get(column)!r}",
                Location(self.path), "the table was edited or not written by `infragraph sweep`; fix or remove "
                                     "that row"))
        for r, v in zip(self.rows, values):
            r[column] = v
        return column

    def varying(self) -> list[str]:
        return [c for c in self.inputs if len({_hashable(r.get(c)) for r in self.rows}) > 1]

    def independent(self, exclude: tuple[str, ...] = ()) -> list[str]:
        """Varying inputs that each split the rows further than the ones before (and `exclude`)."""
        kept: list[str] = []
        groups = len({tuple(_hashable(r.get(c)) for c in exclude) for r in self.rows})
        for c in self.varying():
            if c in exclude:
                continue
            n = len({tuple(_hashable(r.get(k)) for k in (*exclude, *kept, c)) for r in self.rows})
            if n > groups:
                kept.append(c)
                groups = n
        return kept

    def where(self, conditions: list[str]) -> SweepTable:
        """Only the rows where COLUMN=VALUE for each condition (values compared as text)."""
        rows = self.rows
        for cond in conditions:
            name, eq, value = cond.partition("=")
            if not eq:
                raise InfraGraphError(Diagnostic(f"bad --where '{cond}'; expected COLUMN=VALUE", Location(self.path)))
            col = self.column(name.strip())
            rows = [r for r in rows if _text(r.get(col)) == value.strip()]
            if not rows:
                values = sorted({_text(r.get(col)) for r in self.rows})
                raise InfraGraphError(Diagnostic(f"no row has {col}={value.strip()}; values: {', '.join(values)}",
                                                 Location(self.path), did_you_mean(value.strip(), values)))
        return SweepTable(self.path, rows, self.inputs, self.columns, self.failed)


def is_table(path: str) -> bool:
    return Path(path).suffix.lower() in TABLE_SUFFIXES


def read_table(path: str) -> SweepTable:
    """A sweep table from .parquet or .csv; errors name the file."""
    try:
        if Path(path).suffix.lower() == ".parquet":
            import pyarrow.parquet as pq

            table = pq.read_table(path)
        else:
            import pyarrow.csv as pacsv

            table = pacsv.read_csv(path)
    except FileNotFoundError:
        raise InfraGraphError(Diagnostic("cannot read results: no such file", Location(path))) from None
    except Exception as e:  # pyarrow's errors for unreadable or damaged files vary by format
        raise InfraGraphError(Diagnostic(f"cannot read results: {e}", Location(path))) from None
    columns = table.column_names
    if not {"key", "status"} <= set(columns) or columns.index("status") < columns.index("key"):
        raise InfraGraphError(Diagnostic("not a sweep table: expected the columns point, key, inputs..., status",
                                         Location(path), "write one with: infragraph sweep SPEC -o RESULTS"))
    rows = table.to_pylist()
    ok = [r for r in rows if r["status"] == "ok"]
    if not ok:
        raise InfraGraphError(Diagnostic(f"no successful point to plot ({len(rows)} rows, all failed or none)",
                                         Location(path)))
    inputs = columns[columns.index("key") + 1:columns.index("status")]
    several = len({r.get("source") for r in ok}) > 1  # one spec run over several sources: compare them
    return SweepTable(path, ok, [c for c in inputs if c != "source" or several], columns, len(rows) - len(ok))


def read_tables(paths: list[str]) -> SweepTable:
    """Several sweep tables as one, so fabric families can be compared in one figure: the rows of
    all, with `source` an input when the tables (or one table) hold several sources, and a `table`
    input (the file name) when two tables share a source. Errors name the file."""
    if len(paths) == 1:
        return read_table(paths[0])
    parts = [read_table(p) for p in paths]
    stems = [Path(p).stem for p in paths]
    if len(set(stems)) < len(stems):
        stems = [str(p) for p in paths]
    rows, inputs, columns = [], [], []
    for part, stem in zip(parts, stems):
        rows += [{**r, "table": stem} for r in part.rows]
        inputs += [c for c in part.inputs if c not in inputs]
        columns += [c for c in part.columns if c not in columns]
    sources = {r.get("source") for r in rows}
    by_source = len(sources) == len(parts) and all(len({r.get("source") for r in p.rows}) == 1 for p in parts)
    extra = ["source"] if len(sources) > 1 else []
    if not by_source:
        extra.append("table")
    return SweepTable(", ".join(paths), rows, extra + inputs, ["table"] + columns, sum(p.failed for p in parts))


def _number(v: Any) -> float | int | None:
    """`v` as a finite number (numeric text read back from a CSV included), else None."""
    if isinstance(v, str):
        try:
            v = float(v)
        except ValueError:
            return None
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        return None
    return v


def _hashable(v: Any) -> Any:
    return tuple(v) if isinstance(v, list) else v


def _text(v: Any) -> str:
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def label(row: dict[str, Any], columns: list[str], show: Callable[[str, Any], str] | None = None) -> str:
    """'npus=4, topology=switch' for a legend; `show(column, value)` formats values (units)."""
    return ", ".join(f"{c}={(show or (lambda _c, v: _text(v)))(c, row.get(c))}" for c in columns)
