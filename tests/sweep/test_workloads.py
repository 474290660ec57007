"""Workload sweeps, spec side (infragraph/sweep/workloads.py through spec.py and points.py): which
names are workload keys, each point's LlmSpec, the ET-set key that points share, and the
combinations refused before anything runs, located at the spec key that varies."""

from __future__ import annotations

from dataclasses import asdict

import pytest

from infragraph.errors import InfraGraphError
from infragraph.sweep.points import expand
from infragraph.sweep.spec import OPTION, PARAM, WORKLOAD, read_spec
from infragraph.workload.llm import LlmSpec

from .workload_specs import TINY, write


def located(tmp_path, text: str, name: str = "s.yaml") -> str:
    with pytest.raises(InfraGraphError) as e:
        expand(read_spec(write(tmp_path, text, name)))
    return str(e.value)


def line_of(text: str, marker: str) -> int:
    return text[:text.index(marker)].count("\n") + 1


def test_workload_keys_get_their_role_and_every_point_its_spec(tmp_path):
    spec = read_spec(write(tmp_path))
    assert spec.roles["tp"] == WORKLOAD and spec.roles["dp"] == WORKLOAD
    assert spec.roles["bandwidth"] == PARAM
    points = expand(spec)
    assert [(p.workload.spec.tp, p.workload.spec.dp) for p in points] == [(2, 2), (2, 2), (4, 1), (4, 1)]
    assert points[0].workload.spec == LlmSpec(layers=2, hidden=256, heads=4, seq=128, vocab=100, global_batch=4,
                                              tp=2, dp=2)
    # every LlmSpec key is a column, with the point's value
    assert {k: points[2].inputs[k] for k in asdict(points[2].workload.spec)} == asdict(points[2].workload.spec)
    # the collective's options are not columns of a workload table
    assert "collective" not in points[0].inputs and "size_bytes" not in points[0].inputs


def test_points_with_one_workload_share_its_et_set_and_keep_their_own_keys(tmp_path):
    points = expand(read_spec(write(tmp_path)))
    assert points[0].workload.key == points[1].workload.key  # bw differs: the fabric only
    assert points[0].workload.key != points[2].workload.key  # tp differs
    assert len({p.key for p in points}) == 4
    assert points[0].graph_key != points[1].graph_key


def test_a_workload_file_is_read_and_axes_override_it(tmp_path):
    (tmp_path / "w.yaml").write_text("model: {layers: 4, hidden: 256, heads: 4, seq: 128, vocab: 100}\n"
                                     "batch: {global_batch: 8}\nparallel: {tp: 2, dp: 2}\n", encoding="utf-8")
    text = "source: std.fabrics.stack\nworkload: w.yaml\naxes:\n  shape: \"RI(4)\"\n  micro_batch: [1, 2]\n"
    points = expand(read_spec(write(tmp_path, text)))
    assert [p.workload.spec.micro_batch for p in points] == [1, 2]
    assert points[1].workload.spec.layers == 4 and points[1].workload.spec.tp == 2


def test_simulation_options_still_apply_to_the_collectives_of_the_step(tmp_path):
    spec = read_spec(write(tmp_path, TINY.replace("  bw: [50, 100]\n", "  bw: [50]\n  model: [fair, astra]\n")))
    assert spec.roles["model"] == OPTION
    assert [p.options.model for p in expand(spec)][:2] == ["fair", "astra"]


@pytest.mark.parametrize("axis, marker, message", [
    ("tp: [2, 3]", "tp: [2, 3]", "heads 4 must divide evenly over tp 3"),
    ("pp: [1, 3]", "pp: [1, 3]", "layers 2 must divide evenly over pp 3"),
    ("micro_batch: [1, 3]", "micro_batch: [1, 3]", "global_batch 4 must be a multiple of micro_batch x dp"),
    ("zero: [0, 4]", "zero: [0, 4]", "zero stage 4"),
    ("efficiency: [0.5, 1.5]", "efficiency: [0.5, 1.5]", "efficiency 1.5"),
])
def test_an_invalid_combination_is_an_error_at_the_key_that_varies(tmp_path, axis, marker, message):
    text = TINY.replace("  tp: [2, 4]\n", "  tp: [2, 4]\n" if axis.startswith("tp") else f"  tp: [2, 4]\n  {axis}\n")
    text = text.replace("  tp: [2, 4]\n", f"  {axis}\n") if axis.startswith("tp") else text
    out = located(tmp_path, text)
    assert message in out
    name = marker.split(":")[0]
    assert f"s.yaml:{line_of(text, marker)}:" in out and f"axes.{name}" in out
    assert "where" in out  # the hint: filter such points


