"""`infragraph fmt`: canonical layout of .igl source, idempotent and meaning-preserving.

The formatter works on the token stream (so comments survive and the tokens are untouched):
the author's line breaks are kept, but every line is re-indented from the nesting of braces and
brackets (4 spaces), spacing inside a line follows fixed rules (binary operators spaced, no space
inside brackets or before commas, slices tight, `x: int`), runs of blank lines collapse to one,
and quantities are written `400 Gbps`. The program must parse; a syntax error is reported instead.
"""

from __future__ import annotations


from antlr4 import CommonTokenStream, InputStream, Token

from ._generated.InfraGraphLexer import InfraGraphLexer as L
from .syntax import QUANTITY, parse

_KEYWORDS = {L.IMPORT, L.AS, L.PARAM, L.DEVICE, L.FABRIC, L.FN, L.LINK, L.LET, L.ASSERT, L.FOR, L.IN, L.IF,
             L.THEN, L.ELSE, L.COMPONENT, L.INSTANCE, L.ANNOTATE, L.INCLUDE, L.VIA, L.AND, L.OR, L.NOT,
             L.ONE2ONE, L.MANY2MANY, L.RING}
_OPERAND_END = {L.IDENT, L.QIDENT, L.INT, L.FLOAT, L.QUANTITY, L.STRING, L.TRUE, L.FALSE, L.RPAREN, L.RBRACK}
INDENT = "    "


def _text(tok) -> str:
    if tok.type == L.QUANTITY:
        m = QUANTITY.match(tok.text)
        return f"{m.group(1)} {m.group(2)}"
    return tok.text


def _space(prev, cur, unary_prev: bool, brackets: list[int]) -> str:
    """Spacing between two tokens on one line."""
    p, c = prev.type, cur.type
    in_brackets = bool(brackets) and brackets[-1] == L.LBRACK
    if c in (L.COMMENT, L.DOC_COMMENT):
        return "  "
    if p in (L.LPAREN, L.LBRACK, L.DOT) or c in (L.RPAREN, L.RBRACK, L.COMMA, L.SEMI, L.DOT):
        return ""
    if c == L.LPAREN and (p in _OPERAND_END or p == L.LINK):
        return ""
    if c == L.LBRACK and p in _OPERAND_END:
        return ""
    if p == L.DOTDOT or c == L.DOTDOT:
        return ""
    if c == L.COLON:
        return ""
    if p == L.COLON:
        return "" if in_brackets else " "
    if p == L.MINUS and unary_prev:
        return ""
    return " "


def format_source(text: str, filename: str = "<string>") -> str:
    """The canonical form of `text` (raises InfraGraphError when it does not parse)."""
    parse(text, filename)
    lexer = L(InputStream(text))
    lexer.removeErrorListeners()
    stream = CommonTokenStream(lexer)
    stream.fill()
    lines: dict[int, list] = {}
    for tok in stream.tokens:
        if tok.type in (Token.EOF, L.WS):
            continue
        lines.setdefault(tok.line, []).append(tok)
    out: list[str] = []
    depth = 0  # braces
    brackets: list[int] = []  # open ( and [ for continuation lines and slice colons
    last_line = 0
    for line_no in sorted(lines):
        toks = lines[line_no]
        if last_line and line_no - last_line > 1 and out and not out[-1].endswith("{"):
            if toks[0].type != L.RBRACE:
                out.append("")
        level = depth - (1 if toks[0].type == L.RBRACE else 0) + (1 if brackets else 0)
        if toks[0].type in (L.RPAREN, L.RBRACK) and brackets:
            level -= 1
        parts = [INDENT * max(level, 0) + _text(toks[0])]
        prev = toks[0]
        prev_unary = _is_unary(None, prev)
        _track(prev, brackets)
        depth += _brace(prev)
        for tok in toks[1:]:
            parts.append(_space(prev, tok, prev_unary, brackets) + _text(tok))
            prev_unary = _is_unary(prev, tok)
            _track(tok, brackets)
            depth += _brace(tok)
            prev = tok
        out.append("".join(parts).rstrip())
        last_line = prev.line + prev.text.count("\n")
    return "\n".join(out).strip("\n") + "\n"


def _is_unary(prev, tok) -> bool:
    """Whether `tok` is a unary minus (decided by what precedes it)."""
    if tok.type != L.MINUS:
        return False
    return prev is None or prev.type not in _OPERAND_END


def _track(tok, brackets: list[int]) -> None:
    if tok.type in (L.LPAREN, L.LBRACK):
        brackets.append(tok.type)
    elif tok.type in (L.RPAREN, L.RBRACK) and brackets:
        brackets.pop()


def _brace(tok) -> int:
    return 1 if tok.type == L.LBRACE else -1 if tok.type == L.RBRACE else 0
