"""Rule documentation: docs/lint.md has one section per rule, anchored `#ig001` etc.

The same text is what SARIF consumers (GitHub code scanning) show as a rule's help, so the
documentation is written once, in the docs, and read from there.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..paths import DOCS, PackageDataError

DOCS_FILE = DOCS / "lint.md"
_HEADING = re.compile(r"^## (IG\d{3})\b.*$", re.MULTILINE)


@lru_cache(maxsize=1)
def sections() -> dict[str, str]:
    """Rule id -> the markdown of its section (heading excluded). The docs are package data, so a
    missing file is a broken installation (PackageDataError), not rules without help."""
    try:
        text = DOCS_FILE.read_text(encoding="utf-8")
    except OSError as e:
        raise PackageDataError(f"the lint rule documentation is missing from the installation ({e})") from None
    marks = list(_HEADING.finditer(text))
    out = {}
    for i, m in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        body = text[m.end():end]
        body = re.split(r"^## ", body, maxsplit=1, flags=re.MULTILINE)[0]  # stop at a non-rule section
        out[m.group(1)] = re.sub(r'<a id="[^"]*"></a>\s*$', "", body.strip()).strip()
    return out


DOCS_IN_REPOSITORY = "docs/lint.md"


def help_uri(rule_id: str, base: str | None = None) -> str:
    """Where a rule's documentation is, with the rule's anchor: `base` (the configured docs-url),
    else docs/lint.md on the repository's web host (from its `origin` remote), else the
    repository-relative reference docs/lint.md — never a path on this machine."""
    return f"{base or repository_docs() or DOCS_IN_REPOSITORY}#{rule_id.lower()}"


def absolute_help_uri(rule_id: str, base: str | None = None) -> str | None:
    """help_uri when it is an absolute URI (SARIF's helpUri must be), else None."""
    uri = help_uri(rule_id, base)
    return uri if re.match(r"^[a-z][a-z0-9+.-]*://", uri) else None


@lru_cache(maxsize=1)
def repository_docs() -> str | None:
    """https://HOST/OWNER/REPO/blob/HEAD/docs/lint.md for a checkout whose `origin` remote is on a
    web host (git@host:owner/repo.git or https://host/owner/repo.git); None otherwise, and None for
    an installed package: asking git there would find whatever repository holds the user's
    environment and point every rule at the user's own project."""
    import subprocess

    checkout = DOCS.parent
    if not (checkout / ".git").exists():
        return None
    try:
        url = subprocess.run(["git", "-C", str(checkout), "config", "--get", "remote.origin.url"],
                             capture_output=True, text=True, timeout=5).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    m = re.match(r"^(?:https://(?:[^@/]+@)?|git@|ssh://git@)([^/:]+)[/:](.+?)(?:\.git)?/?$", url)
    return f"https://{m.group(1)}/{m.group(2)}/blob/HEAD/{DOCS_IN_REPOSITORY}" if m else None
