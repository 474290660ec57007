"""Text -> raw data for documents, strictly: what a YAML or JSON parser lets through but a document
must not have is a located error here.

- Duplicate keys (`count: 3` then `count: 2`): both parsers keep the last one silently.
- Nesting deeper than `MAX_DEPTH`: PyYAML's C loader recurses on the C stack (100,000 levels kill
  the process with SIGSEGV) and deep data makes later stages raise RecursionError. A cheap count
  decides whether the exact scan is needed at all, so ordinary documents pay almost nothing.
- YAML aliases that expand to more than `MAX_EXPANDED_NODES` nodes ("billion laughs"): the
  loader shares aliased objects, but every later walk (schema, model) visits each use.
- An empty or comment-only file: not a document.
"""

from __future__ import annotations

import json
import re
from typing import Any

import numpy as np
import yaml

from ..errors import Diagnostic, InfraGraphError, Location

MAX_DEPTH = 100  # a public-format document is about 6 levels deep
MAX_EXPANDED_NODES = 1_000_000

# The C loader when PyYAML has it (several times faster), else the pure-Python one; io.py composes with it too.
YamlLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_MERGE = "tag:yaml.org,2002:merge"


class _DuplicateKey(Exception):
    def __init__(self, key: str, mark, first):
        super().__init__(key)
        self.key, self.mark, self.first = key, mark, first


class StrictLoader(YamlLoader):
    """The C safe loader (when available), refusing duplicate keys in a mapping."""

    def construct_mapping(self, node, deep=False):
        if isinstance(node, yaml.MappingNode):
            seen: dict[str, Any] = {}
            for key_node, _ in node.value:
                if isinstance(key_node, yaml.ScalarNode) and key_node.tag != _MERGE:
                    if key_node.value in seen:
                        raise _DuplicateKey(key_node.value, key_node.start_mark, seen[key_node.value])
                    seen[key_node.value] = key_node.start_mark
        return super().construct_mapping(node, deep)


DOCUMENT_NEEDS = "a document needs at least 'name', and 'devices', 'instances' and 'edges' to describe a fabric"


def parse_text(text: str, filename: str, needs: str = DOCUMENT_NEEDS) -> Any:
    """The data in a file (JSON when `filename` ends .json, else YAML), strictly read. `needs` says
    what the file should have held, for the message about an empty one."""
    if not text.strip() or (not filename.endswith(".json") and _only_comments(text)):
        raise InfraGraphError(Diagnostic(f"the file is empty (or only comments); {needs}", Location(filename, 1, 1)))
    _check_depth(text, filename)
    try:
        data = _parse_json(text, filename) if filename.endswith(".json") else _parse_yaml(text, filename)
    except RecursionError:
        raise InfraGraphError(Diagnostic(f"document nested too deeply to read (limit {MAX_DEPTH} levels)",
                                         Location(filename))) from None
    return data


def _only_comments(text: str) -> bool:
    return all(not line.strip() or line.lstrip().startswith("#") or line.strip() in ("---", "...")
               for line in text.splitlines())


# --- JSON ----------------------------------------------------------------------------------------


def _pairs_unique(pairs: list[tuple[str, Any]]) -> dict:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for k, _ in pairs:
            if k in seen:
                raise _DuplicateKey(k, None, None)
            seen.add(k)
    return out


def _parse_json(text: str, filename: str) -> Any:
    try:
        return json.loads(text, object_pairs_hook=_pairs_unique)
    except json.JSONDecodeError as e:
        raise InfraGraphError(Diagnostic(f"invalid JSON: {e.msg}", Location(filename, e.lineno, e.colno))) from None
    except _DuplicateKey as e:
        raise _duplicate_error(e.key, text, filename) from None


