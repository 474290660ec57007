"""simulate.policy: spray, ecmp and adaptive per tier, on a DGX-like server and an imported H100."""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from pathlib import Path
import subprocess
import sys

import numpy as np
import pytest

from infragraph import blueprints
from infragraph.errors import InfraGraphError
from infragraph.graph import expand
from infragraph.importers import import_source
from infragraph.lint.config import LintConfig
from infragraph.lint.engine import lint_files
from infragraph.simulate import SimulationOptions as Opts
from infragraph.simulate import prepare, simulate
from infragraph.simulate.policy import parse_policy, scale_up_edges

H100_XML = Path(__file__).parents[2] / "examples" / "import" / "nccl_h100_server.xml"
# The ideal model: a ring, fair sharing, link bandwidths as the graph states them (NCCL mode derates them).
ALL_REDUCE = Opts(algorithm=("ring",), size_bytes=256 << 20, local_mem_bw_gb_per_s=None)


@lru_cache(maxsize=None)
def dgx():
    return prepare(blueprints.graph("std.devices.dgx"))


@lru_cache(maxsize=None)
def h100():
    doc, _ = import_source("nccl", H100_XML)
    return prepare(expand(doc))


def gpu_scale_up_gb_per_s(p) -> float:
    """One GPU's scale-up bandwidth per direction (GB/s), summed over its scale-up links."""
    up = scale_up_edges(p.g)
    gpu = int(p.npu_nodes[0])
    mine = up & ((np.asarray(p.g.edge_src) == gpu) | (np.asarray(p.g.edge_dst) == gpu))
    return float(np.asarray(p.g.edge_bandwidth_gbps())[mine].sum()) / 8


def scale_up_used(p, r) -> tuple[int, int]:
    up = np.repeat(scale_up_edges(p.g), 2)
    return int(np.count_nonzero(r["link_bytes_per_direction"][up] > 0)), int(up.sum())


def run(p, opts: Opts) -> dict:
    r = simulate(p, replace(opts, links="all", top_links=None))
    per_link = np.zeros(2 * p.g.num_edges)
    for link in r["links"]:
        a = link["edge"] * 2
        per_link[a if p.g.node_name(int(p.g.edge_src[link["edge"]])) == link["src"] else a + 1] = link["bytes"]
    r["link_bytes_per_direction"] = per_link
    return r


@pytest.mark.parametrize("server", [dgx, h100], ids=["std.devices.dgx", "imported H100"])
def test_spray_uses_every_nvlink_and_reaches_the_nvlink_bandwidth(server):
    p = server()
    r = run(p, ALL_REDUCE)
    used, links = scale_up_used(p, r)
    assert used == links
    assert r["routing_policy"] == "scale-up=spray,scale-out=ecmp"
    assert r["bus_bandwidth_gb_per_s"] >= 0.95 * gpu_scale_up_gb_per_s(p)


def test_imported_h100_has_450_gb_per_s_of_nvlink_per_gpu():
    assert gpu_scale_up_gb_per_s(h100()) == pytest.approx(450.0)


def test_ecmp_pins_each_ring_flow_to_one_switch():
    p = dgx()
    r = run(p, replace(ALL_REDUCE, routing_policy="ecmp"))
    used, links = scale_up_used(p, r)
    assert (used, links) == (16, 64)  # 8 ring connections, 2 directed links each (GPU -> switch -> GPU)
    assert r["routing_collisions"]["links_used"] == used


def test_adaptive_spreads_connections_over_the_switches():
    p = dgx()
    ecmp = run(p, replace(ALL_REDUCE, routing_policy="ecmp"))
    adaptive = run(p, replace(ALL_REDUCE, routing_policy="scale-up=adaptive"))
    assert adaptive["bus_bandwidth_gb_per_s"] >= ecmp["bus_bandwidth_gb_per_s"]
    assert adaptive["routing_collisions"]["links_used"] == 0  # no tier hashes


@pytest.mark.parametrize("model", ["unaware", "aware"])
def test_every_model_sprays(model):
    p = dgx()
    r = run(p, replace(ALL_REDUCE, model=model))
    used, links = scale_up_used(p, r)
    assert used == links


def test_astra_models_keep_one_path():
    p = dgx()
    r = run(p, replace(ALL_REDUCE, model="astra"))
    assert r["routing_policy"] == "scale-up=ecmp,scale-out=ecmp"
    assert scale_up_used(p, r)[0] < scale_up_used(p, r)[1]


def test_ecmp_collisions_are_counted_on_the_scale_out_tier():
    p = prepare(blueprints.graph("std.fabrics.clos", radix=8, tiers=2))
    r = simulate(p, Opts(collective="all-to-all", algorithm=("direct",), size_bytes=1 << 20))
    c = r["routing_collisions"]
    assert c["links_used"] > 0 and c["max_per_link"] >= 2 and 0 < c["links_with_2_or_more"] <= c["links_used"]


