"""What every importer shares: reading the input file with a located error, and a document name."""

from __future__ import annotations

from pathlib import Path

from .. import errors


def read_text(path: str | Path) -> str:
    """The file's text; an unreadable or non-UTF-8 file is a located error, not a traceback."""
    return errors.read_text(path, str(path))


def name_from_path(path: str | Path) -> str:
    """A document/device name from a file name (letters, digits, '-' and '_' only)."""
    stem = Path(path).stem
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in stem) or "imported"
