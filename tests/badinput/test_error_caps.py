"""Reports capped at 20 errors say how many more there are (issue 21 item 4): `check`, `validate`
and `lint` on an .igl program with 30 bad references and a document with 30 schema violations."""

from __future__ import annotations

import yaml

from .input_cases import cli, write

MANY_IGL = "device d {\n    component xpu: xpu\n}\nfabric f {\n    instance a[2]: d\n" + "".join(
    f"    a[0].nosuch{i} -- a[1].xpu via link(1 Gbps, 1 ns)\n" for i in range(30)) + "}\n"


def test_check_says_how_many_more(capsys, tmp_path):
    path = write(tmp_path, "many.igl", MANY_IGL)
    code, out = cli(capsys, "check", path, "--no-cache")
    assert code == 1
    assert out.count(": error: device 'd' has no component 'nosuch") == 20
    assert out.rstrip().endswith(f"{path}: note: 10 more error(s) not shown (the first 20 are above)")


def test_lint_says_how_many_more(capsys, tmp_path):
    path = write(tmp_path, "many.igl", MANY_IGL)
    code, out = cli(capsys, "lint", path)
    assert code == 2  # lint: a file that cannot be loaded
    assert f"{path}: note: 10 more error(s) not shown (the first 20 are above) [IG000 invalid-input]" in out
    assert "20 error(s), 0 warning(s), 1 note(s) in 1 file(s); 1 could not be loaded" in out


def test_validate_says_how_many_more_schema_errors(capsys, tmp_path):
    doc = {"name": "x", "devices": [{"name": f"d{i}", "components": [{"name": "c", "count": -1, "choice": "xpu"}]}
                                    for i in range(30)], "instances": [], "edges": []}
    path = write(tmp_path, "bad.yaml", yaml.safe_dump(doc))
    code, out = cli(capsys, "validate", path)
    assert code == 1
    assert out.count("error: -1 is less than the minimum of 1") == 20
    assert f"{path}:1:1: <document>: note: 10 more error(s) not shown (30 in all; the first 20 are above)" in out
