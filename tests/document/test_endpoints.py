"""document/endpoints.py: endpoint paths and their selections are strict where Python slicing is
lenient (a slice past the count, or selecting nothing, is an error naming the count)."""

from __future__ import annotations

import pytest

from infragraph.document.endpoints import Segment, parse_path, select
from tests.helpers import one_diagnostic

WHERE = "edges[3].ep1.component"


def test_a_path_splits_into_segments_with_their_selectors():
    assert parse_path("cx5[0].port[0:48:2]", WHERE) == [Segment("cx5", "0"), Segment("port", "0:48:2")]
    assert parse_path(" xpu ", WHERE) == [Segment("xpu", None)] and str(Segment("port", "1:3")) == "port[1:3]"


@pytest.mark.parametrize("text, message", [
    ("", "empty endpoint; expected 'name' or 'name[slice]'"),
    ("   ", "empty endpoint; expected 'name' or 'name[slice]'"),
    ("cx5[0]..port", "empty segment in endpoint 'cx5[0]..port'; expected 'name[slice]' between dots"),
])
def test_an_empty_path_or_segment_is_located(text, message):
    d = one_diagnostic(parse_path, text, WHERE)
    assert d.message == message and d.location.path == WHERE


@pytest.mark.parametrize("selector, chosen", [
    (None, [0, 1, 2, 3]), (":", [0, 1, 2, 3]), ("0", [0]), ("-1", [3]), (" 2 ", [2]), ("1:3", [1, 2]),
    ("::2", [0, 2]), ("::-1", [3, 2, 1, 0]), ("-4:", [0, 1, 2, 3]), ("0:4", [0, 1, 2, 3]),
])
def test_selections(selector, chosen):
    got = select(Segment("port", selector), 4, WHERE)
    assert got.tolist() == chosen and got.dtype.name == "int64"


@pytest.mark.parametrize("selector, message", [
    ("4", "index 4 out of range for 'port', which has 4 (valid: 0..3, or -4..-1)"),
    ("-5", "index -5 out of range for 'port', which has 4 (valid: 0..3, or -4..-1)"),
    ("0:5", "slice '[0:5]' out of range for 'port', which has 4 (bounds -4..4)"),  # Python: [0, 1, 2, 3]
    ("-5:", "slice '[-5:]' out of range for 'port', which has 4 (bounds -4..4)"),
    ("1:1", "slice '[1:1]' selects no 'port' (it has 4)"),  # Python: []
    ("3:1", "slice '[3:1]' selects no 'port' (it has 4)"),
    ("1:2:0", "slice step cannot be zero in '[1:2:0]' on 'port'"),
    ("x", "bad index '[x]' on 'port'; expected an integer or a slice a:b:c"),
    ("1.5", "bad index '[1.5]' on 'port'; expected an integer or a slice a:b:c"),
    ("1:2:3:4", "bad slice '[1:2:3:4]' on 'port'; expected start:stop or start:stop:step"),
    ("a:2", "bad slice '[a:2]' on 'port'; expected start:stop or start:stop:step"),
])
def test_selections_python_would_truncate_or_refuse_are_located_errors(selector, message):
    d = one_diagnostic(select, Segment("port", selector), 4, WHERE)
    assert d.message == message and d.location.path == WHERE
