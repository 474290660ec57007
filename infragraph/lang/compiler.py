"""The compiler driver: modules, imports, parameters (-D) and the root fabric.

`import "x.igl"` is relative to the importing file; `import std.a.b` is `a/b.igl` in the
blueprint library (blueprints/); any other dotted name `a.b` is searched as `a/b.igl` along the
search path (the main file's directory, then -I directories, then the library). Each module is
loaded once; a cycle is an error showing the chain.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Callable

from ..document.model import Infrastructure
from ..errors import Diagnostic, InfraGraphError, Location, did_you_mean, read_text
from ..paths import BLUEPRINTS, blueprint_files
from . import ast as A
from .builtins import global_names
from .diagnostics import CompileError, Silent, diagnostic
from .interp import Body, Interp, TooMany
from .syntax import parse, parse_expr
from .values import BRIEF, POISON, FabricCall, Module, Scope, Template, show, with_article

_GLOBALS = Scope()
_GLOBALS.vars.update(global_names())


ParseModule = Callable[[str, str, tuple[str, ...]], A.Program]  # (text, file name, import chain) -> AST


class Compiler:
    def __init__(self, defines: dict[str, str] | None = None, search_path: list[str] | None = None,
                 parse_module: ParseModule = parse):
        self.parse_module = parse_module  # syntax.parse, or a cache of its results (cache.cached_parse)
        self.defines = dict(defines or {})
        self.search_path = [str(p) for p in (search_path or [])]
        self.modules: dict[str, Module] = {}
        self.loading: list[str] = []
        self.interp = Interp(self._import)
        self.used_defines: set[str] = set()

    # --------------------------------------------------------------------------- modules ----
    def _resolve(self, imp: A.Import, importer: str) -> Path:
        base = Path(importer).parent if importer and not importer.startswith("<") else Path.cwd()
        if imp.is_path:
            p = (base / imp.target).resolve()
            if not p.is_file():
                raise CompileError(f"cannot find imported file '{imp.target}' (looked for {p})", imp.pos)
            return p
        parts = imp.target.split(".")
        if parts[0] == "std":
            roots, rel = [BLUEPRINTS], Path(*parts[1:]).with_suffix(".igl") if len(parts) > 1 else None
        else:
            roots, rel = [base, *map(Path, self.search_path), BLUEPRINTS], Path(*parts).with_suffix(".igl")
        if rel is None:
            raise CompileError("import std.NAME needs a module under the library, e.g. std.fabrics.clos", imp.pos)
        tried = []
        for root in roots:
            p = (root / rel).resolve()
            if p.is_file():
                return p
            tried.append(str(p))
        known = sorted(
            ("std." if parts[0] == "std" else "") + str(q.relative_to(BLUEPRINTS).with_suffix("")).replace(os.sep, ".")
            for q in blueprint_files()
        )
        raise CompileError(f"cannot find module '{imp.target}' (looked in: {', '.join(tried)})", imp.pos,
                           did_you_mean(imp.target, known))

    def _import(self, imp: A.Import, scope: Scope) -> Module:
        path = str(self._resolve(imp, imp.pos.src.filename))
        if path in self.loading:
            cycle = self.loading[self.loading.index(path):] + [path]
            raise CompileError("import cycle: " + " -> ".join(Path(p).name for p in cycle), imp.pos,
                               "move the shared declarations into a module both can import")
        if path in self.modules:
            return self.modules[path]
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise CompileError(f"cannot read '{path}': {e}", imp.pos) from None
        chain = (f"imported from {imp.pos}",) + imp.pos.src.chain
        try:
            program = self.parse_module(text, path, chain)
        except InfraGraphError as e:
            for d in e.diagnostics:
                self._add(d)
            raise Silent() from None
        return self.load(program, Path(path).stem, main=False)

    def _add(self, d: Diagnostic) -> None:
        key = (d.location.file, d.location.line, d.location.column, d.message)
        if key not in self.interp.seen:
            self.interp.seen.add(key)
            self.interp.diags.append(d)

    def load(self, program: A.Program, name: str, main: bool) -> Module:
        """Execute a module's top level: imports and declarations first, then params/lets/links in order."""
        filename = program.src.filename
        scope = Scope(_GLOBALS)
        module = Module(name, filename, program.doc, scope, program)
        scope.module = module
        self.modules[filename] = module
        self.loading.append(filename)
        body = Body("module", scope)
        try:
            for item in program.items:
                if isinstance(item, (A.DeviceDecl, A.FabricDecl, A.FnDecl)):
                    what = {A.DeviceDecl: "device", A.FabricDecl: "fabric", A.FnDecl: "fn"}[type(item)]
                    try:
                        self._bind(scope, item.name, Template(what, item, scope), item.pos)
                    except CompileError as e:
                        self.interp.report(e)
                elif isinstance(item, A.Import):
                    try:
                        mod = self._import(item, scope)
                        default = Path(item.target).stem if item.is_path else item.target.split(".")[-1]
                        self._bind(scope, item.alias or default, mod, item.pos)
                    except CompileError as e:
                        self.interp.report(e)
                    except Silent:
                        pass
            for item in program.items:
                try:
                    if isinstance(item, A.ParamDecl):
                        self._param(item.param, scope, main)
                    elif isinstance(item, (A.Let, A.Assert, A.LinkDecl)):
                        self.interp.exec_block([item], scope, body)
                except CompileError as e:
                    self.interp.report(e)
                    if isinstance(item, A.ParamDecl):
                        scope.vars[item.param.name] = POISON
                except Silent:
                    pass
        finally:
            self.loading.pop()
        return module

    def _bind(self, scope: Scope, name: str, value: Any, pos: A.Pos) -> None:
        if name in scope.vars:
            first = getattr(getattr(scope.vars[name], "decl", None), "pos", None)
            where = f" (first at line {first.line})" if first is not None and first.src is pos.src else ""
            raise CompileError(f"'{name}' is defined twice in this module{where}", pos,
                               "rename one of them; a module has one namespace for devices, fabrics, functions "
                               "and imports")
        scope.vars[name] = value

    # ------------------------------------------------------------------------ parameters ----
    def define_value(self, name: str, p: A.Param, scope: Scope) -> Any:
        """A -D value: parsed and evaluated as an expression; a bare word is a string for string params."""
        text = self.defines[name]
        self.used_defines.add(name)
        pos = A.Pos(A.Source(f"-D {name}", text), 1, 1)
        try:
            v = self.interp.eval(parse_expr(text, f"-D {name}"), scope)
        except (InfraGraphError, CompileError, Silent) as e:
            if p.type.name == "string":
                return text
            # Say why ('nan GB/s': "syntax error: unexpected 'GB'"), at the column it was found.
            if isinstance(e, InfraGraphError):
                why, column = e.diagnostics[0].message, e.diagnostics[0].location.column or 1
            else:
                why, column = getattr(e, "message", ""), getattr(getattr(e, "pos", None), "col", 1)
            # the caret line below shows the whole text; the message keeps to a line
            shown = text if len(text) <= BRIEF else text[:BRIEF] + "…"
            why = why if len(why) <= 2 * BRIEF else why[:2 * BRIEF] + "…"
            raise CompileError(f"-D {name}={shown}: not a valid value for {with_article(p.type.name)} parameter"
                               + (f": {why}" if why else ""), A.Pos(pos.src, 1, column)) from None
        if p.type.name == "string" and not isinstance(v, str):
            return text
        return self.interp.check_type(v, p, pos, "the program")

    def _param(self, p: A.Param, scope: Scope, main: bool) -> None:
        if p.name in scope.vars:
            raise CompileError(f"'{p.name}' is defined twice in this module", p.pos)
        scope.vars[p.name] = POISON
        if main and p.name in self.defines:
            scope.vars[p.name] = self.define_value(p.name, p, scope)
            return
        if p.default is None:
            raise CompileError(f"parameter '{p.name}' has no default; give one or pass -D {p.name}=VALUE", p.pos)
        scope.vars[p.name] = self.interp.check_type(self.interp.eval(p.default, scope), p, p.default.pos,
                                                    "the program")

    # ------------------------------------------------------------------------------ root ----
    def root_fabric(self, module: Module) -> Template:
        fabrics = [x for x in module.program.items if isinstance(x, A.FabricDecl)]
        src = module.program.src
        if not fabrics:
            raise CompileError(f"{Path(module.filename).name} declares no fabric; add 'fabric NAME {{ ... }}'",
                               A.Pos(src, 1, 1), "a file of devices and links is a library: import it instead")
        # Several fabrics: the one named like the file, else the last one (helpers come first).
        named = [f for f in fabrics if f.name == module.name]
        return module.scope.vars[(named or fabrics)[-1].name]

    def root_call(self, t: Template) -> FabricCall:
        args: dict[str, Any] = {}
        scope = Scope(t.scope)
        for p in t.params:
            if p.name in self.defines:
                args[p.name] = scope.vars[p.name] = self.define_value(p.name, p, scope)
            elif p.default is not None:
                args[p.name] = scope.vars[p.name] = self.interp.check_type(
                    self.interp.eval(p.default, scope), p, p.default.pos, f"fabric '{t.name}'")
            else:
                raise CompileError(f"fabric '{t.name}' needs parameter '{p.name}'; pass -D {p.name}=VALUE", p.pos)
        return FabricCall(t, args)

    def check_unused_devices(self, module: Module) -> None:
        """Elaborate the main file's devices that need no arguments, so their errors show even if unused."""
        for v in list(module.scope.vars.values()):
            if isinstance(v, Template) and v.what == "device" and all(p.default is not None for p in v.params):
                try:
                    self.interp.as_device(v, v.decl.pos)
                except CompileError as e:
                    self.interp.report(e)
                except Silent:
                    pass

    def compile(self, program: A.Program) -> Infrastructure:
        it = self.interp
        try:
            main = self.load(program, Path(program.src.filename).stem, main=True)
            root = None
            try:
                root = self.root_fabric(main)
                call = self.root_call(root)
            except CompileError as e:
                it.report(e)
            except Silent:
                pass
            known = {p.param.name for p in program.items if isinstance(p, A.ParamDecl)}
            known |= {p.name for p in (root.params if root else [])}
            for name in sorted(set(self.defines) - known):
                self._add(Diagnostic(f"-D {name}: the program has no parameter '{name}'", Location(program.src.filename),
                                     did_you_mean(name, known) or (f"parameters: {', '.join(sorted(known))}"
                                                                   if known else "it has no parameters")))
            self.check_unused_devices(main)
            if it.diags:
                raise InfraGraphError(it.diags + it.more_note())
            doc = it.build(call, main)
        except TooMany:
            pass
        except RecursionError:
            self._add(diagnostic("program nested too deeply to evaluate", A.Pos(program.src, 1, 1)))
        if it.diags:
            raise InfraGraphError(it.diags + it.more_note())
        return doc


