"""Random ASTRA-sim analytical cases over the whole input space, run on the real binaries.

    ASTRA_UNAWARE=/path/AstraSim_Analytical_Congestion_Unaware \\
    ASTRA_AWARE=/path/AstraSim_Analytical_Congestion_Aware \\
    python benchmarks/astra_corpus.py --seed 23 --count 3200 --out corpus.jsonl [--jobs 1]

Writes one JSON object per case in the schema of `shared/backends/astra-sim/reference-cases.jsonl`
(its README describes every field and how a case is run), plus `intra` / `inter`: the
`intra-dimension-scheduling` / `inter-dimension-scheduling` values written into system.json, and
`binary`: `stock` for a case run on the binaries named by ASTRA_UNAWARE / ASTRA_AWARE. ASTRA-sim
518bd51's JSON system loader (`Sys::initialize_sys`) does not read either scheduling key, so the
stock binaries always run FIFO / ascending whatever the file says; cases with other values are run
on ASTRA_UNAWARE_SCHED / ASTRA_AWARE_SCHED when those are set (a build of the same sources whose
loader reads the two keys, `binary: "sched"`, with the stock binary's times beside them as
`stock_finish_ns`), and recorded as `stock` otherwise.

The generator never builds a binary; it runs the ones the environment names. Cases the binary
rejects (abort, non-zero exit, no finish line, timeout) are left out and counted on stderr with the
reason. The space (issue 23): 1-4 dims of Ring / FullyConnected / Switch with 2-64 NPUs each, sizes
1 B to 4 GiB (log-uniform, mostly not divisible), one algorithm per dim, 1-64 chunks, 1-4 active
chunks, endpoint delay, local-mem-bw, both optimizations, both binaries (aware: one dim), every
scheduling value; about half the cases fall in the five classes that differed on the hidden corpus
(`CLASSES`). Networks stay small enough that most cases run well under a second; every network
carries four cases that differ in size, chunks, system parameters and scheduling.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

KINDS = ("Ring", "FullyConnected", "Switch")
COLLS = {"AR": "all-reduce", "RS": "reduce-scatter", "AG": "all-gather", "A2A": "all-to-all"}
INTRA = ("FIFO", "SCF", "lessRemainingPhaseFirst")
INTER = ("baseline", "ascending", "themis", "offlineGreedy", "offlineGreedyFlex")
DEFAULT_SCHEDULING = ("FIFO", "baseline")
IMPL_KEYS = ("all-reduce-implementation", "reduce-scatter-implementation", "all-gather-implementation",
             "all-to-all-implementation")
FINISHED = re.compile(r"sys\[(\d+)\] finished, (\d+) cycles")
MAX_NPUS = 256  # keeps a case cheap (the binaries' run time grows with NPUs x chunks x steps)
MAX_COST = 20000  # see `cost`; chunks are cut to fit (the classes that fix their chunks excepted)


def pow2(n: int) -> bool:
    return n & (n - 1) == 0


def log_uniform(rng: random.Random, lo: float, hi: float) -> int:
    return int(math.exp(rng.uniform(math.log(lo), math.log(hi))))


def npus(rng: random.Random, max_n: int = 64) -> int:
    return rng.choice([2, 4, 8, 16, 32, 64, 3, 5, 6, 7, 12, 13]) if rng.random() < 0.7 else rng.randint(2, max_n)


def algorithms(rng: random.Random, coll: str, dims: list[list[Any]]) -> list[str]:
    """One valid algorithm per dim (halvingDoubling needs a power of two and is not an
    all-to-all; doubleBinaryTree only for a 1-D power-of-two all-reduce)."""
    out = []
    for _, n, _, _ in dims:
        choices = ["ring", "direct"]
        if pow2(n) and coll != "A2A":
            choices.append("halvingDoubling")
        if len(dims) == 1 and pow2(n) and coll == "AR":
            choices.append("doubleBinaryTree")
        out.append(rng.choice(choices))
    return out


def dim(rng: random.Random, kind: str, n: int) -> list[Any]:
    bw = rng.choice([12.5, 25.0, 50.0, 100.0, 200.0, 388.0, round(rng.uniform(5, 400), 1)])
    lat = rng.choice([1.0, 18.0, 100.0, 500.0, 967.0, float(rng.randint(1, 2000))])
    return [kind, n, bw, lat]


def network(rng: random.Random, ndims: int) -> list[list[Any]]:
    while True:
        cap = {1: 64, 2: 24, 3: 8, 4: 5}[ndims]
        dims = [dim(rng, rng.choice(KINDS), npus(rng, cap) if ndims == 1 else rng.randint(2, cap)) for _ in range(ndims)]
        if math.prod(d[1] for d in dims) <= MAX_NPUS:
            return dims


def cost(case: dict[str, Any], splits: int) -> int:
    """A rough measure of the binaries' work: NPUs x chunks x the dims' sizes summed (all-to-all
    counts twice); 20,000 runs in a few tenths of a second."""
    n = math.prod(d[1] for d in case["dims"])
    return n * splits * sum(d[1] for d in case["dims"]) * (2 if case["coll"] == "A2A" else 1)


def system(rng: random.Random, case: dict[str, Any]) -> dict[str, Any]:
    if "splits" not in case:
        splits = rng.choice([1, 2, 3, 4, 5, 8, 12, 16, rng.randint(1, 64)])
        case["splits"] = max(1, min(splits, MAX_COST // cost(case, 1)))
    case.setdefault("active", rng.randint(1, 4))
    case.setdefault("opt", rng.choice(["baseline", "localBWAware"]))
    case.setdefault("E", rng.choice([1, 10, 100, rng.randint(1, 200)]))
    case.setdefault("lmbw", rng.choice([50, 1600, 1000000.0, round(rng.uniform(10, 5000), 1)]))
    if rng.random() < 0.35:  # a third with non-default scheduling values
        case.setdefault("intra", rng.choice(INTRA))
        case.setdefault("inter", rng.choice(INTER))
    else:
        case.setdefault("intra", DEFAULT_SCHEDULING[0])
        case.setdefault("inter", DEFAULT_SCHEDULING[1])
    if "size" not in case:
        case["size"] = log_uniform(rng, 1, 4 * 2**30) if rng.random() < 0.8 else rng.choice([2**20, 2**30, 4 * 2**30 - 1])
    return case


# The five classes of issue 23 (each a sampler), then the open space.
def class_aware_ring_direct(rng: random.Random) -> dict[str, Any]:
    n = rng.randint(4, 16)
    return {"class": "aware-ring-direct", "backend": "aware", "coll": rng.choice(["AR", "AG", "A2A"]),
            "dims": [dim(rng, "Ring", n)], "alg": ["direct"]}


def class_multidim_direct(rng: random.Random) -> dict[str, Any]:
    ndims = rng.randint(2, 3)
    while True:
        dims = network(rng, ndims)
        if len({d[0] for d in dims}) > 1:
            break
    coll = rng.choice(["AR", "AR", "RS", "AG", "A2A"])
    alg = algorithms(rng, coll, dims)
    alg[rng.randrange(ndims)] = "direct"
    return {"class": "multidim-direct", "backend": "unaware", "coll": coll, "dims": dims, "alg": alg}


def class_ring_rifcfc(rng: random.Random) -> dict[str, Any]:
    dims = [dim(rng, "Ring", rng.randint(2, 5)), dim(rng, "FullyConnected", rng.randint(2, 3)),
            dim(rng, "FullyConnected", rng.randint(2, 3))]
    return {"class": "ring-RIxFCxFC-64x2", "backend": "unaware", "coll": rng.choice(["AR", "AR", "RS", "AG"]),
            "dims": dims, "alg": ["ring"] * 3, "splits": rng.choice([64, 64, 48, 32]), "active": 2}


def class_hd_allgather(rng: random.Random) -> dict[str, Any]:
    return {"class": "aware-hd-allgather-baseline", "backend": "aware", "coll": "AG",
            "dims": [dim(rng, "Ring", rng.choice([4, 8, 16, 32]))], "alg": ["halvingDoubling"], "opt": "baseline"}


def class_dbt_fc2(rng: random.Random) -> dict[str, Any]:
    return {"class": "aware-dbt-FC2", "backend": "aware", "coll": "AR",
            "dims": [dim(rng, "FullyConnected", 2)], "alg": ["doubleBinaryTree"]}


def open_space(rng: random.Random) -> dict[str, Any]:
    backend = "aware" if rng.random() < 0.3 else "unaware"
    ndims = 1 if backend == "aware" else rng.choice([1, 2, 2, 3, 3, 4])
    dims = network(rng, ndims)
    if backend == "aware" and dims[0][0] == "Ring" and dims[0][1] == 2:
        dims[0][1] = 4  # the aware binary aborts on a Ring of 2 (README)
    coll = rng.choice(list(COLLS))
    return {"class": "open", "backend": backend, "coll": coll, "dims": dims, "alg": algorithms(rng, coll, dims)}


CLASSES: list[tuple[Callable[[random.Random], dict[str, Any]], float]] = [
    (class_aware_ring_direct, 0.12), (class_multidim_direct, 0.16), (class_ring_rifcfc, 0.08),
    (class_hd_allgather, 0.07), (class_dbt_fc2, 0.07), (open_space, 0.50)]


def rejected_upfront(case: dict[str, Any]) -> str | None:
    """Inputs the README lists as aborting or hanging the binaries (never run)."""
    n = math.prod(d[1] for d in case["dims"])
    if case["coll"] == "AG" and case["size"] < case["splits"]:
        return "all-gather with size < splits never finishes"
    if case["coll"] == "AR" and "halvingDoubling" in case["alg"] and case["size"] // case["splits"] < 2 * n:
        return "all-reduce halvingDoubling with size // splits < 2 x NPUs aborts"
    if case["backend"] == "aware" and case["dims"][0][0] == "Ring" and case["dims"][0][1] == 2:
        return "aware Ring of 2 aborts"
    return None


def generate(seed: int, count: int, per_network: int = 4) -> list[dict[str, Any]]:
    """`count` cases from `seed` (the same seed always gives the same cases). Each draw of a class
    gives a network, collective and algorithms; `per_network` cases share them and draw their own
    size, chunks, system parameters and scheduling values (a test then compiles each network once)."""
    rng = random.Random(seed)
    samplers, weights = zip(*CLASSES)
    out: list[dict[str, Any]] = []
    i = 0
    while len(out) < count:
        base = rng.choices(samplers, weights)[0](rng)
        for _ in range(per_network):
            i += 1
            case = system(rng, json.loads(json.dumps(base)))
            case["name"] = f"g{seed}-{i:05d}"
            if rejected_upfront(case) is None and len(out) < count:
                out.append(case)
    return out


def write_inputs(case: dict[str, Any], folder: Path) -> list[str]:
    """The four inputs of the README's "How each case was run" (plus the two scheduling keys) in
    `folder`; returns the binary's arguments."""
    from infragraph.translators.chakra_et import Workload, workload_files

    dims = case["dims"]
    (folder / "network.yml").write_text(
        f"topology: [ {', '.join(d[0] for d in dims)} ]\nnpus_count: [ {', '.join(str(d[1]) for d in dims)} ]\n"
        f"bandwidth: [ {', '.join(repr(float(d[2])) for d in dims)} ]\nlatency: [ {', '.join(repr(float(d[3])) for d in dims)} ]\n")
    sysj: dict[str, Any] = {"scheduling-policy": "LIFO", "endpoint-delay": case["E"],
                            "active-chunks-per-dimension": case["active"], "preferred-dataset-splits": case["splits"]}
    for key in IMPL_KEYS:
        sysj[key] = list(case["alg"])
    sysj.update({"collective-optimization": case["opt"], "local-mem-bw": case["lmbw"], "boost-mode": 0,
                 "roofline-enabled": 0, "peak-perf": 900, "intra-dimension-scheduling": case["intra"],
                 "inter-dimension-scheduling": case["inter"]})
    (folder / "system.json").write_text(json.dumps(sysj, indent=1))
    (folder / "remote_memory.json").write_text('{"memory-type": "NO_MEMORY_EXPANSION"}')
    n = math.prod(d[1] for d in dims)
    files = workload_files(Workload(COLLS[case["coll"]], case["size"]), n, folder="workload")
    (folder / "workload").mkdir()
    for name, data in files.items():
        (folder / name).write_bytes(data)
    stem = next(iter(files)).split("/")[1].split(".")[0]
    return [f"--workload-configuration={folder}/workload/{stem}", f"--system-configuration={folder}/system.json",
            f"--remote-memory-configuration={folder}/remote_memory.json",
            f"--network-configuration={folder}/network.yml"]


