"""Token-level checks around the parser: what ANTLR reports badly, reported at the culprit.

Run before parsing (cheap, on the token list): nesting deeper than `MAX_NESTING` brackets and
expressions longer than `MAX_CHAIN` operators, which would otherwise exhaust Python's recursion
in the parser or the evaluator and be reported at 1:1. Run after a failed parse: unit typos
(`400 Gbs`, `400G`, `400 Gbit/s`), which ANTLR reports as "unexpected 'latency'" on the next
line, and a `{` that is never closed, which it reports at end of file or at the next declaration.

`strip_comments` shortens the text the Python lexer has to walk (a file of mostly comments
lexes at a few MB/s) while keeping every line and every column of code where it was.
"""

from __future__ import annotations

import re

from antlr4 import Token

from ..errors import Diagnostic
from ..units import unknown_unit_message
from . import ast as A
from ._generated.InfraGraphLexer import InfraGraphLexer as L
from .diagnostics import diagnostic

MAX_NESTING = 128  # ( [ { levels; real programs use fewer than 10
MAX_CHAIN = 256  # binary operators in one expression outside brackets

_OPENERS = {L.LPAREN: L.RPAREN, L.LBRACK: L.RBRACK, L.LBRACE: L.RBRACE}
_BINARY = {L.PLUS, L.MINUS, L.STAR, L.SLASH, L.DSLASH, L.PERCENT, L.POW, L.DOTDOT, L.LT, L.GT, L.LE, L.GE,
           L.EQ, L.NE, L.AND, L.OR, L.IN}
_DECLARATIONS = {L.DEVICE, L.FABRIC, L.FN, L.PARAM, L.IMPORT}
_COMMENT = re.compile(r'("""[\s\S]*?"""|"(?:[^"\\\r\n]|\\.)*")|(?<!#)#(?!#)[^\r\n]*')
_LINE_COMMENT = re.compile(r"^[ \t]*#(?!#)[^\r\n]*", re.M)
_PER_SECOND = ("s", "sec", "second", "seconds")


def strip_comments(text: str) -> str:
    """`text` without its plain `#` comments (strings, docstrings and `##` doc comments kept), so
    lines and the columns of all code stay the same."""
    if "#" not in text:
        return text
    if '"""' not in text:  # no docstring can hold a '#' line: drop whole-line comments at C speed
        text = _LINE_COMMENT.sub("", text)
    return _COMMENT.sub(lambda m: m.group(1) or "", text)


COMPACT_FROM_LINES = 5000  # below this, blank lines cost the lexer nothing worth a line map


def compact(text: str) -> tuple[str, list[int] | None]:
    """The text to lex: comments stripped and, in a long file, blank lines (outside docstrings)
    dropped, with the original line number of each kept line (None when no line was dropped).
    The ANTLR lexer walks whitespace one character at a time, so a file of mostly comments
    otherwise costs seconds per ten MB."""
    stripped = strip_comments(text)
    lines = stripped.split("\n")
    if len(lines) < COMPACT_FROM_LINES:
        return stripped, None
    if '"""' not in stripped:
        line_map = [n for n, line in enumerate(lines, 1) if line.strip()]
    else:
        line_map, in_docstring = [], False
        for number, line in enumerate(lines, 1):
            if in_docstring or line.strip():
                line_map.append(number)
            if line.count('"""') % 2:
                in_docstring = not in_docstring
    kept = "\n".join(lines[n - 1] for n in line_map)
    line_map.append(len(lines) + 1)  # end of file
    return kept, line_map


def _code(tokens: list[Token]) -> list[Token]:
    return [t for t in tokens if t.channel == Token.DEFAULT_CHANNEL and t.type != Token.EOF]


def _pos(src: A.Source, tok: Token) -> A.Pos:
    return A.Pos(src, tok.line, tok.column + 1)


