"""Shared helpers for the language tests: compile a snippet, expect a located error."""

from __future__ import annotations

import pytest

from infragraph.errors import InfraGraphError
from infragraph.graph import expand
from infragraph.lang import compile_source


def graph(text: str, **defines: str):
    return expand(compile_source(text, "t.igl", defines={k: str(v) for k, v in defines.items()} or None))


def error(text: str, **defines: str) -> str:
    """The rendered error of compiling+expanding `text` (which must fail without a traceback)."""
    with pytest.raises(InfraGraphError) as info:
        expand(compile_source(text, "t.igl", defines={k: str(v) for k, v in defines.items()} or None))
    return str(info.value)


PRELUDE = """
link eth { bandwidth = 400 Gbps; latency = 500 ns }
device sw(ports: int = 4) {
    component asic: switch
    component port[ports]: port
    asic -- port many2many via link(1 Tbps, 10 ns)
}
device host {
    component gpu[2]: xpu
    component nic[2]: nic
    gpu -- nic via link(64 GB/s)
}
"""
