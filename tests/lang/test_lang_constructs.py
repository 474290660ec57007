"""Every language construct, checked through the graph it produces (counts and named edges)."""

from __future__ import annotations

from pathlib import Path

import pytest

from infragraph.lang import compile_file, compile_source, describe
from infragraph.units import BANDWIDTH, TIME

from .helpers import PRELUDE, error, graph


def edges(g) -> set[tuple[str, str]]:
    return {tuple(sorted((g.node_name(int(a)), g.node_name(int(b))))) for a, b in zip(g.edge_src, g.edge_dst)}


def test_device_template_component_array_and_default_params():
    g = graph(PRELUDE + "fabric f { instance s[2]: sw; instance t: sw(ports=8) }")
    assert g.num_nodes == 2 * 5 + 9
    assert g.num_edges == 2 * 4 + 8


def test_loop_edges_with_index_arithmetic_coalesce_into_one_record():
    src = PRELUDE + """
fabric f {
    instance s[2]: sw(8)
    for j in 0..8 { s[0].port[j] -- s[1].port[(j + 3) % 8] via eth }
}"""
    doc = compile_source(src, "t.igl")
    g = graph(src)
    assert ("s.0.port.0", "s.1.port.3") in edges(g)
    assert ("s.0.port.5", "s.1.port.0") in edges(g)
    # j=0..4 is a progression (3..7), then the index wraps: two records, not eight
    assert len(doc.edges) == 2


def test_nested_for_if_let_and_comprehension():
    src = PRELUDE + """
fabric f {
    let evens = [i for i in 0..8 if i % 2 == 0]
    assert len(evens) == 4, "four evens"
    instance s[2]: sw(8)
    for i in evens {
        for d in 0..1 {
            if i < 4 { s[0].port[i + d] -- s[1].port[i] via eth } else { s[0].port[i] -- s[1].port[i + 1] via eth }
        }
    }
}"""
    e = edges(graph(src))
    assert ("s.0.port.0", "s.1.port.0") in e and ("s.0.port.6", "s.1.port.7") in e
    assert len([x for x in e if "s.1.port" in x[1] and "s.0.port" in x[0]]) == 4


def test_quantities_keep_dimensions_in_arithmetic():
    src = """
link fast { bandwidth = 2 * 50 GB/s + 200 Gbps; latency = 1 us / 2 + 100 ns }
device d { component x[2]: xpu }
fabric f {
    let ratio = 400 Gbps / 100 Gbps
    assert ratio == 4.0, "dimensionless"
    assert 1 MiB / (1 MiB / 1 us) == 1 us, "time"
    instance a: d
    a.x[0] -- a.x[1] via fast
}"""
    g = graph(src)
    (link,) = [x for x in g.links if x.name == "fast"]
    assert link.bandwidth_gbps == pytest.approx(1000.0)
    assert link.latency_ns == pytest.approx(600.0)


def test_schemes_ring_many2many_and_inline_link():
    src = """
device d { component x[5]: xpu }
fabric f {
    instance a: d
    instance b: d
    a.x -- a.x ring via link(100 Gbps, 1 us)
    b.x -- b.x many2many via link(100 Gbps, 1 us)
}"""
    g = graph(src)
    assert g.num_edges == 5 + 10
    assert len([x for x in g.links if x.scope == ""]) == 1  # the same inline link is one link class


def test_nested_devices_composition():
    src = """
link l { bandwidth = 1 Tbps }
device noc(w: int = 2) {
    component router[w * w]: switch
    router[0:3] -- router[1:4] via l
}
device gpu {
    component mesh: noc(2)
    component hbm[2]: memory
    mesh.router[0] -- hbm many2many via l
}
device server { component g[2]: gpu }
fabric f { instance s: server; s.g[0].mesh.router[3] -- s.g[1].mesh.router[0] via l }
"""
    g = graph(src)
    assert g.num_nodes == 2 * (4 + 2)
    assert ("s.0.g.0.mesh.0.router.3", "s.0.g.1.mesh.0.router.0") in edges(g)
    assert g.num_edges == 2 * (3 + 2) + 1