def compile_source(text: str, filename: str = "<string>", defines: dict[str, str] | None = None,
                   search_path: list[str] | None = None, files_read: list[str] | None = None,
                   parse_module: ParseModule = parse) -> Infrastructure:
    """Compile .igl text to an InfraGraph document. Raises InfraGraphError (located diagnostics).
    `files_read`, when given, receives the path of every module compiled (the program's own and
    each import): what a cache of the result depends on. `parse_module` parses each module (the
    program's own and each import; cache.cached_parse reuses earlier parses)."""
    try:
        program = parse_module(text, filename, ())
    except RecursionError:
        raise InfraGraphError(Diagnostic("program nested too deeply to parse", Location(filename))) from None
    compiler = Compiler(defines, search_path, parse_module)
    doc = compiler.compile(program)
    if files_read is not None:
        files_read.extend(compiler.modules)
    return doc


def compile_file(path: str, defines: dict[str, str] | None = None,
                 search_path: list[str] | None = None, files_read: list[str] | None = None,
                 parse_module: ParseModule = parse) -> Infrastructure:
    """Compile an .igl file. Raises InfraGraphError (located diagnostics, import chains as notes)."""
    return compile_source(read_text(path, f"'{path}'"), str(path), defines, search_path, files_read, parse_module)


_IMPORT_LINE = re.compile(r'^[ \t]*import[ \t]+(?:"([^"\n]+)"|([A-Za-z_][\w.]*))', re.M)


def source_files(path: str, search_path: list[str] | None = None) -> list[Path]:
    """The .igl files compiling `path` reads: the file and its imports, transitively, each once.

    Callers that cache or skip work by source contents (sweeps) hash these. Import lines are found
    by a line scan, not a parse (parsing is the slow part of a compile): a line inside a docstring
    that looks like an import may add a file, never miss one. An import that cannot be resolved
    is left for the compile itself to report."""
    resolver = Compiler(search_path=search_path)
    seen: list[Path] = []
    todo = [Path(path).resolve()]
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.append(p)
        try:
            text = p.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        here = A.Pos(A.Source(str(p), text), 1, 1)
        for m in _IMPORT_LINE.finditer(text):
            try:
                todo.append(resolver._resolve(A.Import(here, m.group(1) or m.group(2), bool(m.group(1)), None), str(p)))
            except CompileError:
                pass
    return seen


__all__ = ["Compiler", "compile_file", "compile_source", "show", "source_files"]
