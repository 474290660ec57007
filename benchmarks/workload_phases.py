"""Where the CPU of the 1,024-NPU workload replay goes, phase by phase, in each compile-cache state
(issue 20, "Speed": the first run of a fabric against a cached one).

    python benchmarks/workload_phases.py [--runs 5] [--tree /path/to/checkout]

The replay is benchmarks/workload.py's (gpt3-1k, b = 1, `--model astra` on std.fabrics.stack
"SW(8)_SW(128)"), written once. Each run is a new interpreter that runs `infragraph simulate` in
process with CPU timers (time.process_time: every thread of the process, the engine's ET reader
threads included) around its phases, its compile cache folder in one of workload.py's states:
`first` (empty), `fabric` (another fabric of the same blueprint cached: parsed modules, not this
graph), `cached` (this graph). Before the command runs, the child imports the modules the same
command imports in that state (found by a run beforehand, in that run's order), so their cost is
one row ("imports") and not spread over the phases that trigger them. "interpreter start" is the
CPU the child had used when its first line ran; "exit" is what the parent's os.wait4 counted after
the child's last timer. Rows are medians over the runs; the total is the median of the whole
processes' CPU. `--tree` runs another checkout (PYTHONPATH, its engine built in place) instead.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from workload import CACHE_STATES, cache_folder, fabric_args, spec  # noqa: E402

REPLAY = [*fabric_args(128), "--workload", "et/step", "--comm-group", "et/step.json", "--model", "astra",
          "--chunks", "4", "--algorithm", "ring", "--scheduling", "lifo", "-q", "--json", "ours.json"]

# (row, module, function): the phases timed, outermost first; a phase's time excludes the phases
# timed inside it (imports are done before, so none is inside any phase). A function the tree does
# not have is skipped.
PHASES = [
    ("compile cache: key and load", "infragraph.cache", "cached_graph"),
    ("parse .igl (ANTLR) or load parsed modules", "infragraph.cache", "cached_parse"),
    ("parse .igl (ANTLR) or load parsed modules", "infragraph.lang.compiler", "parse"),  # a tree without cached_parse
    ("elaborate (.igl -> document)", "infragraph.lang.compiler", "Compiler.compile"),
    ("expand (document -> graph)", "infragraph.sources", "expand"),
    ("compile cache: store", "infragraph.cache", "store"),
    ("read the ETs", "infragraph.workload.trace", "read_et_set"),
    ("prepare the graph for the engine", "infragraph.simulate", "prepare"),
    ("replay", "infragraph.workload.replay", "replay"),
    ("report and JSON", "infragraph.cli.simulate_workload", "emit"),
]

CHILD = r"""
import sys, time
start = time.process_time()
import importlib, json, contextlib, io
mode, argv, modules, phases = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3]), json.loads(sys.argv[4])
if mode == "modules":
    import infragraph.cli as cli
    with contextlib.redirect_stdout(io.StringIO()):
        cli.main(argv)
    print(json.dumps(list(sys.modules)))
    raise SystemExit(0)
t = time.process_time()
for m in modules:
    try:
        importlib.import_module(m)
    except Exception:
        pass
imports = time.process_time() - t
spent = {row: 0.0 for row, _m, _f in phases}
stack = []

def timed(row, f):
    def wrapper(*a, **k):
        t0 = time.process_time()
        stack.append(0.0)
        try:
            return f(*a, **k)
        finally:
            inner = stack.pop()
            took = time.process_time() - t0
            spent[row] += took - inner
            if stack:
                stack[-1] += took
    return wrapper

for row, module, name in phases:
    owner = importlib.import_module(module)
    *path, attr = name.split(".")
    for p in path:
        owner = getattr(owner, p)
    if hasattr(owner, attr):
        setattr(owner, attr, timed(row, getattr(owner, attr)))
import infragraph.cli as cli
t = time.process_time()
with contextlib.redirect_stdout(io.StringIO()):
    cli.main(argv)
command = time.process_time() - t
end = time.process_time()
print(json.dumps({"interpreter start": start, "imports": imports, **spent,
                  "other (argument parsing, checks, glue)": command - sum(spent.values()), "_end": end}))
"""


def child(mode: str, folder: Path, env: dict[str, str], modules: list[str]) -> list | dict:
    """One child run's last output line, read as JSON."""
    out = subprocess.run([sys.executable, "-c", CHILD, mode, json.dumps(["simulate", *REPLAY]), json.dumps(modules),
                          json.dumps(PHASES)], cwd=folder, env=env, capture_output=True, text=True, timeout=600)
    if out.returncode:
        raise SystemExit(f"child failed: {out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def run_state(folder: Path, state: str, runs: int, tree: str | None) -> dict[str, float]:
    rows: dict[str, list[float]] = {}
    totals = []
    for _ in range(runs):
        env = cache_folder(folder, state, 128)
        if tree:
            env["PYTHONPATH"] = tree
        cache_dir = Path(env["INFRAGRAPH_CACHE_DIR"])
        if state == "first":
            for f in cache_dir.glob("*"):
                f.unlink()
        modules = child("modules", folder, env, [])  # a probe run in the same state, which fills the cache:
        for f in cache_dir.glob({"first": "*", "fabric": "*.fqg.pickle", "cached": "-"}[state]):
            f.unlink()  # so `first` is empty again and `fabric` holds the parsed modules but no graph
        before = os.times()
        phases = child("phases", folder, env, modules)
        after = os.times()
        total = (after.children_user - before.children_user) + (after.children_system - before.children_system)
        phases["exit"] = total - phases.pop("_end")
        totals.append(total)
        for k, v in phases.items():
            rows.setdefault(k, []).append(v)
    out = {k: statistics.median(v) for k, v in rows.items()}
    out["total (whole process)"] = statistics.median(totals)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5, help="runs per cache state (medians)")
    ap.add_argument("--tree", help="a checkout to run instead of the installed toolchain (its engine built in place)")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="wlphases-") as tmp:
        folder = Path(tmp)
        (folder / "spec.yaml").write_text(spec(16, 8, 16, 1, 8), encoding="utf-8")
        subprocess.run(["infragraph", "workload", "spec.yaml", "-o", "et/step"], cwd=tmp, check=True, capture_output=True)
        table = {state: run_state(folder, state, args.runs, args.tree) for state in CACHE_STATES}
    rows = list(dict.fromkeys(k for t in table.values() for k in t))
    print(f"{'CPU s (median of ' + str(args.runs) + ')':45s}" + "".join(f"{s:>9s}" for s in CACHE_STATES))
    for row in rows:
        print(f"{row:45s}" + "".join(f"{table[s].get(row, 0.0):9.3f}" for s in CACHE_STATES))
    print(f"load average {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
