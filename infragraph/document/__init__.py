"""The InfraGraph document: typed model, public-format YAML/JSON I/O, schema and reference checks."""

from .check import reference_errors
from .model import (
    Annotations,
    Bandwidth,
    Component,
    Device,
    Edge,
    EdgeAnnotation,
    Endpoint,
    Infrastructure,
    Instance,
    Latency,
    Link,
    LinkAnnotation,
    NodeAnnotation,
)

__all__ = [
    "Annotations", "Bandwidth", "Component", "Device", "Edge", "EdgeAnnotation", "Endpoint",
    "Infrastructure", "Instance", "Latency", "Link", "LinkAnnotation", "NodeAnnotation",
    "dump", "dumps", "load", "loads", "reference_errors",
]


def __getattr__(name: str):
    """dump, dumps, load and loads (document.io) on first use: io imports YAML and the schema, which
    a command reading a compiled graph (a workload replay from the compile cache) never needs."""
    if name in ("dump", "dumps", "load", "loads"):
        from . import io

        return getattr(io, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
