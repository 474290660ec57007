"""The binary schedule file (.igsched): round trips, and every malformed part refused with its
location (the file, then the header's or the transfer's document path)."""
from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from infragraph.collectives.ring import ring_schedule as ring
from infragraph.collectives.schedule import ScheduleError, read_schedule, schedule_from_columns
from infragraph.collectives.schedule_file import MAGIC, read_schedule_file, write_schedule_file
from infragraph.collectives.synthesize import synthesize
from tests.simgraphs import torus


@pytest.mark.parametrize("collective", ["all-gather", "reduce-scatter", "all-reduce"])
def test_round_trip(tmp_path, collective):
    s = replace(read_schedule(ring(collective, 5)), name="ring", dependencies="chunks")
    path = str(tmp_path / "s.igsched")
    size = write_schedule_file(path, s.columns())
    assert size == (tmp_path / "s.igsched").stat().st_size
    back = read_schedule_file(path)
    back.prove()
    assert schedule_from_columns(back) == s


def test_synthesized_schedule_round_trip_keeps_its_synthesis_block(tmp_path):
    s = synthesize(torus((4, 4)), "all-reduce", 2)
    path = str(tmp_path / "s.igsched")
    write_schedule_file(path, s.columns("chunks"))
    back = read_schedule_file(path)
    assert back.synthesis["predicted_time_ns"] == s.time_ns and back.dependencies == "chunks"
    for key in ("step_ptr", "src", "dst", "chunk", "reduce"):
        assert np.array_equal(getattr(back, key), getattr(s.cols, key)), key
    back.prove()


def test_wide_columns_when_ranks_pass_16_bits(tmp_path):
    s = read_schedule(ring("all-gather", 3)).columns()
    wide = replace(s, ranks=70000, collective="all-gather")  # ranks past 65,536: 4-byte columns
    path = str(tmp_path / "w.igsched")
    write_schedule_file(path, wide)
    head = json.loads(open(path, "rb").read()[16:16 + int.from_bytes(open(path, "rb").read()[8:16], "little")])
    assert {c["name"]: c["dtype"] for c in head["columns"]}["src"] == "<u4"
    assert np.array_equal(read_schedule_file(path).dst, s.dst)


def _write(tmp_path, edit_header=None, edit_bytes=None) -> str:
    """A valid 4-rank ring all-reduce file, its header and bytes edited."""
    path = tmp_path / "s.igsched"
    room = "x" * 40  # a description the edits drop, so that an edited header still fits its place
    write_schedule_file(str(path), replace(read_schedule(ring("all-reduce", 4)), description=room).columns())
    data = bytearray(path.read_bytes())
    length = int.from_bytes(data[8:16], "little")
    head = json.loads(data[16:16 + length])
    if edit_header:
        head["description"] = ""
        edit_header(head)
        text = json.dumps(head, separators=(",", ":")).encode()
        assert len(text) <= length, "edited header must not grow past the first column"
        data[16:16 + length] = text + b" " * (length - len(text))
    if edit_bytes:
        edit_bytes(data, head)
    path.write_bytes(bytes(data))
    return str(path)


def _column(head: dict, name: str) -> dict:
    return next(c for c in head["columns"] if c["name"] == name)


def _poke(name: str, row: int, value: int):
    def edit(data: bytearray, head: dict) -> None:
        c = _column(head, name)
        size = np.dtype(c["dtype"]).itemsize
        at = c["offset"] + row * size
        data[at:at + size] = value.to_bytes(size, "little")
    return edit


@pytest.mark.parametrize("edit_header, edit_bytes, message", [
    (lambda h: h.update(collective="gather"), None, r"s.igsched: /collective: expected one of"),
    (lambda h: h.update(ranks=0), None, r"s.igsched: /ranks: expected an integer >= 1, found 0"),
    (lambda h: h.update(color=1), None, r"s.igsched: unknown header key 'color'"),
    (lambda h: h.update(dependencies="all"), None, r"/dependencies: expected rank-steps or chunks"),
    (lambda h: h["columns"].pop(), None, r"/columns: expected one entry each for step_ptr, src, dst, chunk, op"),
    (lambda h: _column(h, "dst").update(dtype="<f8"), None, r"/columns/2/dtype: dst must be <u2 or <u4, found '<f8'"),
    (lambda h: _column(h, "op").update(length=3), None, r"/columns/4/length: expected 24 \(transfers\), found 3"),
    (lambda h: _column(h, "src").update(offset=65), None, r"/columns/1/offset: expected a multiple of 64"),
    (lambda h: _column(h, "chunk").update(offset=1 << 20), None, r"/columns/3/offset: .* inside the file's"),
    (None, _poke("dst", 5, 9), r"s.igsched: /steps/1/1/dst: expected 0..3, found 9"),
    (None, _poke("dst", 0, 0), r"s.igsched: /steps/0/0/dst: expected a rank other than src, found 0"),
    (None, _poke("chunk", 13, 4), r"s.igsched: /steps/3/1/chunk: expected 0..3, found 4"),
    (None, _poke("op", 23, 2), r"s.igsched: /steps/5/3/op: expected 0 \(copy\) or 1 \(reduce\), found 2"),
    (None, _poke("step_ptr", 2, 3), r"/columns step_ptr: step 1 ends before it starts"),
    (None, _poke("step_ptr", 6, 9), r"/columns step_ptr: must run from 0 to the 24 transfers, found 0 .. 9"),
    (None, lambda d, h: d.__setitem__(slice(16, 17), b"["), r"s.igsched: header \(from byte 16\) is not JSON"),
    (None, lambda d, h: d.__setitem__(slice(0, 8), b"IGSCHED2"), r"s.igsched: not a binary schedule"),
    (None, lambda d, h: d.__setitem__(slice(8, 16), (1 << 40).to_bytes(8, "little")), r"header of \d+ B does not fit"),
])
def test_malformed_files_are_located(tmp_path, edit_header, edit_bytes, message):
    with pytest.raises(ScheduleError, match=message):
        read_schedule_file(_write(tmp_path, edit_header, edit_bytes))


