"""Translator rule: would the chosen backend translator (`--for ns3|htsim|astra-analytical`)
refuse this graph? The translators own their requirements; this rule only calls their
`check(g, options) -> list[Diagnostic]` (via `infragraph.translators.get(name)`) with default
options and reports each error-severity diagnostic as a finding, so the rules cannot drift apart."""

from __future__ import annotations

import importlib
from functools import lru_cache

from ...errors import Diagnostic, InfraGraphError, Location
from ..model import Finding, LintContext
from .registry import rule

TARGETS = ("ns3", "htsim", "astra-analytical")


@lru_cache(maxsize=None)
def load_translator(name: str):
    """The translator object for `name`; InfraGraphError (a usage error) when it is unavailable."""
    if name not in TARGETS:
        raise InfraGraphError(Diagnostic(f"unknown translator '{name}'; expected one of: {', '.join(TARGETS)}"))
    try:
        translators = importlib.import_module("infragraph.translators")
    except ModuleNotFoundError as e:
        if e.name not in ("infragraph.translators", "infragraph"):
            raise
        raise InfraGraphError(Diagnostic(
            f"--for {name}: the translators are not installed in this checkout (infragraph.translators "
            f"is missing), so their checks cannot run")) from None
    try:
        translator = translators.get(name)
    except ModuleNotFoundError as e:
        if not (e.name or "").startswith("infragraph.translators"):
            raise
        raise InfraGraphError(Diagnostic(
            f"--for {name}: the {name} translator is not available in this checkout ({e.name} is missing)")) from None
    except (KeyError, LookupError, InfraGraphError):
        raise InfraGraphError(Diagnostic(f"--for {name}: no translator named '{name}' is registered")) from None
    if not callable(getattr(translator, "check", None)):
        raise InfraGraphError(Diagnostic(f"--for {name}: the translator has no check(g, options) function"))
    return translator


@rule("IG013", "translator-refuses", "error", "The translator chosen with --for would refuse the graph")
def translator_refuses(ctx: LintContext):
    target = ctx.options.target
    if not target:
        return
    translator = load_translator(target)
    try:
        diags = list(translator.check(ctx.g, None))
    except InfraGraphError as e:
        diags = e.diagnostics
    refusals = [d for d in diags if d.severity == "error"]
    for d in ctx.capped("IG013", refusals):
        yield Finding("IG013", f"{target} translator: {d.message}", _located(ctx, d.location), (),
                      d.hint or f"change the graph so that the {target} translator accepts it")


def _located(ctx: LintContext, loc: Location) -> Location:
    """A translator names document paths (or nothing): resolve them like any other finding."""
    if loc.line is None and loc.path:
        return ctx.locate.at(loc.path)
    if not loc.file:
        return Location(ctx.locate.file, loc.line, loc.column, loc.path)
    return loc
