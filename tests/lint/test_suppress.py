"""lint/suppress.py: a comment naming the rule, on the finding's line or the line above, silences
it; a comment must name what it silences (no bare `ignore`), so a new problem there still shows."""

from __future__ import annotations

import pytest

from infragraph.errors import Location
from infragraph.lint.model import Finding
from infragraph.lint.suppress import clear_cache, is_suppressed, suppressed_ids

TEXT = """\
edges:
- {ep1: a, ep2: b, link: eth}   # infragraph-lint: ignore[IG011]
# infragraph-lint: IGNORE[ig006 , IG007]
- {ep1: c, ep2: d, link: slow}
- {ep1: e, ep2: f, link: eth}   # infragraph-lint: ignore
"""


@pytest.mark.parametrize("line, ids", [
    ("x  # infragraph-lint: ignore[IG011]", {"IG011"}),
    ("#infragraph-lint:ignore[ig006, IG007,]", {"IG006", "IG007"}),  # case and spacing are free
    ("x  # infragraph-lint: ignore", set()),  # bare: not a suppression
    ("x  # infragraph-lint: ignore[]", set()),
    ("x  # ignore[IG011]", set()),
])
def test_suppressed_ids_of_a_line(line, ids):
    assert suppressed_ids(line) == ids


@pytest.fixture
def doc(tmp_path):
    path = tmp_path / "f.yaml"
    path.write_text(TEXT)
    clear_cache()
    yield str(path)
    clear_cache()


@pytest.mark.parametrize("rule, line, silenced", [
    ("IG011", 2, True),  # same line
    ("IG007", 2, False),  # another rule
    ("IG006", 4, True), ("IG007", 4, True),  # the line above
    ("IG006", 5, False),  # two lines below the comment
    ("IG011", 5, False),  # a bare ignore silences nothing
    ("IG011", 1, False),  # a comment on the line below does not reach up
])
def test_a_finding_is_silenced_on_its_line_or_below_the_comment(doc, rule, line, silenced):
    assert is_suppressed(Finding(rule, "m", Location(doc, line, 1))) is silenced


def test_a_finding_without_a_line_or_file_is_never_silenced(doc):
    assert not is_suppressed(Finding("IG011", "m", Location(doc, None, None, "edges[0]")))
    assert not is_suppressed(Finding("IG011", "m", Location(None, 2, 1)))
    assert not is_suppressed(Finding("IG011", "m", Location(doc + ".missing", 2, 1)))
