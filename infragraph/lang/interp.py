"""Elaboration: evaluate a parsed program and build the InfraGraph document.

Expressions are evaluated by a small tree-walking evaluator (`eval`), statements are executed
against the body they build (a device, a link or the fabric). Errors are collected per statement,
so one run reports several problems; a statement whose input already failed is skipped silently
(no cascades). Loops, recursion and device nesting are bounded with clear messages.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import product
from typing import Any, Callable

from ..document.model import (Annotations, Component, Device, EdgeAnnotation, Infrastructure, Instance,
                              LinkAnnotation, NodeAnnotation)
from ..errors import Diagnostic, Location, did_you_mean
from ..units import (BANDWIDTH, TIME, Quantity, UnitError, bandwidth_problem, format_quantity, latency_problem,
                     unit, unknown_unit_message)
from . import ast as A
from .builtins import KINDS
from .build import DeviceRegistry, EdgeSink, LinkTable, SourceMap, edges_into, sanitize
from .diagnostics import CompileError, Silent
from .ops import OpError, binary, negate, truth
from .values import (AUTO, POISON, TYPE_NAMES, Builtin, DeviceVal, EdgeSel, EpRef, FabricCall, InstanceSym, Kind,
                     LinkVal, Module, Namespace, Part, Poison, Scope, Seg, Template, conforms, element_type, freeze,
                     a_value, brief, misfit, show, type_of, with_article)

MAX_ERRORS = 20  # errors kept and shown; later ones are only counted ("… N more not shown")
MAX_COUNTED = 10_000  # errors counted before elaboration stops
MAX_STEPS = 2_000_000  # loop iterations + comprehension items + calls, per compile
MAX_CALL_DEPTH = 64
MAX_DEVICE_DEPTH = 16


class TooMany(Exception):
    """Stop elaborating: enough errors were found (or one that makes going on pointless)."""


@dataclass
class Body:
    """What a block of statements is building."""

    kind: str  # "module" | "device" | "fabric" | "link"
    scope: Scope  # where components/instances/links declared in the body are bound
    props: dict[str, tuple[Any, A.Pos]] = field(default_factory=dict)
    device: DeviceVal | None = None
    sink: EdgeSink | None = None
    links: LinkTable | None = None
    fabric: "FabricBuild | None" = None
    prefix: str = ""  # instance-name prefix inside `include ... as p`
    local_map: list[tuple[str, A.Pos]] = field(default_factory=list)
    # graph attributes of the fabrics this body includes: name -> one value per include stating it
    included: dict[str, list[Any]] = field(default_factory=dict)


@dataclass
class FabricBuild:
    """The infrastructure being built by the root fabric (and everything it includes)."""

    instances: list[Instance] = field(default_factory=list)
    inst_vals: list[tuple[Instance, DeviceVal, dict[str, Any]]] = field(default_factory=list)
    names: set[str] = field(default_factory=set)
    sink: EdgeSink = field(default_factory=EdgeSink)
    links: LinkTable = field(default_factory=LinkTable)
    annotations: Annotations = field(default_factory=Annotations)
    link_pos: dict[str, A.Pos] = field(default_factory=dict)


_VALID_PROPS = {
    "link": ("bandwidth", "latency", "description"),
    "device": ("description",),
    "fabric": ("description",),
}


class Interp:
    def __init__(self, import_module: Callable[[A.Import, Scope], Module]):
        self.import_module = import_module
        self.diags: list[Diagnostic] = []
        self.seen: set[tuple] = set()
        self.more = 0  # errors found beyond MAX_ERRORS (counted, not kept)
        self.stack: list[str] = []  # "in device 'leaf(radix=32)' instantiated at f:3:5"
        self.steps = 0
        self.depth = 0
        self.device_depth = 0
        self.devices = DeviceRegistry()
        self.device_memo: dict[tuple, DeviceVal] = {}
        self.in_progress: set[tuple] = set()
        self._eval: dict[type, Callable] = {
            A.Literal: self._literal,
            A.QuantityLit: self._quantity,
            A.Name: self._name,
            A.Member: self._member,
            A.Index: self._index,
            A.Call: self._call,
            A.Unary: self._unary,
            A.Binary: self._binary,
            A.ListLit: lambda e, s: [self.eval(x, s) for x in e.items],
            A.Comprehension: self._comprehension,
            A.Cond: lambda e, s: self.eval(e.then if self._truth(e.cond, s, "an 'if' condition") else e.other, s),
        }
        self._exec: dict[type, Callable] = {
            A.Let: self._let,
            A.Assert: self._assert,
            A.For: self._for,
            A.If: self._if,
            A.Prop: self._prop,
            A.ComponentStmt: self._component,
            A.InstanceStmt: self._instance,
            A.LinkDecl: self._link_decl,
            A.Annotate: self._annotate,
            A.Include: self._include,
            A.EdgeStmt: self._edge,
        }

    # ---------------------------------------------------------------------------- errors ----
    def report(self, err: CompileError) -> None:
        key = (err.pos.src.filename, err.pos.line, err.pos.col, err.message)
        if key in self.seen:
            return
        self.seen.add(key)
        if len(self.diags) >= MAX_ERRORS:
            self.more += 1
            if self.more >= MAX_COUNTED:
                raise TooMany()
            return
        notes = tuple(reversed(self.stack[-3:])) + err.notes
        self.diags.append(CompileError(err.message, err.pos, err.hint, notes).diagnostic())

    def more_note(self) -> list[Diagnostic]:
        """The note that says how many errors were found beyond the ones kept (none when none were)."""
        if not self.more:
            return []
        counted = f"{self.more:,}" if self.more < MAX_COUNTED else f"at least {self.more:,}"
        return [Diagnostic(f"{counted} more error(s) not shown (the first {len(self.diags)} are above)",
                           Location(self.diags[0].location.file) if self.diags else Location(), severity="note")]

    def tick(self, pos: A.Pos, n: int = 1) -> None:
        self.steps += n
        if self.steps > MAX_STEPS:
            self.report(CompileError(
                f"evaluation budget exceeded ({MAX_STEPS:,} loop iterations, list items and calls)", pos,
                "is a range much larger than intended? Prefer slices (a[0:n]) to loops over single items"))
            raise TooMany()

    # ------------------------------------------------------------------------ expressions ----
    def eval(self, e: A.Expr, scope: Scope) -> Any:
        return self._eval[type(e)](e, scope)

    @staticmethod
    def _literal(e: A.Literal, scope: Scope) -> Any:
        if isinstance(e.value, float) and not math.isfinite(e.value):
            raise CompileError("number too large (it overflows a 64-bit float to infinity)", e.pos)
        return e.value

    def _quantity(self, e: A.QuantityLit, scope: Scope) -> Any:
        try:
            u = unit(e.unit)
        except UnitError:
            raise CompileError(unknown_unit_message(e.unit), e.pos) from None
        value = e.number * u.value
        if not math.isfinite(value):
            raise CompileError(f"quantity too large: the number before '{e.unit}' overflows a 64-bit float "
                               "to infinity", e.pos)
        return Quantity(value, u.dim)

    def _name(self, e: A.Name, scope: Scope) -> Any:
        found, v = scope.lookup(e.id)
        if not found:
            raise CompileError(f"undefined name '{e.id}'", e.pos, did_you_mean(e.id, scope.names()))
        if isinstance(v, Poison):
            raise Silent()
        if isinstance(v, InstanceSym):
            return EpRef("fabric", (Seg(v.local, v.docname, v.count, None, v.device),))
        if isinstance(v, Part):
            return EpRef("device", (Seg(v.local, v.docname, v.count, None, v.device),))
        return v

    def _member(self, e: A.Member, scope: Scope) -> Any:
        obj = self.eval(e.obj, scope)
        if isinstance(obj, EpRef):
            last = obj.segs[-1]
            if last.device is None:
                raise CompileError(f"'{obj}' is a leaf component; it has no component '{e.name}'", e.pos)
            part = last.device.part(e.name)
            if part is None:
                raise CompileError(
                    f"device '{last.device.label}' has no component '{e.name}'; it has: "
                    f"{', '.join(last.device.parts) or '(none)'}", e.pos, did_you_mean(e.name, last.device.parts))
            return EpRef(obj.level, obj.segs + (Seg(part.local, part.docname, part.count, None, part.device),))
        if isinstance(obj, Module):
            found, v = obj.scope.lookup(e.name) if e.name in obj.scope.vars else (False, None)
            if not found:
                raise CompileError(f"module '{obj.name}' has no '{e.name}'", e.pos,
                                   did_you_mean(e.name, obj.scope.vars))
            return v
        if isinstance(obj, Namespace):
            if e.name not in obj.names:
                raise CompileError(f"'{obj.label}' has no instance '{e.name}'", e.pos, did_you_mean(e.name, obj.names))
            v = obj.names[e.name]
            return EpRef("fabric", (Seg(v.local, v.docname, v.count, None, v.device),))
        if isinstance(obj, LinkVal) and e.name in ("bandwidth", "latency", "name", "description"):
            v = getattr(obj, e.name)
            if v is None:
                raise CompileError(f"link '{brief(obj)}' has no {e.name}", e.pos)
            return v
        raise CompileError(f"a {type_of(obj)} has no attribute '{e.name}'", e.pos)

    def _selection(self, e: A.Index, seg: Seg, scope: Scope) -> Any:
        sel, n, what = e.sel, seg.count, f"'{seg.label}'"
        if isinstance(sel, A.AllSel):
            return None
        if isinstance(sel, A.OneSel):
            v = self.eval(sel.expr, scope)
            if isinstance(v, range):
                r = v
                if r.step <= 0 or len(r) == 0 or r.start < 0 or r[-1] >= n:
                    raise CompileError(f"range {brief(v)} does not fit {what}, which has {n} (valid 0..{n})", e.pos)
                return (r.start, r[-1] + 1, r.step)
            if isinstance(v, bool) or not isinstance(v, int):
                raise CompileError(f"an index must be an int, a range or a slice, got {type_of(v)}", e.pos)
            if not -n <= v < n:
                raise CompileError(f"index {v} out of range for {what}, which has {n} (valid: 0..{n - 1})", e.pos)
            return v % n
        parts = []
        for x in (sel.lo, sel.hi, sel.step):
            v = None if x is None else self.eval(x, scope)
            if v is not None and (isinstance(v, bool) or not isinstance(v, int)):
                raise CompileError(f"slice bounds must be ints, got {type_of(v)}", e.pos)
            parts.append(v)
        lo, hi, step = parts
        if step is not None and step <= 0:
            raise CompileError(f"slice step must be positive, got {step}", e.pos)
        for b in (lo, hi):
            if b is not None and not -n <= b <= n:
                raise CompileError(f"slice [{_txt(lo)}:{_txt(hi)}] out of range for {what}, which has {n}", e.pos)
        r = range(n)[slice(lo, hi, step)]
        if len(r) == 0:
            raise CompileError(f"slice [{_txt(lo)}:{_txt(hi)}] selects nothing from {what} (it has {n})", e.pos)
        if r.start == 0 and r.step == 1 and len(r) == n:
            return None
        return (r.start, r[-1] + 1, r.step)

    def _index(self, e: A.Index, scope: Scope) -> Any:
        obj = self.eval(e.obj, scope)
        if isinstance(obj, EpRef):
            last = obj.segs[-1]
            if last.sel is not None:
                raise CompileError(f"'{obj}' is already indexed; select a component with '.name'", e.pos)
            sel = self._selection(e, last, scope)
            new = Seg(last.label, last.docname, last.count, sel, last.device)
            return EpRef(obj.level, obj.segs[:-1] + (new,))
        if isinstance(obj, (list, str, range)):
            if isinstance(e.sel, A.OneSel):
                i = self.eval(e.sel.expr, scope)
                if isinstance(i, bool) or not isinstance(i, int):
                    raise CompileError(f"a {type_of(obj)} index must be an int, got {type_of(i)}", e.pos)
                if not -len(obj) <= i < len(obj):
                    raise CompileError(f"index {i} out of range for a {type_of(obj)} of length {len(obj)}", e.pos)
                return obj[i]
            if isinstance(e.sel, A.SliceSel):
                b = [None if x is None else self.eval(x, scope) for x in (e.sel.lo, e.sel.hi, e.sel.step)]
                if any(v is not None and (isinstance(v, bool) or not isinstance(v, int)) for v in b) or b[2] == 0:
                    raise CompileError("slice bounds must be ints (and the step not zero)", e.pos)
                return obj[slice(*b)]
            return obj
        raise CompileError(f"a {type_of(obj)} cannot be indexed", e.pos)

    def _unary(self, e: A.Unary, scope: Scope) -> Any:
        v = self.eval(e.operand, scope)
        if e.op == "not":
            return not self._truth_value(v, e.pos, "the operand of 'not'")
        try:
            return negate(v)
        except OpError as err:
            raise CompileError(err.message, e.pos, err.hint) from None

    def _binary(self, e: A.Binary, scope: Scope) -> Any:
        if e.op in ("and", "or"):
            a = self._truth(e.left, scope, f"the left side of '{e.op}'")
            if (e.op == "and" and not a) or (e.op == "or" and a):
                return a
            return self._truth(e.right, scope, f"the right side of '{e.op}'")
        a, b = self.eval(e.left, scope), self.eval(e.right, scope)
        try:
            return binary(e.op, a, b)
        except OpError as err:
            raise CompileError(err.message, e.pos, err.hint) from None

    def _truth(self, e: A.Expr, scope: Scope, what: str) -> bool:
        return self._truth_value(self.eval(e, scope), e.pos, what)

    @staticmethod
    def _truth_value(v: Any, pos: A.Pos, what: str) -> bool:
        try:
            return truth(v, what)
        except OpError as err:
            raise CompileError(err.message, pos, err.hint) from None

    def _iterable(self, e: A.Expr, scope: Scope) -> Any:
        v = self.eval(e, scope)
        if isinstance(v, (range, list, str)):
            return v
        raise CompileError(f"can only loop over a range, list or string, got {type_of(v)}", e.pos,
                           "write a range as 0..n" if isinstance(v, int) else None)

    def _comprehension(self, e: A.Comprehension, scope: Scope) -> list:
        out = []
        items = self._iterable(e.iter, scope)
        self.tick(e.pos, len(items))  # every item is visited: charge them up front
        for x in items:
            inner = Scope(scope)
            inner.vars[e.var] = x
            if e.cond is None or self._truth(e.cond, inner, "a comprehension's 'if' condition"):
                out.append(self.eval(e.elem, inner))
        return out

    # ------------------------------------------------------------------------------ calls ----
    def _call(self, e: A.Call, scope: Scope) -> Any:
        fn = self.eval(e.fn, scope)
        pos_args = []
        kw: dict[str, tuple[Any, A.Pos]] = {}
        for a in e.args:
            v = self.eval(a.expr, scope)
            if a.name is None:
                if kw:
                    raise CompileError("a positional argument cannot follow a named one", a.expr.pos)
                pos_args.append((v, a.expr.pos))
            elif a.name in kw:
                raise CompileError(f"argument '{a.name}' given twice", a.expr.pos)
            else:
                kw[a.name] = (v, a.expr.pos)
        if isinstance(fn, Builtin):
            # A builtin walks its list, range or string arguments (`sum(0..10**12)`): each item is a step.
            self.tick(e.pos, 1 if fn.name == "len" else 1 + sum(
                len(v) for v, _ in [*pos_args, *kw.values()] if isinstance(v, (list, range, str))))
            try:
                return fn.fn(*[v for v, _ in pos_args], **{k: v for k, (v, _) in kw.items()})
            except OpError as err:
                said = err.message if err.message.startswith(f"{fn.name}(") else f"{fn.name}(): {err.message}"
                raise CompileError(said, e.pos, err.hint) from None
            except TypeError:
                raise CompileError(f"wrong arguments to {fn.name}()", e.pos, f"usage: {fn.doc}") from None
        if isinstance(fn, Template):
            args = self.bind(fn, pos_args, kw, e.pos)
            if fn.what == "fn":
                return self.call_fn(fn, args, e.pos)
            if fn.what == "device":
                return self.instantiate(fn, args, e.pos)
            return FabricCall(fn, args)
        raise CompileError(f"a {type_of(fn)} is not callable", e.pos)

    def bind(self, t: Template, pos_args: list, kw: dict, pos: A.Pos) -> dict[str, Any]:
        """Match arguments to a template's typed parameters, filling defaults; type-check each."""
        params = t.params
        what = f"{t.what if t.what != 'fn' else 'function'} '{t.name}'"
        if len(pos_args) > len(params):
            raise CompileError(f"{what} takes {len(params)} argument(s), got {len(pos_args)}", pos,
                               f"parameters: {_signature(params)}")
        names = [p.name for p in params]
        for k, (_, kpos) in kw.items():
            if k not in names:
                raise CompileError(f"{what} has no parameter '{k}'", kpos,
                                   did_you_mean(k, names) or f"parameters: {_signature(params)}")
        scope = Scope(t.scope)
        out: dict[str, Any] = {}
        for i, p in enumerate(params):
            if i < len(pos_args):
                v, vpos = pos_args[i]
                if p.name in kw:
                    raise CompileError(f"argument '{p.name}' of {what} given twice", kw[p.name][1])
            elif p.name in kw:
                v, vpos = kw[p.name]
            elif p.default is not None:
                v, vpos = self.eval(p.default, scope), p.default.pos
            else:
                raise CompileError(f"{what} needs argument '{p.name}: {p.type.name}'", pos,
                                   f"parameters: {_signature(params)}")
            out[p.name] = scope.vars[p.name] = self.check_type(v, p, vpos, what)
        return out

    def check_type(self, v: Any, p: A.Param, pos: A.Pos, what: str) -> Any:
        elem = element_type(p.type.name)
        if p.type.name not in TYPE_NAMES and (elem is None or elem not in TYPE_NAMES):
            name = p.type.name if elem is None else elem
            raise CompileError(f"unknown type '{name}' for parameter '{p.name}'", p.type.pos,
                               did_you_mean(name, TYPE_NAMES) or f"types: {', '.join(TYPE_NAMES)}, list[TYPE]")
        ok, conv = conforms(v, p.type.name)
        if not ok:
            i = misfit(v, p.type.name)
            if i is not None:  # a list whose element i has the wrong type or unit
                raise CompileError(f"parameter '{p.name}' of {what} must be a list of {elem} values, but element "
                                   f"[{i}] is {a_value(v[i])}", pos)
            raise CompileError(f"parameter '{p.name}' of {what} must be {with_article(p.type.name)}, "
                               f"got {a_value(v)}", pos)
        return conv

    def call_fn(self, t: Template, args: dict[str, Any], pos: A.Pos) -> Any:
        self.tick(pos)
        if self.depth >= MAX_CALL_DEPTH:
            raise CompileError(f"recursion deeper than {MAX_CALL_DEPTH} calls in function '{t.name}'", pos,
                               "does the recursion have a base case that is reached?")
        scope = Scope(t.scope)
        scope.vars.update(args)
        self.depth += 1
        self.stack.append(f"in function '{t.name}' called at {pos}")
        try:
            return self.eval(t.decl.expr, scope)
        finally:
            self.depth -= 1
            self.stack.pop()

    # ---------------------------------------------------------------------------- devices ----
    def as_device(self, v: Any, pos: A.Pos) -> DeviceVal:
        if isinstance(v, DeviceVal):
            return v
        if isinstance(v, Template) and v.what == "device":
            return self.instantiate(v, self.bind(v, [], {}, pos), pos)
        raise CompileError(f"expected a device, got {a_value(v)}", pos)

    def instantiate(self, t: Template, args: dict[str, Any], pos: A.Pos) -> DeviceVal:
        """The device `t(args)`: elaborated once per distinct argument list."""
        key = (id(t),) + tuple(freeze(args[p.name]) for p in t.params)
        if key in self.device_memo:
            return self.device_memo[key]
        changed = [(p, args[p.name]) for p in t.params if p.default is None or
                   freeze(args[p.name]) != freeze(self._default(t, p, args))]
        label = t.name + (f"({', '.join(f'{p.name}={show(v)}' for p, v in changed)})" if changed else "")
        if key in self.in_progress:
            raise CompileError(f"device '{label}' contains itself", pos)
        if self.device_depth >= MAX_DEVICE_DEPTH:
            raise CompileError(f"devices nested deeper than {MAX_DEVICE_DEPTH} levels (at '{label}')", pos,
                               "is a recursive device missing its base case?")
        base = t.name + "".join(f"-{p.name}{sanitize(show(v))}" for p, v in changed)
        dv = DeviceVal(t, label, base, doc=Device(name=base, description=t.decl.doc))
        scope = Scope(t.scope)
        scope.vars.update(args)
        body = Body("device", scope, device=dv, sink=EdgeSink(), links=LinkTable())
        self.in_progress.add(key)
        self.device_depth += 1
        self.stack.append(f"in device '{label}' instantiated at {pos}")
        try:
            self.exec_block(t.decl.body, scope, body)
        finally:
            self.stack.pop()
            self.device_depth -= 1
            self.in_progress.discard(key)
        smap = body.local_map
        dv.doc.components = [
            Component(p.docname, p.count, "device" if p.device else p.kind.choice,
                      str(p.attrs.get("description", "")), p.kind.custom_type if p.kind else None)
            for p in dv.parts.values()
        ]
        dv.doc.links = body.links.links
        dv.link_table = body.links
        tmp = SourceMap()
        dv.doc.edges = edges_into(body.sink, tmp, "")
        smap.extend(tmp.paths.items())
        if "description" in body.props:
            dv.doc.description = str(body.props["description"][0])
        dv.attrs = {k: v for k, (v, _) in body.props.items() if k != "description"}
        smap.append(("", t.decl.pos))
        self.devices.local_maps[id(dv)] = [(f".{p}" if p else "", q) for p, q in smap]
        self.device_memo[key] = dv
        return dv

    def _default(self, t: Template, p: A.Param, args: dict[str, Any]) -> Any:
        scope = Scope(t.scope)
        scope.vars.update(args)
        try:
            return self.eval(p.default, scope)
        except (CompileError, Silent):
            return None

    # -------------------------------------------------------------------------- statements ----
    def exec_block(self, stmts: list[A.Stmt], scope: Scope, body: Body) -> bool:
        """Run statements, reporting each failing one; True when all succeeded.

        A failed `assert` guards what follows it: the asserts that stand next to it are still
        checked (so every broken parameter is reported), but the block stops at the next other
        statement instead of reporting errors that only follow from the broken precondition."""
        ok = True
        assert_failed = False
        for st in stmts:
            if assert_failed and not isinstance(st, A.Assert):
                return False
            try:
                self._exec[type(st)](st, scope, body)
            except CompileError as err:
                ok = False
                assert_failed = assert_failed or isinstance(st, A.Assert)
                self.report(err)
                self._poison(st, body)
            except Silent:
                ok = False
                self._poison(st, body)
        return ok

    @staticmethod
    def _poison(st: A.Stmt, body: Body) -> None:
        if isinstance(st, (A.ComponentStmt, A.InstanceStmt, A.LinkDecl)):
            body.scope.vars.setdefault(st.name, POISON)

    def _let(self, st: A.Let, scope: Scope, body: Body) -> None:
        if st.name in scope.vars and not isinstance(scope.vars[st.name], Poison):
            raise CompileError(f"'{st.name}' is already defined in this scope", st.pos,
                               "use another name (values are immutable)")
        scope.vars[st.name] = POISON
        scope.vars[st.name] = self.eval(st.expr, scope)

    def _assert(self, st: A.Assert, scope: Scope, body: Body) -> None:
        if not self._truth(st.cond, scope, "an assert condition"):
            msg = "assertion failed"
            if st.message is not None:
                m = self.eval(st.message, scope)
                msg += ": " + (m if isinstance(m, str) else brief(m))
            raise CompileError(msg, st.pos)

    def _for(self, st: A.For, scope: Scope, body: Body) -> None:
        items = self._iterable(st.iter, scope)
        self.tick(st.pos, len(items))  # every iteration runs: charge them up front
        for x in items:
            inner = Scope(scope)
            inner.vars[st.var] = x
            if not self.exec_block(st.body, inner, body):
                raise Silent()  # one report per loop, not one per iteration

    def _if(self, st: A.If, scope: Scope, body: Body) -> None:
        branch = st.then if self._truth(st.cond, scope, "an 'if' condition") else st.other
        if not self.exec_block(branch, Scope(scope), body):
            raise Silent()

    def _prop(self, st: A.Prop, scope: Scope, body: Body) -> None:
        if body.kind == "module":
            raise CompileError(f"'{st.name} = ...' sets an attribute, which needs a link, device or fabric body",
                               st.pos, f"to define a variable write 'let {st.name} = ...'")
        if st.name in body.props:
            raise CompileError(f"'{st.name}' is set twice (first at {body.props[st.name][1]})", st.pos)
        v = self.eval(st.expr, scope)
        if st.name == "bandwidth" and body.kind == "link":
            if not (isinstance(v, Quantity) and v.dim == BANDWIDTH):
                raise CompileError(f"bandwidth must be a bandwidth such as 400 Gbps, got {a_value(v)}",
                                   st.expr.pos)
            _in_range(bandwidth_problem(v.value, show(v)), st.expr.pos)
        elif st.name == "latency" and body.kind == "link":
            if not (isinstance(v, Quantity) and v.dim == TIME):
                raise CompileError(f"latency must be a time such as 500 ns, got {a_value(v)}",
                                   st.expr.pos)
            _in_range(latency_problem(v.value, show(v)), st.expr.pos)
        elif st.name == "description":
            if not isinstance(v, str):
                raise CompileError(f"description must be a string, got {type_of(v)}", st.expr.pos)
        else:
            v = _attr_value(v, st.expr.pos)
        body.props[st.name] = (v, st.pos)

    def _need(self, body: Body, kind: str, st: A.Stmt, what: str) -> None:
        if body.kind != kind:
            raise CompileError(f"{what} belongs in a {kind} body, not in a {body.kind}" +
                               (" (top level)" if body.kind == "module" else ""), st.pos)

    def _count(self, e: A.Expr | None, scope: Scope, what: str) -> int:
        if e is None:
            return 1
        n = self.eval(e, scope)
        if isinstance(n, bool) or not isinstance(n, int):
            raise CompileError(f"the count of {what} must be an int, got {a_value(n)}", e.pos)
        if n < 1:
            raise CompileError(f"the count of {what} must be at least 1, got {n}", e.pos)
        return n

    def _declare(self, body: Body, name: str, st: A.Stmt) -> None:
        if name in body.scope.vars and not isinstance(body.scope.vars[name], Poison):
            raise CompileError(f"'{name}' is already defined in this {body.kind}", st.pos)

    def _component(self, st: A.ComponentStmt, scope: Scope, body: Body) -> None:
        self._need(body, "device", st, "a component")
        self._declare(body, st.name, st)
        count = self._count(st.count, scope, f"component '{st.name}'")
        if isinstance(st.kind, A.Name) and st.kind.id in KINDS:
            kind = KINDS[st.kind.id]  # a kind name always means the kind here, even if a device shadows it
        else:
            kind = self.eval(st.kind, scope)
        dv = body.device
        part = Part(st.name, count, pos=st.pos)
        if isinstance(kind, Kind):
            part.kind, part.docname = kind, st.name
        else:
            if isinstance(kind, Template) and kind.what == "device" or isinstance(kind, DeviceVal):
                nested = self.as_device(kind, st.kind.pos)
            else:
                raise CompileError(
                    f"a component is a kind (xpu, nic, cpu, memory, port, switch, custom(\"...\")) or a device, "
                    f"got {a_value(kind)}", st.kind.pos)
            part.device, part.docname = nested, self.devices.name(nested, st.name)
        for other in dv.parts.values():
            if other.docname == part.docname:
                raise CompileError(
                    f"component '{st.name}' would be named '{part.docname}' in the document, like component "
                    f"'{other.local}'", st.pos, "a device can nest another device only once; use an array")
        for a in st.attrs:
            v = self.eval(a.expr, scope)
            part.attrs[a.name] = v if a.name == "description" else _attr_value(v, a.expr.pos)
        body.local_map.append((f"components[{len(dv.parts)}]", st.pos))
        dv.parts[st.name] = part
        body.scope.vars[st.name] = part

    def _instance(self, st: A.InstanceStmt, scope: Scope, body: Body) -> None:
        """An instance array. `{ name = EXPR }` gives it a computed document name (one array per
        loop iteration, such as a switch array per dimension); its symbol is then bound in the
        enclosing block only, since the same symbol names another array in the next iteration."""
        self._need(body, "fabric", st, "an instance")
        named = next((a for a in st.attrs if a.name == "name"), None)
        if named is None:
            self._declare(body, st.name, st)
            local = st.name
        else:
            if st.name in scope.vars and not isinstance(scope.vars[st.name], Poison):
                raise CompileError(f"'{st.name}' is already defined in this block", st.pos)
            local = self._instance_name(self.eval(named.expr, scope), named.expr.pos)
        count = self._count(st.count, scope, f"instance '{st.name}'")
        dv = self.as_device(self.eval(st.device, scope), st.device.pos)
        fb = body.fabric
        docname = body.prefix + local
        if docname in fb.names:
            raise CompileError(f"instance name '{docname}' is used twice", st.pos)
        fb.names.add(docname)
        self.devices.name(dv)
        inst = Instance(docname, dv.docname, count)
        attrs = {}
        for a in st.attrs:
            if a is named:
                continue
            v = self.eval(a.expr, scope)
            if a.name == "description":
                inst.description = str(v)
            else:
                attrs[a.name] = _attr_value(v, a.expr.pos)
        self.devices.smap.add(f"instances[{len(fb.instances)}]", st.pos)
        fb.instances.append(inst)
        fb.inst_vals.append((inst, dv, attrs))
        (body.scope if named is None else scope).vars[st.name] = InstanceSym(st.name, docname, count, dv)

    @staticmethod
    def _instance_name(v: Any, pos: A.Pos) -> str:
        """A computed instance name: a string usable in endpoints (`name[i].port[j]`)."""
        if not isinstance(v, str) or not A.IDENTIFIER.fullmatch(v):
            got = brief(v) if isinstance(v, str) else a_value(v)
            raise CompileError(f"an instance name must be a string of letters, digits and '_' not starting with a "
                               f"digit (it is used in endpoints such as name[0].port[1]), got {got}", pos)
        return v

    def link_value(self, st: A.LinkDecl, scope: Scope) -> LinkVal:
        inner = Scope(scope)
        body = Body("link", inner)
        if not self.exec_block(st.body, inner, body):
            raise Silent()
        props = {k: v for k, (v, _) in body.props.items()}
        attrs = tuple(sorted((k, v) for k, v in props.items() if k not in _VALID_PROPS["link"]))
        return LinkVal(st.name, props.get("bandwidth"), props.get("latency"),
                       props.get("description", st.doc), attrs)

    def _link_decl(self, st: A.LinkDecl, scope: Scope, body: Body) -> None:
        if body.kind == "link":
            raise CompileError("a link cannot contain a link", st.pos)
        self._declare(body, st.name, st)
        link = self.link_value(st, scope)
        body.scope.vars[st.name] = link
        if body.kind == "fabric":
            body.fabric.link_pos.setdefault(st.name, st.pos)

    def _endpoint(self, e: A.Expr, scope: Scope, body: Body) -> EpRef:
        v = self.eval(e, scope)
        if not isinstance(v, EpRef):
            raise CompileError(f"an edge endpoint must be a component or instance (like sw[0].port[1]), "
                               f"got {a_value(v)}", e.pos)
        if body.kind == "fabric" and v.level == "device":
            raise CompileError(f"'{v}' is a component of a device; in a fabric, start from an instance", e.pos)
        if body.kind == "device" and v.level == "fabric":
            raise CompileError(f"'{v}' is an instance; inside a device, connect its components", e.pos)
        last = v.segs[-1]
        if last.device is not None:
            leaf = last.device.single_leaf()
            if leaf is None:
                raise CompileError(f"'{v}' is a device ({last.device.label}); name one of its components: "
                                   f"{', '.join(last.device.parts) or '(none)'}", e.pos)
            v = EpRef(v.level, v.segs + (Seg(leaf.local, leaf.docname, leaf.count, None, None),))
        return v

    def _edge(self, st: A.EdgeStmt, scope: Scope, body: Body) -> None:
        if body.kind not in ("device", "fabric"):
            raise CompileError("edges belong in a device or fabric body", st.pos)
        a = self._endpoint(st.left, scope, body)
        b = self._endpoint(st.right, scope, body)
        if st.scheme in ("one2one", "ring") and a.count() != b.count():
            raise CompileError(
                f"{st.scheme} needs the same number of endpoints on both sides: '{a}' has {a.count()}, "
                f"'{b}' has {b.count()}", st.pos,
                "adjust the slices, or use many2many to connect every pair" if st.scheme == "one2one" else None)
        if st.via is None:
            raise CompileError("an edge needs a link: add 'via NAME' (a declared link) or 'via link(400 Gbps, 500 ns)'",
                               st.pos)
        link = self.eval(st.via, scope)
        if not isinstance(link, LinkVal):
            raise CompileError(f"'via' needs a link, got {a_value(link)}", st.via.pos)
        table = body.links if body.kind == "device" else body.fabric.links
        name = table.name_of(link)
        body.sink.add(id(st), a, b, name, st.scheme, (st.pos, st.left.pos, st.right.pos))

    def _annotate(self, st: A.Annotate, scope: Scope, body: Body) -> None:
        self._need(body, "fabric", st, "'annotate'")
        target = self.eval(st.target, scope)
        if isinstance(target, EdgeSel):
            self._annotate_edges(st, scope, body, target)
            return
        if not isinstance(target, EpRef) or target.level != "fabric":
            raise CompileError(f"annotate needs instance components (like host[*].gpu), "
                               f"got {with_article(type_of(target))}",
                               st.target.pos)
        ann = body.fabric.annotations
        const = {}
        for a in st.attrs:
            v = self.eval(a.expr, scope)
            if v is AUTO:
                names = self.node_names(target, a.pos)
                self.devices.smap.add(f"annotations.nodes[{len(ann.nodes)}]", st.pos)
                for i, n in enumerate(names):
                    ann.nodes.append(NodeAnnotation(n, {a.name: i}))
            else:
                const[a.name] = _attr_value(v, a.expr.pos)
        if const:
            self.devices.smap.add(f"annotations.nodes[{len(ann.nodes)}]", st.pos)
            ann.nodes.append(NodeAnnotation(target.text(), const))

    def _annotate_edges(self, st: A.Annotate, scope: Scope, body: Body, target: EdgeSel) -> None:
        """`annotate between(a, b) k = v`: one edge annotation (the document's ep1/ep2 form)."""
        attrs = {}
        for a in st.attrs:
            v = self.eval(a.expr, scope)
            if v is AUTO:
                raise CompileError("'auto' numbers nodes; an edge annotation takes constant values", a.expr.pos)
            attrs[a.name] = _attr_value(v, a.expr.pos)
        ann = body.fabric.annotations
        self.devices.smap.add(f"annotations.edges[{len(ann.edges)}]", st.pos)
        ann.edges.append(EdgeAnnotation(target.a.text(), target.b.text(), attrs))

    def node_names(self, ep: EpRef, pos: A.Pos) -> list[str]:
        """Fully qualified node names of a leaf selection, in selection order (for `auto`)."""
        if ep.segs[-1].device is not None:
            raise CompileError(f"'auto' numbers leaf components; '{ep}' is a device: select a component in it", pos)
        self.tick(pos, ep.count())
        ranges = [s.indices() for s in ep.segs]
        names = [s.docname for s in ep.segs]
        return [".".join(f"{n}.{i}" for n, i in zip(names, idx)) for idx in product(*ranges)]

    def _include(self, st: A.Include, scope: Scope, body: Body) -> None:
        self._need(body, "fabric", st, "'include'")
        v = self.eval(st.fabric, scope)
        if isinstance(v, Template) and v.what == "fabric":
            v = FabricCall(v, self.bind(v, [], {}, st.pos))
        if not isinstance(v, FabricCall):
            raise CompileError(f"include needs a fabric, got {a_value(v)}", st.fabric.pos)
        prefix = body.prefix + (f"{st.alias}-" if st.alias else "")
        inner = self.fabric_body(v, body.fabric, prefix, st.pos)
        for k, x in graph_attributes(inner).items():
            body.included.setdefault(k, []).append(x)
        syms = {k: x for k, x in inner.scope.vars.items() if isinstance(x, InstanceSym)}
        if st.alias:
            self._declare(body, st.alias, st)
            body.scope.vars[st.alias] = Namespace(st.alias, syms)
        else:
            for k, x in syms.items():
                self._declare(body, k, st)
                body.scope.vars[k] = x

    def fabric_body(self, call: FabricCall, fb: FabricBuild, prefix: str, pos: A.Pos | None) -> Body:
        t = call.template
        if t.decl.alias is not None:  # fabric x = other(...)
            v = self.eval(t.decl.alias, t.scope)
            if isinstance(v, Template) and v.what == "fabric":
                v = FabricCall(v, self.bind(v, [], {}, t.decl.alias.pos))
            if not isinstance(v, FabricCall):
                raise CompileError(f"'fabric {t.name} = ...' needs a fabric, got {with_article(type_of(v))}",
                                   t.decl.alias.pos)
            return self.fabric_body(v, fb, prefix, pos)
        if self.device_depth >= MAX_DEVICE_DEPTH:
            raise CompileError(f"fabrics included deeper than {MAX_DEVICE_DEPTH} levels", pos or t.decl.pos)
        scope = Scope(t.scope)
        scope.vars.update(call.args)
        body = Body("fabric", scope, sink=fb.sink, fabric=fb, prefix=prefix)
        if pos is not None:
            self.stack.append(f"in fabric '{t.name}' included at {pos}")
        self.device_depth += 1
        try:
            self.exec_block(t.decl.body, scope, body)
        finally:
            self.device_depth -= 1
            if pos is not None:
                self.stack.pop()
        return body

    # ------------------------------------------------------------------------------ root ----
    def build(self, call: FabricCall, module: Module) -> Infrastructure:
        fb = FabricBuild()
        root = self.fabric_body(call, fb, "", None)
        smap = self.devices.smap
        smap.default = call.template.decl.pos
        doc = Infrastructure(call.template.name, str(root.props.get("description", (call.template.decl.doc or
                                                                                    module.doc, None))[0]))
        doc.devices = self.devices.devices
        doc.instances = fb.instances
        doc.edges = edges_into(fb.sink, smap, "")
        doc.links = fb.links.links
        for i, lv in enumerate(fb.links.vals):
            if lv.name in fb.link_pos:
                smap.add(f"links[{i}]", fb.link_pos[lv.name])
        ann = Annotations()
        for inst, dv, attrs in fb.inst_vals:
            for path, values in _leaf_attrs(dv, ""):
                ann.nodes.append(NodeAnnotation(f"{inst.name}.{path}", values))
            if attrs:
                ann.nodes.append(NodeAnnotation(inst.name, attrs))
        offset = len(ann.nodes)
        for k in list(smap.paths):
            if k.startswith("annotations.nodes["):
                i = int(k[len("annotations.nodes["):k.index("]")])
                smap.paths[f"annotations.nodes[{i + offset}]"] = smap.paths.pop(k)
        ann.nodes += fb.annotations.nodes
        ann.edges += fb.annotations.edges
        tables = [("", fb.links)] + [(dv.docname, dv.link_table) for dv in self.device_memo.values()
                                     if dv.docname is not None and dv.link_table is not None]
        for scope_name, table in tables:
            for lv in table.vals:
                if lv.attrs:
                    name = table.names[lv]
                    ann.links.append(LinkAnnotation(f"{scope_name}.{name}" if scope_name else name, dict(lv.attrs)))
        ann.graph = graph_attributes(root)
        doc.annotations = ann
        doc.source = smap
        return doc


