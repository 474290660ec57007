"""The common translator interface: graph + options -> a bundle of files, or the reasons it cannot.

Every backend translator is a `Translator` with a `name`, documented `settings` (the `--set KEY=VALUE`
overrides it accepts, with defaults), `check` (the located reasons it would refuse this graph; lint
reuses it for `--for`), `translate` (a `Bundle`: relative path -> text, plus notes such as the rank
order used and any approximation) and `write`. Translators read the FQG only; shared structure
detection lives in `structure.py`.
"""

from __future__ import annotations

import math
import stat
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import jinja2

from ..errors import Diagnostic, InfraGraphError, Location, did_you_mean, error
from ..graph.fqg import FQG
from ..output import make_output_dir, write_bytes, write_text
from .chakra_et import Workload

TEMPLATES = jinja2.Environment(
    loader=jinja2.PackageLoader("infragraph.translators", "templates"),
    undefined=jinja2.StrictUndefined,
    keep_trailing_newline=True,
    trim_blocks=True,
    lstrip_blocks=True,
)


def render(template: str, **context: Any) -> str:
    """Render one of templates/*.j2 (StrictUndefined: a missing value is a bug, not an empty string)."""
    return TEMPLATES.get_template(template).render(**context)


@dataclass(frozen=True)
class Setting:
    """One overridable value: its default (as text, the way the user writes it) and why it is that."""

    key: str
    default: str
    doc: str
    parse: Callable[[str], Any] = str


@dataclass
class Options:
    approximate: bool = False  # allow a documented approximation instead of refusing
    settings: dict[str, str] = field(default_factory=dict)  # --set KEY=VALUE, as given
    workload: Workload = field(default_factory=Workload)  # the collective every ASTRA-sim bundle carries


@dataclass
class Bundle:
    """The translator's output: files by relative path (text, or bytes for binary files such as the
    Chakra workload), and notes for the user (also in README.md)."""

    backend: str
    files: dict[str, str | bytes]
    notes: list[str] = field(default_factory=list)
    rank_order: list[str] = field(default_factory=list)  # NPU node name per rank
    approximate: bool = False

    def write(self, outdir: str | Path) -> list[Path]:
        outdir = make_output_dir(outdir)
        written = []
        for folder in {str(Path(rel).parent) for rel in self.files}:
            make_output_dir(outdir / folder)
        for rel, content in self.files.items():
            path = outdir / rel
            (write_bytes if isinstance(content, bytes) else write_text)(path, content)
            if rel.endswith(".sh"):
                path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
            written.append(path)
        return written


class Translator(ABC):
    name: str = ""
    description: str = ""
    settings: tuple[Setting, ...] = ()

    # --- options ---------------------------------------------------------------------------
    def resolve_settings(self, options: Options) -> dict[str, Any]:
        """Defaults overridden by --set, parsed; an unknown key or a bad value is a located error."""
        known = {s.key: s for s in self.settings}
        out = {s.key: s.parse(s.default) for s in self.settings}
        diags = []
        for key, text in options.settings.items():
            s = known.get(key)
            if s is None:
                listing = ", ".join(sorted(known)) or "(none)"
                diags.append(Diagnostic(f"unknown setting '{key}' for {self.name}; expected one of: {listing}",
                                        Location(path=f"--set {key}"), did_you_mean(key, known)))
                continue
            try:
                out[key] = s.parse(text)
            except (ValueError, InfraGraphError) as e:
                diags.append(Diagnostic(f"bad value '{text}' for {key}: {e}", Location(path=f"--set {key}"),
                                        f"{key}: {s.doc} (default {s.default})"))
        if diags:
            raise InfraGraphError(diags)
        return out

    def settings_table(self, values: dict[str, Any]) -> list[tuple[str, str, str, bool]]:
        """(key, value used, doc, overridden?) for the README."""
        return [(s.key, _show(values[s.key]), s.doc, _show(values[s.key]) != _show(s.parse(s.default)))
                for s in self.settings]

    # --- the interface ---------------------------------------------------------------------
    def check(self, g: FQG, options: Options | None = None) -> list[Diagnostic]:
        """The located reasons this translator would refuse `g` (empty when it would translate it)."""
        try:
            self.plan(g, options or Options())
        except InfraGraphError as e:
            return list(e.diagnostics)
        return []

    @abstractmethod
    def plan(self, g: FQG, options: Options) -> Any:
        """Everything the output needs (detected structure, resolved settings); raises InfraGraphError."""

    @abstractmethod
    def render(self, plan: Any) -> Bundle:
        """The files of a plan."""

    def translate(self, g: FQG, options: Options | None = None) -> Bundle:
        return self.render(self.plan(g, options or Options()))

    def write(self, bundle: Bundle, outdir: str | Path) -> list[Path]:
        return bundle.write(outdir)


def _show(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return ",".join(_show(v) for v in value)
    if isinstance(value, float) and value == int(value):
        return str(int(value))
    return str(value)


# --- parsers for settings ----------------------------------------------------------------------

def _number(text: str, convert: Callable[[str], Any], what: str, low: float | None, low_ok: bool) -> Any:
    """`text` as `convert` reads it, finite and above `low` (or at it, with `low_ok`): one parser for
    every numeric setting, so each refuses a word, nan, inf and an out-of-range value alike (a
    --set value goes into a bundle a backend runs, where a nan or a negative bandwidth fails late
    or, worse, silently)."""
    try:
        value = convert(text)
    except (ValueError, OverflowError):
        value = None
    if isinstance(value, int) and not -2**63 <= value < 2**63:
        value = None  # no backend reads an integer beyond int64, and math.isfinite cannot take it
    bound = "" if low is None else f" {'>=' if low_ok else '>'} {low:g}"
    below = low is not None and value is not None and (value < low or (value == low and not low_ok))
    if value is None or (isinstance(value, float) and not math.isfinite(value)) or below:
        raise ValueError(f"expected {what}{bound}")
    return value


def parse_int(text: str) -> int:
    return _number(text, int, "an integer", None, True)


def parse_positive_int(text: str) -> int:
    return _number(text, int, "an integer", 0, False)


def parse_positive_float(text: str) -> float:
    return _number(text, float, "a finite number", 0, False)


def parse_nonnegative_float(text: str) -> float:
    return _number(text, float, "a finite number", 0, True)


def parse_bool(text: str) -> bool:
    t = text.strip().lower()
    if t in ("1", "true", "yes", "on"):
        return True
    if t in ("0", "false", "no", "off"):
        return False
    raise ValueError("expected true or false")


def choice(*allowed: str) -> Callable[[str], str]:
    def parse(text: str) -> str:
        if text not in allowed:
            raise ValueError(f"expected one of: {', '.join(allowed)}")
        return text
    return parse


def list_of(item: Callable[[str], Any]) -> Callable[[str], list]:
    """Comma-separated list ('ring,direct'); an empty text is an empty list."""
    def parse(text: str) -> list:
        return [item(x.strip()) for x in text.split(",")] if text.strip() else []
    return parse


def refuse(diagnostics: list[Diagnostic]) -> None:
    if diagnostics:
        raise InfraGraphError(diagnostics)


__all__ = ["Bundle", "Options", "Setting", "Translator", "error", "render", "refuse"]
