"""Front end: .igl text -> AST (`ast.Program`), with syntax errors as located diagnostics.

ANTLR's default listeners print to the console and keep going; here they are replaced by one
that collects `file:line:col` diagnostics naming the unexpected token and what the grammar
expected there, so a syntax error reads like a compiler's and never as a traceback.

Parsing is two-stage (`_two_stage`): SLL prediction first, which is 3-4x faster in a fresh process
(a cold compile of std.fabrics.stack spent most of its time in ANTLR's full-context LL
prediction), then LL only if SLL fails. ANTLR's contract for SLL (PredictionMode.SLL): it returns
the same tree as LL or reports a syntax error; on any SLL failure the input is parsed again in LL
mode with the error listeners attached, so every diagnostic is the LL parse's, as before.
"""

from __future__ import annotations

import inspect
import re

from typing import Callable, TypeVar

from antlr4 import CommonTokenStream, InputStream, Token
from antlr4.atn.PredictionMode import PredictionMode
from antlr4.error.ErrorListener import ErrorListener
from antlr4.error.ErrorStrategy import BailErrorStrategy, DefaultErrorStrategy
from antlr4.error.Errors import ParseCancellationException

from ..errors import Diagnostic, InfraGraphError
from . import ast as A
from ._generated.InfraGraphLexer import InfraGraphLexer
from ._generated.InfraGraphParser import InfraGraphParser as P
from .diagnostics import diagnostic
from .frontcheck import compact, limits, per_second_units, unclosed_brace, unit_typos

MAX_SYNTAX_ERRORS = 10

# How token types read in "expected ..." messages.
_FRIENDLY = {
    "IDENT": "a name",
    "INT": "an integer",
    "FLOAT": "a number",
    "QUANTITY": "a quantity such as 400 Gbps",
    "STRING": "a string",
    "DOCSTRING": "a docstring",
    "EOF": "end of file",
}


def _token_name(ttype: int) -> str:
    if ttype == Token.EOF:
        return "end of file"
    lit = P.literalNames[ttype] if ttype < len(P.literalNames) else "<INVALID>"
    if lit != "<INVALID>":
        return lit.replace("'", "'")
    sym = P.symbolicNames[ttype] if ttype < len(P.symbolicNames) else "?"
    return _FRIENDLY.get(sym, sym.lower())


def _describe_token(tok: Token) -> str:
    if tok.type == Token.EOF:
        return "end of file"
    text = tok.text
    if tok.type == InfraGraphLexer.ERROR_CHAR:
        if text == '"':
            return "unterminated string"
        return f"character '{text}'"
    return f"'{text}'"


class _Collector(ErrorListener):
    """Turns ANTLR's syntax errors into diagnostics with the expected tokens."""

    def __init__(self, src: A.Source):
        self.src = src
        self.diags: list[Diagnostic] = []
        self.line_map: list[int] | None = None  # lexed line -> source line, while lexing a compacted text

    def syntaxError(self, recognizer, offendingSymbol, line, column, msg, e):  # noqa: N802 (ANTLR API)
        if len(self.diags) >= MAX_SYNTAX_ERRORS:
            return
        expected = ""
        if offendingSymbol is not None and isinstance(recognizer, P):
            try:
                names = sorted({_token_name(t) for t in recognizer.getExpectedTokens()} - {'qident'})
            except Exception:  # ANTLR cannot always compute the set after recovery
                names = []
            if names:
                shown = ", ".join(names[:12]) + (", …" if len(names) > 12 else "")
                expected = f"; expected {shown}"
            message = f"syntax error: unexpected {_describe_token(offendingSymbol)}{expected}"
        else:
            message = f"syntax error: {msg}"
        hint = None
        if offendingSymbol is not None and offendingSymbol.text == "//" and "comment" not in message:
            hint = "comments start with '#'; '//' is integer division"
        if self.line_map is not None:
            line = self.line_map[min(line, len(self.line_map)) - 1]
        self.diags.append(diagnostic(message, A.Pos(self.src, line, column + 1), hint))


