"""Structure detection on graphs that are almost a product: a torus with a failed cable must give a
reason naming the NPUs (or a model with --approximate), never a crash (it was KeyError: 'direct')."""

from __future__ import annotations

import json

import pytest

from infragraph.graph.failures import FailureSpec, with_failures
from infragraph.sources import load_graph
from infragraph.translators import Options, get
from infragraph.translators.structure import NotAProduct, detect_product, fabric
from tests.helpers import one_diagnostic


@pytest.fixture(scope="module")
def torus():
    return load_graph("std.fabrics.torus", {"sizes": "[4,4]"})


def _without(g, cable: str):
    failed, _ = with_failures(g, FailureSpec(fail=(cable,)))
    return failed


def test_a_ring_broken_inside_dimension_0_names_where_the_chain_ends(torus):
    with pytest.raises(NotAProduct) as e:
        detect_product(fabric(_without(torus, "npu.1.port.0--npu.2.port.1")))
    msg = str(e.value)
    assert "found so far: linked(2) (the chain of directly linked NPUs 0, 1 ends at NPU 1 ('npu.1.xpu.0'), " \
           "which has no link to NPU 2 ('npu.2.xpu.0'))" in msg
    assert "NPU 0 ('npu.0.xpu.0') and NPU 2 ('npu.2.xpu.0') share no link or switch" in msg


def test_a_chain_that_does_not_divide_the_npus_says_so(torus):
    with pytest.raises(NotAProduct, match=r"dimension 0 has 3 NPUs \(the chain of directly linked NPUs 0, 1, 2 ends "
                                          r"at NPU 2 .*\); 3 does not divide the 16 NPUs$"):
        detect_product(fabric(_without(torus, "npu.2.port.0--npu.3.port.1")))


@pytest.mark.parametrize("sizes", ["[4,4]", "[4,2,3]"])
def test_every_single_failed_cable_gives_a_reason_or_a_model(sizes):
    """Each cable of the torus failed in turn: detection explains or models it (exact never claimed)."""
    g = load_graph("std.fabrics.torus", {"sizes": sizes})
    fab = fabric(g)
    names = fab.g.node_name
    cables = [f"{names(int(fab.g.edge_src[o]))}--{names(int(fab.g.edge_dst[o]))}" for o in fab.origin.tolist()]
    assert len(set(cables)) == fab.num_edges
    for cable in cables:
        with pytest.raises(NotAProduct) as e:
            detect_product(fabric(_without(g, cable)))
        assert "npu." in str(e.value), cable


@pytest.mark.parametrize("backend", ["astra-analytical", "simengine"])
def test_translators_take_a_broken_torus(torus, backend):
    """The analytical translator refuses with the reason, or approximates with --approximate (and says
    that the torus's stated dims are not that model); the engine bundle (which takes failures exactly)
    runs the stated dims on the broken graph, as simulate does."""
    g = _without(torus, "npu.1.port.0--npu.2.port.1")
    if backend == "astra-analytical":
        assert "ends at NPU 1" in get(backend).check(g)[0].message
        notes = get(backend).translate(g, Options(approximate=True)).notes
        assert any("Modelled as one Switch(16)" in n and "ends at NPU 1" in n for n in notes)
        assert any(n.startswith("the graph states dims RI(4)_RI(4)") and "this one is SW(16)" in n for n in notes)
    else:
        b = get(backend).translate(g)
        assert json.loads(b.files["engine_input.json"])["logical_dims"] == [4, 4]
        assert "--dims 4,4 " in b.files["run.sh"] and not any("no logical dimensions" in n for n in b.notes)


@pytest.mark.parametrize("backend", ["astra-analytical", "htsim", "ns3"])
def test_a_link_without_latency_is_refused_at_the_link_by_every_packet_backend(tmp_path, backend):
    """rated_fabric: the one check every backend's plan starts with, located at the edge record."""
    program = tmp_path / "unrated.igl"
    program.write_text('link l { bandwidth = 100 Gbps }\ndevice n { component xpu: xpu }\n'
                       'fabric f { instance n[4]: n\n n.xpu -- n.xpu ring via l\n annotate n.xpu rank = auto }\n')
    g = load_graph(program)
    d = one_diagnostic(get(backend).plan, g, Options())
    assert d.message.startswith("4 link(s) have no latency, e.g. 'n.0.xpu.0' - 'n.1.xpu.0' (link 'l'); ")
    assert d.message.endswith("needs a latency on every link")
    assert d.location.path == "edges[0]" and d.hint == "give link 'l' a physical.latency (ns)"