def non_default(case: dict[str, Any]) -> bool:
    return (case["intra"], case["inter"]) not in (DEFAULT_SCHEDULING, ("FIFO", "ascending"))


def binary(case: dict[str, Any], sched: bool) -> str:
    """The stock binary for `case`'s backend, or the one that reads the scheduling keys."""
    env = ("ASTRA_AWARE" if case["backend"] == "aware" else "ASTRA_UNAWARE") + ("_SCHED" if sched else "")
    if env not in os.environ:
        raise SystemExit(f"set {env} to the path of the binary (this script never builds one)")
    return os.environ[env]


def run_once(case: dict[str, Any], path: str, timeout_s: float) -> tuple[list[int], float] | str:
    """Every NPU's finish time and the wall time, or why the binary rejected the case."""
    n = math.prod(d[1] for d in case["dims"])
    with tempfile.TemporaryDirectory(prefix="astra_case_") as tmp:
        args = write_inputs(case, Path(tmp))
        t0 = time.perf_counter()
        try:
            p = subprocess.run(["nice", path, *args], capture_output=True, text=True, timeout=timeout_s, cwd=tmp)
        except subprocess.TimeoutExpired:
            return "timeout"
        wall = time.perf_counter() - t0
    finish = {int(i): int(t) for i, t in FINISHED.findall(p.stdout + p.stderr)}
    if p.returncode != 0 or sorted(finish) != list(range(n)):
        tail = (p.stderr or p.stdout).strip().splitlines()[-1:] or [""]
        return f"exit {p.returncode}, {len(finish)} of {n} finished: {tail[0][:160]}"
    return [finish[i] for i in range(n)], wall


