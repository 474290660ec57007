"""TOML input with located errors: parse errors at file:line:col, and a source map from key paths
(``axes.size``, ``derive.bw[2]``) back to the line and column of the value.

The standard parser (tomllib, or tomli before Python 3.11) keeps no positions, so `TomlSourceMap`
re-reads the text line by line the first time a problem must be located: it knows table headers
(``[a.b]``) and ``key = value`` lines, which is every position a configuration file needs to name.
"""

from __future__ import annotations

import re
import sys

from ..errors import Diagnostic, InfraGraphError, Location
from .io import split_path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

_POSITION = re.compile(r"\s*\(at line (\d+), column (\d+)\)")
_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"^\s*((?:[A-Za-z0-9_-]+|\"[^\"]*\"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|\"[^\"]*\"|'[^']*'))*)\s*=\s*")


def loads(text: str, filename: str) -> dict:
    """The TOML document in `text`; a syntax error is located at `filename`:line:col."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        # tomllib states the position only inside its message: "... (at line 3, column 7)"
        m = _POSITION.search(str(e))
        line, col = (int(m.group(1)), int(m.group(2))) if m else (None, None)
        if m is None and "(at end of document)" in str(e):
            lines = text.rstrip("\n").splitlines() or [""]
            line, col = len(lines), len(lines[-1]) + 1
        message = _POSITION.sub("", str(e)).replace(" (at end of document)", " at the end of the file")
        raise InfraGraphError(Diagnostic(f"invalid TOML: {message}", Location(filename, line, col))) from None


def _split_key(text: str) -> tuple[str, ...]:
    parts = re.findall(r"\"([^\"]*)\"|'([^']*)'|([A-Za-z0-9_-]+)", text)
    return tuple(a or b or c for a, b, c in parts)


class TomlSourceMap:
    """Document path -> Location of the value (or table header) in a TOML text."""

    def __init__(self, text: str, filename: str):
        self._text = text
        self._filename = filename
        self._positions: dict[tuple[str, ...], tuple[int, int]] | None = None

    def _index(self) -> dict[tuple[str, ...], tuple[int, int]]:
        out: dict[tuple[str, ...], tuple[int, int]] = {}
        table: tuple[str, ...] = ()
        for number, line in enumerate(self._text.splitlines(), 1):
            header = _HEADER.match(line)
            if header:
                table = _split_key(header.group(1))
                out.setdefault(table, (number, line.index("[") + 1))
                continue
            key = _KEY.match(line)
            if key:
                out.setdefault(table + _split_key(key.group(1)), (number, key.end() + 1))
        return out

    def locate(self, path: str) -> Location:
        if self._positions is None:
            self._positions = self._index()
        keys = [k for k in split_path(path) if isinstance(k, str)]
        for n in range(len(keys), 0, -1):
            found = self._positions.get(tuple(keys[:n]))
            if found:
                return Location(self._filename, found[0], found[1], path)
        return Location(self._filename, path=path)
