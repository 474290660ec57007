"""`infragraph plot` on sweep tables: lines per design, heat maps, speedup; located errors."""

from __future__ import annotations

import pytest

from infragraph.cli import main
from infragraph.errors import InfraGraphError
from infragraph.sweep.store import ResultStore
from infragraph.visualizer import plot_table
from infragraph.visualizer.table import read_table

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture()
def table(tmp_path):
    """A 2 topologies x 3 NPU counts x 4 sizes x 2 collectives table, the torus twice as fast; plus
    one failed point (not plotted)."""
    rows = []
    for collective in ("all-reduce", "all-gather"):
        for npus in (4, 8, 16):
            for topology in ("switch", "torus"):
                for size in (1024, 1 << 20, 1 << 30, 1 << 31):
                    t = (1000 + size / 50) * npus / (2 if topology == "torus" else 1)
                    rows.append({"point": len(rows), "key": f"k{len(rows)}", "source": "std.fabrics.stack",
                                 "collective": collective, "size_bytes": float(size), "npus": npus,
                                 "topology": topology, "shape": f"{topology}{npus}",  # derived: adds nothing
                                 "status": "ok", "error": None, "time_ns": t, "busbw_gb_per_s": size / t,
                                 "utilization_max": 0.5, "utilization[dimension 1]": 0.25})
    rows.append({"point": len(rows), "key": "bad", "source": "std.fabrics.stack", "collective": "all-reduce",
                 "size_bytes": 1.0, "npus": 3, "topology": "torus", "shape": "x", "status": "error",
                 "error": "no", "time_ns": None})
    store = ResultStore(tmp_path / "res")
    store.write(rows)
    return store


def test_table_inputs_and_independent_columns(table):
    t = read_table(str(table.parquet))
    assert t.inputs == ["collective", "size_bytes", "npus", "topology", "shape"] and t.failed == 1
    assert t.independent(("size_bytes",)) == ["collective", "npus", "topology"]  # shape follows npus+topology
    assert len(t.where(["collective=all-gather", "npus=8"]).rows) == 8


@pytest.mark.parametrize("source", ["parquet", "csv"])
def test_lines_heatmap_and_speedup(table, tmp_path, source):
    path = str(getattr(table, source))
    out = tmp_path / "lines.png"
    assert plot_table(path, str(out)) == "2 panel(s) of collective time against size per NPU"
    assert out.read_bytes()[:8] == PNG and out.stat().st_size > 20_000
    heat = tmp_path / "heat.png"
    assert plot_table(path, str(heat), "heatmap", y="busbw", heatmap=("npus", "size_bytes"),
                      where=["topology=torus"]) == "2 heat map(s) of 3×4"
    assert heat.read_bytes()[:8] == PNG
    speed = tmp_path / "speedup.svg"
    assert plot_table(path, str(speed), "speedup", speedup="topology=torus/switch") == \
        "24 matched pair(s) in 2 panel(s)"
    assert "speedup (time switch / time torus)" in speed.read_text()


def test_table_plot_errors_are_located(table, tmp_path):
    path = str(table.parquet)
    out = str(tmp_path / "p.png")
    with pytest.raises(InfraGraphError, match=r"res.parquet: error: no column 'npu' .*\n  hint: did you mean 'npus'"):
        plot_table(path, out, x="npu")
    with pytest.raises(InfraGraphError, match=r"no row has topology=mesh; values: switch, torus"):
        plot_table(path, out, where=["topology=mesh"])
    with pytest.raises(InfraGraphError, match=r"a heat map needs its two inputs"):
        plot_table(path, out, "heatmap")
    with pytest.raises(InfraGraphError, match=r"bad --speedup 'topology=torus'"):
        plot_table(path, out, "speedup", speedup="topology=torus")
    with pytest.raises(InfraGraphError, match=r"a heat map's axes are inputs; 'utilization_max' is a result column"):
        plot_table(path, out, "heatmap", heatmap=("size_bytes", "utilization"))


