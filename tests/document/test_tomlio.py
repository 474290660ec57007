"""document/tomlio.py: TOML read with located errors (tomllib states positions only inside its
messages) and a source map from document paths back to the line and column of the value."""

from __future__ import annotations

import pytest

from infragraph.document.tomlio import TomlSourceMap, loads
from tests.helpers import one_diagnostic

SPEC = """\
name = "s"
[axes]
size = ["1KiB", "1GiB"]
[derive]
bw = "x"
[[points]]
a.b = 1
"""


def test_a_good_document_reads():
    assert loads(SPEC, "s.toml") == {"name": "s", "axes": {"size": ["1KiB", "1GiB"]}, "derive": {"bw": "x"},
                                     "points": [{"a": {"b": 1}}]}


@pytest.mark.parametrize("text, line, column", [
    ("a = 1\nb = \n", 2, 5),
    ("a = 1\na = 2\n", 2, 6),
    ("[x]\ny = 1\n[x]\n", 3, 3),
    ("a = [1,\n", 1, 8),  # tomllib says "(at end of document)": the end of the last line
])
def test_a_syntax_error_is_located_at_file_line_column(text, line, column):
    d = one_diagnostic(loads, text, "s.toml")
    # tomllib's own wording (after the prefix) differs between Python versions; the position is ours
    assert d.message.startswith("invalid TOML: ") and "(at line" not in d.message and "end of document" not in d.message
    assert (d.location.file, d.location.line, d.location.column) == ("s.toml", line, column)


@pytest.mark.parametrize("path, line, column", [
    ("axes.size", 3, 8), ("axes.size[1]", 3, 8),  # a list item: its key's line
    ("derive.bw", 5, 6), ("points[0].a.b", 7, 7),  # a dotted key in an array of tables
    ("axes", 2, 1), ("derive.missing", 4, 1),  # a table, or the nearest table a missing key is in
])
def test_the_source_map_finds_the_value(path, line, column):
    loc = TomlSourceMap(SPEC, "s.toml").locate(path)
    assert (loc.file, loc.line, loc.column, loc.path) == ("s.toml", line, column, path)


def test_a_path_it_cannot_place_keeps_the_file_and_path():
    loc = TomlSourceMap(SPEC, "s.toml").locate("nothing.here")
    assert (loc.file, loc.line, loc.column, loc.path) == ("s.toml", None, None, "nothing.here")
