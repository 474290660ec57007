"""Start-up stays cheap: building the parser for every command, and `--help` of any command,
import none of the heavy modules (numpy, the engine, YAML, jsonschema, networkx, scipy, the
ANTLR parser, matplotlib, Jinja2). Timing is measured in benchmarks/startup.py, not here."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from infragraph.cli import COMMANDS, build_parser
from infragraph.cli.common import one_of

HEAVY = ("numpy", "yaml", "jsonschema", "networkx", "scipy", "antlr4", "matplotlib", "jinja2",
         "infragraph._simengine", "infragraph.graph", "infragraph.document", "infragraph.lang")

PROBE = """
import contextlib, io, json, sys
from infragraph.cli import main
for argv in json.loads(sys.argv[1]):
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            main(argv)
        except SystemExit:
            pass
print(json.dumps([m for m in {heavy!r} if m in sys.modules]))
"""


def test_help_of_every_command_imports_nothing_heavy():
    argvs = [["--help"], ["--version"]] + [[c.rstrip("_"), "--help"] for c in COMMANDS]
    done = subprocess.run([sys.executable, "-c", PROBE.format(heavy=HEAVY), json.dumps(argvs)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == []


def _typed_options():
    """(option string, one_of checker, help text) for every option that validates a name lazily."""
    parser = build_parser()
    for sub in parser._subparsers._group_actions[0].choices.values():
        for action in sub._actions:
            if isinstance(action.type, one_of):
                yield action.option_strings[-1], action.type, action.help or ""


def test_help_texts_name_every_accepted_value():
    seen = 0
    for option, checker, help_text in _typed_options():
        seen += 1
        missing = [n for n in checker.names() if n not in help_text]
        assert not missing, f"{option}: help does not name {missing}"
    assert seen >= 5


def test_default_values_are_accepted():
    for sub in build_parser()._subparsers._group_actions[0].choices.values():
        for action in sub._actions:
            if isinstance(action.type, one_of) and action.default is not None:
                assert action.default in action.type.names()


def test_workload_replay_imports_no_scipy_nor_yaml(tmp_path):
    """`simulate --workload` never needs scipy (its import was a third of the replay's start-up):
    the graph queries and the injection check that use it import it when they run. With the graph
    from the compile cache it reads no document either, so YAML stays unloaded too."""
    from tests.helpers import shared_file

    micro = shared_file("backends/astra-sim/examples/workload/microbenchmarks/all_reduce/8npus_1MB") / "all_reduce"
    argv = [["simulate", "examples/ring8.igl", "--workload", str(micro), "--model", "astra",
             "--json", str(tmp_path / "r.json")]]
    env = dict(os.environ, INFRAGRAPH_CACHE_DIR=str(tmp_path / "cache"), INFRAGRAPH_NO_CACHE="")
    for heavy in (("scipy",), ("scipy", "yaml")):  # a compile (cache miss), then the cached graph
        done = subprocess.run([sys.executable, "-c", PROBE.format(heavy=heavy), json.dumps(argv)],
                              capture_output=True, text=True, timeout=120, env=env)
        assert done.returncode == 0, done.stderr
        assert json.loads((tmp_path / "r.json").read_text())["step_time_ns"] > 0
        assert json.loads(done.stdout) == []


def test_a_command_builds_only_its_own_parser():
    """`infragraph simulate ...` registers the simulate parser alone (no other command module is
    imported); `--help` and an unknown command still see every command."""
    others = tuple(f"infragraph.cli.{c}" for c in COMMANDS if c != "simulate")
    done = subprocess.run([sys.executable, "-c", PROBE.format(heavy=others), json.dumps([["simulate", "--help"]])],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == []
    wrong = subprocess.run([sys.executable, "-m", "infragraph.cli", "simulat"], capture_output=True, text=True,
                           timeout=120)
    assert wrong.returncode == 2 and "invalid choice: 'simulat'" in wrong.stderr and "'simulate'" in wrong.stderr
