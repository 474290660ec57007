"""Inline suppression: a comment naming the rule on the finding's source line or the line above.

    - {ep1: ..., ep2: ..., link: eth}   # infragraph-lint: ignore[IG011]
    # infragraph-lint: ignore[IG006, IG007]
    - {ep1: ..., ep2: ..., link: slow}

`#` starts a comment in YAML and in .igl (grammar/InfraGraph.g4; `//` there is integer division,
not a comment), so one syntax serves both. JSON has no comments: use configuration instead.
A bare `ignore` without rule ids is deliberately not supported: a suppression must say what it
silences, so that a new, different problem on the same line is still reported.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .model import Finding

_MARKER = re.compile(r"#\s*infragraph-lint:\s*ignore\[([^\]]*)\]", re.IGNORECASE)


@lru_cache(maxsize=64)
def _lines(file: str) -> tuple[str, ...]:
    try:
        with open(file, encoding="utf-8") as fh:
            return tuple(fh.read().splitlines())
    except (OSError, UnicodeDecodeError):
        return ()


def suppressed_ids(text: str) -> set[str]:
    """Rule ids named by suppression comments in one line of text."""
    return {x.strip().upper() for m in _MARKER.finditer(text) for x in m.group(1).split(",") if x.strip()}


def is_suppressed(finding: Finding) -> bool:
    loc = finding.location
    if not loc.file or loc.line is None:
        return False
    lines = _lines(loc.file)
    for n in (loc.line, loc.line - 1):
        if 1 <= n <= len(lines) and finding.rule in suppressed_ids(lines[n - 1]):
            return True
    return False


def clear_cache() -> None:
    """Forget file contents (a long-lived process linting edited files, e.g. tests)."""
    _lines.cache_clear()
