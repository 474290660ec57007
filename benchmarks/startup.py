"""Start-up of the `infragraph` command, and the compile cache, old vs new side by side.

    python benchmarks/startup.py [--old /work/scratch/baseline] [--runs 7]

Each row runs a command as a fresh process (`python -m infragraph.cli ...`, so the installed
console script's launcher, e.g. a pyenv shim, is not counted) `--runs` times and reports the best
wall time and the best CPU time (user + system of the child). On a loaded machine the CPU column
is the steadier one. "python -c pass" is the interpreter's own floor.

The cache rows run `simulate` on a blueprint: "cold" with --no-cache (parse, elaborate, expand,
then simulate), "warm" with the graph from the compile cache (infragraph.cache) in a scratch
cache folder.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

NEW = Path(__file__).resolve().parent.parent
HELP_ROWS = [["--help"], ["compile", "--help"], ["simulate", "--help"], ["lint", "--help"],
             ["translate", "--help"], ["visualize", "--help"], ["import", "--help"], ["validate", "--help"]]
BLUEPRINT = ["std.fabrics.clos", "-D", "radix=16"]


def measure(argv: list[str], tree: Path | None, runs: int, env: dict[str, str]) -> tuple[float, float]:
    """Best wall and best CPU seconds of `python -m infragraph.cli argv` (or argv itself when tree is None)."""
    cmd = [sys.executable, *argv] if tree is None else [sys.executable, "-m", "infragraph.cli", *argv]
    run_env = dict(os.environ, **env)
    if tree is not None:
        run_env["PYTHONPATH"] = str(tree)
    best_wall = best_cpu = float("inf")
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(cmd, env=run_env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
                       cwd=tempfile.gettempdir())  # not a checkout: `-m` puts the working directory first on sys.path
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        best_wall, best_cpu = min(best_wall, wall), min(best_cpu, cpu)
    return best_wall, best_cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--old", default="/work/scratch/baseline", help="a checkout of the old version")
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    old = Path(args.old) if Path(args.old, "infragraph").is_dir() else None
    cache_dir = tempfile.mkdtemp(prefix="infragraph-cache-")
    env = {"INFRAGRAPH_CACHE_DIR": cache_dir}

    print("| command | old wall s | old cpu s | new wall s | new cpu s |\n|---|---:|---:|---:|---:|")
    w, c = measure(["-c", "pass"], None, args.runs, env)
    print(f"| python -c pass | | | {w:.3f} | {c:.3f} |")
    for argv in HELP_ROWS:
        cells = []
        for tree in (old, NEW):
            if tree is None:
                cells += ["", ""]
                continue
            w, c = measure(argv, tree, args.runs, env)
            cells += [f"{w:.3f}", f"{c:.3f}"]
        print(f"| infragraph {' '.join(argv)} | " + " | ".join(cells) + " |")

    sim = ["simulate", *BLUEPRINT, "-q"]
    rows = [("cold (--no-cache)", [*sim, "--no-cache"]), ("warm (cached graph)", sim)]
    measure(sim, NEW, 1, env)  # fill the cache
    old_cells = ["", ""]
    if old is not None:
        w, c = measure(sim, old, max(3, args.runs // 2), env)
        old_cells = [f"{w:.3f}", f"{c:.3f}"]
    for name, argv in rows:
        w, c = measure(argv, NEW, max(3, args.runs // 2), env)
        cells = old_cells if name.startswith("cold") else ["", ""]
        print(f"| simulate {' '.join(BLUEPRINT)} {name} | " + " | ".join(cells) + f" | {w:.3f} | {c:.3f} |")


if __name__ == "__main__":
    main()
