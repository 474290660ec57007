"""Translators: one InfraGraph in, ready-to-run backend inputs out (and importers back).

`get(name)` returns the translator for a backend; `NAMES` lists them. Each is a
`base.Translator`: `check(g, options)` -> located reasons it would refuse, `translate(g, options)`
-> `Bundle` (files + notes), `write(bundle, outdir)`.
"""

from __future__ import annotations

from importlib import import_module

from ..errors import did_you_mean, error
from .base import Bundle, Options, Translator

_MODULES = {
    "astra-analytical": ("astra_analytical", "AstraAnalytical"),
    "ns3": ("ns3", "Ns3"),
    "htsim": ("htsim", "HTSim"),
    "simengine": ("simengine", "SimEngine"),
}
NAMES: tuple[str, ...] = tuple(_MODULES)


def get(name: str) -> Translator:
    """The translator called `name` (one of NAMES); a clear error otherwise."""
    if name not in _MODULES:
        raise error(f"unknown translator '{name}'; expected one of: {', '.join(NAMES)}", hint=did_you_mean(name, NAMES))
    module, cls = _MODULES[name]
    return getattr(import_module(f"{__name__}.{module}"), cls)()


__all__ = ["NAMES", "Bundle", "Options", "Translator", "get"]
