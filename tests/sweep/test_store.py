"""The results table on disk (sweep/store.py): a Ctrl-C while the tables are written waits for both,
and both reach the disk before they replace the old ones."""
from __future__ import annotations

import os
import signal

import pyarrow.csv as pacsv
import pyarrow.parquet as pq
import pytest

from infragraph.output import sigint_deferred
from infragraph.sweep.store import ResultStore

ROWS = [{"point": i, "key": f"k{i}", "source": "std.fabrics.ring", "npus": 4 + i, "status": "ok", "error": None,
         "time_ns": 1000.0 * (i + 1)} for i in range(3)]


def _journalled(tmp_path) -> ResultStore:
    """A store whose journal holds ROWS, as a run that finished its points leaves it."""
    store = ResultStore(tmp_path / "res")
    store.__enter__()
    store.open()
    for row in ROWS:
        store.append(row)
    return store


def test_a_ctrl_c_while_the_tables_are_written_waits_for_both(tmp_path, monkeypatch):
    """The interrupt is raised at the write point (after the parquet file's bytes, before the csv's):
    it used to propagate from there, leaving no .csv (and, on a first run, no .parquet either)."""
    write_table = pq.write_table

    def interrupted(table, where, **kw):
        write_table(table, where, **kw)
        signal.raise_signal(signal.SIGINT)  # delivered synchronously: a Ctrl-C exactly here

    monkeypatch.setattr(pq, "write_table", interrupted)
    store = _journalled(tmp_path)
    try:
        with pytest.raises(KeyboardInterrupt):
            store.write(ROWS)
    finally:
        store.__exit__(None, None, None)
    assert pq.read_table(store.parquet).column("time_ns").to_pylist() == [1000.0, 2000.0, 3000.0]
    assert pacsv.read_csv(store.csv).column("npus").to_pylist() == [4, 5, 6]
    assert not store.journal.exists()  # the tables hold its rows
    assert not list(tmp_path.glob(".res.*"))  # no temporary left
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_the_tables_are_on_disk_before_they_replace_the_old_ones(tmp_path, monkeypatch):
    synced = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(os.readlink(f"/proc/self/fd/{fd}")), real_fsync(fd)))
    store = _journalled(tmp_path)
    try:
        store.write(ROWS)
    finally:
        store.__exit__(None, None, None)
    names = [os.path.basename(p) for p in synced]
    parquet_tmp = next(i for i, n in enumerate(names) if n.startswith(".res.parquet."))
    csv_tmp = next(i for i, n in enumerate(names) if n.startswith(".res.csv."))
    assert parquet_tmp < csv_tmp and names.count(os.path.basename(tmp_path)) == 2  # each rename's folder synced too


def test_a_deferred_ctrl_c_reaches_the_handler_in_force_before():
    seen = []
    previous = signal.signal(signal.SIGINT, lambda signum, _frame: seen.append(signum))
    try:
        with sigint_deferred():
            signal.raise_signal(signal.SIGINT)
            assert seen == []  # held inside the block
        assert seen == [signal.SIGINT]
        with sigint_deferred():
            pass
        assert seen == [signal.SIGINT]  # none caught, none delivered
    finally:
        signal.signal(signal.SIGINT, previous)
