"""errors.py: how every located problem reads — where (file:line:col and/or document path), what,
a hint, a caret under the column — and how a long report is capped without looking complete."""

from __future__ import annotations

import pytest

from infragraph.errors import (CARET_WIDTH, MAX_SHOWN, Diagnostic, InfraGraphError, Location, did_you_mean,
                               first_errors, found_line, read_text, unknown_name)


@pytest.mark.parametrize("loc, text", [
    (Location("f.yaml", 3, 7, "edges[0]"), "f.yaml:3:7: edges[0]"),
    (Location("f.yaml", 3), "f.yaml:3"),
    (Location("f.yaml", None, 7), "f.yaml"),  # a column without a line means nothing
    (Location(path="--set x"), "--set x"),
    (Location(), "<input>"),
])
def test_a_location_reads_file_line_column_then_path(loc, text):
    assert str(loc) == text


def test_a_diagnostic_shows_hint_caret_and_notes():
    d = Diagnostic("bad unit", Location("f.igl", 2, 5), "did you mean 'Gbps'?",
                   notes=("imported from main.igl:1:1",), source_line="  x 400 Gbs\n")
    assert d.render().split("\n") == ["f.igl:2:5: error: bad unit", "  hint: did you mean 'Gbps'?", "    x 400 Gbs",
                                      "      ^", "  note: imported from main.igl:1:1"]


def test_a_long_line_is_shown_around_the_column():
    line = "a" * 500 + "X" + "b" * 500
    text = Diagnostic("m", Location("f.json", 1, 501), source_line=line).render().split("\n")
    shown, caret = text[1][2:], text[2][2:]
    assert shown.startswith("…") and shown.endswith("…") and len(shown) == CARET_WIDTH + 2
    assert shown[len(caret) - 1] == "X"  # the caret stands under the column


def test_a_capped_report_says_how_many_more():
    ds = [Diagnostic(f"e{i}", Location("f.yaml", i)) for i in range(MAX_SHOWN + 5)]
    shown = first_errors(ds)
    assert len(shown) == MAX_SHOWN + 1 and shown[:MAX_SHOWN] == ds[:MAX_SHOWN]
    assert shown[-1].severity == "note" and shown[-1].location == Location("f.yaml")
    assert shown[-1].message == f"5 more error(s) not shown ({MAX_SHOWN + 5} in all; the first {MAX_SHOWN} are above)"
    assert first_errors(ds[:3]) == ds[:3]
    counted = first_errors(ds[:MAX_SHOWN], total=10_000)  # a reader that kept only the first ones, counted on
    assert counted[-1].message.startswith(f"{10_000 - MAX_SHOWN:,} more error(s) not shown (10,000 in all")


def test_relocated_resolves_document_paths_and_keeps_placed_ones(tmp_path):
    f = tmp_path / "d.yaml"
    f.write_text("name: x\ncount: -1\n")

    class Map:
        def locate(self, path):
            return Location(str(f), 2, 8)

    err = InfraGraphError([Diagnostic("negative", Location(path="count")), Diagnostic("other", Location("g", 1, 1))])
    moved = err.relocated(Map()).diagnostics
    assert moved[0].location == Location(str(f), 2, 8, "count") and moved[0].source_line == "count: -1\n"
    assert moved[1] == err.diagnostics[1] and err.relocated(None) is err


def test_found_line_only_for_a_readable_line(tmp_path):
    f = tmp_path / "t.txt"
    f.write_text("one\ntwo\n")
    assert found_line(Location(str(f), 2)) == "two\n"
    assert found_line(Location(str(f), 9)) is None and found_line(Location(str(tmp_path / "no"), 1)) is None
    assert found_line(Location(path="x")) is None


def test_names_get_a_suggestion_and_long_listings_are_cut():
    assert did_you_mean("nicc", ["nic", "xpu"]) == "did you mean 'nic'?" and did_you_mean("zzz", ["nic"]) is None
    (d,) = unknown_name("component", "nicc", ["xpu", "nic"], "edges[0]", " in device 'host'").diagnostics
    assert (d.message, d.hint, d.location.path) == (
        "unknown component 'nicc' in device 'host'; expected one of: nic, xpu", "did you mean 'nic'?", "edges[0]")
    (d,) = unknown_name("device", "q", [f"d{i:02}" for i in range(25)], "x").diagnostics
    assert d.message.endswith("d18, d19, … (25 in all)")
    assert unknown_name("link", "l", [], "x").diagnostics[0].message.endswith("expected one of: (none defined)")


def test_read_text_refuses_a_missing_or_undecodable_file_at_the_file(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_bytes(b"name: \xff\xfe\n")
    for path in (bad, tmp_path / "missing.yaml"):
        with pytest.raises(InfraGraphError) as e:
            read_text(path, "the document")
        (d,) = e.value.diagnostics
        assert d.message.startswith("cannot read the document: ") and d.location == Location(str(path))
