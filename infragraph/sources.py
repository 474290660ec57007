"""One entry point for every source format: .igl programs and public-format YAML/JSON documents.

This module sits above both the language and the document layer (the document layer never
imports the language), so that every command accepts either kind of file the same way.
"""

from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path
from typing import Callable, ContextManager

from .document.model import Infrastructure
from .errors import Diagnostic, InfraGraphError, Location
from .graph import FQG, expand
from .limits import Limits

DOCUMENT_SUFFIXES = (".yaml", ".yml", ".json")


def resolve_source(path: str | Path) -> Path:
    """`path` itself, or for a blueprint name `std.x.y` (not an existing file) blueprints/x/y.igl."""
    from . import blueprints

    if blueprints.is_blueprint_name(str(path)) and not Path(path).exists():
        return blueprints.resolve(str(path))
    return Path(path)


def load_document(
    path: str | Path, defines: dict[str, str] | None = None, search_path: list[str] | None = None,
    files_read: list[str] | None = None, cache: bool = False,
) -> Infrastructure:
    """The InfraGraph document in `path` (.igl is compiled; .yaml/.yml/.json are read and validated).
    A blueprint name `std.x.y` (not an existing file) stands for blueprints/x/y.igl; a SimGrid
    notation `simgrid:FAT_TREE:...` / `simgrid:DRAGONFLY:...` for the blueprint it names.
    `files_read` receives the .igl modules compiled (see lang.compile_source). With `cache`, each
    .igl module's parse comes from (and goes to) the cache of parsed modules (cache.cached_parse)."""
    if str(path).startswith("simgrid:"):
        from .importers.simgrid import import_simgrid

        if defines:
            raise InfraGraphError(Diagnostic("-D does not apply to a SimGrid notation; its fields are the parameters",
                                             Location(str(path))))
        return import_simgrid(str(path))

    path = resolve_source(path)
    if path.is_dir():
        raise InfraGraphError(Diagnostic("is a directory; expected an .igl program, an InfraGraph YAML/JSON "
                                         "document or a blueprint name such as std.fabrics.clos", Location(str(path))))
    if path.suffix == ".igl":
        from . import lang  # the language is only loaded when an .igl file is given

        if cache:
            from .cache import cached_parse

            return lang.compile_file(str(path), defines, search_path, files_read, cached_parse)
        return lang.compile_file(str(path), defines=defines, search_path=search_path, files_read=files_read)
    if path.suffix not in DOCUMENT_SUFFIXES:
        raise InfraGraphError(Diagnostic(
            f"unknown file type '{path.suffix}'; expected .igl, .yaml, .yml or .json", Location(str(path))))
    if defines:
        raise InfraGraphError(Diagnostic(
            "-D overrides apply to .igl programs only; a document has no parameters", Location(str(path))))
    from .document import io  # YAML and the schema: only when a document is read

    return io.load(path)


def load_graph(path: str | Path, defines: dict[str, str] | None = None,
               search_path: list[str] | None = None,
               phase: Callable[[str], ContextManager] | None = None, limits: Limits | None = None,
               cache: bool = False) -> FQG:
    """The fully qualified graph of a source file (an FQG .json written by `compile` is read back).
    `phase(name)`, when given, wraps each step (the CLI uses it to report progress). An empty graph
    is an error: nothing can be checked, simulated or drawn from it. With `cache`, an .igl
    program's graph comes from (and goes to) the compile cache (infragraph.cache), and on a miss its
    modules' parses from the cache of parsed modules."""
    step = phase or (lambda _name: nullcontext())
    if Path(path).suffix == ".json":
        from .graph.export import is_fqg_file, read_fqg  # only for .json: graph.export is large

        if is_fqg_file(path):
            with step("reading graph"):
                g = read_fqg(path)
            require_nodes(g, path)
            return g

    source = resolve_source(path) if not str(path).startswith("simgrid:") else Path(str(path))
    cached = cache and source.suffix == ".igl" and source.is_file()

    def build(files_read: list[str]) -> FQG:
        with step("loading"):
            doc = load_document(path, defines, search_path, files_read, cached)
        require_instances(doc, path)
        with step("expanding"):
            return expand(doc, limits)

    if cached:
        from .cache import cached_graph

        g = cached_graph(source, defines, search_path, build)
        within = limits or Limits()
        if g.num_nodes > within.max_nodes or g.num_edges > within.max_edges:
            return build([])  # cached under a higher limit: the limit's own located refusal
        return g
    return build([])


def require_nodes(g: FQG, path: str | Path) -> None:
    """An error when a graph read back from FQG JSON has no nodes (nothing can follow from it)."""
    if g.num_nodes == 0:
        raise InfraGraphError(Diagnostic("the graph has no nodes", Location(str(path), path="nodes"),
                                         "compile it from a source that declares instances"))


def require_instances(doc: Infrastructure, path: str | Path) -> None:
    """An error when `doc` has no instances (its graph would be empty), saying what it does have."""
    if doc.instances:
        return
    if doc.devices:
        names = ", ".join(d.name for d in doc.devices[:5]) + (", …" if len(doc.devices) > 5 else "")
        hint = (f"it defines {len(doc.devices)} device(s) ({names}) but places none; add an instance "
                f"(.igl: 'instance NAME[COUNT]: DEVICE' in the fabric; YAML: an 'instances' entry)")
    else:
        hint = "it has no devices and no instances; see examples/ for a small fabric"
    err = InfraGraphError(Diagnostic(f"'{doc.name}' has no instances, so its graph is empty (0 nodes)",
                                     Location(path="instances"), hint))
    located = err.relocated(doc.source)
    d = located.diagnostics[0]
    file = d.location.file or str(path)
    raise InfraGraphError(Diagnostic(d.message, Location(file, d.location.line, d.location.column,
                                                         d.location.path), d.hint, notes=d.notes,
                                     source_line=d.source_line))
