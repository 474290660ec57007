"""Importers: every file here, imported and translated back, is the same file; bad input is located."""

import pytest
import yaml

from infragraph import translators as T
from infragraph.cli import main
from infragraph.document import io
from infragraph.errors import InfraGraphError
from infragraph.graph import expand
from infragraph.translators.importers import import_astra_analytical, import_ns3

ASTRA_FILES = {
    "note.yml": "topology: [ Ring, FullyConnected, Switch ]\nnpus_count: [ 2, 8, 4 ]\n"
                "bandwidth: [ 200.0, 100.0, 50.0 ]\nlatency: [ 50.0, 500.0, 2000.0 ]\n",
    "fc2.yml": "topology: [ FullyConnected, Ring ]\nnpus_count: [ 2, 3 ]\nbandwidth: [ 46.566129, 12.5 ]\n"
               "latency: [ 1.5, 700.0 ]\n",
    "torus.yml": "topology: [ Ring, Ring, Ring ]\nnpus_count: [ 4, 4, 4 ]\nbandwidth: [ 50.0, 50.0, 25.0 ]\n"
                 "latency: [ 500.0, 500.0, 500.0 ]\n",
    "big.yml": "topology: [ Ring, FullyConnected, Switch ]\nnpus_count: [ 4, 8, 32 ]\nbandwidth: [ 200.0, 100.0, 50.0 ]\n"
               "latency: [ 50.0, 500.0, 2000.0 ]\n",
    "switches.yml": "topology: [ Switch, Switch, FullyConnected ]\nnpus_count: [ 16, 8, 3 ]\n"
                    "bandwidth: [ 400.0, 100.0, 25.0 ]\nlatency: [ 100.0, 1000.0, 5000.0 ]\n",
}

NS3_FILES = {
    "note.txt": "9 1 8\n8\n" + "".join(f"8 {i} 400Gbps 0.0005ms 0\n" for i in range(8)),
    "two_tier.txt": "8 4 8\n4 5 6 7\n0 4 100Gbps 0.001ms 0\n1 4 100Gbps 0.001ms 0\n2 5 100Gbps 0.001ms 0\n"
                    "3 5 100Gbps 0.001ms 0\n4 6 200Gbps 0.0002ms 0\n4 7 200Gbps 0.0002ms 0\n"
                    "5 6 200Gbps 0.0002ms 0.001\n5 7 200Gbps 0.0002ms 0.001\n",
    "pair.txt": "2 0 1\n\n0 1 12.5Gbps 0.000001ms 0\n",
}


@pytest.mark.parametrize("name", sorted(ASTRA_FILES))
def test_astra_yaml_import_then_translate_is_identity(tmp_path, name):
    path = tmp_path / name
    path.write_text(ASTRA_FILES[name])
    doc = import_astra_analytical(path)
    doc = io.loads(io.dumps(doc), "roundtrip.yaml")  # through the public document format too
    out = T.get("astra-analytical").translate(expand(doc)).files["network.yml"]
    assert yaml.safe_load(out) == yaml.safe_load(ASTRA_FILES[name])


@pytest.mark.parametrize("name", sorted(NS3_FILES))
def test_ns3_import_then_translate_is_identity(tmp_path, name):
    path = tmp_path / name
    path.write_text(NS3_FILES[name])
    doc = io.loads(io.dumps(import_ns3(path)), "roundtrip.yaml")
    out = T.get("ns3").translate(expand(doc)).files["topology.txt"]
    assert out == NS3_FILES[name]


def test_cli_import_then_translate(tmp_path):
    src = tmp_path / "net.yml"
    src.write_text(ASTRA_FILES["note.yml"])
    assert main(["import", str(src), "--from", "astra-analytical", "-o", str(tmp_path / "doc.yaml"), "-q"]) == 0
    assert main(["translate", str(tmp_path / "doc.yaml"), "--to", "astra-analytical", "-o", str(tmp_path / "out"),
                 "-q"]) == 0
    assert yaml.safe_load((tmp_path / "out" / "network.yml").read_text()) == yaml.safe_load(ASTRA_FILES["note.yml"])


@pytest.mark.parametrize("text,message,where", [
    ("topology: [ Ring, Torus ]\nnpus_count: [ 2, 2 ]\nbandwidth: [ 1, 1 ]\nlatency: [ 1, 1 ]\n",
     "unknown topology 'Torus'; expected Ring, FullyConnected or Switch", ":1:"),
    ("topology: [ Ring ]\nnpus_count: [ 2, 4 ]\nbandwidth: [ 1 ]\nlatency: [ 1 ]\n",
     "'npus_count' has 2 entries but 'topology' has 1", ":2:"),
    ("topology: [ Ring ]\nnpus_count: [ 1 ]\nbandwidth: [ 1 ]\nlatency: [ 1 ]\n", "npus_count 1 must be an integer > 1",
     ":2:"),
    ("topology: [ Ring ]\nnpus_count: [ 4 ]\nbandwidth: [ 0 ]\nlatency: [ 1 ]\n", "bandwidth 0 must be a positive", ":3:"),
    ("topology: [ Ring ]\nnpus_count: [ 4 ]\nlatency: [ 1 ]\n", "'bandwidth' must be a non-empty list", ""),
])
def test_astra_import_errors_are_located(tmp_path, text, message, where):
    path = tmp_path / "bad.yml"
    path.write_text(text)
    with pytest.raises(InfraGraphError) as e:
        import_astra_analytical(path)
    assert message in str(e.value) and f"bad.yml{where}" in str(e.value)


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
    with pytest.raises(InfraGraphError) as e:
        import_ns3(path)
    assert message in str(e.value) and f"bad.txt:{line}" in str(e.value)


def test_cli_reports_refusal_without_traceback(tmp_path, capsys):
    src = tmp_path / "ring.yml"
    src.write_text(ASTRA_FILES["torus.yml"])
    main(["import", str(src), "--from", "astra-analytical", "-o", str(tmp_path / "t.yaml"), "-q"])
    assert main(["translate", str(tmp_path / "t.yaml"), "--to", "ns3", "-o", str(tmp_path / "o"), "-q"]) == 1
    err = capsys.readouterr().err
    assert "ns-3 NPUs do not forward" in err and "Traceback" not in err and "t.yaml" in err
    assert main(["translate", str(tmp_path / "t.yaml"), "--to", "ns3", "-o", str(tmp_path / "o"), "-q",
                 "--set", "nope"]) == 1
    assert "expected KEY=VALUE" in capsys.readouterr().err
