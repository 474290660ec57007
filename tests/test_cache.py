"""The compile cache: a hit gives the same graph as compiling; any change to the program, an
imported file or a -D value is a miss; a corrupt entry is a miss, never an error."""

from __future__ import annotations

import pytest

from infragraph import cache, lang
from infragraph.graph.export import to_json_dict
from infragraph.sources import load_graph

LIB = """link l {\n    bandwidth = 100 Gbps\n}\n\ndevice npu {\n    component xpu: xpu\n}\n"""
MAIN = """import lib\n\nparam n: int = 4\n\nfabric f {\n    instance npu[n]: lib.npu\n    npu.xpu -- npu.xpu ring via lib.l\n}\n"""


@pytest.fixture
def program(tmp_path, monkeypatch):
    monkeypatch.setenv("INFRAGRAPH_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("INFRAGRAPH_NO_CACHE", raising=False)
    (tmp_path / "lib.igl").write_text(LIB)
    (tmp_path / "main.igl").write_text(MAIN)
    return tmp_path


@pytest.fixture
def compiles(monkeypatch) -> list:
    """Records each run of the .igl compiler."""
    calls: list = []
    real = lang.compile_file

    def counting(*args, **kwargs):
        calls.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(lang, "compile_file", counting)
    return calls


def test_a_hit_is_the_same_graph(program, compiles):
    g1 = load_graph(program / "main.igl", cache=True)
    g2 = load_graph(program / "main.igl", cache=True)
    assert len(compiles) == 1
    assert to_json_dict(g1) == to_json_dict(g2)


def test_an_edited_import_is_seen(program, compiles):
    assert load_graph(program / "main.igl", cache=True).links[0].bandwidth_gbps == 100.0
    (program / "lib.igl").write_text(LIB.replace("100 Gbps", "200 Gbps"))
    assert load_graph(program / "main.igl", cache=True).links[0].bandwidth_gbps == 200.0
    assert len(compiles) == 2


@pytest.mark.parametrize("change", ["program", "define", "import"])
def test_changes_are_misses(program, compiles, change):
    load_graph(program / "main.igl", cache=True)
    defines = None
    if change == "program":
        (program / "main.igl").write_text(MAIN.replace("n: int = 4", "n: int = 5"))
    elif change == "define":
        defines = {"n": "6"}
    else:
        (program / "lib.igl").write_text(LIB + "\n")
    load_graph(program / "main.igl", defines, cache=True)
    assert len(compiles) == 2


@pytest.mark.parametrize("garbage", [b"", b"not a pickle", b"\x80\x05K\x01."])
def test_a_corrupt_entry_is_a_miss_and_is_replaced(program, compiles, garbage):
    load_graph(program / "main.igl", cache=True)
    (entry,) = (program / "cache").glob("*.fqg.pickle")
    entry.write_bytes(garbage)
    assert load_graph(program / "main.igl", cache=True).num_nodes == 4
    load_graph(program / "main.igl", cache=True)
    assert len(compiles) == 2


def test_disabled_by_environment(program, compiles, monkeypatch):
    monkeypatch.setenv("INFRAGRAPH_NO_CACHE", "1")
    load_graph(program / "main.igl", cache=True)
    load_graph(program / "main.igl", cache=True)
    assert len(compiles) == 2 and not (program / "cache").exists()


def test_an_unwritable_cache_is_not_an_error(program, compiles, monkeypatch):
    (program / "blocked").write_text("a file where the folder should be")
    monkeypatch.setenv("INFRAGRAPH_CACHE_DIR", str(program / "blocked" / "cache"))
    assert load_graph(program / "main.igl", cache=True).num_nodes == 4


def test_the_cache_is_bounded(program, monkeypatch):
    monkeypatch.setattr(cache, "MAX_ENTRIES", 3)
    for n in range(3, 9):
        load_graph(program / "main.igl", {"n": str(n)}, cache=True)
    assert len(list((program / "cache").glob("*.fqg.pickle"))) == 3


def test_the_cli_uses_it_and_no_cache_skips_it(program, compiles):
    from infragraph.cli import main

    assert main(["validate", str(program / "main.igl")]) == 0
    assert main(["validate", str(program / "main.igl")]) == 0
    assert len(compiles) == 1
    assert main(["validate", str(program / "main.igl"), "--no-cache"]) == 0
    assert len(compiles) == 2


def test_a_cached_graph_still_obeys_the_size_limits(program, compiles):
    from infragraph.errors import InfraGraphError
    from infragraph.limits import Limits

    assert load_graph(program / "main.igl", cache=True).num_nodes == 4
    with pytest.raises(InfraGraphError, match="node"):
        load_graph(program / "main.igl", cache=True, limits=Limits(max_nodes=3))


def test_an_absolute_path_hits_from_any_folder_a_relative_one_does_not(program, compiles, monkeypatch):
    (program / "elsewhere").mkdir()
    monkeypatch.chdir(program)
    load_graph(program / "main.igl", cache=True)
    load_graph("main.igl", cache=True)  # relative: its own entry
    monkeypatch.chdir(program / "elsewhere")
    g = load_graph(program / "main.igl", cache=True)
    assert len(compiles) == 2 and g.num_nodes == 4
    load_graph("../main.igl", cache=True)  # relative from another folder: another entry
    assert len(compiles) == 3
