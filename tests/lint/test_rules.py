"""Each rule on its own broken fixture (exactly that rule, at the expected place, with the expected
message), clean fixtures that trigger nothing, and the rule parameters that change outcomes."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from infragraph.lint.config import LintConfig
from infragraph.lint.engine import lint_files
from infragraph.lint.rules import RULES

DATA = Path(__file__).resolve().parents[1] / "data" / "lint"

# fixture, rule, line, column, document path, message fragments, nodes that must be named
CASES = [
    ("IG001_port_cabled_twice.fqg.json", "IG001", 226, 3, "edges[9]",
     ["port 'sw.0.port.0' has 2 cables", "host.0.nic.0", "host.0.nic.1"], {"sw.0.port.0"}),
    ("IG002_unconnected_component.yaml", "IG002", 6, 16, "devices[0].components[2]",
     ["2 node(s) of component 'hbm'", "have no edge"], {"host.0.hbm.0", "host.1.hbm.0"}),
    ("IG003_self_loop.fqg.json", "IG003", 241, 3, "edges[12]",
     ["node 'host.1.xpu.0' is connected to itself"], {"host.1.xpu.0"}),
    ("IG004_npu_unreachable.yaml", "IG004", 16, 13, "instances[0]",
     ["2 groups that cannot reach each other", "sizes 2, 2", "'host.0.xpu.0' cannot reach 'host.1.xpu.0'"],
     {"host.0.xpu.0", "host.1.xpu.0"}),
    ("IG005_link_missing_physical.yaml", "IG005", 7, 5, "devices[0].links[0]",
     ["link 'host.pcie' has no latency", "4 edge(s) use it"], {"host.0.xpu.0"}),
    ("IG006_cable_speed_mismatch.yaml", "IG006", 21, 3, "edges[0]",
     ["2 cable(s) join ends of different speeds (200 Gbit/s vs 400 Gbit/s)", "'host.0.nic.0' (200 Gbit/s)"],
     {"host.0.nic.0", "sw.0.port.0"}),
    ("IG007_parallel_links_differ.yaml", "IG007", 11, 5, "devices[0].edges[1]",
     ["4 node pair(s)", "'host.pcie' (512 Gbit/s, 100 ns) and 'host.pcie_slow' (128 Gbit/s, 100 ns)"],
     {"host.0.xpu.0", "host.0.nic.0"}),
    ("IG008_switch_port_overuse.yaml", "IG008", 16, 51, "instances[1]",
     ["switch 'sw.0.asic.0' uses 6 ports but has 4", "2 cable(s) attach to the switch node itself"],
     {"sw.0.asic.0"}),
    ("IG009_oversubscription.yaml", "IG009", 22, 51, "instances[1]",
     ["tier 1", "1 of 1 switches", "4.00:1", "1.6 Tbit/s down vs 400 Gbit/s up, per direction", "default maximum 1:1"],
     {"sw.0.asic.0"}),
    ("IG010_unused_definition.yaml", "IG010", 16, 3, "devices[2]",
     ["device 'spare' is defined but neither instantiated nor composed"], set()),
    ("IG011_duplicate_edge.yaml", "IG011", 10, 5, "devices[0].edges[1]",
     ["4 edge(s) over link 'host.pcie' duplicate edges already made by devices[0].edges[0]"],
     {"host.0.xpu.0", "host.0.nic.0"}),
    ("IG012_npu_missing_rank.yaml", "IG012", 16, 13, "instances[0]",
     ["2 NPU(s) of instance 'host' have no rank while 2 node(s) have one"], {"host.1.xpu.0", "host.1.xpu.1"}),
]
CLEAN = ["clean.yaml", "clean_clos.yaml", "clean.fqg.json"]


def lint(*names: str, config: LintConfig | None = None, paths: list[str] | None = None):
    return lint_files(paths or [str(DATA / n) for n in names], config or LintConfig())


def test_every_rule_has_a_broken_fixture():
    covered = {c[1] for c in CASES} | {"IG013"}  # IG013 needs a translator: tests/cli/test_lint.py
    assert covered == set(RULES)


@pytest.mark.parametrize("fixture,rule,line,col,path,fragments,nodes", CASES, ids=[c[1] for c in CASES])
def test_fixture_triggers_exactly_its_rule(fixture, rule, line, col, path, fragments, nodes):
    report = lint(fixture)
    assert [f.rule for f in report.findings] == [rule]
    f = report.findings[0]
    assert (f.location.file, f.location.line, f.location.column, f.location.path) == (
        str(DATA / fixture), line, col, path)
    for fragment in fragments:
        assert fragment in f.message
    assert nodes <= set(f.nodes)
    assert f.hint and f.severity == RULES[rule].severity
    assert report.exit_code == (1 if RULES[rule].severity == "error" else 0)


@pytest.mark.parametrize("fixture", CLEAN)
def test_clean_fixtures_trigger_nothing(fixture):
    report = lint(fixture)
    assert report.findings == [] and report.exit_code == 0


def test_document_that_does_not_expand_is_an_input_error(tmp_path):
    bad = tmp_path / "bad.yaml"
    text = (DATA / "clean.yaml").read_text().replace('component: "port[2:4]"', 'component: "port[3:5]"')
    bad.write_text(text)
    report = lint(paths=[str(bad)])
    assert report.exit_code == 2 and report.failed_files == [str(bad)]
    [f] = report.findings
    assert f.rule == "IG000" and f.location.file == str(bad)
    assert (f.location.line, f.location.column, f.location.path) == (22, 84, "edges[1].ep2.component")
    assert "slice '[3:5]' out of range for 'port', which has 4" in f.message


def test_uncabled_box_is_an_island(tmp_path):
    src = tmp_path / "island.yaml"
    src.write_text((DATA / "clean.yaml").read_text().replace(
        "{name: host, device: host, count: 2}", "{name: host, device: host, count: 3}"))
    report = lint(paths=[str(src)])
    island = [f for f in report.findings if f.rule == "IG002"]
    assert len(island) == 1 and "'host.2' (device 'host') has no cable" in island[0].message
    assert island[0].location.path == "instances[0]"
    assert {f.rule for f in report.findings} == {"IG002", "IG004"}  # its NPUs are cut off too


def test_radix_annotation_sets_the_port_budget(tmp_path):
    src = tmp_path / "radix.yaml"
    src.write_text((DATA / "clean.yaml").read_text() + (
        "annotations:\n  nodes:\n  - {name: sw.0.asic.0, attributes: [{attribute: radix, value: \"3\"}]}\n"))
    [f] = lint(paths=[str(src)]).findings
    assert f.rule == "IG008" and "uses 4 ports but has 3 (its 'radix' annotation)" in f.message


def test_oversubscription_limit_from_config_and_document(tmp_path):
    broken = DATA / "IG009_oversubscription.yaml"
    assert lint(config=LintConfig(max_oversubscription=4.0), paths=[str(broken)]).findings == []
    [f] = lint(config=LintConfig(max_oversubscription=3.0), paths=[str(broken)]).findings
    assert "above the configured maximum 3:1" in f.message
    stated = tmp_path / "stated.yaml"
    stated.write_text(broken.read_text() + "annotations:\n  graph:\n  - {attribute: max_oversubscription, value: \"4\"}\n")
    assert lint(paths=[str(stated)]).findings == []
    # a non-blocking Clos is rated (ratio exactly 1) and passes; a stricter limit catches every leaf
    [f] = lint("clean_clos.yaml", config=LintConfig(max_oversubscription=0.5)).findings
    assert "2 of 2 switches" in f.message and "1.00:1" in f.message


def test_unused_link_class(tmp_path):
    src = tmp_path / "unused_link.yaml"
    src.write_text((DATA / "clean.yaml").read_text().replace(
        "links:\n- name: eth", "links:\n- {name: spare_link}\n- name: eth"))
    [f] = lint(paths=[str(src)]).findings
    assert f.rule == "IG010" and f.location.path == "links[0]" and "link 'spare_link'" in f.message


def test_select_ignore_and_severity_override():
    broken = "IG005_link_missing_physical.yaml"
    assert lint(broken, config=LintConfig(ignore=("IG005",))).findings == []
    assert lint(broken, config=LintConfig(select=("IG001", "IG002"))).findings == []
    report = lint(broken, config=LintConfig(severity={"IG005": "error"}))
    assert report.findings[0].severity == "error" and report.exit_code == 1


def test_findings_beyond_the_cap_are_counted_and_still_fail(tmp_path):
    src = tmp_path / "loops.fqg.json"
    text = (DATA / "IG003_self_loop.fqg.json").read_text()
    import json
    data = json.loads(text)
    data["edges"] += [{"src": n, "dst": n, "link": 0} for n in range(3)]
    src.write_text(json.dumps(data, indent=1))
    report = lint(paths=[str(src)], config=replace(LintConfig(), max_per_rule=2))
    assert [f.rule for f in report.findings] == ["IG003", "IG003"]
    assert report.omitted == {"IG003": 2} and report.exit_code == 1


def test_inline_suppression_names_the_rule(tmp_path):
    report = lint("IG011_duplicate_edge_suppressed.yaml")
    assert report.findings == [] and report.suppressed == 1
    other = tmp_path / "other_rule.yaml"  # a comment naming a different rule silences nothing
    other.write_text((DATA / "IG011_duplicate_edge_suppressed.yaml").read_text().replace("ignore[IG011]", "ignore[IG007]"))
    assert [f.rule for f in lint(paths=[str(other)]).findings] == ["IG011"]


def test_speed_quantity_annotation_as_the_language_writes_it(tmp_path):
    src = tmp_path / "speed.yaml"
    src.write_text((DATA / "IG006_cable_speed_mismatch.yaml").read_text().replace(
        'attribute: speed_gbps, value: "200"', 'attribute: speed, value: "25 GB/s"'))
    [f] = lint(paths=[str(src)]).findings
    assert f.rule == "IG006" and "(200 Gbit/s vs 400 Gbit/s)" in f.message
    same = tmp_path / "same.yaml"
    same.write_text(src.read_text().replace("25 GB/s", "400.0001 Gbps"))  # rounded text: still equal
    assert lint(paths=[str(same)]).findings == []