def test_an_invalid_derived_value_is_located_at_the_derived_key(tmp_path):
    text = TINY.replace('dp: "4 // tp"', 'dp: "3"')
    out = located(tmp_path, text)
    assert "global_batch 4 must be a multiple of micro_batch x dp = 3" in out
    assert f"s.yaml:{line_of(text, 'dp: ')}:" in out and "derive.dp" in out


def test_an_invalid_value_in_the_section_is_located_in_the_section(tmp_path):
    text = TINY.replace("  heads: 4\n", "  heads: 6\n").replace("  tp: [2, 4]\n", "  tp: [2]\n")
    out = located(tmp_path, text)
    assert "hidden 256 must be a multiple of heads 6" in out
    assert f"s.yaml:{line_of(text, 'hidden: 256')}:" in out and "workload.hidden" in out


def test_an_unknown_workload_key_is_located_with_a_suggestion(tmp_path):
    text = TINY.replace("  vocab: 100\n", "  vocab: 100\n  micro_bach: 2\n")
    out = located(tmp_path, text)
    assert "'micro_bach' is not a workload key" in out and "micro_batch" in out
    assert f"s.yaml:{line_of(text, 'micro_bach')}:" in out


def test_a_missing_required_key_names_it(tmp_path):
    out = located(tmp_path, TINY.replace("  seq: 128\n", ""))
    # a mapping is located at its first key, as everywhere in a YAML spec
    assert "the workload needs 'seq'" in out and f"s.yaml:{line_of(TINY, 'layers:')}:3: workload: error" in out


def test_a_required_key_may_come_from_an_axis(tmp_path):
    points = expand(read_spec(write(tmp_path, TINY.replace("  seq: 128\n", "").replace("  bw: [50, 100]\n",
                                                                                         "  bw: [50]\n  seq: [64, 128]\n"))))
    assert [p.workload.spec.seq for p in points][:2] == [64, 128]


@pytest.mark.parametrize("axis", ["collective: [all-reduce]", "size: [1024]", "root: [0]"])
def test_the_collective_options_the_trace_decides_are_refused(tmp_path, axis):
    text = TINY.replace("  bw: [50, 100]\n", f"  bw: [50, 100]\n  {axis}\n")
    out = located(tmp_path, text)
    assert "does not apply to a workload sweep" in out and f"s.yaml:{line_of(text, axis)}:" in out


def test_a_workload_key_without_a_workload_section_says_what_is_missing(tmp_path):
    text = "source: std.fabrics.stack\naxes:\n  shape: \"RI(4)\"\n  tp: [2, 4]\n"
    out = located(tmp_path, text)
    assert "'tp' is a workload key, but this spec has no 'workload' section" in out
    assert f"s.yaml:{line_of(text, 'tp:')}:" in out


def test_a_missing_workload_file_is_located(tmp_path):
    text = "source: std.fabrics.stack\nworkload: nowhere.yaml\naxes:\n  shape: \"RI(4)\"\n"
    out = located(tmp_path, text)
    assert "no such workload spec 'nowhere.yaml'" in out and f"s.yaml:{line_of(text, 'workload:')}:" in out


def test_a_bad_workload_file_is_located_in_that_file(tmp_path):
    (tmp_path / "w.yaml").write_text("layers: 2\nhidden: 256\nheads: 4\nseq: 128\nvocab: 100\nglobal_batch: 4\n"
                                     "tpp: 2\n", encoding="utf-8")
    out = located(tmp_path, "source: std.fabrics.stack\nworkload: w.yaml\naxes:\n  shape: \"RI(4)\"\n")
    assert "w.yaml" in out and "tpp: unknown key" in out


def test_where_keeps_only_the_feasible_points_of_a_product(tmp_path):
    text = TINY.replace("  tp: [2, 4]\n  bw: [50, 100]\n", "  tp: [1, 2, 3, 4]\n  dp: [1, 2, 4]\n  bw: [50]\n")
    text = text.replace('derive:\n  dp: "4 // tp"\n', 'where: "tp * dp == 4 and heads % tp == 0"\nderive:\n')
    points = expand(read_spec(write(tmp_path, text)))
    assert [(p.workload.spec.tp, p.workload.spec.dp) for p in points] == [(1, 4), (2, 2), (4, 1)]
