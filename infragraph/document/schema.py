"""Validation of a raw document dict (with its optional annotations block) against
schemas/infragraph.schema.json."""

from __future__ import annotations

from ..schemas import validate


def validate_document(data: object) -> None:
    """Raise InfraGraphError, located by document path, if `data` breaks the document schema."""
    validate("infragraph", data)
