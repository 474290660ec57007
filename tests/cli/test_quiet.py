"""-q is the same on every command that reads or writes (issue 21 item 4): lint, fmt and decompile
accept it, and translate -q prints no notes (they are in the bundle's README). Every command but
`blueprints list|show` takes it, defined once (cli/common.add_quiet_argument)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from infragraph.cli import build_parser, main
from infragraph.collectives.ring import ring_schedule

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_lint_quiet_prints_nothing_when_clean_and_findings_otherwise(capsys, tmp_path):
    assert main(["lint", "std.fabrics.clos", "-q"]) == 0
    assert capsys.readouterr() == ("", "")
    assert main(["lint", "std.fabrics.clos", "-D", "oversubscription=[3]", "--max-oversubscription", "1", "-q"]) == 0
    assert "IG009" in capsys.readouterr().out


def test_fmt_quiet_lists_no_files_but_keeps_the_exit_code(capsys, tmp_path):
    src = tmp_path / "a.igl"
    src.write_text((EXAMPLES / "ring8.igl").read_text().replace("    ", "  ", 1))
    assert main(["fmt", "--check", "-q", str(src)]) == 1
    assert capsys.readouterr().err == ""
    assert main(["fmt", "--check", str(src)]) == 1
    assert "would reformat" in capsys.readouterr().err


def test_decompile_quiet_has_no_warnings(capsys, tmp_path):
    doc = tmp_path / "f.yaml"
    assert main(["compile", str(EXAMPLES / "ring8.igl"), "--emit", "document", "-o", str(doc), "-q"]) == 0
    capsys.readouterr()
    assert main(["decompile", str(doc), "-q"]) == 0
    assert capsys.readouterr().err == ""


def test_translate_quiet_prints_no_notes(capsys, tmp_path):
    argv = ["translate", "std.fabrics.clos", "--to", "astra-analytical", "--approximate", "--no-workload"]
    assert main(argv + ["-o", str(tmp_path / "a")]) == 0
    assert "note: " in capsys.readouterr().err
    assert main(argv + ["-o", str(tmp_path / "b"), "-q"]) == 0
    assert capsys.readouterr().err == ""
    assert "APPROXIMATION" in (tmp_path / "b" / "README.md").read_text()


def test_workload_quiet_writes_the_traces_and_prints_nothing(capsys, tmp_path):
    """README: -q silences success messages; `infragraph workload -q` was a usage error (exit 2)."""
    spec = tmp_path / "s.yaml"
    spec.write_text("layers: 1\nhidden: 64\nheads: 4\nseq: 32\nvocab: 128\nglobal_batch: 2\ntp: 2\n")
    assert main(["workload", str(spec), "-o", str(tmp_path / "w" / "step"), "-q"]) == 0
    assert capsys.readouterr() == ("", "")
    assert (tmp_path / "w" / "step.1.et").is_file() and (tmp_path / "w" / "step.json").is_file()
    assert main(["workload", str(spec), "-o", str(tmp_path / "x"), "--summary-only", "-q", "--json", "-"]) == 0
    assert '"params"' in capsys.readouterr().out


def _leaf_parsers(parser: argparse.ArgumentParser, name: tuple[str, ...] = ()):
    """(command words, parser) of every command and verb the CLI has."""
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subs:
        yield name, parser
    for action in subs:
        for word, sub in action.choices.items():
            yield from _leaf_parsers(sub, name + (word,))


def test_every_command_that_reports_takes_quiet():
    """`blueprints list|show` print only their answer; every other command has a message -q silences."""
    lacking = {" ".join(n) for n, p in _leaf_parsers(build_parser()) if "-q" not in p._option_string_actions}
    assert lacking == {"blueprints list", "blueprints show"}


def test_schedule_quiet_prints_nothing_and_still_writes(capsys, tmp_path):
    """`infragraph schedule ... -q` was a usage error (exit 2)."""
    src = tmp_path / "ring.json"
    src.write_text(json.dumps(ring_schedule("all-gather", 4)))
    assert main(["schedule", "validate", str(src), "-q"]) == 0
    assert main(["schedule", "import", str(src), "-o", str(tmp_path / "r.igsched"), "-q"]) == 0
    assert main(["schedule", "export", str(tmp_path / "r.igsched"), "--to", "msccl", "-o", str(tmp_path / "r.xml"), "-q"]) == 0
    assert main(["schedule", "export", str(src), "--to", "chakra", "--size", "1MiB", "-o", str(tmp_path / "et"), "-q"]) == 0
    assert capsys.readouterr() == ("", "")
    assert (tmp_path / "r.xml").read_text().startswith("<algo") and (tmp_path / "et.3.et").is_file()
    assert main(["schedule", "validate", str(src)]) == 0
    assert "valid all-gather over 4 ranks" in capsys.readouterr().out
