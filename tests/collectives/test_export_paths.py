"""Exports drop a schedule's named paths, and `infragraph schedule export` says so on stderr."""
from __future__ import annotations

import json

import pytest

from infragraph.cli import main
from infragraph.collectives.export_paths import dropped_paths
from infragraph.collectives.ring import ring_schedule
from infragraph.collectives.schedule import read_schedule


def with_paths(n: int = 4) -> dict:
    """The ring all-reduce with every second transfer of each step naming one of two paths."""
    doc = ring_schedule("all-reduce", n)
    doc["paths"] = [["sw.0"], ["sw.1"]]
    for step in doc["steps"]:
        for i, t in enumerate(step[::2]):
            t["path"] = i % 2
    return doc


def test_the_note_counts_the_transfers_that_name_paths():
    note = dropped_paths(read_schedule(with_paths()), "msccl")
    assert note is not None and note.startswith("the schedule names a path for 12 of its 24 transfers (2 paths)")
    assert "NCCL picks the transport" in note
    assert "comm_dst" in dropped_paths(read_schedule(with_paths()), "chakra")
    assert dropped_paths(read_schedule(ring_schedule("all-reduce", 4)), "chakra") is None


@pytest.mark.parametrize("to, extra, where", [("msccl", ["-o", "p.xml"], "p.xml"),
                                              ("chakra", ["-o", "et/r", "--size", "1MiB"], "et/r.<rank>.et")])
@pytest.mark.parametrize("paths", [True, False])
def test_export_warns_when_it_drops_paths(tmp_path, capsys, monkeypatch, to, extra, where, paths):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "et").mkdir()
    (tmp_path / "s.json").write_text(json.dumps(with_paths() if paths else ring_schedule("all-reduce", 4)))
    assert main(["schedule", "export", "s.json", "--to", to, *extra]) == 0
    err = capsys.readouterr().err
    if paths:
        assert f"warning: {where}: the schedule names a path for 12 of its 24 transfers" in err
        assert "the export drops them" in err
    else:
        assert "warning" not in err