def limits(tokens: list[Token], src: A.Source) -> list[Diagnostic]:
    """Nesting and expression-length limits, located at the token that goes past them."""
    depth, chain = 0, 0
    for tok in _code(tokens):
        t = tok.type
        if t in _OPENERS:
            depth += 1
            chain = 0
            if depth > MAX_NESTING:
                return [diagnostic(f"brackets nested more than {MAX_NESTING} levels deep", _pos(src, tok),
                                   "split the expression with 'let' names")]
        elif t in (L.RPAREN, L.RBRACK, L.RBRACE):
            depth = max(depth - 1, 0)
        elif t in _BINARY:
            chain += 1
            if chain > MAX_CHAIN:
                return [diagnostic(f"expression longer than {MAX_CHAIN} operators", _pos(src, tok),
                                   "add up many terms with sum([...]) or sum(range), or split it with 'let' names")]
        elif t not in (L.INT, L.FLOAT, L.QUANTITY, L.IDENT, L.QIDENT, L.STRING, L.DOT, L.NOT, L.TRUE, L.FALSE):
            chain = 0
    return []


def unit_typos(tokens: list[Token], src: A.Source) -> list[Diagnostic]:
    """A number followed on its line by a word (`400 Gbs`, `400G`), or a quantity glued to more
    letters (`400 GB/sec`, `400 Gbit/s`): never valid syntax, always a unit the lexer did not know."""
    out = []
    code = _code(tokens)
    i = 0
    while i < len(code) - 1:
        tok, nxt = code[i], code[i + 1]
        start, unit, j = None, "", i + 1
        if tok.type in (L.INT, L.FLOAT) and nxt.type == L.IDENT and nxt.line == tok.line:
            start, unit = nxt, nxt.text
        elif tok.type == L.QUANTITY and nxt.start == tok.stop + 1 and nxt.type == L.IDENT:
            start, unit, j = tok, re.sub(r"^[\d_.eE+-]+[ \t]*", "", tok.text), i
        if start is None:
            i += 1
            continue
        while j + 1 < len(code) and code[j + 1].start == code[j].stop + 1 and code[j + 1].type in (L.IDENT, L.SLASH):
            j += 1
            unit += code[j].text
        if start is tok:
            col = tok.column + len(tok.text) - len(re.sub(r"^[\d_.eE+-]+[ \t]*", "", tok.text))
            pos = A.Pos(src, tok.line, col + 1)
        else:
            pos = _pos(src, start)
        out.append(diagnostic(unknown_unit_message(unit), pos))
        i = j + 1
    return out


def per_second_units(tokens: list[Token], src: A.Source) -> list[Diagnostic]:
    """`400 Gbit/s`: parses as 400 Gbit divided by a name `s`; it is a unit the language spells Gbps."""
    code = _code(tokens)
    out = []
    for a, b, c in zip(code, code[1:], code[2:]):
        if (a.type == L.QUANTITY and b.type == L.SLASH and c.type == L.IDENT and c.text in _PER_SECOND
                and b.start == a.stop + 1 and c.start == b.stop + 1):
            unit = re.sub(r"^[\d_.eE+-]+[ \t]*", "", a.text) + "/" + c.text
            col = a.column + len(a.text) - len(re.sub(r"^[\d_.eE+-]+[ \t]*", "", a.text))
            out.append(diagnostic(unknown_unit_message(unit), A.Pos(src, a.line, col + 1)))
    return out


def unclosed_brace(tokens: list[Token], src: A.Source) -> Diagnostic | None:
    """The `{` that is never closed, judged by indentation: a `}` left of the line that opened
    the brace it closes belongs to an outer block, so the brace it was matched with is unclosed."""
    stack: list[tuple[Token, int]] = []
    suspect = None
    next_decl = None
    for tok in _code(tokens):
        if tok.type == L.LBRACE:
            line = src.line(tok.line) or ""
            stack.append((tok, len(line) - len(line.lstrip())))
        elif tok.type == L.RBRACE and stack:
            opened, indent = stack.pop()
            if suspect is None and tok.line != opened.line and tok.column < indent:
                suspect = opened
        elif tok.type in _DECLARATIONS and tok.column == 0 and stack:
            next_decl = tok
            break
    if not stack:
        return None
    opened = suspect or stack[-1][0]
    text = (src.line(opened.line) or "").strip()
    hint = "add the missing '}'"
    if next_decl is not None:
        hint += f" before the {next_decl.text} declaration at line {next_decl.line}"
    return diagnostic(f"'{{' of '{text}' (line {opened.line}) is never closed", _pos(src, opened), hint)