def test_header_integers_written_as_integral_floats_are_read_exactly(tmp_path):
    """The header's integers obey the schema's "integer" (any number without a fraction), as the
    JSON format's do (tests/collectives/test_schema.py): 4.0 is 4, 4.5 is located."""
    def as_floats(h):
        h.update(ranks=4.0, transfers=float(h["transfers"]))
        _column(h, "src")["offset"] = float(_column(h, "src")["offset"])
    back = read_schedule_file(_write(tmp_path, as_floats))
    assert back.ranks == 4 and type(back.ranks) is int and back.transfers == 24
    assert np.array_equal(back.src, read_schedule(ring("all-reduce", 4)).columns().src)
    with pytest.raises(ScheduleError, match=r"s.igsched: /ranks: expected an integer, found 4.5$"):
        read_schedule_file(_write(tmp_path, lambda h: h.update(ranks=4.5)))


def test_a_truncated_file_is_located(tmp_path):
    path = _write(tmp_path)
    data = open(path, "rb").read()
    open(path, "wb").write(data[:-10])
    with pytest.raises(ScheduleError, match=r"/columns/4/offset: .* inside the file's"):
        read_schedule_file(path)


def test_valid_file_that_breaks_the_collective_is_refused_by_the_proof(tmp_path):
    path = _write(tmp_path, edit_bytes=_poke("chunk", 23, 0))  # the last copy sends another chunk
    with pytest.raises(ScheduleError, match=r"ends with chunk"):
        read_schedule_file(path).prove()
    assert open(path, "rb").read(8) == MAGIC


def _dgx_synthesis():
    from infragraph.sources import load_graph

    g = load_graph("std.devices.dgx", {})
    return g, synthesize(g, "all-reduce", 2)


def test_paths_survive_the_binary_file_and_the_engine_times_them_as_the_model(tmp_path):
    """A DGX's GPU pairs meet over four NVSwitch chips: the synthesized schedule names each
    transfer's chip (docs/collectives.md, "Paths"), the file keeps them, and the engine run of
    the file read back gives the synthesizer's time (routed, the chips' chunks queued on one way)."""
    from infragraph.collectives.run import simulate_schedule
    from infragraph.simulate import SimulationOptions

    g, s = _dgx_synthesis()
    assert sorted(s.cols.paths) == [(f"dgx.0.scaleup.{c}",) for c in range(4)]  # one per chip, for every pair
    path = str(tmp_path / "s.igsched")
    write_schedule_file(path, s.columns("chunks"))
    back = read_schedule_file(path)
    assert back.paths == s.cols.paths and np.array_equal(back.path, s.cols.path)
    schedule = schedule_from_columns(back)
    opts = SimulationOptions(model="fair", local_mem_bw_gb_per_s=None, endpoint_delay_ns=0.0)
    r = simulate_schedule(g, schedule, s.size_bytes, opts)
    assert r["collective_time_ns"] == pytest.approx(s.time_ns, rel=1e-9)
    doc = json.loads(json.dumps(s.document("chunks")))
    assert read_schedule(doc) == schedule


def test_a_path_outside_the_table_is_located(tmp_path):
    _, s = _dgx_synthesis()
    cols = replace(s.columns(), path=np.where(np.arange(s.cols.transfers) == 3, 10**6, s.cols.path))
    path = str(tmp_path / "s.igsched")
    write_schedule_file(path, cols)
    top = len(s.cols.paths) - 1
    with pytest.raises(ScheduleError, match=rf"s\.igsched: /steps/0/3/path: expected -1 \(none\) or 0\.\.{top}, found 1000000"):
        read_schedule_file(path)


def test_a_torus_names_no_paths():
    """One logical link per NPU pair: the engine's route is the synthesizer's link, nothing to name."""
    s = synthesize(torus((4, 4)), "all-reduce", 2)
    assert s.cols.path is None and s.cols.paths == () and "paths" not in s.document()


def _header(path: str) -> dict:
    data = open(path, "rb").read()
    return json.loads(data[16:16 + int.from_bytes(data[8:16], "little")])


def test_written_headers_follow_the_schema(tmp_path):
    from infragraph.schemas import schema_errors

    path = str(tmp_path / "s.igsched")
    write_schedule_file(path, synthesize(torus((3, 3)), "all-reduce", 1).columns("chunks"))
    assert schema_errors("collective-schedule-file", _header(path)) == []


@pytest.mark.parametrize("edit", [
    lambda h: h.update(collective="gather"), lambda h: h.update(ranks=0), lambda h: h.update(color=1),
    lambda h: h["columns"].pop(), lambda h: _column(h, "dst").update(dtype="<f8"),
    lambda h: _column(h, "src").update(offset=65), lambda h: h.pop("transfers"),
])
def test_headers_the_schema_refuses_the_reader_refuses(tmp_path, edit):
    from infragraph.schemas import schema_errors

    path = _write(tmp_path, edit)
    assert schema_errors("collective-schedule-file", _header(path))
    with pytest.raises(ScheduleError):
        read_schedule_file(path)


def test_a_header_with_paths_follows_the_schema(tmp_path):
    from infragraph.schemas import schema_errors

    path = str(tmp_path / "s.igsched")
    write_schedule_file(path, _dgx_synthesis()[1].columns("chunks"))
    head = _header(path)
    assert "paths" in head and any(c["name"] == "path" for c in head["columns"])
    assert schema_errors("collective-schedule-file", head) == []
