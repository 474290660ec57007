"""Golden counts for the examples, the benchmark program, document round trips, fmt properties."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from infragraph.document import io
from infragraph.graph import expand
from infragraph.lang import compile_file, compile_source
from infragraph.lang.decompile import decompile
from infragraph.lang.fmt import format_source
from tests.helpers import shared_file

ROOT = Path(__file__).resolve().parents[2]  # the checkout (examples/, benchmarks/, grammar/)

EXAMPLES = {
    # file: (nodes, edges)
    "ring8.igl": (8, 8),  # 8 NPUs, 8 ring links
    "leaf_spine.igl": (172, 192),  # 8 leaves + 4 spines (1 asic + 8 ports), 32 hosts (gpu + nic)
    "torus4x4.igl": (16, 32),  # 16 chips, 2 links each
    "host8gpu.igl": (27, 32),  # 8 gpu + nvswitch + 8 nic + 2 cpu + 8 tor ports
}


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_example_golden_counts(name):
    path = ROOT / "examples" / name
    assert len(path.read_text().splitlines()) <= 40
    g = expand(compile_file(str(path)))
    assert (g.num_nodes, g.num_edges) == EXAMPLES[name]


def test_torus_degree_is_four():
    g = expand(compile_file(str(ROOT / "examples" / "torus4x4.igl")))
    import numpy as np

    deg = np.bincount(np.concatenate([g.edge_src, g.edge_dst]), minlength=g.num_nodes)
    assert set(deg.tolist()) == {4}


def test_ring_override_and_ranks():
    g = expand(compile_file(str(ROOT / "examples" / "ring8.igl"), defines={"npus": "5"}))
    assert (g.num_nodes, g.num_edges) == (5, 5)
    assert sorted(g.node_attrs["rank"].values()) == list(range(5))


def test_small_clos_benchmark_program_counts():
    doc = compile_file(str(ROOT / "benchmarks" / "clos3.igl"), defines={"k": "8"})
    g = expand(doc)
    k = 8
    hosts, switches = k ** 3 // 8, 5 * k * k // 4
    assert g.num_nodes == hosts * 6 + switches * (k + 1)
    assert g.num_edges == hosts * 8 + switches * k + 3 * k ** 3 // 4
    assert len(doc.edges) == 1 + 2 * k * k // 2  # compact: one record per (pod, leaf/agg)


def _graph_key(g):
    names = [g.node_name(i) for i in range(g.num_nodes)]
    return sorted(names), sorted(tuple(sorted((names[a], names[b]))) for a, b in zip(g.edge_src, g.edge_dst))


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_round_trip_document_decompile_compile(name):
    doc = compile_file(str(ROOT / "examples" / name))
    public = io.loads(io.dumps(doc), "x.yaml")  # the public format, read back
    text, unsupported = decompile(public)
    assert not unsupported
    again = compile_source(text, "decompiled.igl")
    assert _graph_key(expand(again)) == _graph_key(expand(public))
    assert format_source(text) is not None


def test_round_trip_of_a_composed_device_named_like_a_kind():
    """std.devices.host composes a device called `nic`: decompiled, it must stay the device, not the kind."""
    doc = compile_file(str(ROOT / "blueprints" / "devices" / "host.igl"))
    public = io.loads(io.dumps(doc), "x.yaml")
    text, _ = decompile(public)
    assert "component nic[8]: nic()" in text
    assert _graph_key(expand(compile_source(text, "decompiled.igl"))) == _graph_key(expand(public))


def test_round_trip_of_the_format_minimal_document():
    spec = shared_file("design/infragraph-format.md")
    y = spec.read_text().split("```yaml\n")[1].split("```")[0]
    doc = io.loads(y, "mini.yaml")
    again = compile_source(decompile(doc)[0], "mini.igl")
    assert _graph_key(expand(again)) == _graph_key(expand(doc))


@pytest.mark.parametrize("name", sorted(EXAMPLES) + ["../benchmarks/clos3.igl"])
def test_examples_are_formatted_and_fmt_is_idempotent(name):
    text = (ROOT / "examples" / name).read_text()
    assert format_source(text) == text


def _tokens(text: str) -> list[str]:
    from antlr4 import CommonTokenStream, InputStream

    from infragraph.lang._generated.InfraGraphLexer import InfraGraphLexer as L

    s = CommonTokenStream(L(InputStream(text)))
    s.fill()
    return [t.text.replace(" ", "").replace("\t", "") for t in s.tokens if t.type != L.WS]


_ATOMS = st.sampled_from(["n", "2", "3.5", "400 Gbps", "1us", "(n + 1)", "x[0]", '"s"', "-n", "true"])
_OPS = st.sampled_from(["+", "-", "*", "//", "%", "..", "==", "and", "/"])


@st.composite
def _programs(draw):
    lines = ["param n: int = 4", "fabric f {"]
    for i in range(draw(st.integers(0, 5))):
        expr = draw(_ATOMS)
        for _ in range(draw(st.integers(0, 3))):
            expr += draw(st.sampled_from([" ", "  ", ""])) + draw(_OPS) + draw(st.sampled_from([" ", ""])) + draw(_ATOMS)
        pad = draw(st.sampled_from(["", "  ", "\t"]))
        comment = draw(st.sampled_from(["", "  # note", "#x"]))
        lines.append(f"{pad}let v{i} = {expr}{comment}")
        if draw(st.booleans()):
            lines.append("")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _parses(text: str) -> bool:
    from infragraph.errors import InfraGraphError
    from infragraph.lang.syntax import parse

    try:
        parse(text)
    except InfraGraphError:
        return False
    return True


@settings(max_examples=40, deadline=None)
@given(_programs())
def test_fmt_is_idempotent_and_preserves_tokens(text):
    assume(_parses(text))
    out = format_source(text)
    assert format_source(out) == out
    assert _tokens(out) == _tokens(text)


@settings(max_examples=10, deadline=None)
@given(st.integers(1, 12), st.integers(1, 6))
def test_fmt_preserves_meaning_of_the_torus(nx, ny):
    src = (ROOT / "examples" / "torus4x4.igl").read_text().replace("    ", "  ").replace(" = ", "=")
    src = src.replace("=", " = ")  # a re-spaced but equivalent program
    d = {"nx": str(max(nx, 3)), "ny": str(max(ny, 3))}
    a = compile_source(src, "a.igl", defines=d)
    b = compile_source(format_source(src), "a.igl", defines=d)
    assert io.dumps(a) == io.dumps(b)


def test_committed_parser_matches_grammar():
    grammar = (ROOT / "grammar" / "InfraGraph.g4").read_bytes()
    recorded = (ROOT / "infragraph" / "lang" / "_generated" / "GRAMMAR_SHA256").read_text().strip()
    assert hashlib.sha256(grammar).hexdigest() == recorded, "run scripts/gen_parser.sh and commit the result"