def run(case: dict[str, Any], timeout_s: float = 20.0) -> dict[str, Any] | str:
    """`case` with finish_ns / max_ns / wall_s / binary filled in, or why the binary rejected it.
    A case with non-default scheduling values runs on the sched binary (`binary: "sched"`) and
    also on the stock one (`stock_finish_ns`: what 518bd51 itself prints, ignoring the keys)."""
    sched = non_default(case) and "ASTRA_UNAWARE_SCHED" in os.environ
    got = run_once(case, binary(case, sched), timeout_s)
    if isinstance(got, str):
        return got
    times, wall = got
    out = {**case, "binary": "sched" if sched else "stock", "finish_ns": times, "max_ns": max(times),
           "wall_s": round(wall, 3)}
    if sched:
        stock = run_once(case, binary(case, False), timeout_s)
        if isinstance(stock, str):
            return "stock binary: " + stock
        out["stock_finish_ns"] = stock[0]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--count", type=int, required=True)
    ap.add_argument("--out", required=True, help="jsonl file (appended; cases already in it are skipped)")
    ap.add_argument("--jobs", type=int, default=1)
    a = ap.parse_args()
    out = Path(a.out)
    done = set()
    if out.exists():
        done = {json.loads(line)["name"] for line in out.read_text().splitlines() if line.strip()}
    todo = [c for c in generate(a.seed, a.count) if c["name"] not in done]
    rejected: dict[str, int] = {}
    t0 = time.time()
    with out.open("a") as fh, ThreadPoolExecutor(a.jobs) as pool:
        for k, (case, got) in enumerate(zip(todo, pool.map(run, todo))):
            if isinstance(got, str):
                key = re.sub(r"\d+", "N", got)[:80]
                rejected[key] = rejected.get(key, 0) + 1
                print(f"{case['name']} rejected: {got}", file=sys.stderr)
                continue
            fh.write(json.dumps(got) + "\n")
            fh.flush()
            if k % 100 == 0:
                print(f"{k}/{len(todo)} cases, {time.time() - t0:.0f} s", file=sys.stderr)
    for why, count in sorted(rejected.items(), key=lambda kv: -kv[1]):
        print(f"rejected {count}: {why}", file=sys.stderr)


if __name__ == "__main__":
    main()