def _duplicate_error(key: str, text: str, filename: str) -> InfraGraphError:
    """Locate a duplicate JSON key by composing the text as YAML (JSON is YAML) with positions."""
    try:
        yaml.load(text, Loader=StrictLoader)
    except _DuplicateKey as e:
        return _duplicate(e, filename)
    except yaml.YAMLError:
        pass
    return InfraGraphError(Diagnostic(f"duplicate key '{key}'", Location(filename),
                                      "a key may appear once per mapping; remove or rename one"))


def _duplicate(e: _DuplicateKey, filename: str) -> InfraGraphError:
    return InfraGraphError(Diagnostic(
        f"duplicate key '{e.key}' (first at line {e.first.line + 1}, column {e.first.column + 1})",
        Location(filename, e.mark.line + 1, e.mark.column + 1),
        "a key may appear once per mapping; the parser would silently keep the last value"))


# --- YAML ----------------------------------------------------------------------------------------


def _parse_yaml(text: str, filename: str) -> Any:
    try:
        if "&" in text and "*" in text:
            _check_aliases(yaml.compose(text, Loader=YamlLoader), filename)
        return yaml.load(text, Loader=StrictLoader)
    except _DuplicateKey as e:
        raise _duplicate(e, filename) from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        problem = getattr(e, "problem", None) or str(e)
        loc = Location(filename, mark.line + 1, mark.column + 1) if mark else Location(filename)
        raise InfraGraphError(Diagnostic(f"invalid YAML: {problem}", loc)) from None


def _check_aliases(root: yaml.Node | None, filename: str) -> None:
    """Refuse a YAML whose aliases expand beyond MAX_EXPANDED_NODES (sizes memoised per node)."""
    if root is None:
        return
    size: dict[int, int] = {}
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        if id(node) in size:
            continue
        kids = _children(node)
        if not children_done:
            stack.append((node, True))
            stack.extend((k, False) for k in kids if id(k) not in size)
            continue
        total = 1 + sum(size[id(k)] for k in kids)
        size[id(node)] = total
        if total > MAX_EXPANDED_NODES:
            raise InfraGraphError(Diagnostic(
                f"YAML aliases expand this value to more than {MAX_EXPANDED_NODES:,} nodes",
                Location(filename, node.start_mark.line + 1, node.start_mark.column + 1),
                "a document this size is an alias bomb, not a fabric; write the values out or use fewer aliases"))


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [x for pair in node.value for x in pair]
    return []


# --- depth ---------------------------------------------------------------------------------------

_DASH_RUN = re.compile(r"(?:-[ \t]+){%d,}" % MAX_DEPTH)
_OPEN = np.zeros(256, dtype=np.int8)
_OPEN[[ord("["), ord("{")]] = 1
_OPEN[[ord("]"), ord("}")]] = -1


def _check_depth(text: str, filename: str) -> None:
    """Refuse nesting deeper than MAX_DEPTH, located at the first value beyond it. The exact
    scan runs only when the file has more brackets (or a longer run of `- `) than the limit."""
    offset = None
    if text.count("[") + text.count("{") > MAX_DEPTH:
        raw = np.frombuffer(text.encode("utf-8", "surrogatepass"), dtype=np.uint8)
        delta = _OPEN[raw]
        where = np.flatnonzero(delta)
        depth = np.cumsum(delta[where], dtype=np.int64)
        over = np.flatnonzero(depth > MAX_DEPTH)
        if over.size:
            offset = len(raw[: int(where[over[0]])].tobytes().decode("utf-8", "surrogatepass"))
    if offset is None and not filename.endswith(".json"):
        m = _DASH_RUN.search(text)
        if m:
            offset = m.start() + 2 * MAX_DEPTH
    if offset is not None:
        line = text.count("\n", 0, offset) + 1
        column = offset - (text.rfind("\n", 0, offset) + 1) + 1
        raise InfraGraphError(Diagnostic(
            f"document nested more than {MAX_DEPTH} levels deep", Location(filename, line, column),
            "an InfraGraph document is about 6 levels deep; is this the file you meant?"))
