"""examples/schedules/ (named in the README and docs/collectives.md) are the hand-written test
programs, and each one imports, proves and runs like the built-in algorithm it spells out."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from infragraph.collectives.formats import load_any
from infragraph.collectives.schedule import read_schedule, validate
from tests.collectives import msccl_programs as mp, mscclpp_programs as mpp

ROOT = Path(__file__).parents[2] / "examples" / "schedules"


def test_examples_are_the_test_programs():
    assert (ROOT / "ring8_allreduce.msccl.xml").read_text() == mp.ring_allreduce(8)
    assert (ROOT / "allpairs8_allreduce.mscclpp.json").read_text() == mpp.allpairs_allreduce(8) + "\n"


@pytest.mark.parametrize("name", ["ring8_allreduce.msccl.xml", "allpairs8_allreduce.mscclpp.json", "ring8_allreduce.json"])
def test_examples_validate(name):
    schedule = load_any(str(ROOT / name))
    validate(schedule)
    assert (schedule.collective, schedule.ranks) == ("all-reduce", 8)


def test_the_json_example_is_the_imported_xml():
    imported = load_any(str(ROOT / "ring8_allreduce.msccl.xml"))
    assert read_schedule(json.loads((ROOT / "ring8_allreduce.json").read_text())) == imported
