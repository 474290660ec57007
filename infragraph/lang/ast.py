"""The .igl abstract syntax tree: small dataclasses, each with the source position it came from.

The parse tree ANTLR produces mirrors the grammar's rules; this AST keeps only what elaboration
needs, so the evaluator never touches ANTLR objects and every error can point at a `Pos`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Optional, Union

# The grammar's IDENT token (grammar/InfraGraph.g4): a name .igl writes without backquotes; the
# evaluator checks instance names against it and the decompiler quotes any name that is not one.
IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class Source:
    """One .igl text: its file name and lines (for carets), and how it was reached (import chain)."""

    filename: str
    text: str = field(repr=False)
    chain: tuple[str, ...] = ()  # "imported from main.igl:3:1", innermost first

    def line(self, n: int) -> str | None:
        lines = self.lines
        return lines[n - 1] if 1 <= n <= len(lines) else None

    @cached_property
    def lines(self) -> list[str]:
        """The text split once (a large file's diagnostics each need one line)."""
        return self.text.splitlines()


@dataclass(frozen=True)
class Pos:
    src: Source
    line: int
    col: int  # 1-based

    def __str__(self) -> str:
        return f"{self.src.filename}:{self.line}:{self.col}"


# ------------------------------------------------------------------------------ expressions ----


@dataclass(eq=False)
class Expr:
    pos: Pos


@dataclass(eq=False)
class Literal(Expr):
    value: object  # int | float | str | bool


@dataclass(eq=False)
class QuantityLit(Expr):
    number: float
    unit: str


@dataclass(eq=False)
class Name(Expr):
    id: str


@dataclass(eq=False)
class Member(Expr):
    obj: Expr
    name: str


@dataclass(eq=False)
class AllSel:
    """`[*]`: every item."""


@dataclass(eq=False)
class SliceSel:
    lo: Optional[Expr]
    hi: Optional[Expr]
    step: Optional[Expr]


@dataclass(eq=False)
class OneSel:
    expr: Expr


Selector = Union[AllSel, SliceSel, OneSel]


@dataclass(eq=False)
class Index(Expr):
    obj: Expr
    sel: Selector


@dataclass(eq=False)
class Arg:
    name: Optional[str]
    expr: Expr


@dataclass(eq=False)
class Call(Expr):
    fn: Expr
    args: list[Arg]


@dataclass(eq=False)
class Unary(Expr):
    op: str  # "-" | "not"
    operand: Expr


@dataclass(eq=False)
class Binary(Expr):
    op: str  # + - * / // % ** .. < <= > >= == != in and or
    left: Expr
    right: Expr


@dataclass(eq=False)
class ListLit(Expr):
    items: list[Expr]


@dataclass(eq=False)
class Comprehension(Expr):
    elem: Expr
    var: str
    iter: Expr
    cond: Optional[Expr]


@dataclass(eq=False)
class Cond(Expr):
    cond: Expr
    then: Expr
    other: Expr


# ------------------------------------------------------------------------------- statements ----


@dataclass(eq=False)
class Stmt:
    pos: Pos


@dataclass(eq=False)
class Let(Stmt):
    name: str
    expr: Expr


@dataclass(eq=False)
class Assert(Stmt):
    cond: Expr
    message: Optional[Expr]


@dataclass(eq=False)
class For(Stmt):
    var: str
    iter: Expr
    body: list[Stmt]


@dataclass(eq=False)
class If(Stmt):
    cond: Expr
    then: list[Stmt]
    other: list[Stmt]


@dataclass(eq=False)
class Prop(Stmt):
    """`name = value`: a property (bandwidth, description) or a free attribute of the enclosing body."""

    name: str
    expr: Expr


@dataclass(eq=False)
class ComponentStmt(Stmt):
    name: str
    count: Optional[Expr]
    kind: Expr
    attrs: list[Prop]


@dataclass(eq=False)
class InstanceStmt(Stmt):
    name: str
    count: Optional[Expr]
    device: Expr
    attrs: list[Prop]


@dataclass(eq=False)
class Annotate(Stmt):
    target: Expr
    attrs: list[Prop]


@dataclass(eq=False)
class Include(Stmt):
    fabric: Expr
    alias: Optional[str]


@dataclass(eq=False)
class EdgeStmt(Stmt):
    left: Expr
    right: Expr
    scheme: str  # one2one (default) | many2many | ring
    via: Optional[Expr]


@dataclass(eq=False)
class TypeRef:
    pos: Pos
    name: str


@dataclass(eq=False)
class Param:
    pos: Pos
    name: str
    type: TypeRef
    default: Optional[Expr]
    doc: str = ""
    default_text: str = ""  # the default as written (for `describe`)


@dataclass(eq=False)
class LinkDecl(Stmt):
    name: str
    doc: str
    body: list[Stmt]


@dataclass(eq=False)
class Import(Stmt):
    target: str  # a quoted path ("x.igl") or a dotted module name (std.fabrics.clos)
    is_path: bool
    alias: Optional[str]


@dataclass(eq=False)
class ParamDecl(Stmt):
    param: Param


@dataclass(eq=False)
class DeviceDecl(Stmt):
    name: str
    params: Optional[list[Param]]
    doc: str
    body: list[Stmt]


@dataclass(eq=False)
class FabricDecl(Stmt):
    name: str
    params: Optional[list[Param]]
    doc: str
    body: Optional[list[Stmt]]
    alias: Optional[Expr] = None  # `fabric x = clos(k=16)`


@dataclass(eq=False)
class FnDecl(Stmt):
    name: str
    params: list[Param]
    expr: Expr
    doc: str = ""


@dataclass(eq=False)
class Program:
    src: Source
    doc: str
    items: list[Stmt] = field(default_factory=list)
