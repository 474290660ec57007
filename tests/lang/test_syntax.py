"""The two-stage parse (infragraph.lang.syntax._two_stage): SLL prediction first, LL when it fails.

SLL is only a speed-up: every program of the repository must get the same parse tree as a plain LL
parse, and a program SLL gives up on must still parse (in LL mode) with the LL parse's diagnostics.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from antlr4.error.Errors import ParseCancellationException

from infragraph.errors import InfraGraphError
from infragraph.lang import syntax
from infragraph.lang import ast as A

from .helpers import error

REPO = Path(__file__).resolve().parents[2]
PROGRAMS = sorted(p for d in ("blueprints", "examples", "benchmarks") for p in (REPO / d).rglob("*.igl"))


def _tree(text: str, two_stage: bool) -> str:
    """The ANTLR parse tree of `text` as a string, parsed two-stage or LL only."""
    src = A.Source("t.igl", text)
    parser, collector, stream = syntax._parser(text, src)
    stream.fill()
    tree = syntax._two_stage(parser, parser.program, collector) if two_stage else parser.program()
    assert not collector.diags
    return tree.toStringTree(recog=parser)


def test_the_repository_has_programs_to_compare():
    assert len(PROGRAMS) >= 20 and any(p.name == "stack.igl" for p in PROGRAMS)


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: str(p.relative_to(REPO)))
def test_sll_first_gives_the_ll_parse_tree(path: Path):
    text = path.read_text(encoding="utf-8")
    assert _tree(text, two_stage=True) == _tree(text, two_stage=False)


def test_a_failed_sll_pass_is_parsed_again_in_ll_mode():
    """When the SLL pass gives up (here forced on its first call), the result is the LL parse."""
    text = (REPO / "blueprints" / "fabrics" / "stack.igl").read_text(encoding="utf-8")
    src = A.Source("t.igl", text)
    parser, collector, stream = syntax._parser(text, src)
    stream.fill()
    calls = []

    def rule():
        calls.append(parser._interp.predictionMode)
        if len(calls) == 1:
            stream.seek(7)  # the SLL pass got somewhere before giving up: the LL pass must rewind
            raise ParseCancellationException("forced")
        return parser.program()

    tree = syntax._two_stage(parser, rule, collector)
    assert len(calls) == 2 and calls[0] != calls[1]
    assert not collector.diags
    assert tree.toStringTree(recog=parser) == _tree(text, two_stage=False)


def test_syntax_errors_are_reported_once_by_the_ll_pass():
    """The SLL pass reports nothing (its listeners are off); the diagnostics are the LL pass's."""
    msg = error("device d {\n    component x[2] xpu\n}\n")
    assert msg.count("syntax error") == 1
    assert "t.igl:2:20: error: syntax error: unexpected 'xpu'; expected ':'" in msg


def test_a_bad_define_value_is_still_located():
    with pytest.raises(InfraGraphError) as info:
        syntax.parse_expr("[1, 2", "<-D x>")
    assert "<-D x>:1:" in str(info.value) and "syntax error" in str(info.value)
