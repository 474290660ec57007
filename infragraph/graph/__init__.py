"""The fully qualified graph: expansion from a document, queries and exports."""

from .expand import expand
from .fqg import FQG, ComponentInfo, InstanceInfo, LinkInfo

__all__ = ["FQG", "ComponentInfo", "InstanceInfo", "LinkInfo", "expand"]
