"""Located errors: every problem a user can cause is reported with where it is and what was expected.

A `Diagnostic` carries a `Location` (file, line, column and/or a document path such as
``edges[3].ep2.component``), the message, an optional hint ("did you mean 'nic'?") and notes
(for example the import chain of an .igl file). `InfraGraphError` bundles one or more of them so
that a run can report several problems at once. The CLI prints `str(error)` and never a traceback.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Protocol


@dataclass(frozen=True)
class Location:
    """Where a problem is: a source position, a document path, or both."""

    file: str | None = None
    line: int | None = None  # 1-based
    column: int | None = None  # 1-based
    path: str | None = None  # document path, e.g. "edges[3].ep2.component"

    def __str__(self) -> str:
        parts = []
        if self.file:
            pos = self.file
            if self.line is not None:
                pos += f":{self.line}"
                if self.column is not None:
                    pos += f":{self.column}"
            parts.append(pos)
        if self.path:
            parts.append(self.path)
        return ": ".join(parts) if parts else "<input>"


class SourceMap(Protocol):
    """Turns a document path into a source location (a YAML file, or the .igl that produced it)."""

    def locate(self, path: str) -> Location: ...


@dataclass(frozen=True)
class Diagnostic:
    message: str
    location: Location = field(default_factory=Location)
    hint: str | None = None
    severity: str = "error"
    notes: tuple[str, ...] = ()
    source_line: str | None = None  # the text of the offending line, for a caret display

    def render(self) -> str:
        out = f"{self.location}: {self.severity}: {self.message}"
        if self.hint:
            out += f"\n  hint: {self.hint}"
        if self.source_line is not None and self.location.column is not None:
            text, col = _window(self.source_line.rstrip(), self.location.column - 1)
            out += f"\n  {text}\n  {' ' * col}^"
        for note in self.notes:
            out += f"\n  note: {note}"
        return out


CARET_WIDTH = 100  # a long line (one-line JSON) is shown as this much around the column


def _window(line: str, col: int) -> tuple[str, int]:
    """The part of `line` to show around 0-based `col`, and the caret's column in it."""
    if len(line) <= CARET_WIDTH:
        return line, col
    start = max(0, min(col - CARET_WIDTH // 2, len(line) - CARET_WIDTH))
    head = "…" if start else ""
    tail = "…" if start + CARET_WIDTH < len(line) else ""
    return head + line[start:start + CARET_WIDTH] + tail, col - start + len(head)


MAX_SHOWN = 20  # errors printed for one input; the rest are counted ("… 13 more errors not shown")


def first_errors(diagnostics: list[Diagnostic], total: int | None = None,
                 where: Location | None = None) -> list[Diagnostic]:
    """The first MAX_SHOWN of `diagnostics`, then (when there were more: `total`, else their number)
    a note saying how many more were found, so a capped report never looks complete."""
    total = len(diagnostics) if total is None else total
    if total <= MAX_SHOWN:
        return list(diagnostics)
    place = where or next((Location(d.location.file) for d in diagnostics if d.location.file), Location())
    return list(diagnostics[:MAX_SHOWN]) + [Diagnostic(
        f"{total - MAX_SHOWN:,} more error(s) not shown ({total:,} in all; the first {MAX_SHOWN} are above)",
        place, severity="note")]


class InfraGraphError(Exception):
    """One or more located problems in the user's input."""

    def __init__(self, diagnostics: Diagnostic | Iterable[Diagnostic]):
        self.diagnostics: list[Diagnostic] = (
            [diagnostics] if isinstance(diagnostics, Diagnostic) else list(diagnostics)
        )
        super().__init__(str(self))

    def __str__(self) -> str:
        return "\n".join(d.render() for d in self.diagnostics)

    def relocated(self, source_map: SourceMap | None) -> InfraGraphError:
        """The same diagnostics with document paths resolved to file:line:col through `source_map`."""
        if source_map is None:
            return self
        out = []
        for d in self.diagnostics:
            loc = d.location
            if loc.path is not None and loc.line is None:
                found = source_map.locate(loc.path)
                loc = Location(found.file, found.line, found.column, loc.path)
                text, notes = found_line(found), d.notes
                context = getattr(source_map, "context", None)  # .igl maps know their text and import chain
                if context is not None:
                    text, chain = context(loc.path)
                    notes = tuple(notes) + tuple(chain)
                d = Diagnostic(d.message, loc, d.hint, d.severity, notes, text)
            out.append(d)
        return InfraGraphError(out)


def found_line(loc: Location) -> str | None:
    """The text of `loc`'s line, when the file is readable (for caret display)."""
    if not loc.file or loc.line is None:
        return None
    try:
        with open(loc.file, encoding="utf-8") as fh:
            for i, text in enumerate(fh, 1):
                if i == loc.line:
                    return text
    except OSError:
        return None
    return None


def error(message: str, path: str | None = None, hint: str | None = None) -> InfraGraphError:
    """Shorthand for a single error at a document path."""
    return InfraGraphError(Diagnostic(message, Location(path=path), hint))


def did_you_mean(name: str, known: Iterable[str]) -> str | None:
    """A 'did you mean' hint for a misspelt name, or None when nothing is close."""
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None


def unknown_name(kind: str, name: str, known: Iterable[str], path: str, where: str = "") -> InfraGraphError:
    """'unknown component 'nicc' in device 'host'; expected one of: nic, xpu' with a suggestion."""
    known = list(known)
    listing = ", ".join(sorted(known)) if known else "(none defined)"
    if len(known) > 20:
        listing = ", ".join(sorted(known)[:20]) + f", … ({len(known)} in all)"
    return error(
        f"unknown {kind} '{name}'{where}; expected one of: {listing}",
        path,
        did_you_mean(name, known),
    )


def read_text(path: str | Path, what: str) -> str:
    """A UTF-8 file's text; an unreadable or undecodable file is "cannot read WHAT: reason" located
    at the file, never a traceback (every reader of user files goes through here)."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise InfraGraphError(Diagnostic(f"cannot read {what}: {e}", Location(str(path)))) from None
