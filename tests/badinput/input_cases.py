"""Helpers for the bad-input suite: run the real command line in-process and locate expectations.

Every case states three things: the exit code, the message and where it points. The expected
location is found from the input text itself (`at`): the line and column of a marker string,
so a case says "the error points at `.nan`" rather than copying numbers from a run.
"""

from __future__ import annotations

from pathlib import Path

from infragraph.cli import main


def cli(capsys, *argv: str) -> tuple[int, str]:
    """(exit code, stdout + stderr) of `infragraph ARGV`, argparse exits included."""
    try:
        code = main([str(a) for a in argv])
    except SystemExit as e:
        code = e.code
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def at(path: Path | str, text: str, marker: str, occurrence: int = 1, shift: int = 0) -> str:
    """'FILE:LINE:COL' of the `occurrence`-th `marker` in `text` (plus `shift` columns)."""
    offset = -1
    for _ in range(occurrence):
        offset = text.index(marker, offset + 1)
    offset += shift
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return f"{path}:{line}:{column}"


def write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p
