"""The visualizer draws failed links red (dashed when a whole line failed) and degraded ones orange."""

from __future__ import annotations

import pytest

from infragraph.cli import main
from infragraph.graph.failures import FailureSpec, marked, parse_degrade, resolve_failures
from infragraph.sources import load_graph
from infragraph.visualizer.picture import DEGRADED_COLOUR, FAILED_COLOUR, dot_text
from infragraph.visualizer.scene import prepare


@pytest.fixture(scope="module")
def clos():
    return load_graph("std.fabrics.clos", {"radix": "4"})


def _lines(dot: str, colour: str) -> list[str]:
    return [x for x in dot.splitlines() if " -- " in x and f'color="{colour}"' in x]


def test_failed_and_degraded_lines_are_marked(clos):
    spec = FailureSpec(fail=("spine.1",), degrade=(parse_degrade("leaf.3.port.0--host.6.nic.0.port.0:bandwidth=0.5"),))
    g = marked(clos, resolve_failures(clos, spec))
    scene = prepare(g, "fabric")
    v = scene.view
    assert int(v.failed.sum()) == 4 and int(v.degraded.sum()) == 1  # 4 leaf-spine.1 cables; one host cable
    dot = dot_text(scene)
    failed = _lines(dot, FAILED_COLOUR)
    assert len(failed) == 4 and all("style=dashed" in x and '"spine.1"' in x for x in failed)
    degraded = _lines(dot, DEGRADED_COLOUR)
    assert len(degraded) == 1 and "style=dotted" in degraded[0] and '"host.6"' in degraded[0]
    assert "failed: 4 links" in dot and "degraded: 1 links" in dot
    # a failed line adds no bandwidth: the fabric's total drops by the 4 cut 400 Gbit/s cables
    healthy = prepare(clos, "fabric").view
    assert healthy.failed is None
    assert v.bandwidth.sum() == pytest.approx(healthy.bandwidth.sum() - 4 * 400 - 200)


def test_document_annotations_are_drawn_without_flags(clos):
    g = load_graph("std.fabrics.clos", {"radix": "4"})
    g.node_attrs["failed"] = {g.node_id("leaf.0.asic.0"): True}
    dot = dot_text(prepare(marked(g, resolve_failures(g)), "full"))
    assert len(_lines(dot, FAILED_COLOUR)) == 4  # the ASIC's internal links to its 4 ports


def test_cli_png_with_failures(tmp_path, capsys):
    out = tmp_path / "f.png"
    assert main(["visualize", "std.fabrics.clos", "-D", "radix=4", "-o", str(out), "-q", "--fail", "spine.1",
                 "--degrade", "leaf.0:latency=1us"]) == 0
    assert out.read_bytes()[:4] == b"\x89PNG"
    assert main(["visualize", "std.fabrics.clos", "-D", "radix=4", "-o", str(out), "--fail", "nowhere.*"]) == 1
    assert "'nowhere.*' matches no node" in capsys.readouterr().err


def test_results_simulated_with_other_failures_are_refused(tmp_path, capsys):
    res = tmp_path / "r.json"
    assert main(["simulate", "std.fabrics.clos", "-D", "radix=4", "-q", "--fail", "spine.1", "--json", str(res)]) == 0
    capsys.readouterr()
    out = str(tmp_path / "u.html")
    assert main(["visualize", "std.fabrics.clos", "-D", "radix=4", "-o", out, "--results", str(res)]) == 1
    assert "simulated with 8 failed link(s), this picture has 0" in capsys.readouterr().err
    assert main(["visualize", "std.fabrics.clos", "-D", "radix=4", "-o", out, "-q", "--results", str(res),
                 "--fail", "spine.1"]) == 0
    page = (tmp_path / "u.html").read_text()
    assert '"failed":[' in page and "degraded links" in page
