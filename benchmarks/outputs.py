"""Writing and validating a large graph, old vs new (and the public package), side by side.

    python benchmarks/outputs.py [--radix 48] [--old /work/scratch/baseline] [--runs 3] [--public] [--old-graphml]

The input is the radix-k 3-tier Clos document of benchmarks/clos_document.py (radix 48: 251,712
nodes, 331,776 edges). Rows:

* write json / write graphml: the writer alone (`write_json`, `write_graphml` on a loaded graph,
  in one process per tree), best of --runs;
* `infragraph compile DOC -o g.json|g.graphml` and `infragraph validate DOC`: whole processes
  (interpreter start, imports, reading, schema validation, expansion, writing) with their peak
  resident memory, best of --runs;
* --public: the public `infragraph` package (.venv-public-infragraph) loading and expanding the
  same document (`Infrastructure().deserialize` + `InfraGraphService.set_graph`), once;
* --old-graphml: the old networkx GraphML writer (slow: tens of seconds), once.

Wall and CPU (user + system) seconds are both shown: on a shared machine the CPU column is the
steadier one. Peak MB is the process's maximum resident set (/usr/bin/time).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
NEW = HERE.parent
PUBLIC_PYTHON = NEW / ".venv-public-infragraph" / "bin" / "python"

WRITER = """
import resource, sys, time
sys.path.insert(0, sys.argv[1])
from infragraph.sources import load_graph
from infragraph.graph import export
g = load_graph(sys.argv[2])
write = export.write_json if sys.argv[4] == "json" else export.write_graphml
best = (1e9, 1e9)
for _ in range(int(sys.argv[5])):
    r0, t0 = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
    write(g, sys.argv[3])
    r1, t1 = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
    best = min(best, (t1 - t0, r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime))
print(*best)
"""

PUBLIC = """
import sys
from infragraph import Infrastructure
from infragraph.infragraph_service import InfraGraphService
with open(sys.argv[1]) as fh:
    infra = Infrastructure().deserialize(fh.read())
s = InfraGraphService()
s.set_graph(infra)
"""


def timed(cmd: list[str], env: dict[str, str]) -> tuple[float, float, float]:
    """(wall s, cpu s, peak MB) of one run of `cmd` under /usr/bin/time."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as out:
        subprocess.run(["/usr/bin/time", "-o", out.name, "-f", "%e %U %S %M", *cmd], env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True,
                       cwd=tempfile.gettempdir())  # not a checkout: `-m` puts the working directory first on sys.path
        wall, user, system, kb = out.read().split()[-4:]
    return float(wall), float(user) + float(system), int(kb) / 1024


def best(cmd: list[str], env: dict[str, str], runs: int) -> tuple[float, float, float]:
    results = [timed(cmd, env) for _ in range(runs)]
    return min(r[0] for r in results), min(r[1] for r in results), max(r[2] for r in results)


def env_for(tree: Path) -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(tree), INFRAGRAPH_NO_CACHE="1")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--radix", type=int, default=48)
    ap.add_argument("--old", default="/work/scratch/baseline")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--public", action="store_true")
    ap.add_argument("--public-python", default=str(PUBLIC_PYTHON), help="python of the public package's environment")
    ap.add_argument("--old-graphml", action="store_true")
    args = ap.parse_args()
    sys.path.insert(0, str(HERE))
    from clos_document import clos3_document

    work = Path(tempfile.mkdtemp(prefix="infragraph-outputs-"))
    doc = work / f"clos{args.radix}.json"
    doc.write_text(json.dumps(clos3_document(args.radix), separators=(",", ":")))
    trees = [("old", Path(args.old)), ("new", NEW)] if Path(args.old, "infragraph").is_dir() else [("new", NEW)]
    print(f"radix {args.radix} Clos document ({doc.stat().st_size / 1e6:.1f} MB)\n")
    print("| step | tree | wall s | cpu s | peak MB | output MB |\n|---|---|---:|---:|---:|---:|")
    for fmt in ("json", "graphml"):
        for name, tree in trees:
            if fmt == "graphml" and name == "old" and not args.old_graphml:
                continue
            out = work / f"w.{fmt}"
            runs = 1 if (fmt == "graphml" and name == "old") else args.runs
            done = subprocess.run([sys.executable, "-c", WRITER, str(tree), str(doc), str(out), fmt, str(runs)],
                                  env=env_for(tree), capture_output=True, text=True, check=True, cwd=work)
            wall, cpu = map(float, done.stdout.split())
            print(f"| write {fmt} | {name} | {wall:.2f} | {cpu:.2f} | | {out.stat().st_size / 1e6:.1f} |")
    for step in (["compile", "-o", "g.json"], ["compile", "-o", "g.graphml"], ["validate"]):
        for name, tree in trees:
            if step[-1] == "g.graphml" and name == "old" and not args.old_graphml:
                continue
            runs = 1 if (step[-1] == "g.graphml" and name == "old") else args.runs
            argv = [step[0], str(doc), *[str(work / a) if a.startswith("g.") else a for a in step[1:]]]
            wall, cpu, mb = best([sys.executable, "-m", "infragraph.cli", *argv, "-q"], env_for(tree), runs)
            out = work / step[-1] if step[-1].startswith("g.") else None
            size = f"{out.stat().st_size / 1e6:.1f}" if out else ""
            print(f"| infragraph {' '.join(step)} | {name} | {wall:.2f} | {cpu:.2f} | {mb:.0f} | {size} |")
    if args.public:
        if not Path(args.public_python).exists():
            sys.exit(f"{args.public_python} is missing: run scripts/setup.sh, or give --public-python")
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        wall, cpu, mb = timed([args.public_python, "-c", PUBLIC, str(doc)], env)
        print(f"| public 3.1.0: deserialize + set_graph | public | {wall:.2f} | {cpu:.2f} | {mb:.0f} | |")


if __name__ == "__main__":
    main()
