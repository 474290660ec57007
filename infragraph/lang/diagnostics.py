"""Located compile errors for the language: a `Pos` becomes a Diagnostic with caret and import chain.

`CompileError` is raised inside the compiler for one problem; the elaborator collects them so a
run reports several. `Silent` aborts a statement whose cause was already reported (e.g. a name
whose definition failed) without a second, misleading message.
"""

from __future__ import annotations

from ..errors import Diagnostic, Location
from .ast import Pos


def location(pos: Pos) -> Location:
    return Location(pos.src.filename, pos.line, pos.col)


def diagnostic(message: str, pos: Pos, hint: str | None = None, notes: tuple[str, ...] = ()) -> Diagnostic:
    """A diagnostic at `pos`, with the source line for the caret and the import chain as notes."""
    return Diagnostic(message, location(pos), hint, "error", tuple(notes) + pos.src.chain,
                      pos.src.line(pos.line))


class CompileError(Exception):
    """One located problem found while elaborating."""

    def __init__(self, message: str, pos: Pos, hint: str | None = None, notes: tuple[str, ...] = ()):
        super().__init__(message)
        self.message, self.pos, self.hint, self.notes = message, pos, hint, tuple(notes)

    def diagnostic(self) -> Diagnostic:
        return diagnostic(self.message, self.pos, self.hint, self.notes)


class Silent(Exception):
    """Abort the current statement: its cause has already been reported."""
