"""What input hardening costs and saves: old (PYTHONPATH=/work/scratch/baseline) vs new, as whole
processes, side by side in one run.

Cases: `validate` of a radix-48 Clos document in YAML and in JSON (reader checks: duplicate keys,
depth, aliases, link numbers, size before building), `validate` of its FQG JSON (every record
checked instead of a 2,000-record sample), and `check` of a ~50 MB .igl that is mostly comments.

    nice python3 benchmarks/inputs.py [--baseline /work/scratch/baseline] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from clos_document import clos3_document  # noqa: E402


def run(pythonpath: str, argv: list[str]) -> tuple[float, int, int]:
    """(wall seconds, peak RSS MB, exit code) of `python3 -m infragraph ARGV`."""
    env = {**os.environ, "PYTHONPATH": pythonpath}
    start = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-f", "%M", sys.executable, "-m", "infragraph", *argv], env=env,
                       capture_output=True, text=True, cwd=tempfile.gettempdir())  # `-m` puts the cwd first
    wall = time.perf_counter() - start
    peak_kb = int(p.stderr.strip().splitlines()[-1])
    return wall, peak_kb // 1024, p.returncode


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", default="/work/scratch/baseline")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        doc = clos3_document(48)
        (tmp / "clos48.yaml").write_text(yaml.safe_dump(doc, sort_keys=False))
        (tmp / "clos48.json").write_text(json.dumps(doc))
        subprocess.run([sys.executable, "-m", "infragraph", "compile", str(tmp / "clos48.json"), "-o",
                        str(tmp / "g.json"), "-q"], env={**os.environ, "PYTHONPATH": str(ROOT)}, check=True)
        line = "# a comment line of the kind a generated or heavily annotated file has, padded out to 70\n"
        body = "device h { component x: xpu }\nfabric f { instance a[4]: h }\n"
        (tmp / "comments.igl").write_text(line * (50_000_000 // len(line)) + body)
        cases = [("validate clos48.yaml", ["validate", str(tmp / "clos48.yaml")]),
                 ("validate clos48.json", ["validate", str(tmp / "clos48.json")]),
                 ("validate g.json (FQG)", ["validate", str(tmp / "g.json")]),
                 ("check comments.igl (50 MB)", ["check", str(tmp / "comments.igl")])]
        print("| case | old s | new s | old peak MB | new peak MB | exit old/new |")
        print("|---|---|---|---|---|---|")
        for name, argv in cases:
            best = {}
            for label, path in (("old", args.baseline), ("new", str(ROOT))):
                runs = [run(path, argv) for _ in range(args.repeat)]
                best[label] = min(runs)
            (wo, mo, co), (wn, mn, cn) = best["old"], best["new"]
            print(f"| {name} | {wo:.2f} | {wn:.2f} | {mo} | {mn} | {co}/{cn} |", flush=True)


if __name__ == "__main__":
    main()
