"""graph/text.py: large outputs are built from per-instance templates in chunks; whatever the chunk
size, the texts must be those of a record per node (and per edge), annotations in the right ones."""

from __future__ import annotations

from pathlib import Path

import pytest

from infragraph.document import io
from infragraph.graph import expand
from infragraph.graph import text as T

MINI = Path(__file__).resolve().parents[1] / "data" / "mini.yaml"


@pytest.fixture(scope="module")
def g():
    return expand(io.load(MINI))  # 13 nodes in 2 instances, 12 edges


def _template(inst, local, comp):
    return f"<{inst.name}.", f"|{local}:{comp.name}@", ">"


def _naive_nodes(g, close, extra):
    out = []
    for n in range(g.num_nodes):
        inst = g.instances[int(g.node_instance[n])]
        copy = int(g.node_copy[n])
        local = n - inst.first_node - copy * inst.nodes_per_copy
        a, b, tail = _template(inst, local, g.components[int(g.node_component[n])])
        out.append(a + str(copy) + b + str(copy) + tail + extra.get(n, "") + close)
    return out


@pytest.mark.parametrize("chunk", [1, 2, 3, 5, 12, 13, 65536])
def test_node_texts_do_not_depend_on_the_chunk_size(g, monkeypatch, chunk):
    monkeypatch.setattr(T, "CHUNK", chunk)
    extra = {0: " a=1", 4: " b=2", 5: " c=3", 12: " d=4"}  # first, across boundaries, last
    pieces = list(T.node_text_chunks(g, _template, "}", extra))
    per_copy = max(i.nodes_per_copy for i in g.instances)  # a copy's records go out together
    assert all(len(p) < chunk + per_copy for p in pieces)
    assert [t for p in pieces for t in p] == _naive_nodes(g, "}", extra)
    assert "".join(T.joined(iter(pieces))) == ",".join(_naive_nodes(g, "}", extra))


@pytest.mark.parametrize("chunk", [1, 5, 65536])
def test_edge_texts_carry_their_annotations(g, monkeypatch, chunk):
    monkeypatch.setattr(T, "CHUNK", chunk)

    def render(first, src, dst, link):
        return [f"[{first + i}:{s}-{d}/{k}]" for i, (s, d, k) in enumerate(zip(src, dst, link))]

    texts = [t for p in T.edge_text_chunks(g, render, "]", {11: " last", 3: " x"}) for t in p]
    assert len(texts) == g.num_edges == 12
    assert texts[3] == f"[3:{int(g.edge_src[3])}-{int(g.edge_dst[3])}/{int(g.edge_link[3])} x]"
    assert texts[11].endswith(" last]")
    assert texts[0] == f"[0:{int(g.edge_src[0])}-{int(g.edge_dst[0])}/{int(g.edge_link[0])}]"


def test_joined_skips_empty_chunks_and_separates_the_rest():
    assert "".join(T.joined(iter([[], ["a", "b"], [], ["c"]]))) == "a,b,c"
    assert list(T.joined(iter([]))) == []


def test_attribute_rows_turn_columns_into_records():
    assert T.attribute_rows({"rank": {3: 0, 1: 1}, "tier": {3: "x"}}) == {3: {"rank": 0, "tier": "x"}, 1: {"rank": 1}}
