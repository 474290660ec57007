"""Shared test helpers: load documents from inline YAML and expand them."""

from __future__ import annotations

import textwrap

import pytest

from infragraph.document import io
from infragraph.errors import InfraGraphError
from infragraph.graph import FQG, expand


def doc(text: str, filename: str = "test.yaml"):
    return io.loads(textwrap.dedent(text), filename)


def graph(text: str) -> FQG:
    return expand(doc(text))


def error_of(text: str, filename: str = "test.yaml") -> str:
    """The rendered error for a document that must fail loading or expansion."""
    with pytest.raises(InfraGraphError) as info:
        expand(doc(text, filename))
    return str(info.value)


def graph_file(g: FQG, tmp_path_factory, name: str) -> str:
    """`g` written as a compiled graph (FQG JSON) file, quick to load in CLI tests."""
    from infragraph.graph.export import write_json

    path = tmp_path_factory.mktemp("graphs") / name
    write_json(g, path)
    return str(path)
