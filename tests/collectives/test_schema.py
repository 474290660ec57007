"""schemas/collective-schedule.schema.json and read_schedule agree on good and bad documents.

The reader checks more than a schema can (indices against `ranks`, src != dst): those documents
pass the schema and fail the reader, and are listed as such."""
from __future__ import annotations

import copy
import json

import pytest

from infragraph.collectives.ring import ring_schedule
from infragraph.collectives.schedule import ScheduleError, read_schedule, schedule_doc
from infragraph.schemas import schema_errors


def _mutate(change):
    doc = ring_schedule("all-reduce", 4)
    change(doc)
    return doc


def _set(path, value):
    def change(doc):
        node = doc
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
    return change


def _delete(path):
    def change(doc):
        node = doc
        for key in path[:-1]:
            node = node[key]
        del node[path[-1]]
    return change


GOOD = [
    ("ring", lambda d: None),
    ("named", _set(["name"], "ring4")),
    ("described", _set(["description"], "from msccl-tools")),
    ("chunk dependencies", _set(["dependencies"], "chunks")),
    ("op defaults to copy", _delete(["steps", 3, 0, "op"])),
    ("no steps of a one-rank gather", lambda d: d.update(collective="all-gather", ranks=1, steps=[])),
    ("empty step", lambda d: d["steps"].append([])),
]
BAD_BOTH = [  # (case, change, the reader's located path)
    ("not an object", None, ""),
    ("missing ranks", _delete(["ranks"]), "/ranks"),
    ("missing steps", _delete(["steps"]), "/steps"),
    ("unknown collective", _set(["collective"], "gather"), "/collective"),
    ("zero ranks", _set(["ranks"], 0), "/ranks"),
    ("ranks a string", _set(["ranks"], "4"), "/ranks"),
    ("ranks a bool", _set(["ranks"], True), "/ranks"),
    ("ranks a float", _set(["ranks"], 4.5), "/ranks"),
    ("zero chunks", _set(["chunks_per_rank"], 0), "/chunks_per_rank"),
    ("steps an object", _set(["steps"], {}), "/steps"),
    ("step an object", _set(["steps", 0], {}), "/steps/0"),
    ("transfer a list", _set(["steps", 0, 0], [0, 1, 0]), "/steps/0/0"),
    ("negative src", _set(["steps", 0, 0, "src"], -1), "/steps/0/0/src"),
    ("missing chunk", _delete(["steps", 0, 0, "chunk"]), "/steps/0/0/chunk"),
    ("bad op", _set(["steps", 0, 0, "op"], "add"), "/steps/0/0/op"),
    ("unknown transfer key", _set(["steps", 0, 0, "link"], "l0"), "/steps/0/0"),
    ("unknown key", _set(["deps"], []), "unknown key 'deps'"),
    ("name a number", _set(["name"], 3), "/name"),
    ("bad dependencies", _set(["dependencies"], "none"), "/dependencies"),
    # what the column-at-a-time check of well-formed steps (schedule._well_formed_columns) must not let by
    ("src a bool", _set(["steps", 2, 1, "src"], True), "/steps/2/1/src"),
    ("chunk a float", _set(["steps", 1, 0, "chunk"], 1.5), "/steps/1/0/chunk"),
    ("op a list", _set(["steps", 1, 2, "op"], ["copy"]), "/steps/1/2/op"),
    ("path -1 given", lambda d: (d.update(paths=[[]]), d["steps"][3][1].update(path=-1)), "/steps/3/1/path"),
]
BAD_READER_ONLY = [
    ("dst beyond ranks", _set(["steps", 0, 0, "dst"], 4), "/steps/0/0/dst"),
    ("src equals dst", _set(["steps", 0, 0, "dst"], 0), "/steps/0/0: src and dst"),
    ("chunk beyond the chunks", _set(["steps", 0, 0, "chunk"], 4), "/steps/0/0/chunk"),
    ("src beyond 64 bits", _set(["steps", 4, 3, "src"], 1 << 70), "/steps/4/3/src"),
    ("path beyond the paths", lambda d: (d.update(paths=[[]]), d["steps"][0][0].update(path=1)), "/steps/0/0/path"),
    ("path without paths", lambda d: d["steps"][5][2].update(path=0), "/steps/5/2/path: the schedule lists no paths"),
]


@pytest.mark.parametrize("case, change", GOOD, ids=[c[0] for c in GOOD])
def test_good_documents_pass_both(case, change):
    doc = _mutate(change)
    assert schema_errors("collective-schedule", doc) == []
    read_schedule(doc, "s.json")