def _parser(text: str, src: A.Source) -> tuple[P, _Collector, CommonTokenStream]:
    lexer = InfraGraphLexer(InputStream(text))
    collector = _Collector(src)
    lexer.removeErrorListeners()
    lexer.addErrorListener(collector)
    stream = CommonTokenStream(lexer)
    parser = P(stream)
    parser.removeErrorListeners()
    parser.addErrorListener(collector)
    return parser, collector, stream


Tree = TypeVar("Tree")


def _two_stage(parser: P, rule: Callable[[], Tree], collector: _Collector) -> Tree:
    """`rule()` (a start rule of `parser`) parsed with SLL prediction and no error recovery; if that
    fails, rewound and parsed again with full LL prediction, ANTLR's default recovery and `collector`
    listening (the only pass that reports errors, so diagnostics are exactly LL's)."""
    parser.removeErrorListeners()
    parser._interp.predictionMode = PredictionMode.SLL
    parser._errHandler = BailErrorStrategy()
    try:
        return rule()
    except ParseCancellationException:
        pass
    parser.reset()  # rewinds the token stream to its first token
    parser.addErrorListener(collector)
    parser._interp.predictionMode = PredictionMode.LL
    parser._errHandler = DefaultErrorStrategy()
    return rule()


def parse(text: str, filename: str = "<string>", chain: tuple[str, ...] = ()) -> A.Program:
    """Parse a whole .igl program. Raises InfraGraphError with every syntax error found."""
    src = A.Source(filename, text, chain)
    lexed, line_map = compact(text)
    parser, collector, stream = _parser(lexed, src)
    collector.line_map = line_map
    stream.fill()
    collector.line_map = None
    if line_map is not None:
        for tok in stream.tokens:
            tok.line = line_map[min(tok.line, len(line_map)) - 1]
    too_deep = limits(stream.tokens, src)
    if too_deep:
        raise InfraGraphError(collector.diags + too_deep)
    try:
        tree = _two_stage(parser, parser.program, collector)
    except RecursionError:
        raise InfraGraphError(diagnostic("program is nested too deeply to parse", A.Pos(src, 1, 1))) from None
    units = per_second_units(stream.tokens, src)
    if collector.diags:
        raise InfraGraphError(units + _culprits_first(collector.diags, stream.tokens, src))
    if units:
        raise InfraGraphError(units)
    return _Builder(src, stream, lexed).program(tree)


def _culprits_first(diags: list[Diagnostic], tokens, src: A.Source) -> list[Diagnostic]:
    """Syntax errors with their likely cause in front: unit typos and a `{` never closed. Errors
    after the first cause are dropped as its echoes ("unexpected 'latency'", "unexpected end of file")."""
    brace = unclosed_brace(tokens, src)
    causes = unit_typos(tokens, src) + ([brace] if brace else [])
    if not causes:
        return diags
    first = min(d.location.line or 0 for d in causes)
    return sorted(causes, key=lambda d: (d.location.line or 0, d.location.column or 0)) + [
        d for d in diags if (d.location.line or 0) < first]


def parse_expr(text: str, filename: str = "<-D>") -> A.Expr:
    """Parse one expression (a -D value). Raises InfraGraphError when it is not one."""
    src = A.Source(filename, text)
    parser, collector, stream = _parser(text, src)
    stream.fill()
    too_deep = limits(stream.tokens, src)
    if too_deep:
        raise InfraGraphError(too_deep)
    try:
        tree = _two_stage(parser, parser.exprOnly, collector)
    except RecursionError:
        raise InfraGraphError(diagnostic("expression nested too deeply", A.Pos(src, 1, 1))) from None
    if collector.diags:
        raise InfraGraphError(collector.diags)
    return _Builder(src, stream, text).expr(tree.expr())


