"""graph/ranks.py: which NPU is rank r, the one rule the simulator and every translator share:
the `rank` annotation when given (a permutation of 0..N-1), else natural name order."""

from __future__ import annotations

import pytest

from infragraph.errors import InfraGraphError
from infragraph.graph.ranks import npu_order
from tests.helpers import TWO_DEVICES as HEAD, graph, one_diagnostic

def names(g, nodes) -> list[str]:
    return [g.node_name(int(n)) for n in nodes]


def annotated(ranks: dict[str, object]) -> str:
    return HEAD + "instances: [{name: h, device: host, count: 2}]\nannotations:\n  nodes:\n" + "".join(
        f"  - {{name: {n}, attributes: [{{attribute: rank, value: {v!r}}}]}}\n" for n, v in ranks.items())


def test_without_annotations_numbers_compare_as_numbers():
    g = graph(HEAD + "instances: [{name: h10, device: host, count: 1}, {name: h9, device: host, count: 11}]\n")
    order = names(g, npu_order(g))
    # h9 before h10 (9 < 10), and copy 10 of h9 after copy 9
    assert order[:2] == ["h9.0.xpu.0", "h9.0.xpu.1"] and order[18:20] == ["h9.9.xpu.0", "h9.9.xpu.1"]
    assert order[20:22] == ["h9.10.xpu.0", "h9.10.xpu.1"] and order[-2:] == ["h10.0.xpu.0", "h10.0.xpu.1"]


def test_rank_annotations_decide_the_order():
    g = graph(annotated({"h.0.xpu.0": "3", "h.0.xpu.1": "0", "h.1.xpu.0": "2", "h.1.xpu.1": "1"}))
    assert names(g, npu_order(g)) == ["h.0.xpu.1", "h.1.xpu.1", "h.1.xpu.0", "h.0.xpu.0"]


@pytest.mark.parametrize("ranks, message", [
    ({"h.0.xpu.0": "0", "h.0.xpu.1": "1", "h.1.xpu.0": "2"},
     "NPU 'h.1.xpu.1' has no 'rank' annotation while other NPUs do"),
    ({"h.0.xpu.0": "0", "h.0.xpu.1": "1", "h.1.xpu.0": "2", "h.1.xpu.1": "4"},
     "NPU 'h.1.xpu.1' has rank 4; expected an integer in 0..3"),
    ({"h.0.xpu.0": "0", "h.0.xpu.1": "1", "h.1.xpu.0": "2", "h.1.xpu.1": "true"},
     "NPU 'h.1.xpu.1' has rank True; expected an integer in 0..3"),
    ({"h.0.xpu.0": "0", "h.0.xpu.1": "1", "h.1.xpu.0": "1", "h.1.xpu.1": "3"},
     "rank 1 is given to both 'h.0.xpu.1' and 'h.1.xpu.0'"),
])
def test_a_bad_rank_annotation_is_located(ranks, message):
    g = graph(annotated(ranks))
    d = one_diagnostic(npu_order, g)
    assert d.message == message and d.location.path == "annotations.nodes"


def test_a_graph_without_npus_says_which_types_it_has():
    g = graph(HEAD.replace("choice: xpu", "choice: cpu") + "instances: [{name: h, device: host, count: 1}]\n")
    with pytest.raises(InfraGraphError, match=r"the graph has no NPUs: no node has type 'xpu' \(node types present: "
                                              r"cpu, nic, switch, port\)"):
        npu_order(g)
