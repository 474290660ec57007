"""Sweep specs: expansion (product, zip, ranges, derived values, filter) and located errors for bad specs."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from infragraph.errors import InfraGraphError
from infragraph.sweep.points import expand
from infragraph.sweep.spec import read_spec

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "sweeps"


def write(tmp_path: Path, text: str, name: str = "spec.yaml") -> Path:
    p = tmp_path / name
    p.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return p


def error_of(path: Path) -> str:
    with pytest.raises(InfraGraphError) as info:
        expand(read_spec(path))
    return str(info.value)


def test_the_collective_scaling_grid_has_220_points_over_10_graphs():
    points = expand(read_spec(EXAMPLES / "collective_scaling.yaml"))
    assert len(points) == 2 * 5 * 11 * 2 == 220
    assert len({p.graph_key for p in points}) == 10  # 5 NPU counts x switch/torus
    assert len({p.key for p in points}) == 220
    sizes = sorted({p.options.size_bytes for p in points})
    assert sizes[0] == 1024 and sizes[-1] == 2**30 and len(sizes) == 11
    torus64 = next(p for p in points if p.inputs["npus"] == 64 and p.inputs["topology"] == "torus")
    assert dict(torus64.defines) == {"shape": '"RI(8)_RI(8)"', "bandwidth": "[50 GB/s, 50 GB/s]",
                                     "latency": "[500 ns, 500 ns]"}


def test_libra_split_filters_to_36_splits_that_spend_the_whole_budget():
    points = expand(read_spec(EXAMPLES / "libra_split.toml"))
    assert len(points) == 72
    for p in points:
        assert p.inputs["p1"] + p.inputs["p2"] + p.inputs["p3"] == 100 and p.inputs["p3"] >= 10
        per_npu = p.inputs["bw1_gb_per_s"] * 2 + p.inputs["bw2_gb_per_s"] * 7 + p.inputs["bw3_gb_per_s"]
        assert per_npu == pytest.approx(300)


def test_product_zip_ranges_and_where(tmp_path):
    spec = write(tmp_path, """
        source: std.fabrics.ring
        axes:
          npus: {from: 4, to: 16, factor: 2}
          bandwidth: ["50 GB/s", "25 GB/s", "10 GB/s"]
          chunks: [1, 2, 4]
          size: {from: 1KiB, to: 4KiB, factor: 2}
          share: {from: 0.1, to: 0.3, step: 0.1}
        zip: [[npus, bandwidth, chunks]]
        derive:
          half: "share / 2"
        where: "not (npus == 16 and half > 0.125)"
    """)
    points = expand(read_spec(spec))
    assert len(points) == 3 * 3 * 3 - 3  # zip of 3, sizes 3, shares 3; minus npus 16 with share 0.3
    first = points[0]
    assert first.inputs["npus"] == 4 and first.inputs["bandwidth"] == "50 GB/s" and first.options.chunks == 1
    assert {p.inputs["share"] for p in points} == {0.1, 0.2, 0.3}  # no 0.30000000000000004
    assert dict(first.defines) == {"npus": "4", "bandwidth": "50 GB/s"}
    assert first.options.size_bytes == 1024 and points[-1].options.size_bytes == 4096


def test_combine_zip_and_toml(tmp_path):
    spec = write(tmp_path, """
        source = "std.fabrics.ring"
        combine = "zip"
        [axes]
        npus = [4, 8]
        collective = ["all-reduce", "all-gather"]
    """, "spec.toml")
    points = expand(read_spec(spec))
    assert [(p.inputs["npus"], p.options.collective) for p in points] == [(4, "all-reduce"), (8, "all-gather")]


BAD = [
    ("unknown key", """
        source: std.fabrics.ring
        axis: {npus: [4]}
     """, r"spec.yaml:2:7: axis: error: Additional properties are not allowed \('axis' was unexpected\)"),
    ("typo in an axis name", """
        source: std.fabrics.ring
        axes:
          collectiv: [all-reduce]
     """, r"spec.yaml:3:14: axes.collectiv: error: 'collectiv' is not a simulation option.*\n"
          r"  hint: did you mean 'collective'\?"),
    ("bad option value", """
        source: std.fabrics.ring
        axes:
          collective: [all-reduce, all-reduse]
     """, r"spec.yaml:3:15: axes.collective: error: collective: 'all-reduse' is not one of: all-reduce"),
    ("syntax error inside an expression", """
        source: std.fabrics.ring
        axes: {n: [4]}
        derive:
          npus: "n * * 2"
     """, r"spec.yaml:4:14: derive.npus: error: bad expression: invalid syntax\n  +  npus: \"n \* \* 2\"\n +\^"),
    ("unknown name in an expression", """
        source: std.fabrics.ring
        axes: {count: [4]}
        derive:
          npus: "2 * cuont"
     """, r"spec.yaml:4:14: derive.npus: error: unknown name 'cuont'.*\n  hint: did you mean 'count'\?"),
    ("attribute access is not allowed", """
        source: std.fabrics.ring
        axes: {n: ["4"]}
        derive:
          npus: "n.__class__"
     """, r"spec.yaml:4:10: derive.npus: error: 'Attribute' is not allowed"),
    ("division by zero at one point", """
        source: std.fabrics.ring
        axes: {n: [1, 0]}
        derive:
          npus: "8 // n"
     """, r"spec.yaml:4:10: derive.npus: error: ZeroDivisionError: integer division or modulo by zero "
          r"\(at n=0\)"),
    ("not a finite number", """
        source: std.fabrics.ring
        axes: {n: [1]}
        derive:
          x: "float('inf') * n"
        where: "x > 0"
     """, r"spec.yaml:4:7: derive.x: error: the value is inf, not a finite number"),
    ("huge power", """
        source: std.fabrics.ring
        axes: {n: [10]}
        derive:
          x: "n ** 100000"
        where: "x > 0"
     """, r"derive.x: error: exponent 100000 is too large"),
    ("zip of unequal lengths", """
        source: std.fabrics.ring
        axes: {npus: [4, 8], chunks: [1]}
        zip: [[npus, chunks]]
     """, r"spec.yaml:3:7: zip\[0\]: error: zipped axes must have equal lengths: npus has 2, chunks has 1"),
    ("range running backwards", """
        source: std.fabrics.ring
        axes:
          size: {from: 1MiB, to: 1KiB, factor: 2}
     """, r"spec.yaml:3:9: axes.size: error: range runs from '1MiB' down to '1KiB'"),
    ("a size in a unit that is not one", """
        source: std.fabrics.ring
        axes:
          size: [1KiB, 2 parsec]
     """, r"spec.yaml:3:9: axes.size: error: size: .*parsec"),
    ("chunks must be whole", """
        source: std.fabrics.ring
        axes: {chunks: [2.0]}
     """, r"spec.yaml:2:16: axes.chunks: error: chunks: expected a whole number ≥ 1, got 2.0"),
    ("unknown blueprint", """
        source: std.fabrics.rign
        axes: {chunks: [1]}
     """, r"spec.yaml:1:9: source: error: no blueprint named 'std.fabrics.rign'\n  hint: did you mean 'std.fabrics.ring'"),
    ("a name that is an option and a parameter", """
        source: std.fabrics.hypercube
        axes: {dims: [3]}
     """, r"axes.dims: error: 'dims' is both a simulation option and a parameter.*\n  hint: write the parameter as 'D.dims'"),
]


@pytest.mark.parametrize("text,expected", [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_specs_are_located(tmp_path, text, expected):
    assert re.search(expected, error_of(write(tmp_path, text))), error_of(write(tmp_path, text))


def test_bad_toml_specs_are_located(tmp_path):
    assert re.search(r"spec.toml:2:9: error: invalid TOML: Invalid value at the end of the file",
                     error_of(write(tmp_path, 'source = "std.fabrics.ring"\naxes = [\n', "spec.toml")))
    message = error_of(write(tmp_path, """
        source = "std.fabrics.ring"
        [axes]
        npus = [4]
        [derive]
        x = "npus +"
        where = "x > 1"
    """, "spec.toml"))
    assert re.search(r"spec.toml:5:6: derive.x: error: bad expression", message), message
    message = error_of(write(tmp_path, """
        source = "std.fabrics.ring"
        [axes]
        model = ["unaware", "aware", "fast"]
    """, "spec.toml"))
    assert re.search(r"spec.toml:3:9: axes.model: error: model: 'fast' is not one of", message), message


def test_an_unknown_nested_key_is_located_where_it_is_written(tmp_path):
    message = error_of(write(tmp_path, """
        source: std.fabrics.ring
        axes:
          size: {from: 1KiB, to: 1MiB, factr: 2}
    """))
    assert re.search(r"spec.yaml:3:39: axes.size.factr: error: .*'factr' was unexpected.*\n"
                     r"  hint: did you mean 'factor'\?", message), message


def test_unknown_spec_file_type(tmp_path):
    assert "unknown spec file type '.ini'" in error_of(write(tmp_path, "x", "spec.ini"))


def test_file_sources_relative_to_the_spec_and_the_d_prefix(tmp_path):
    (tmp_path / "fabrics").mkdir()
    (tmp_path / "fabrics" / "ring8.igl").write_text((EXAMPLES.parent / "ring8.igl").read_text())
    points = expand(read_spec(write(tmp_path, """
        source: fabrics/ring8.igl
        axes: {npus: [4, 6]}
    """)))
    assert [dict(p.defines) for p in points] == [{"npus": "4"}, {"npus": "6"}]
    assert points[0].graph_key != points[1].graph_key
    # a document has no parameters: every name must be an option or a variable
    (tmp_path / "mini.yaml").write_text((Path(__file__).resolve().parents[1] / "data" / "mini.yaml").read_text())
    assert len(expand(read_spec(write(tmp_path, "source: mini.yaml\naxes: {size: [1KiB, 2KiB]}\n")))) == 2
    assert "not a parameter of 'mini.yaml'" in error_of(write(tmp_path, "source: mini.yaml\naxes: {npus: [4]}\n"))
    # hypercube's `dims` parameter, next to the simulation option of the same name
    points = expand(read_spec(write(tmp_path, """
        source: std.fabrics.hypercube
        axes: {D.dims: [2, 3], dims: "4"}
    """)))
    assert [dict(p.defines) for p in points] == [{"dims": "2"}, {"dims": "3"}]
    assert points[0].options.dims == (4,) and points[0].inputs["D.dims"] == 2


def test_the_source_contents_are_in_the_key(tmp_path):
    igl = tmp_path / "ring8.igl"
    igl.write_text((EXAMPLES.parent / "ring8.igl").read_text())
    spec = write(tmp_path, "source: ring8.igl\naxes: {npus: [4]}\n")
    before = expand(read_spec(spec))[0].key
    igl.write_text(igl.read_text().replace("50 GB/s", "25 GB/s"))
    assert expand(read_spec(spec))[0].key != before


def test_a_sweep_varies_astra_sims_scheduling_options(tmp_path):
    spec = write(tmp_path, """
        source: std.fabrics.ring
        axes:
          model: astra
          inter_dimension_scheduling: [baseline, themis, offlineGreedyFlex]
          intra_dimension_scheduling: [FIFO, SCF, lessRemainingPhaseFirst]
    """)
    points = expand(read_spec(spec))
    assert {(p.options.inter_dimension_scheduling, p.options.intra_dimension_scheduling) for p in points} == {
        (inter, intra) for inter in ("baseline", "themis", "offlineGreedyFlex")
        for intra in ("FIFO", "SCF", "lessRemainingPhaseFirst")}
    bad = write(tmp_path, """
        source: std.fabrics.ring
        axes:
          inter_dimension_scheduling: [roundRobin]
    """, "bad.yaml")
    assert "roundRobin" in error_of(bad)
    fair = write(tmp_path, """
        source: std.fabrics.ring
        axes:
          inter_dimension_scheduling: [themis]
    """, "fair.yaml")  # the default model (fair) queues in (phase, chunk) order, not ASTRA-sim's
    assert "got fifo scheduling with model fair" in error_of(fair)


def test_a_sweep_varies_the_routing_policy(tmp_path):
    spec = write(tmp_path, """
        source: std.fabrics.clos
        axes:
          routing_policy: [scale-out=ecmp, scale-out=d-mod-k]
    """)
    points = expand(read_spec(spec))
    assert [p.options.routing_policy for p in points] == ["scale-up=spray,scale-out=ecmp",
                                                          "scale-up=spray,scale-out=d-mod-k"]
    bad = write(tmp_path, """
        source: std.fabrics.clos
        axes:
          routing_policy: [scale-out=dmodk]
    """, "bad.yaml")
    message = error_of(bad)
    assert "unknown policy 'dmodk'" in message and "bad.yaml:3:19" in message


@pytest.mark.parametrize("count, outcome", [
    ("3", [1024, 2560, 4096]), ("3.0", [1024, 2560, 4096]), ("0.3e+1", [1024, 2560, 4096]),  # YAML 1.1 floats have a dot
    ("2.5", r"spec.yaml:3:39: axes.size.count: error: 2.5 is not of type 'integer'"),
    ('"3"', r"axes.size.count: error: '3' is not of type 'integer'"),
    ("1.0e+300", r"spec.yaml:3:39: axes.size.count: error: expected an integer, found 1e\+300 \(beyond 2\*\*53"),
])
def test_a_range_count_is_an_integer_as_the_schema_says(tmp_path, count, outcome):
    """The schema's "integer" takes 3.0 (no fraction); the reader did too, then crashed on range(3.0)."""
    spec = write(tmp_path, f"""
        source: std.fabrics.ring
        axes:
          size: {{from: 1KiB, to: 4KiB, count: {count}}}
    """)
    if isinstance(outcome, list):
        assert [p.options.size_bytes for p in expand(read_spec(spec))] == outcome
    else:
        assert re.search(outcome, error_of(spec)), error_of(spec)