# A QUANTITY token's text split into its number and its unit ("400Gbps", "1.5 us"); fmt reuses it.
QUANTITY = re.compile(r"^(\d[\d_]*(?:\.\d[\d_]*)?(?:[eE][+-]?\d+)?)[ \t]*(.+)$")
_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def _unquote(text: str) -> str:
    body = text[1:-1]
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), "\\" + m.group(1)), body)


def _docstring(tok) -> str:
    return inspect.cleandoc(tok.getText()[3:-3]) if tok is not None else ""


class _Builder:
    """Parse tree -> AST. One method per grammar rule that matters."""

    def __init__(self, src: A.Source, stream: CommonTokenStream, lexed: str):
        self.src = src
        self.stream = stream
        self.lexed = lexed  # the text the tokens' character offsets index (comments stripped)

    def pos(self, ctx) -> A.Pos:
        tok = ctx.start if hasattr(ctx, "start") else ctx.symbol
        return A.Pos(self.src, tok.line, tok.column + 1)

    def doc_comment(self, ctx) -> str:
        """`##` comments right before the declaration, or trailing on its last line."""
        lines = []
        left = self.stream.getHiddenTokensToLeft(ctx.start.tokenIndex) or []
        i = ctx.start.tokenIndex - 1
        while i >= 0 and self.stream.tokens[i].channel != Token.DEFAULT_CHANNEL:
            i -= 1
        prev_line = self.stream.tokens[i].line if i >= 0 else 0
        for tok in left:
            if tok.text.startswith("##") and tok.line > prev_line:
                lines.append(tok.text[2:].strip())
        right = self.stream.getHiddenTokensToRight(ctx.stop.tokenIndex) or []
        for tok in right:
            if tok.line != ctx.stop.line:
                break
            if tok.text.startswith("##"):
                lines.append(tok.text[2:].strip())
        return "\n".join(lines)

    def text_of(self, ctx) -> str:
        """The source text of a rule, as written."""
        if ctx is None:
            return ""
        return self.lexed[ctx.start.start: ctx.stop.stop + 1]

    @staticmethod
    def name(ctx) -> str:
        text = ctx.getText()
        return text[1:-1] if text.startswith("`") else text

    # -- top level ------------------------------------------------------------------------------
    def program(self, ctx: P.ProgramContext) -> A.Program:
        return A.Program(self.src, _docstring(ctx.DOCSTRING()), [self.top(t) for t in ctx.topItem()])

    def top(self, ctx: P.TopItemContext) -> A.Stmt:
        child = ctx.getChild(0)
        if isinstance(child, P.ImportDeclContext):
            if child.STRING():
                return A.Import(self.pos(child), _unquote(child.STRING().getText()), True,
                                self.name(child.name()) if child.name() else None)
            dotted = ".".join(self.name(n) for n in child.dottedName().name())
            return A.Import(self.pos(child), dotted, False, self.name(child.name()) if child.name() else None)
        if isinstance(child, P.ParamDeclContext):
            p = A.Param(self.pos(child), self.name(child.name()), self.typeref(child.typeName()),
                        self.expr(child.expr()) if child.expr() else None, self.doc_comment(child),
                        self.text_of(child.expr()))
            return A.ParamDecl(p.pos, p)
        if isinstance(child, P.DeviceDeclContext):
            doc, body = self.block(child.block())
            return A.DeviceDecl(self.pos(child), self.name(child.name()), self.params(child.paramList()),
                                doc or self.doc_comment(child), body)
        if isinstance(child, P.FabricBodyContext):
            doc, body = self.block(child.block())
            return A.FabricDecl(self.pos(child), self.name(child.name()), self.params(child.paramList()),
                                doc or self.doc_comment(child), body)
        if isinstance(child, P.FabricAliasContext):
            return A.FabricDecl(self.pos(child), self.name(child.name()), None, self.doc_comment(child), None,
                                self.expr(child.expr()))
        if isinstance(child, P.FnDeclContext):
            return A.FnDecl(self.pos(child), self.name(child.name()), self.params(child.paramList()) or [],
                            self.expr(child.expr()), self.doc_comment(child))
        if isinstance(child, P.LinkDeclContext):
            return self.link(child)
        return self.stmt_of(child)

    def typeref(self, ctx) -> A.TypeRef:
        """`T`, or `list[T]` (a list whose every element is a T) as the one name 'list[T]'."""
        names = [self.name(n) for n in ctx.name()]
        return A.TypeRef(self.pos(ctx), names[0] if len(names) == 1 else f"{names[0]}[{names[1]}]")

    def params(self, ctx) -> list[A.Param] | None:
        if ctx is None:
            return None
        return [
            A.Param(self.pos(p), self.name(p.name()), self.typeref(p.typeName()),
                    self.expr(p.expr()) if p.expr() else None, self.doc_comment(p), self.text_of(p.expr()))
            for p in ctx.param()
        ]

    def block(self, ctx: P.BlockContext) -> tuple[str, list[A.Stmt]]:
        return _docstring(ctx.DOCSTRING()), [self.stmt(s) for s in ctx.stmt()]

    def link(self, ctx: P.LinkDeclContext) -> A.LinkDecl:
        doc, body = self.block(ctx.block())
        return A.LinkDecl(self.pos(ctx), self.name(ctx.name()), doc or self.doc_comment(ctx), body)

    # -- statements -----------------------------------------------------------------------------
    def stmt(self, ctx: P.StmtContext) -> A.Stmt:
        return self.stmt_of(ctx.getChild(0))

    def stmt_of(self, c) -> A.Stmt:
        pos = self.pos(c)
        if isinstance(c, P.LetStmtContext):
            return A.Let(pos, self.name(c.name()), self.expr(c.expr()))
        if isinstance(c, P.AssertStmtContext):
            exprs = c.expr()
            return A.Assert(pos, self.expr(exprs[0]), self.expr(exprs[1]) if len(exprs) > 1 else None)
        if isinstance(c, P.ForStmtContext):
            return A.For(pos, self.name(c.name()), self.expr(c.expr()), self.block(c.block())[1])
        if isinstance(c, P.IfStmtContext):
            blocks = c.block()
            other: list[A.Stmt] = []
            if c.ifStmt() is not None:
                other = [self.stmt_of(c.ifStmt())]
            elif len(blocks) > 1:
                other = self.block(blocks[1])[1]
            return A.If(pos, self.expr(c.expr()), self.block(blocks[0])[1], other)
        if isinstance(c, (P.ComponentStmtContext, P.InstanceStmtContext)):
            exprs = c.expr()
            count = self.expr(exprs[0]) if len(exprs) == 2 else None
            attrs = [self.prop(p) for p in c.attrBlock().propStmt()] if c.attrBlock() else []
            cls = A.ComponentStmt if isinstance(c, P.ComponentStmtContext) else A.InstanceStmt
            return cls(pos, self.name(c.name()), count, self.expr(exprs[-1]), attrs)
        if isinstance(c, P.LinkDeclContext):
            return self.link(c)
        if isinstance(c, P.AnnotateStmtContext):
            attrs = [A.Prop(self.pos(a), self.name(a.name()), self.expr(a.expr())) for a in c.attr()]
            return A.Annotate(pos, self.expr(c.expr()), attrs)
        if isinstance(c, P.IncludeStmtContext):
            return A.Include(pos, self.expr(c.expr()), self.name(c.name()) if c.name() else None)
        if isinstance(c, P.EdgeStmtContext):
            exprs = c.expr()
            via = self.expr(exprs[2]) if len(exprs) > 2 else None
            scheme = c.scheme().getText() if c.scheme() else "one2one"
            return A.EdgeStmt(pos, self.expr(exprs[0]), self.expr(exprs[1]), scheme, via)
        if isinstance(c, P.PropStmtContext):
            return self.prop(c)
        raise AssertionError(f"unhandled statement {type(c).__name__}")

    def prop(self, c) -> A.Prop:
        return A.Prop(self.pos(c), self.name(c.name()), self.expr(c.expr()))

    # -- expressions ----------------------------------------------------------------------------
    def expr(self, c) -> A.Expr:
        pos = self.pos(c)
        if isinstance(c, P.PrimaryExprContext):
            return self.primary(c.primary())
        if isinstance(c, P.MemberExprContext):
            return A.Member(self.pos(c.DOT()), self.expr(c.expr()), self.name(c.name()))
        if isinstance(c, P.IndexExprContext):
            return A.Index(self.pos(c.LBRACK()), self.expr(c.expr()), self.index(c.index()))
        if isinstance(c, P.CallExprContext):
            return A.Call(self.pos(c.LPAREN()), self.expr(c.expr()), self.args(c.args()))
        if isinstance(c, P.NegExprContext):
            return A.Unary(pos, "-", self.expr(c.expr()))
        if isinstance(c, P.NotExprContext):
            return A.Unary(pos, "not", self.expr(c.expr()))
        if isinstance(c, (P.PowExprContext, P.MulExprContext, P.AddExprContext, P.RangeExprContext,
                          P.CmpExprContext, P.AndExprContext, P.OrExprContext)):
            left, right = c.expr()
            op_tok = c.getChild(1)
            op_pos = A.Pos(self.src, op_tok.symbol.line, op_tok.symbol.column + 1)
            return A.Binary(op_pos, op_tok.getText(), self.expr(left), self.expr(right))
        raise AssertionError(f"unhandled expression {type(c).__name__}")

    def args(self, c) -> list[A.Arg]:
        if c is None:
            return []
        return [A.Arg(self.name(a.name()) if a.name() else None, self.expr(a.expr())) for a in c.arg()]

    def primary(self, c) -> A.Expr:
        pos = self.pos(c)
        if isinstance(c, P.IntLitContext):
            return A.Literal(pos, int(c.getText().replace("_", "")))
        if isinstance(c, P.FloatLitContext):
            return A.Literal(pos, float(c.getText().replace("_", "")))
        if isinstance(c, P.QuantityLitContext):
            m = QUANTITY.match(c.getText())
            return A.QuantityLit(pos, float(m.group(1).replace("_", "")), m.group(2))
        if isinstance(c, P.StringLitContext):
            return A.Literal(pos, _unquote(c.getText()))
        if isinstance(c, P.BoolLitContext):
            return A.Literal(pos, c.getText() == "true")
        if isinstance(c, P.NameRefContext):
            return A.Name(pos, self.name(c.name()))
        if isinstance(c, P.LinkCallContext):
            return A.Call(pos, A.Name(pos, "link"), self.args(c.args()))
        if isinstance(c, P.ParenExprContext):
            return self.expr(c.expr())
        if isinstance(c, P.ComprehensionContext):
            exprs = c.expr()
            cond = self.expr(exprs[2]) if len(exprs) > 2 else None
            return A.Comprehension(pos, self.expr(exprs[0]), self.name(c.name()), self.expr(exprs[1]), cond)
        if isinstance(c, P.ListLitContext):
            return A.ListLit(pos, [self.expr(e) for e in c.expr()])
        if isinstance(c, P.CondExprContext):
            a, b, d = c.expr()
            return A.Cond(pos, self.expr(a), self.expr(b), self.expr(d))
        raise AssertionError(f"unhandled primary {type(c).__name__}")

    def index(self, c) -> A.Selector:
        if isinstance(c, P.AllIndexContext):
            return A.AllSel()
        if isinstance(c, P.SliceIndexContext):
            return A.SliceSel(self.expr(c.lo) if c.lo else None, self.expr(c.hi) if c.hi else None,
                              self.expr(c.step) if c.step else None)
        return A.OneSel(self.expr(c.expr()))
