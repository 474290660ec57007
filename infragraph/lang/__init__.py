"""The InfraGraph language (.igl): parse -> AST -> elaborate -> InfraGraph document.

Entry points: `compile_file(path, defines, search_path)`, `compile_source(text, ...)` and
`describe(path_or_module)` (a blueprint's docstring and parameters, for `blueprints show`).
"""

from .compiler import compile_file, compile_source
from .describe import describe

__all__ = ["compile_file", "compile_source", "describe"]