def test_cli_plot_table(table, tmp_path, capsys):
    out = tmp_path / "u.png"
    assert main(["plot", str(table.csv), "-o", str(out), "--y", "utilization", "--facet", "topology",
                 "--where", "collective=all-reduce"]) == 0
    assert "2 panel(s) of busiest link utilization" in capsys.readouterr().err
    assert main(["plot", str(table.csv), str(table.parquet), "-o", str(out), "--where", "collective=all-reduce",
                 "--where", "topology=torus", "--where", "npus=4"]) == 0  # several tables: one line per table
    assert "1 panel(s) of collective time against size per NPU" in capsys.readouterr().err
    (tmp_path / "x.csv").write_text("a,b\n1,2\n")
    assert main(["plot", str(tmp_path / "x.csv"), "-o", str(out)]) == 1
    assert "x.csv: error: not a sweep table" in capsys.readouterr().err


def _family(tmp_path, name, source, scale):
    rows = [{"point": i, "key": f"{name}{i}", "source": source, "size_bytes": float(size), "status": "ok",
             "error": None, "time_ns": scale * size} for i, size in enumerate((1024, 4096, 16384))]
    store = ResultStore(tmp_path / name)
    store.write(rows)
    return str(store.parquet)


def test_several_tables_compare_their_sources(tmp_path, capsys):
    from infragraph.visualizer.table import read_tables

    clos = _family(tmp_path, "clos", "std.fabrics.clos", 1.0)
    fly = _family(tmp_path, "fly", "std.fabrics.dragonfly", 2.0)
    t = read_tables([clos, fly])
    assert t.inputs[0] == "source" and "table" not in t.inputs  # one source per table: the source says it
    assert t.independent(("size_bytes",)) == ["source"] and len(t.rows) == 6
    again = _family(tmp_path, "clos2", "std.fabrics.clos", 3.0)
    assert read_tables([clos, again]).inputs[0] == "table"  # same source twice: the file names tell them apart
    spec = tmp_path / "spec.yaml"
    spec.write_text("name: families\nsource: std.fabrics.clos\naxes:\n  size: [1KiB]\n")
    out = tmp_path / "f.png"
    assert main(["plot", clos, fly, "-o", str(out), "--spec", str(spec)]) == 0
    assert out.read_bytes().startswith(PNG)
    assert main(["plot", clos, str(tmp_path / "r.json"), "-o", str(out)]) == 1
    assert "RESULTS: error: give sweep tables (.parquet/.csv) or simulate results (.json), not both" \
        in capsys.readouterr().err


def test_the_spec_name_is_the_title(tmp_path):
    from infragraph.cli.plot import _spec_name

    spec = tmp_path / "scaling.yaml"
    spec.write_text("name: collective scaling\nsource: std.fabrics.stack\n")
    assert _spec_name(str(spec)) == "collective scaling"
    spec.write_text("source: std.fabrics.stack\n")
    assert _spec_name(str(spec)) == "scaling"


def test_a_workload_table_plots_without_naming_its_x(tmp_path, capsys):
    """A workload sweep's table has no size_bytes: `plot T -o x.png` said "no column 'size_bytes'";
    the x axis is now its first varying input, with whole-number ticks for a degree."""
    rows = [{"point": i, "key": f"k{i}", "source": "std.fabrics.stack", "tp": tp, "pp": 8 // tp,
             "sequence_parallel": sp, "status": "ok", "error": None, "step_time_ns": 1e6 * tp + sp}
            for i, (tp, sp) in enumerate((tp, sp) for tp in (2, 4) for sp in (True, False))]
    store = ResultStore(tmp_path / "w")
    store.write(rows)
    code = main(["plot", str(store.parquet), "-o", str(tmp_path / "w.png")])
    out = "".join(capsys.readouterr())
    assert code == 0 and "step time against tp" in out, out
    assert (tmp_path / "w.png").read_bytes()[:8] == PNG
