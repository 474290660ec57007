"""plot under bad tables (issue 21 item 3): a metric column holding text is refused, naming the file,
the column and the row (it plotted without complaint)."""

from __future__ import annotations

import pytest

from .input_cases import cli, write

HEADER = "point,key,size_bytes,topology,status,error,time_ns,busbw_gb_per_s\n"


@pytest.mark.parametrize("args,column,bad", [
    ([], "time_ns", "'12 ms'"),
    (["--y", "busbw"], "busbw_gb_per_s", "'fast'"),
    (["--kind", "heatmap", "--heatmap", "size_bytes,topology"], "time_ns", "'12 ms'"),
    (["--kind", "speedup", "--speedup", "topology=torus/switch"], "time_ns", "'12 ms'"),
])
def test_text_in_a_metric_column_is_refused(capsys, tmp_path, args, column, bad):
    table = write(tmp_path, "t.csv", HEADER + "0,a,1024,torus,ok,,1000,5\n1,b,1024,switch,ok,,12 ms,fast\n"
                                              "2,c,2048,torus,ok,,2000,6\n3,d,2048,switch,ok,,1500,7\n")
    out = tmp_path / "t.png"
    code, text = cli(capsys, "plot", table, "-o", out, *args)
    assert code == 1
    assert text.startswith(f"{table}: error: column '{column}' must hold numbers to be plotted; point 1 has {bad}")
    assert not out.exists()
