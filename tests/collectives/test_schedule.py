"""The validator proves ring schedules and rejects broken ones, naming rank and step."""
import pytest

from infragraph.collectives.schedule import ScheduleError, read_schedule, validate
from infragraph.collectives.ring import ring_schedule as ring


@pytest.mark.parametrize("collective", ["all-gather", "reduce-scatter", "all-reduce"])
@pytest.mark.parametrize("n", [2, 3, 8])
def test_ring_validates(collective, n):
    validate(read_schedule(ring(collective, n)))


def test_missing_chunk_names_rank():
    doc = ring("all-gather", 8)
    doc["steps"][-1] = [t for t in doc["steps"][-1] if t["src"] != 3]
    with pytest.raises(ScheduleError, match=r"rank 4 ends with chunk \d without it"):
        validate(read_schedule(doc))


def test_double_reduction_names_rank_and_step():
    doc = ring("reduce-scatter", 4)
    doc["steps"][1].append({"src": 0, "dst": 2, "chunk": 3, "op": "reduce"})
    with pytest.raises(ScheduleError, match=r"step 1: rank 2 reduces chunk 3 from rank 0 .* twice"):
        validate(read_schedule(doc))


def test_send_of_unheld_chunk_names_step():
    doc = ring("all-gather", 4)
    doc["steps"][0].append({"src": 0, "dst": 2, "chunk": 2, "op": "copy"})
    with pytest.raises(ScheduleError, match=r"step 0: rank 0 sends chunk 2"):
        validate(read_schedule(doc))


@pytest.mark.parametrize("bad, where", [
    ({"collective": "gather"}, "/collective"),
    ({"ranks": 0}, "/ranks"),
    ({"steps": [[{"src": 0, "dst": 9, "chunk": 0}]]}, "/steps/0/0/dst"),
    ({"steps": [[{"src": 0, "dst": 1, "chunk": 0, "op": "add"}]]}, "/steps/0/0/op"),
])
def test_reader_locates_errors(bad, where):
    doc = ring("all-gather", 4)
    doc.update(bad)
    with pytest.raises(ScheduleError, match=where):
        read_schedule(doc, "s.json")


def test_load_locates_json_syntax_error(tmp_path):
    from infragraph.collectives.schedule import load_schedule

    bad = tmp_path / "s.json"
    bad.write_text('{"collective": "all-gather",\n "ranks": 4,,\n}')
    with pytest.raises(ScheduleError, match=r"s.json:2:13: not JSON"):
        load_schedule(str(bad))
    with pytest.raises(ScheduleError, match="cannot read"):
        load_schedule(str(tmp_path / "missing.json"))
