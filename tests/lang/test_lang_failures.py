"""Failed and degraded links in the language: node, link and edge (`between`) annotations."""

from __future__ import annotations

import numpy as np

from infragraph.document import io
from infragraph.graph.failures import resolve_failures
from infragraph.lang import compile_source
from infragraph.lang.decompile import decompile
from tests.lang.helpers import error, graph

SOURCE = """
device npu { component x: xpu }
fabric pair {
    link uplink { bandwidth = 400 Gbps; latency = 500 ns; bandwidth_factor = 0.5 }
    instance a[3]: npu
    a[0].x -- a[1].x via uplink
    a[1].x -- a[2].x via link(100 Gbps, 1 us)
    annotate between(a[1].x, a[2].x) failed = true, extra_latency_ns = 5
    annotate a[0].x failed = false
}
"""


def test_between_link_and_node_annotations_become_failures():
    g = graph(SOURCE)
    f = resolve_failures(g)
    names = g.node_names
    failed = [f"{names[g.edge_src[e]]}--{names[g.edge_dst[e]]}" for e in np.flatnonzero(f.failed_edge)]
    assert failed == ["a.1.x.0--a.2.x.0"]
    degraded = np.flatnonzero(f.degraded_edge)
    assert degraded.size == 1 and f.bandwidth_factor[degraded[0]] == 0.5  # the uplink class
    assert not f.failed_node.any()


def test_edge_annotations_round_trip_through_decompile():
    doc = compile_source(SOURCE, "t.igl")
    text, unsupported = decompile(io.loads(io.dumps(doc)))
    assert "annotate between(a[1].x, a[2].x) failed = true, extra_latency_ns = 5" in text
    assert not unsupported
    again = compile_source(text, "back.igl")
    assert again.annotations.edges == doc.annotations.edges


def test_between_errors_are_located():
    bad = SOURCE.replace("between(a[1].x, a[2].x)", "between(a[1].x, 3)")
    assert "t.igl:8:" in error(bad) and "needs two instance endpoints" in error(bad)
    unjoined = SOURCE.replace("between(a[1].x, a[2].x)", "between(a[0].x, a[2].x)")
    assert "t.igl:8:5" in error(unjoined) and "no edge joins 'a[0].x' and 'a[2].x'" in error(unjoined)
    auto = SOURCE.replace("failed = true, extra_latency_ns = 5", "rank = auto")
    assert "an edge annotation takes constant values" in error(auto)


def test_out_of_range_values_are_located_in_the_source():
    text = error(SOURCE.replace("extra_latency_ns = 5", "bandwidth_factor = 1.5"))
    assert "t.igl:8:5" in text and "a bandwidth factor must be a finite number in (0, 1]" in text