def test_graph_annotation_sets_the_policy_and_the_option_wins():
    p = prepare(blueprints.graph("std.devices.dgx"))
    p.g.graph_annotations["routing_policy"] = "scale-up=ecmp"
    assert simulate(p, ALL_REDUCE)["routing_policy"] == "scale-up=ecmp,scale-out=ecmp"
    assert simulate(p, replace(ALL_REDUCE, routing_policy="spray"))["routing_policy"] == \
        "scale-up=spray,scale-out=spray"


@pytest.mark.parametrize("text, expected", [
    ("", {"scale-up": "spray", "scale-out": "ecmp"}),
    ("adaptive", {"scale-up": "adaptive", "scale-out": "adaptive"}),
    ("scale-out=adaptive", {"scale-up": "spray", "scale-out": "adaptive"}),
    (" scale-up = ecmp , scale-out=spray", {"scale-up": "ecmp", "scale-out": "spray"}),
])
def test_parse_policy(text, expected):
    assert parse_policy(text) == expected


@pytest.mark.parametrize("text, fragment", [
    ("sprey", "unknown policy 'sprey'"),
    ("scale-up=ecmp,scaleout=spray", "unknown tier 'scaleout'"),
    ("scale-up=", "unknown policy ''"),
])
def test_bad_policies_are_refused(text, fragment):
    with pytest.raises(InfraGraphError, match=fragment):
        parse_policy(text)


def test_bad_policy_annotation_is_named():
    p = prepare(blueprints.graph("std.devices.dgx"))
    p.g.graph_annotations["routing_policy"] = "fast"
    with pytest.raises(InfraGraphError, match="graph annotation 'routing_policy'"):
        simulate(p, ALL_REDUCE)


def test_imported_nvlink_bundles_are_not_duplicate_edges(tmp_path):
    out = tmp_path / "h100.igl"
    subprocess.run([sys.executable, "-m", "infragraph", "import", str(H100_XML), "--from", "nccl", "-o", str(out)],
                   check=True, capture_output=True)
    assert "bundle = true" in out.read_text()
    report = lint_files([str(out)], LintConfig())
    assert [f.rule for f in report.findings if f.rule == "IG011"] == []
    # Without the bundle mark the same parallel NVLinks are duplicates again.
    plain = tmp_path / "plain.igl"
    plain.write_text(out.read_text().replace("; bundle = true", ""))
    assert any(f.rule == "IG011" for f in lint_files([str(plain)], LintConfig()).findings)


def test_d_mod_k_loads_every_leaf_up_link_alike():
    """d-mod-k's promise on a full-bisection Clos: each leaf up-link carries the destinations of one
    residue, so an all-to-all puts the same bytes on every leaf-to-spine link (ECMP's hash does not)."""
    p = prepare(blueprints.graph("std.fabrics.clos", radix=8, tiers=2))
    up_bytes = {}
    for policy in ("scale-out=ecmp", "scale-out=d-mod-k"):
        r = simulate(p, Opts(collective="all-to-all", algorithm=("direct",), size_bytes=1 << 20, model="aware",
                             routing_policy=policy, links="all", top_links=None))
        assert r["routing_policy"] == f"scale-up=spray,{policy}"
        up_bytes[policy] = [link["bytes"] for link in r["links"] if link["src"].startswith("leaf.")
                            and link["dst"].startswith("spine.")]
        if policy.endswith("d-mod-k"):
            assert r["routing_collisions"]["links_used"] > 0
    assert len(up_bytes["scale-out=d-mod-k"]) == 32  # 8 leaves x 4 spines
    assert set(up_bytes["scale-out=d-mod-k"]) == {917504.0}
    assert len(set(up_bytes["scale-out=ecmp"])) > 1


def test_d_mod_k_is_named_and_misspellings_are_refused():
    assert parse_policy("scale-out=d-mod-k") == {"scale-up": "spray", "scale-out": "d-mod-k"}
    with pytest.raises(InfraGraphError, match="unknown policy 'dmodk'; expected one of: ecmp, spray, adaptive, d-mod-k"):
        parse_policy("scale-out=dmodk", "routing policy (--routing-policy)")


def test_cli_refuses_a_bad_routing_policy_naming_the_option():
    cmd = [sys.executable, "-m", "infragraph", "simulate", "std.fabrics.clos", "-D", "radix=8", "-D", "tiers=2",
           "--routing-policy", "scale-out=d-mod-j", "-q"]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert out.returncode == 1
    assert "--routing-policy" in out.stderr and "unknown policy 'd-mod-j'" in out.stderr
    assert "Traceback" not in out.stderr