@pytest.mark.parametrize("case, change, where", BAD_BOTH, ids=[c[0] for c in BAD_BOTH])
def test_bad_documents_fail_both(case, change, where):
    doc = [1, 2] if change is None else _mutate(change)
    assert schema_errors("collective-schedule", doc), case
    with pytest.raises(ScheduleError, match=f"s.json: {where}"):
        read_schedule(doc, "s.json")


@pytest.mark.parametrize("case, change, where", BAD_READER_ONLY, ids=[c[0] for c in BAD_READER_ONLY])
def test_cross_field_checks_are_the_readers(case, change, where):
    doc = _mutate(change)
    assert schema_errors("collective-schedule", doc) == []
    with pytest.raises(ScheduleError, match=f"s.json: {where}"):
        read_schedule(doc, "s.json")


def test_schedule_doc_round_trips():
    doc = ring_schedule("all-reduce", 4)
    doc["name"] = "ring4"
    doc["dependencies"] = "chunks"
    schedule = read_schedule(copy.deepcopy(doc))
    assert schedule_doc(schedule) == doc
    assert schema_errors("collective-schedule", schedule_doc(schedule)) == []
    assert read_schedule(schedule_doc(schedule)) == schedule


# Integer fields as JSON text: JSON Schema's "integer" is any number with a zero fractional part
# (1.0 and 1e3 included), so the reader takes those too, as the exact int; "reader" rows pass the
# schema and fail only the reader's range checks (or a number beyond 2**53 written with an exponent).
INTEGER_TEXT = [  # (field, JSON text, the reader's value, or "both" / "reader": who refuses it)
    (("chunks_per_rank",), "1", 1),
    (("chunks_per_rank",), "1.0", 1),
    (("chunks_per_rank",), "1e0", 1),
    (("chunks_per_rank",), "1e3", 1000),
    (("chunks_per_rank",), "9007199254740992.0", 1 << 53),
    (("chunks_per_rank",), "123456789012345678901234567890", 123456789012345678901234567890),
    (("chunks_per_rank",), "1.5", "both"),
    (("chunks_per_rank",), "0.0", "both"),
    (("chunks_per_rank",), "true", "both"),
    (("chunks_per_rank",), '"1"', "both"),
    (("chunks_per_rank",), "NaN", "both"),
    (("chunks_per_rank",), '"NaN"', "both"),
    (("chunks_per_rank",), "Infinity", "both"),
    (("chunks_per_rank",), "1e300", "reader"),
    (("steps", 0, 0, "chunk"), "3", 3),
    (("steps", 0, 0, "chunk"), "3.0", 3),
    (("steps", 0, 0, "chunk"), "3E+0", 3),
    (("steps", 0, 0, "chunk"), "1.5", "both"),
    (("steps", 0, 0, "chunk"), "-1.0", "both"),
    (("steps", 0, 0, "chunk"), "false", "both"),
    (("steps", 0, 0, "chunk"), '"3"', "both"),
    (("steps", 0, 0, "chunk"), "-Infinity", "both"),
    (("steps", 0, 0, "chunk"), "1e3", "reader"),
    (("steps", 0, 0, "chunk"), "123456789012345678901234567890", "reader"),
    (("steps", 0, 0, "src"), "0.0", 0),
    (("ranks",), "4.0", 4),
]


@pytest.mark.parametrize("field, text, outcome", INTEGER_TEXT, ids=[f"{'/'.join(map(str, f))}={t}" for f, t, _ in INTEGER_TEXT])
def test_integer_fields_agree_with_the_schema(field, text, outcome):
    doc = _mutate(_set(list(field), "@VALUE@"))
    doc = json.loads(json.dumps(doc).replace('"@VALUE@"', text))  # the text as any JSON parser reads it
    where = "/" + "/".join(map(str, field))
    assert (schema_errors("collective-schedule", doc) == []) == (outcome != "both"), text
    if isinstance(outcome, int):
        schedule = read_schedule(doc, "s.json")
        got = getattr(schedule, field[-1]) if len(field) == 1 else getattr(schedule.steps[0][0], field[-1])
        assert got == outcome and type(got) is int
    else:
        with pytest.raises(ScheduleError, match=f"^s.json: {where}: expected "):
            read_schedule(doc, "s.json")


def test_a_fraction_names_the_value_found():
    doc = _mutate(_set(["steps", 1, 0, "chunk"], 1.5))
    with pytest.raises(ScheduleError, match=r"^s.json: /steps/1/0/chunk: expected an integer, found 1.5$"):
        read_schedule(doc, "s.json")
    doc = _mutate(_set(["ranks"], 1e300))
    with pytest.raises(ScheduleError, match=r"/ranks: expected an integer, found 1e\+300 \(beyond 2\*\*53"):
        read_schedule(doc, "s.json")
