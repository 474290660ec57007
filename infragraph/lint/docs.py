"""Rule documentation: docs/lint.md has one section per rule, anchored `#ig001` etc.

The same text is what SARIF consumers (GitHub code scanning) show as a rule's help, so the
documentation is written once, in the docs, and read from there.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..paths import ROOT

DOCS_FILE = ROOT / "docs" / "lint.md"
_HEADING = re.compile(r"^## (IG\d{3})\b.*$", re.MULTILINE)


@lru_cache(maxsize=1)
def sections() -> dict[str, str]:
    """Rule id -> the markdown of its section (heading excluded); empty when the docs are absent."""
    try:
        text = DOCS_FILE.read_text(encoding="utf-8")
    except OSError:
        return {}
    marks = list(_HEADING.finditer(text))
    out = {}
    for i, m in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        body = text[m.end():end]
        body = re.split(r"^## ", body, maxsplit=1, flags=re.MULTILINE)[0]  # stop at a non-rule section
        out[m.group(1)] = re.sub(r'<a id="[^"]*"></a>\s*$', "", body.strip()).strip()
    return out


def help_uri(rule_id: str, base: str | None = None) -> str:
    """Where a rule's documentation is: `base` (e.g. a repository URL of docs/lint.md) or the file
    in this checkout, with the rule's anchor."""
    return f"{base or DOCS_FILE.as_uri()}#{rule_id.lower()}"
