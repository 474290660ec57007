"""The validator runs on the schema with its $defs references inlined: the same verdicts."""

from __future__ import annotations

import json

from jsonschema import Draft202012Validator

from infragraph.paths import schema_path
from infragraph.schemas import inline_refs


def test_inlined_schemas_have_no_local_references_and_the_same_meaning():
    for name in ("infragraph", "fqg", "simulation-result", "lint-config", "lint-report"):
        schema = json.loads(schema_path(name).read_text())
        inlined = inline_refs(schema)
        body = {k: v for k, v in inlined.items() if k != "$defs"}
        assert '"$ref": "#/$defs/' not in json.dumps(body), name
        Draft202012Validator.check_schema(inlined)


def test_sibling_keywords_of_a_reference_still_apply():
    schema = {"$defs": {"N": {"type": "integer"}}, "properties": {"a": {"$ref": "#/$defs/N", "minimum": 3}}}
    v = Draft202012Validator(inline_refs(schema))
    assert v.is_valid({"a": 4})
    assert not v.is_valid({"a": 2}) and not v.is_valid({"a": "x"})


def test_recursive_definitions_stay_references():
    schema = {"$defs": {"T": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/T"}}},
                              "additionalProperties": False}},
              "$ref": "#/$defs/T"}
    v = Draft202012Validator(inline_refs(schema))
    assert v.is_valid({"kids": [{"kids": []}]})
    assert not v.is_valid({"kids": [{"kids": [{"x": 1}]}]})
