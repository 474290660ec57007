"""ASTRA-sim analytical YAML import: every file here, imported and translated back, is the same file;
bad input is located."""

import pytest
import yaml

from infragraph import translators as T
from infragraph.cli import main
from infragraph.document import io
from infragraph.graph import expand
from infragraph.importers.astra_analytical import import_astra_analytical
from tests.helpers import error_text

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


@pytest.mark.parametrize("name", sorted(ASTRA_FILES))
def test_astra_yaml_import_then_translate_is_identity(tmp_path, name):
    path = tmp_path / name
    path.write_text(ASTRA_FILES[name])
    doc = import_astra_analytical(path)
    doc = io.loads(io.dumps(doc), "roundtrip.yaml")  # through the public document format too
    out = T.get("astra-analytical").translate(expand(doc)).files["network.yml"]
    assert yaml.safe_load(out) == yaml.safe_load(ASTRA_FILES[name])


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
    err = error_text(import_astra_analytical, path)
    assert message in err and f"bad.yml{where}" in err
