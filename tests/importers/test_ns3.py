"""ns-3 topology import: every file here, imported and translated back, is the same file; bad input
is located."""

import pytest

from infragraph import translators as T
from infragraph.document import io
from infragraph.graph import expand
from infragraph.importers.ns3 import import_ns3
from tests.helpers import error_text

NS3_FILES = {
    "note.txt": "9 1 8\n8\n" + "".join(f"8 {i} 400Gbps 0.0005ms 0\n" for i in range(8)),
    "two_tier.txt": "8 4 8\n4 5 6 7\n0 4 100Gbps 0.001ms 0\n1 4 100Gbps 0.001ms 0\n2 5 100Gbps 0.001ms 0\n"
                    "3 5 100Gbps 0.001ms 0\n4 6 200Gbps 0.0002ms 0\n4 7 200Gbps 0.0002ms 0\n"
                    "5 6 200Gbps 0.0002ms 0.001\n5 7 200Gbps 0.0002ms 0.001\n",
    "pair.txt": "2 0 1\n\n0 1 12.5Gbps 0.000001ms 0\n",
}


@pytest.mark.parametrize("name", sorted(NS3_FILES))
def test_ns3_import_then_translate_is_identity(tmp_path, name):
    path = tmp_path / name
    path.write_text(NS3_FILES[name])
    doc = io.loads(io.dumps(import_ns3(path)), "roundtrip.yaml")
    out = T.get("ns3").translate(expand(doc)).files["topology.txt"]
    assert out == NS3_FILES[name]


@pytest.mark.parametrize("text,message,line", [
    ("9 1 8\n3\n", "switch ids must be the last 1 node ids (8..8)", 2),
    ("3 1 2\n2\n0 2 100Gbps 1us 0\n", "announces 2 links but 1 link lines follow", 1),
    ("3 1 1\n2\n0 2 100Gbs 1us 0\n", "unknown unit 'Gbs'", 3),
    ("3 1 1\n2\n0 7 100Gbps 1us 0\n", "node ids must be distinct and in 0..2", 3),
    ("x y\n", "expected '<nodes> <switches> <links>'", 1),
])
def test_ns3_import_errors_are_located(tmp_path, text, message, line):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    err = error_text(import_ns3, path)
    assert message in err and f"bad.txt:{line}" in err
