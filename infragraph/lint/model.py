"""The linter's vocabulary: rules, findings, severities, and the context every rule reads.

A rule is a function from a `LintContext` to findings, registered with a stable id (IG001…),
a kebab-case name, a default severity and a one-line summary. Ids never change meaning or get
reused, because CI configurations, inline suppressions and SARIF baselines refer to them.
Findings carry a resolved `Location` (file:line:col when the source is known, and always the
document path), the fully qualified node names involved and a fix hint.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Hashable, Iterable, Iterator, TypeVar

from ..errors import Location

if TYPE_CHECKING:  # imported for annotations only: the rule modules import this module
    from ..document.model import Infrastructure
    from ..graph.fqg import FQG
    from .facts import GraphFacts
    from .locate import Locator

SEVERITIES = ("error", "warning", "note")
K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


@dataclass(frozen=True)
class Finding:
    """One problem found by one rule. `severity` is filled in by the engine (rule default,
    possibly overridden by configuration), so rules never decide it themselves."""

    rule: str
    message: str
    location: Location
    nodes: tuple[str, ...] = ()
    hint: str | None = None
    severity: str = "error"


@dataclass(frozen=True)
class LintOptions:
    """Rule parameters that come from configuration or the command line."""

    max_oversubscription: float | None = None  # None: the document's own, else DEFAULT_OVERSUBSCRIPTION
    target: str | None = None  # translator whose checks IG013 runs (`--for`)
    max_per_rule: int = 50  # findings kept per rule; the rest are counted as omitted


@dataclass
class LintContext:
    """What a rule may look at: the graph, derived arrays shared between rules, where things
    are in the source, the document (None for an FQG JSON file) and the options."""

    g: "FQG"
    facts: "GraphFacts"
    locate: "Locator"
    doc: "Infrastructure | None"
    options: LintOptions

    def capped(self, rule_id: str, items: list) -> Iterator:
        """The items while fewer than `max_per_rule` findings of the rule were kept; the engine
        reports how many were left out, so a systematic mistake in a 500k-node graph gives a
        readable report, not 65,536 lines. Kept means not suppressed: the engine counts kept
        findings as the rule yields them, so suppressed findings never use up the budget."""
        limit = self.options.max_per_rule
        for n, item in enumerate(items):
            if self.kept.get(rule_id, 0) >= limit:
                self.omitted[rule_id] = self.omitted.get(rule_id, 0) + len(items) - n
                return
            yield item

    omitted: dict[str, int] = field(default_factory=dict)
    kept: dict[str, int] = field(default_factory=dict)  # unsuppressed findings so far, per rule


Check = Callable[[LintContext], Iterable[Finding]]


@dataclass(frozen=True)
class Rule:
    id: str
    name: str
    severity: str
    summary: str
    check: Check = field(repr=False, compare=False)


def grouped(pairs: Iterable[tuple[K, V]]) -> list[tuple[K, list[V]]]:
    """(key, [values]) per distinct key, in first-seen order. A rule reports one finding per group
    of like problems (per component, per instance, per pair of link records), not one per node or
    edge, so the rules group their hits by a key and pass the groups to `LintContext.capped`."""
    groups: dict[K, list[V]] = {}
    for key, value in pairs:
        groups.setdefault(key, []).append(value)
    return list(groups.items())


def node_list(names: Iterable[str], total: int | None = None, shown: int = 4) -> str:
    """'a, b, c, d, … (12 in all)': a readable excerpt of a long list of node names."""
    names = list(names)
    total = len(names) if total is None else total
    text = ", ".join(names[:shown])
    return text + (f", … ({total} in all)" if total > shown else "")
