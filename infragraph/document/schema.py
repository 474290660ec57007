"""Validation of a raw document dict (with its optional annotations block) against
schemas/infragraph.schema.json."""

from __future__ import annotations

from ..errors import Diagnostic, InfraGraphError, Location
from ..integers import exact_integer, not_an_integer
from ..schemas import validate


def validate_document(data: object) -> None:
    """Raise InfraGraphError, located by document path, if `data` breaks the document schema.
    The counts (the schema's only integers) are then made exact ints in place: 2.0 is 2, as the
    schema reads it, and 1e300 (an integer to the schema, but no exact one) is refused."""
    validate("infragraph", data)
    assert isinstance(data, dict)  # the schema's top-level type
    counted = [(f"devices[{i}].components[{j}]", c) for i, d in enumerate(data.get("devices") or [])
               for j, c in enumerate(d.get("components") or [])]
    counted += [(f"instances[{i}]", x) for i, x in enumerate(data.get("instances") or [])]
    bad = []
    for where, record in counted:
        number = exact_integer(record["count"])
        if number is None:
            bad.append(Diagnostic(not_an_integer(record["count"]), Location(path=f"{where}.count")))
        else:
            record["count"] = number
    if bad:
        raise InfraGraphError(bad)
