"""All lint rules. Importing this package registers every rule in `RULES` (id -> Rule), ordered
by id. Each module groups rules that look at the same facts (cabling, connectivity, links,
capacity, definitions, translator targets)."""

from . import cabling, capacity, connectivity, definitions, links, targets  # noqa: F401  (registers)
from .registry import RULES

RULES = dict(sorted(RULES.items()))

__all__ = ["RULES"]
