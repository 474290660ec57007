"""The compile cache: a hit gives the same graph as compiling; any change to the program, an
imported file or a -D value is a miss; a corrupt entry is a miss, never an error. Parsed modules
(cache.cached_parse): reused across -D values, keyed by text and front end, never by file name."""

from __future__ import annotations

import pickle

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


# ----------------------------------------------------------------------------- parsed modules ----


@pytest.fixture
def parses(monkeypatch) -> list:
    """Records each run of the .igl parser (cache.cached_parse calls it on a miss)."""
    from infragraph.lang import syntax

    calls: list = []
    real = syntax.parse

    def counting(text, filename="<string>", chain=()):
        calls.append(filename)
        return real(text, filename, chain)

    monkeypatch.setattr(syntax, "parse", counting)
    return calls


def _shape(obj, seen=None):
    """An AST as nested tuples, its Source as (file name, import chain): equal for equal parses."""
    from dataclasses import fields, is_dataclass

    from infragraph.lang.ast import Source

    if isinstance(obj, Source):
        return ("Source", obj.filename, obj.chain, obj.text)
    if is_dataclass(obj):
        return (type(obj).__name__, *(_shape(getattr(obj, f.name)) for f in fields(obj)))
    if isinstance(obj, (list, tuple)):
        return tuple(_shape(x) for x in obj)
    if isinstance(obj, dict):
        return tuple((k, _shape(v)) for k, v in obj.items())
    return obj


def test_a_new_define_reuses_the_parsed_modules(program, compiles, parses):
    """A compile-cache miss (new -D values) parses nothing that was parsed before; same graph."""
    load_graph(program / "main.igl", cache=True)
    assert sorted(parses) == sorted([str(program / "main.igl"), str(program / "lib.igl")])
    g = load_graph(program / "main.igl", {"n": "6"}, cache=True)
    assert len(compiles) == 2 and len(parses) == 2
    assert to_json_dict(g) == to_json_dict(load_graph(program / "main.igl", {"n": "6"}))
    assert len(list((program / "cache").glob("*.ast.pickle"))) == 2


def test_a_parsed_module_takes_the_callers_file_and_import_chain(program, parses):
    from infragraph.lang import syntax

    first = cache.cached_parse(MAIN, "a.igl")
    again = cache.cached_parse(MAIN, "b.igl", ("imported from c.igl:1:1",))
    assert len(parses) == 1
    assert again.src.filename == "b.igl" and again.src.chain == ("imported from c.igl:1:1",)
    assert again.items[-1].pos.src is again.src  # every position points at the caller's Source
    assert _shape(again) == _shape(syntax.parse(MAIN, "b.igl", ("imported from c.igl:1:1",)))
    assert _shape(first) == _shape(syntax.parse(MAIN, "a.igl"))


def test_an_edited_text_or_front_end_is_a_miss(program, parses, monkeypatch):
    cache.cached_parse(MAIN, "a.igl")
    cache.cached_parse(MAIN + "\n", "a.igl")
    assert len(parses) == 2
    monkeypatch.setattr(cache, "_front_end", lambda: "another front end")
    cache.cached_parse(MAIN, "a.igl")
    assert len(parses) == 3


def test_the_front_end_is_every_language_module(tmp_path, monkeypatch):
    """Editing any module of infragraph/lang (here the generated parser) changes the key."""
    import shutil

    shutil.copytree(cache._PACKAGE / "lang", tmp_path / "lang", ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(cache, "_PACKAGE", tmp_path)
    before = cache._front_end.__wrapped__()
    assert cache._front_end.__wrapped__() == before
    parser = tmp_path / "lang" / "_generated" / "InfraGraphParser.py"
    parser.write_text(parser.read_text() + "\n# edited\n")
    assert cache._front_end.__wrapped__() != before


@pytest.mark.parametrize("garbage", [b"", b"not a pickle", pickle.dumps({"format": cache.PARSE_FORMAT, "program": 1}),
                                     pickle.dumps({"format": cache.PARSE_FORMAT + 1, "program": None})])
def test_a_corrupt_parsed_module_is_a_miss_and_is_replaced(program, parses, garbage):
    cache.cached_parse(MAIN, "a.igl")
    (entry,) = (program / "cache").glob("*.ast.pickle")
    entry.write_bytes(garbage)
    assert _shape(cache.cached_parse(MAIN, "a.igl")) == _shape(cache.cached_parse(MAIN, "a.igl"))
    assert len(parses) == 2


def test_a_syntax_error_is_never_stored_and_names_the_callers_file(program, parses):
    from infragraph.errors import InfraGraphError

    for name in ("x.igl", "y.igl"):
        with pytest.raises(InfraGraphError, match=rf"{name}:1:"):
            cache.cached_parse("fabric {", name)
    assert len(parses) == 2 and not list((program / "cache").glob("*.ast.pickle"))


def test_parsed_modules_are_bounded_and_off_without_the_cache(program, parses, monkeypatch):
    monkeypatch.setattr(cache, "MAX_PARSES", 2)
    for n in range(4):
        cache.cached_parse(MAIN + "\n" * n, "a.igl")
    assert len(list((program / "cache").glob("*.ast.pickle"))) == 2
    monkeypatch.setenv("INFRAGRAPH_NO_CACHE", "1")
    cache.cached_parse(MAIN, "fresh.igl")
    cache.cached_parse(MAIN, "fresh.igl")
    assert parses.count("fresh.igl") == 2


def test_no_cache_keeps_no_parsed_module(program):
    from infragraph.cli import main

    assert main(["validate", str(program / "main.igl"), "--no-cache"]) == 0
    assert not (program / "cache").exists()
    assert main(["validate", str(program / "main.igl")]) == 0
    assert len(list((program / "cache").glob("*.ast.pickle"))) == 2
