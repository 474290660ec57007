"""`infragraph schedule validate|import|export`: every format in, MSCCL XML and Chakra ETs out,
errors located."""
from __future__ import annotations

import json
import re

import pytest

from infragraph.cli import main
from infragraph.collectives.msccl import read_msccl, to_schedule
from infragraph.collectives.ring import ring_schedule
from tests.collectives import msccl_programs as mp


@pytest.fixture()
def files(tmp_path):
    (tmp_path / "ring.xml").write_text(mp.ring_allreduce(8))
    (tmp_path / "ring.json").write_text(json.dumps(ring_schedule("all-gather", 8)))
    broken = ring_schedule("all-reduce", 4)
    broken["steps"][0].append({"src": 0, "dst": 2, "chunk": 3, "op": "reduce"})
    (tmp_path / "broken.json").write_text(json.dumps(broken))
    return tmp_path


def test_validate_each_format(files, capsys):
    assert main(["schedule", "validate", str(files / "ring.xml")]) == 0
    assert main(["schedule", "validate", str(files / "ring.json")]) == 0
    out = capsys.readouterr().out
    assert "valid all-reduce over 8 ranks, 1 chunk(s) per rank, 14 steps, 112 transfers" in out
    assert "valid all-gather over 8 ranks" in out


def test_validate_rejects_a_broken_schedule(files, capsys):
    assert main(["schedule", "validate", str(files / "broken.json")]) == 1
    err = capsys.readouterr().err
    assert re.search(r"broken.json: error: the schedule does not implement its all-reduce: step 1: rank 2 "
                     r"reduces chunk 3 from rank 1 and would add the contribution of rank\(s\) \[0\] twice", err), err


def test_validate_locates_xml_errors(files, capsys):
    (files / "bad.xml").write_text(mp.ring_allreduce(4).replace('proto="Simple"', 'proto="LL64"'))
    assert main(["schedule", "validate", str(files / "bad.xml")]) == 1
    assert re.search(r"bad.xml:1:1: error: <algo> proto=\"LL64\"", capsys.readouterr().err)


def test_import_then_export_round_trip(files):
    out = files / "imported.json"
    assert main(["schedule", "import", str(files / "ring.xml"), "-o", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert doc["collective"] == "all-reduce" and doc["name"] == "ring_allreduce_8"
    xml = files / "exported.xml"
    assert main(["schedule", "export", str(out), "--to", "msccl", "-o", str(xml), "--proto", "LL"]) == 0
    program = read_msccl(xml.read_text(), str(xml))
    assert program.proto == "LL" and program.ngpus == 8
    assert sum(map(len, to_schedule(program).steps)) == 112


def test_export_chakra(files, capsys):
    prefix = files / "et" / "ring"
    (files / "et").mkdir()
    assert main(["schedule", "export", str(files / "ring.json"), "--to", "chakra", "-o", str(prefix),
                 "--size", "1MiB"]) == 0
    assert sorted(p.name for p in (files / "et").iterdir()) == [f"ring.{r}.et" for r in range(8)]
    assert '"all-gather-implementation-custom"' in capsys.readouterr().out


@pytest.mark.parametrize("extra, option, message", [
    ([], "--size", "needs --size"),
    (["--size", "lots"], "--size", "bad --size 'lots'"),
    (["--size", "1MiB", "--local-mem-bw", "-3"], "--local-mem-bw", "bad --local-mem-bw"),
])
def test_export_chakra_options_are_checked(files, capsys, extra, option, message):
    assert main(["schedule", "export", str(files / "ring.json"), "--to", "chakra", "-o", str(files / "r")] + extra) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{option}: error:") and message in err, err
