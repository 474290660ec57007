"""Translating failed fabrics: ns-3 drops or slows links exactly; HTSim and ASTRA-sim analytical refuse."""

from __future__ import annotations

import pytest

from infragraph.cli import main
from infragraph.errors import InfraGraphError
from infragraph.graph.failures import FailureSpec, parse_degrade
from infragraph.sources import load_graph
from infragraph.translators import get
from infragraph.translators.failures import translate_with_failures


@pytest.fixture(scope="module")
def clos():
    return load_graph("std.fabrics.clos", {"radix": "4"})


def _links(bundle) -> list[str]:
    return bundle.files["topology.txt"].splitlines()[2:]


def test_ns3_drops_failed_links_and_slows_degraded_ones(clos):
    healthy = translate_with_failures(get("ns3"), clos)
    spec = FailureSpec(fail=("spine.1",), degrade=(parse_degrade("leaf.0.port.2--spine.0.port.0:bandwidth=0.5,latency=1us"),))
    b = translate_with_failures(get("ns3"), clos, spec=spec)
    assert len(_links(healthy)) == 16 and len(_links(b)) == 12  # 8 host links + 8 leaf-spine, less spine 1's 4
    assert b.files["topology.txt"].splitlines()[0].split()[2] == "12"
    slowed = [x for x in _links(b) if "200Gbps" in x]
    assert len(slowed) == 1 and slowed[0].split()[3] == "0.0015ms"  # 500 ns cable + 1 us
    assert "failed leaf.0.port.3--spine.1.port.0" in b.files["FAILURES.txt"]
    assert "FAILURES.txt" not in healthy.files


@pytest.mark.parametrize("backend", ["htsim", "astra-analytical"])
def test_backends_without_a_failure_model_refuse(clos, backend):
    with pytest.raises(InfraGraphError) as e:
        translate_with_failures(get(backend), clos, spec=FailureSpec(fail=("spine.1",)))
    text = str(e.value)
    assert f"{backend} cannot express failed or degraded links (8 failed link(s)" in text and "ns3" in text


def test_translate_cli_flags(tmp_path, capsys):
    assert main(["translate", "std.fabrics.clos", "-D", "radix=4", "--to", "htsim", "-o", str(tmp_path),
                 "--degrade", "leaf.0:bandwidth=0.5"]) == 1
    assert "htsim cannot express" in capsys.readouterr().err
    assert main(["translate", "std.fabrics.clos", "-D", "radix=4", "--to", "ns3", "-o", str(tmp_path),
                 "--fail", "leaf.0.port.3--spine.1.port.0", "-q"]) == 0
    listed = [x for x in (tmp_path / "FAILURES.txt").read_text().splitlines() if not x.startswith("#")]
    assert [x for x in listed if x] == ["failed leaf.0.port.3--spine.1.port.0"]
