"""Lint configuration: which rules run, at what severity, with which parameters.

Read from `.infragraph-lint.toml` (keys at top level) or the `[tool.infragraph.lint]` table of
`pyproject.toml`, whichever is found first walking up from the working directory (in one
directory `.infragraph-lint.toml` wins), validated against schemas/lint-config.schema.json;
command-line options then override it (`--select` replaces, `--ignore` adds).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..document import tomlio
from ..errors import Diagnostic, InfraGraphError, Location, did_you_mean, read_text
from ..integers import exact_integer, not_an_integer
from ..schemas import schema_errors
from .model import LintOptions, Rule
from .rules import RULES

CONFIG_FILE = ".infragraph-lint.toml"


@dataclass(frozen=True)
class LintConfig:
    select: tuple[str, ...] | None = None  # None: every rule
    ignore: tuple[str, ...] = ()
    severity: dict[str, str] = field(default_factory=dict)
    max_oversubscription: float | None = None
    target: str | None = None
    max_per_rule: int = 50
    docs_url: str | None = None
    source: str | None = None  # the file this came from, for messages

    def rules(self) -> list[Rule]:
        """The enabled rules, in id order."""
        chosen = RULES if self.select is None or "ALL" in self.select else {i: RULES[i] for i in self.select}
        return [r for i, r in RULES.items() if i in chosen and i not in self.ignore]

    def severity_of(self, rule: Rule) -> str:
        return self.severity.get(rule.id, rule.severity)

    def options(self) -> LintOptions:
        return LintOptions(self.max_oversubscription, self.target, self.max_per_rule)

    def with_overrides(self, select=None, ignore=None, max_oversubscription=None, target=None) -> LintConfig:
        """This configuration with command-line options applied (None = not given)."""
        out = self
        if select is not None:
            out = replace(out, select=tuple(_checked_ids(select, "--select", None)))
        if ignore:
            out = replace(out, ignore=out.ignore + tuple(_checked_ids(ignore, "--ignore", None)))
        if max_oversubscription is not None:
            if not max_oversubscription > 0:
                raise InfraGraphError(Diagnostic(
                    f"--max-oversubscription must be positive, got {max_oversubscription:g}"))
            out = replace(out, max_oversubscription=float(max_oversubscription))
        if target is not None:
            out = replace(out, target=target)
        return out


def split_ids(values: list[str]) -> list[str]:
    """'IG001,IG003' and repeated options alike -> ['IG001', 'IG003'] (upper-cased)."""
    return [x.strip().upper() for v in values for x in v.split(",") if x.strip()]


def _checked_ids(ids: list[str], where: str, loc: Location | None) -> list[str]:
    ids = split_ids(ids)
    bad = [i for i in ids if i not in RULES and i != "ALL"]
    if bad:
        hint = did_you_mean(bad[0], RULES)
        raise InfraGraphError(Diagnostic(
            f"{where}: unknown rule id '{bad[0]}'; rules are {', '.join(RULES)} (or ALL)",
            loc or Location(), hint))
    return ids


def from_table(table: dict[str, Any], source: str, prefix: tuple = ()) -> LintConfig:
    """A LintConfig from a TOML table, validated; problems located at `source` and key path."""
    diags = schema_errors("lint-config", table, prefix)
    if diags:
        raise InfraGraphError([Diagnostic(d.message, Location(source, path=d.location.path)) for d in diags])
    key = ".".join(prefix)

    def loc(name: str) -> Location:
        return Location(source, path=f"{key}.{name}" if key else name)

    severity = {k.upper(): v for k, v in (table.get("severity") or {}).items()}
    max_per_rule = exact_integer(table.get("max-findings-per-rule", 50))  # the schema's "integer": 3.0 is 3
    if max_per_rule is None:
        raise InfraGraphError(Diagnostic(not_an_integer(table["max-findings-per-rule"]), loc("max-findings-per-rule")))
    _checked_ids(list(severity), "severity", loc("severity"))
    return LintConfig(
        select=tuple(_checked_ids(table["select"], "select", loc("select"))) if "select" in table else None,
        ignore=tuple(_checked_ids(table.get("ignore", []), "ignore", loc("ignore"))),
        severity=severity,
        max_oversubscription=table.get("max-oversubscription"),
        target=table.get("for"),
        max_per_rule=max_per_rule,
        docs_url=table.get("docs-url"),
        source=source,
    )


def _read_toml(path: Path) -> dict:
    return tomlio.loads(read_text(path, "configuration"), str(path))


def load_config_file(path: str | Path) -> LintConfig:
    """A configuration file named explicitly (`--config`): either kind."""
    path = Path(path)
    data = _read_toml(path)
    if path.name == "pyproject.toml":
        table = data.get("tool", {}).get("infragraph", {}).get("lint")
        if table is None:
            raise InfraGraphError(Diagnostic("no [tool.infragraph.lint] table in this file", Location(str(path))))
        return from_table(table, str(path), ("tool", "infragraph", "lint"))
    return from_table(data, str(path))


def discover_config(start: str | Path = ".") -> LintConfig:
    """The configuration in effect for a run started in `start` (defaults when none is found)."""
    here = Path(start).resolve()
    for directory in (here, *here.parents):
        own = directory / CONFIG_FILE
        if own.is_file():
            return load_config_file(own)
        pyproject = directory / "pyproject.toml"
        if pyproject.is_file():
            table = _read_toml(pyproject).get("tool", {}).get("infragraph", {}).get("lint")
            if table is not None:
                return from_table(table, str(pyproject), ("tool", "infragraph", "lint"))
    return LintConfig()
