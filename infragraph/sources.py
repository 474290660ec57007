"""One entry point for every source format: .igl programs and public-format YAML/JSON documents.

This module sits above both the language and the document layer (the document layer never
imports the language), so that every command accepts either kind of file the same way.
"""

from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path
from typing import Callable, ContextManager

from .document import io
from .document.model import Infrastructure
from .errors import Diagnostic, InfraGraphError, Location
from .graph import FQG, expand

DOCUMENT_SUFFIXES = (".yaml", ".yml", ".json")


def resolve_source(path: str | Path) -> Path:
    """`path` itself, or for a blueprint name `std.x.y` (not an existing file) blueprints/x/y.igl."""
    from . import blueprints

    if blueprints.is_blueprint_name(str(path)) and not Path(path).exists():
        return blueprints.resolve(str(path))
    return Path(path)


def load_document(
    path: str | Path, defines: dict[str, str] | None = None, search_path: list[str] | None = None,
    files_read: list[str] | None = None,
) -> Infrastructure:
    """The InfraGraph document in `path` (.igl is compiled; .yaml/.yml/.json are read and validated).
    A blueprint name `std.x.y` (not an existing file) stands for blueprints/x/y.igl; a SimGrid
    notation `simgrid:FAT_TREE:...` / `simgrid:DRAGONFLY:...` for the blueprint it names.
    `files_read` receives the .igl modules compiled (see lang.compile_source)."""
    if str(path).startswith("simgrid:"):
        from .importers.simgrid import import_simgrid

        if defines:
            raise InfraGraphError(Diagnostic("-D does not apply to a SimGrid notation; its fields are the parameters",
                                             Location(str(path))))
        return import_simgrid(str(path))
    path = resolve_source(path)
    if path.suffix == ".igl":
        from . import lang  # the language is only loaded when an .igl file is given

        return lang.compile_file(str(path), defines=defines, search_path=search_path, files_read=files_read)
    if path.suffix not in DOCUMENT_SUFFIXES:
        raise InfraGraphError(Diagnostic(
            f"unknown file type '{path.suffix}'; expected .igl, .yaml, .yml or .json", Location(str(path))))
    if defines:
        raise InfraGraphError(Diagnostic(
            "-D overrides apply to .igl programs only; a document has no parameters", Location(str(path))))
    return io.load(path)


def load_graph(path: str | Path, defines: dict[str, str] | None = None,
               search_path: list[str] | None = None,
               phase: Callable[[str], ContextManager] | None = None, cache: bool = False) -> FQG:
    """The fully qualified graph of a source file (an FQG .json written by `compile` is read back).
    `phase(name)`, when given, wraps each step (the CLI uses it to report progress). With `cache`,
    an .igl program's graph comes from (and goes to) the compile cache (infragraph.cache)."""
    from .graph.export import is_fqg_file, read_fqg

    step = phase or (lambda _name: nullcontext())
    if Path(path).suffix == ".json" and is_fqg_file(path):
        with step("reading graph"):
            return read_fqg(path)

    def build(files_read: list[str]) -> FQG:
        with step("loading"):
            doc = load_document(path, defines, search_path, files_read)
        with step("expanding"):
            return expand(doc)

    source = resolve_source(path)
    if cache and source.suffix == ".igl" and source.is_file():
        from .cache import cached_graph

        return cached_graph(source, defines, search_path, build)
    return build([])