def test_custom_kind_and_attributes_become_annotations():
    src = """
device d(n: int = 2) {
    vendor = "acme"
    component t[n]: custom("tpu") { model = "v5" }
}
fabric f {
    site = "lab"
    instance a[2]: d
    annotate a.t rank = auto
    annotate a[1].t[0] role = "leader"
}"""
    g = graph(src)
    assert set(g.type_names) == {"tpu"}
    ranks = g.node_attrs["rank"]
    assert sorted(ranks.values()) == [0, 1, 2, 3]
    assert g.node_attrs["model"][0] == "v5" and g.node_attrs["vendor"][3] == "acme"
    assert list(g.node_attrs["role"].items()) == [(2, "leader")]
    assert g.graph_annotations["site"] == "lab"


def test_functions_recursion_and_parse_shape():
    src = """
fn fact(n: int) = if n <= 1 then 1 else n * fact(n - 1)
fn npus(shape: string) = product([b[1] for b in parse_shape(shape)])
device d { component x: xpu }
fabric f {
    assert fact(5) == 120, "fact"
    assert npus("RI(4)_FC(8)_SW(32)") == 1024, "shape"
    assert parse_shape("RI(4)_SW(2)")[1][0] == "SW", "kind"
    instance a[npus("RI(2)_RI(2)")]: d
}"""
    assert graph(src).num_nodes == 4


def test_defines_override_params_of_file_and_root_fabric():
    src = """
param n: int = 2
device d { component x: xpu }
fabric f(m: int = 1, bw: bandwidth = 100 Gbps) {
    instance a[n * m]: d
    a[0].x -- a[1].x via link(bw)
}"""
    g = graph(src, n=3, m=2, bw="50 GB/s")
    assert g.num_nodes == 6
    assert g.links[0].bandwidth_gbps == pytest.approx(400)


def test_include_fabric_with_prefix():
    src = """
link l { bandwidth = 1 Tbps }
device d { component x[2]: xpu }
fabric pod(n: int = 2) { instance h[n]: d; h[0].x[0] -- h[1].x[0] via l }
fabric f {
    include pod(3) as p1
    include pod as p2
    p1.h[0].x[1] -- p2.h[0].x[1] via l
}"""
    g = graph(src)
    assert g.num_nodes == 10
    assert ("p1-h.0.x.1", "p2-h.0.x.1") in edges(g)


INCLUDED = """
link l { bandwidth = 1 Tbps }
device d { component x[2]: xpu }
fabric pod(n: int = 2, r: int = 1) {
    instance h[n]: d
    h[0].x[0] -- h[1].x[0] via l
    dims = "SW(*)_SW(" + str(n) + ")"
    topology = "pod"
    max_oversubscription = r
}
"""


def test_one_include_passes_its_graph_attributes_on_and_the_includer_wins():
    doc = compile_source(INCLUDED + "fabric f { include pod(3) as p }", "t.igl")
    assert doc.annotations.graph == {"dims": "SW(*)_SW(3)", "topology": "pod", "max_oversubscription": 1}
    # nested: f2 includes f, which includes pod; the includer's own value wins, set before or after
    doc = compile_source(INCLUDED + 'fabric f { include pod(3) }\n'
                         'fabric f2 { topology = "mine"\n include f }', "t.igl")
    assert doc.annotations.graph == {"dims": "SW(*)_SW(3)", "topology": "mine", "max_oversubscription": 1}


