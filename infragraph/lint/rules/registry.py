"""The rule registry: `@rule(...)` records a check under its stable id.

Ids are assigned once and never reused; docs/lint.md has a section per id (a test enforces it),
which is also what SARIF consumers show as the rule's help.
"""

from __future__ import annotations

from ..model import SEVERITIES, Check, Rule

RULES: dict[str, Rule] = {}


def rule(rule_id: str, name: str, severity: str, summary: str):
    """Register the decorated check as rule `rule_id`."""
    assert severity in SEVERITIES and rule_id not in RULES, rule_id

    def register(check: Check) -> Check:
        RULES[rule_id] = Rule(rule_id, name, severity, summary, check)
        return check

    return register


def _no_check(ctx):  # IG000 is reported by the engine, not computed from a graph
    return ()


# Not selectable or ignorable: a source that does not load cannot be linted (exit code 2), but the
# problem is still reported in every output format, so CI shows it where the findings would be.
INPUT_RULE = Rule("IG000", "invalid-input", "error",
                  "The source could not be read, validated or expanded to a graph", _no_check)
