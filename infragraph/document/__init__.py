"""The InfraGraph document: typed model, public-format YAML/JSON I/O, schema and reference checks."""

from .check import reference_errors
from .io import dump, dumps, load, loads
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