def test_attributes_of_several_includes_describe_neither_so_only_the_oversubscription_bound_is_kept():
    doc = compile_source(INCLUDED + "fabric f { include pod(2, 1) as a\n include pod(2, 3) as b }", "t.igl")
    # two SW(*)_SW(2) pods side by side are not one SW(*)_SW(2): no dims, no topology; the bound is the max
    assert doc.annotations.graph == {"max_oversubscription": 3}
    doc = compile_source(INCLUDED + 'fabric f { include pod as a\n include pod as b\n dims = "SW(2)_SW(4)" }',
                         "t.igl")
    assert doc.annotations.graph["dims"] == "SW(2)_SW(4)"


def test_imports_by_path_and_library(tmp_path: Path):
    (tmp_path / "lib.igl").write_text('link l { bandwidth = 1 Tbps }\ndevice d { component x[2]: xpu }\n')
    main = tmp_path / "main.igl"
    main.write_text('import "lib.igl"\nimport "lib.igl" as other\n'
                    'fabric main { instance a: lib.d; a.x[0] -- a.x[1] via other.l }\n')
    g = graph_file(main)
    assert g.num_nodes == 2 and g.num_edges == 1


def graph_file(path):
    from infragraph.graph import expand

    return expand(compile_file(str(path)))


def test_describe_returns_doc_and_params(tmp_path: Path):
    p = tmp_path / "bp.igl"
    p.write_text('"""A blueprint."""\nparam k: int = 4  ## the radix\n'
                 '## pods\nfabric bp(pods: int = k * 2) { }\n')
    info = describe(str(p))
    assert info["doc"] == "A blueprint."
    assert info["params"] == [
        {"name": "k", "type": "int", "default": "4", "doc": "the radix"},
        {"name": "pods", "type": "int", "default": "k * 2", "doc": ""},
    ]


def test_compile_is_deterministic():
    from infragraph.document import io

    src = Path("examples/leaf_spine.igl").read_text()
    assert io.dumps(compile_source(src, "a.igl")) == io.dumps(compile_source(src, "a.igl"))


def test_quantity_units_exist():
    assert BANDWIDTH != TIME


def test_computed_instance_names_give_one_array_per_loop_iteration():
    # one switch array per dimension, each with its own port count: the symbol `s` names this
    # iteration's array inside the loop body, the document names them s2, s4
    src = PRELUDE + """
fabric f {
    instance h[4]: host
    for k in [2, 4] {
        instance s[4 // k]: sw(k) { name = "s" + str(k); role = "tier" }
        for i in 0..4 { h[i].nic[k // 4] -- s[i // k].port[i % k] via eth }
    }
}"""
    doc = compile_source(src, "t.igl")
    assert [(i.name, i.device, i.count) for i in doc.instances] == [("h", "host", 4), ("s2", "sw-ports2", 2),
                                                                    ("s4", "sw", 1)]
    g = graph(src)
    assert ("h.3.nic.0", "s2.1.port.1") in edges(g) and ("h.3.nic.1", "s4.0.port.3") in edges(g)
    assert "s2.0.port.2" not in set(g.node_names)  # the 2-port switches have 2 ports, not 4
    assert g.node_annotation("role")[g.node_names.index("s4.0.asic.0")] == "tier"  # other attributes stay


def test_a_computed_instance_name_is_checked_and_unique():
    root = PRELUDE.count("\n")
    twice = error(PRELUDE + 'fabric f {\n for k in [2, 2] { instance s: sw(k) { name = "s" + str(k) } }\n}\n')
    assert f"t.igl:{root + 2}:20: error: instance name 's2' is used twice" in twice
    bad = error(PRELUDE + 'fabric f {\n instance s: sw { name = "s.1" }\n}\n')
    assert f"t.igl:{root + 2}:26: error: an instance name must be a string of letters, digits and '_'" in bad
    assert "got \"s.1\"" in bad
    again = error(PRELUDE + 'fabric f {\n instance s: sw { name = "a" }\n instance s: sw { name = "b" }\n}\n')
    assert f"t.igl:{root + 3}:2: error: 's' is already defined in this block" in again
