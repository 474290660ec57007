"""JSON Schema validation (draft 2020-12) against the files in schemas/, with located errors.

Validators are built once per schema and cached: validation runs on every load, so building
the validator (which compiles the schema) must not be paid per document.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from typing import TYPE_CHECKING

from .errors import MAX_SHOWN, Diagnostic, InfraGraphError, Location, first_errors
from .paths import schema_path

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator

MAX_REPORTED = MAX_SHOWN


@lru_cache(maxsize=None)
def validator(name: str) -> Draft202012Validator:
    # Imported here: jsonschema's import builds its format checkers' grammars (about 1.2 s of CPU),
    # which a command that validates nothing (simulate from the compile cache) should not pay.
    from jsonschema import Draft202012Validator

    with open(schema_path(name), encoding="utf-8") as fh:
        schema = json.load(fh)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(inline_refs(schema))


def inline_refs(schema: dict) -> dict:
    """The same schema with each local `{"$ref": "#/$defs/X"}` replaced by X itself (a `$ref` with
    sibling keywords becomes `allOf: [X]` beside them, which is what 2020-12 means by it). The
    validator then skips a reference lookup per record — about 40 % of validating a large
    document. A recursive definition is left as a `$ref` (its inner use only)."""
    defs = schema.get("$defs", {})

    def walk(node, stack: tuple[str, ...]):
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/") and ref[8:] in defs and ref not in stack:
                target = walk(defs[ref[8:]], stack + (ref,))
                rest = {k: walk(v, stack) for k, v in node.items() if k != "$ref"}
                return {**rest, "allOf": [target]} if rest else target
            return {k: (v if k == "$defs" else walk(v, stack)) for k, v in node.items()}
        if isinstance(node, list):
            return [walk(v, stack) for v in node]
        return node

    return walk(schema, ())


def format_path(parts) -> str:
    """['edges', 3, 'ep2'] -> 'edges[3].ep2'."""
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out


def _message(err) -> str:
    if err.validator == "additionalProperties":
        return f"{err.message}; allowed keys: {', '.join(sorted(err.schema.get('properties', {})))}"
    if err.validator == "enum":
        return f"{err.instance!r} is not one of: {', '.join(map(str, err.validator_value))}"
    if err.validator == "pattern":
        return f"{err.instance!r} is not a valid name (letters, digits, spaces, - _ ( ) < > [ ]; no dots)"
    if err.validator in ("anyOf", "oneOf"):
        return _alternatives(err)
    return err.message


_TYPE_WORDS = {"string": "text", "object": "a mapping", "array": "a list", "number": "a number",
               "integer": "a whole number", "boolean": "true or false", "null": "null"}


def _json_types(value: Any) -> tuple[str, ...]:
    """The JSON Schema types `value` has (a whole number is also a number)."""
    if isinstance(value, bool):
        return ("boolean",)
    if isinstance(value, int):
        return ("integer", "number")
    return {float: ("number",), str: ("string",), list: ("array",), dict: ("object",),
            type(None): ("null",)}.get(type(value), ())


def _fitting(err) -> tuple[set[int], list[str]]:
    """anyOf/oneOf: the alternatives whose type the value has, and every type the alternatives name."""
    found = set(_json_types(err.instance))
    expected: list[str] = []
    fitting: set[int] = set()
    for i, branch in enumerate(err.validator_value):
        kinds = branch.get("type", ()) if isinstance(branch, dict) else ()
        kinds = [kinds] if isinstance(kinds, str) else list(kinds)
        expected += kinds
        fitting |= {i} if found & set(kinds) else set()
    return fitting, expected


def _specific(err):
    """The error to report: of anyOf/oneOf on a value of one alternative's type, what is wrong inside
    that alternative (located where it is), since jsonschema says only 'not valid under any of the
    given schemas'; else `err`."""
    if err.validator not in ("anyOf", "oneOf"):
        return err
    fitting, _ = _fitting(err)
    inner = [e for e in err.context if e.relative_schema_path[0] in fitting]
    return _specific(inner[0]) if inner else err


def _alternatives(err) -> str:
    """anyOf/oneOf on a value of none of the alternatives' types: what it is and what was expected."""
    fitting, expected = _fitting(err)
    if not expected or fitting:
        return err.message
    words = list(dict.fromkeys(_TYPE_WORDS.get(k, k) for k in expected))
    found = _json_types(err.instance)
    is_ = _TYPE_WORDS[found[0]] if found else type(err.instance).__name__
    return f"{err.instance!r} is {is_}; expected {', '.join(words[:-1]) + ' or ' if len(words) > 1 else ''}{words[-1]}"


def schema_errors(name: str, data: Any, prefix: tuple = ()) -> list[Diagnostic]:
    """All violations of schemas/<name>.schema.json, each located by document path."""
    errors = sorted(map(_specific, validator(name).iter_errors(data)), key=lambda e: list(map(str, e.absolute_path)))
    return first_errors([
        Diagnostic(_message(e), Location(path=format_path(prefix + tuple(e.absolute_path)) or "<document>"))
        for e in errors[:MAX_REPORTED]
    ], len(errors), Location(path=format_path(prefix) or "<document>"))


def validate(name: str, data: Any) -> None:
    """Raise InfraGraphError listing every violation (up to MAX_REPORTED)."""
    diags = schema_errors(name, data)
    if diags:
        raise InfraGraphError(diags)