def graph_attributes(body: Body) -> dict[str, Any]:
    """A fabric body's graph attributes: its own, then those its includes state (docs/language.md).

    An included fabric's `dims`, `topology`, `max_oversubscription` etc. describe the including
    fabric too when that one include is all there is to it (`include clos.clos(...)` around an
    imported server), so they are inherited unless the body sets its own. Stated by two or more
    includes, an attribute describes neither the parts nor the whole (two `SW(*)_SW(16)` Clos side
    by side are not one): it is not inherited, except `max_oversubscription`, whose largest value
    still bounds every part.
    """
    own = {k: v for k, (v, _) in body.props.items() if k != "description"}
    for k, values in body.included.items():
        if k in own:
            continue
        if len(values) == 1:
            own[k] = values[0]
        elif k == "max_oversubscription" and all(isinstance(x, (int, float)) for x in values):
            own[k] = max(values)
    return own


def _leaf_attrs(dv: DeviceVal, prefix: str):
    """(component path, attributes) for every leaf that has attributes, device attributes first."""
    for p in dv.parts.values():
        path = f"{prefix}{p.docname}"
        if p.device is not None:
            yield from _leaf_attrs(p.device, path + ".")
        else:
            values = dict(dv.attrs)
            values.update({k: v for k, v in p.attrs.items() if k != "description"})
            if values:
                yield path, values


def _in_range(problem: str | None, pos: A.Pos) -> None:
    if problem:
        raise CompileError(f"link {problem}", pos)


def _attr_value(v: Any, pos: A.Pos) -> Any:
    """An attribute value as the document stores it (quantities as text with their unit)."""
    if isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, Quantity):
        return format_quantity(v)
    raise CompileError(f"an attribute value must be a number, quantity, string or bool, got {type_of(v)}", pos)


def _signature(params: list[A.Param]) -> str:
    return ", ".join(f"{p.name}: {p.type.name}" + ("" if p.default is None else " = …") for p in params) or "(none)"


def _txt(v: Any) -> str:
    return "" if v is None else str(v)
