"""Shared test helpers: load documents from inline YAML and expand them."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path
from typing import Callable

import pytest

from infragraph.document import io
from infragraph.errors import Diagnostic, InfraGraphError
from infragraph.graph import FQG, expand


# A host (2 xpu, 2 nic) and a switch (asic, 4 ports) with their internal links, and an `eth`
# link: the devices a test document adds its own instances and edges to (after this text).
TWO_DEVICES = """
name: t
devices:
- name: host
  components: [{name: xpu, choice: xpu, count: 2}, {name: nic, choice: nic, count: 2}]
  links: [{name: pcie}]
  edges: [{ep1: {component: xpu}, ep2: {component: nic}, link: pcie, scheme: one2one}]
- name: switch
  components: [{name: asic, choice: switch, count: 1}, {name: port, choice: port, count: 4}]
  links: [{name: ic}]
  edges: [{ep1: {component: asic}, ep2: {component: port}, link: ic, scheme: many2many}]
links: [{name: eth}]
"""


def doc(text: str, filename: str = "test.yaml"):
    return io.loads(textwrap.dedent(text), filename)


def graph(text: str) -> FQG:
    return expand(doc(text))


def error_of(text: str, filename: str = "test.yaml") -> str:
    """The rendered error for a document that must fail loading or expansion."""
    with pytest.raises(InfraGraphError) as info:
        expand(doc(text, filename))
    return str(info.value)


def graph_file(g: FQG, tmp_path_factory, name: str) -> str:
    """`g` written as a compiled graph (FQG JSON) file, quick to load in CLI tests."""
    from infragraph.graph.export import write_json

    path = tmp_path_factory.mktemp("graphs") / name
    write_json(g, path)
    return str(path)


REPO = Path(__file__).resolve().parents[1]

# A test's Dask LocalCluster: its scheduler's HTTP server (on even with the dashboard off) takes
# any free port, not the fixed 8787 that another run on the machine may hold.
NO_FIXED_PORT = {"dashboard_address": ":0"}


def one_diagnostic(call: Callable[..., object], *args: object, **kwargs: object) -> Diagnostic:
    """The single located diagnostic `call(*args, **kwargs)` raises as an InfraGraphError; fails the
    test when it returns, raises something else, or reports more than one problem."""
    with pytest.raises(InfraGraphError) as e:
        call(*args, **kwargs)
    (d,) = e.value.diagnostics
    return d


def error_text(call: Callable[..., object], *args: object) -> str:
    """The rendered InfraGraphError `call(*args)` raises (file:line:col: error: ..., hints): what a
    user reads, for tests that check the message and where it points."""
    with pytest.raises(InfraGraphError) as e:
        call(*args)
    return str(e.value)


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of `infragraph ARGV` run in-process. No input may make the
    command fail with a traceback or an internal error (exit 3), so either fails the test here,
    once for every command-line test that runs through it."""
    from infragraph.cli import main

    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "internal error" not in err, err
    return code, out, err


def shared_file(relative: str) -> Path:
    """A file of the project's shared/ folder, which sits beside the repository (CI clones the
    repository with shared/ next to it; a git worktree under wt/ has it two levels up). Missing,
    the test fails under CI=true (the data must be there) and is skipped elsewhere."""
    for root in (REPO.parent, REPO.parent.parent):
        path = root / "shared" / relative
        if path.exists():
            return path
    message = f"shared/{relative} not found beside {REPO}"
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)
