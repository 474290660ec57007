"""Random workload cases (Chakra ET sets), run on ASTRA-sim's analytical binaries: issue 20 item 3.

    ASTRA_UNAWARE=/path/AstraSim_Analytical_Congestion_Unaware \\
    ASTRA_AWARE=/path/AstraSim_Analytical_Congestion_Aware \\
    python benchmarks/workload_corpus.py --seed 20 --count 400 --out tests/data/workload_corpus.jsonl.gz

Every case is drawn from its own seed (`draw(seed)`), and its ETs are rebuilt from that seed alone
(`build(case, folder)`), so the committed file holds only the seeds, the drawn parameters and the
binary's answer: every NPU's finish time (the N of `sys[i] finished, N cycles`, 1 cycle = 1 ns).
tests/workload/test_corpus.py rebuilds each case's ETs and replays them with `--model astra`
(`astra-aware` for the congestion-aware binary).

A case is a network (1-2 dims of Ring / FullyConnected / Switch, 4-16 NPUs), a system (chunks,
endpoint delay, local memory bandwidth, ring or direct, roofline on or off with a peak) and a
workload, either
- `dag`: an SPMD training-step-like DAG per NPU: per layer a compute node (its duration differs
  per NPU in most cases; with the roofline, num_ops and tensor_size), a TP-like collective on
  groups of `tp` consecutive ranks, pipeline-like send/recv chains between rank r and r + tp (a
  forward chain and a backward chain, tags per layer), DP-like collectives on groups of ranks
  `tp` apart, now and then a collective on every NPU; data dependencies on the previous node
  (not always: several nodes may be ready at once), random control dependencies on earlier nodes,
  and every collective or send ordered after the NPU's previous collective or send (a control
  dependency): the members of a group issue its collectives in one order, and no NPU holds its
  communication slot in a collective whose other members wait for a message it has yet to send
  (that would deadlock ASTRA-sim as well); or
- `text`: one of ASTRA-sim's text workloads (the ASPLOS tutorial's MICRO all-reduce and DATA /
  MODEL layer lists), converted by Chakra's TextConverter.

Memory load/store nodes appear in about 30 % of the `dag` cases (a load before a forward compute,
a store after a backward send, now and then), with ASTRA-sim's per-NPU remote memory
(`PER_NPU_MEMORY_EXPANSION`: latency + tensor_size / bandwidth, bandwidth a whole number of bytes
per ns); the other cases run with `NO_MEMORY_EXPANSION`.
Cases the binary rejects (abort, non-zero exit, missing finish lines, timeout) are dropped and
counted on stderr with the reason. Of seed 20's 450 (the committed corpus: 410 kept), 18 abort in
ASTRA-sim's statistics pass ("Only GPU and COMM types are supported for overlap extraction": some
memory-node cases), 10 with heap corruption (double free, malloc_consolidate), 12 print no finish
line (a hang or an early exit).
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import re
import subprocess
import sys
import tempfile
import time
from functools import lru_cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

FINISHED = re.compile(r"sys\[(\d+)\] finished, (\d+) cycles")
KIND_SHAPE = {"Ring": "RI", "FullyConnected": "FC", "Switch": "SW"}
COLLECTIVES = ("all-reduce", "all-gather", "reduce-scatter", "all-to-all")
TEXT_COMM = {"all-reduce": "ALLREDUCE", "all-gather": "ALLGATHER", "reduce-scatter": "REDUCESCATTER",
             "all-to-all": "ALLTOALL"}
# The networks (topology, NPUs, GB/s with GB = 2^30 B as ASTRA-sim reads it, ns), from a fixed
# palette so a replay builds each fabric once: 1-D and 2-D, every topology, 4-16 NPUs.
NETWORKS = (
    (("Ring", 4, 50.0, 500.0),), (("Ring", 8, 50.0, 500.0),), (("Ring", 6, 100.0, 1000.0),),
    (("FullyConnected", 4, 100.0, 100.0),), (("FullyConnected", 5, 25.0, 500.0),),
    (("FullyConnected", 8, 200.0, 500.0),), (("Switch", 4, 50.0, 100.0),), (("Switch", 8, 100.0, 500.0),),
    (("Switch", 12, 25.0, 1000.0),), (("Switch", 16, 50.0, 500.0),),
    (("Ring", 4, 200.0, 100.0), ("Switch", 2, 25.0, 1000.0)), (("FullyConnected", 2, 100.0, 500.0), ("Ring", 4, 50.0, 500.0)),
    (("Switch", 4, 100.0, 500.0), ("Switch", 3, 50.0, 500.0)), (("Ring", 2, 50.0, 500.0), ("FullyConnected", 4, 50.0, 1000.0)),
)
GENERATOR_VERSION = 2  # bump when draw()/build() change: the committed results belong to one version


def _size(rng: random.Random) -> int:
    """A collective or message size in bytes, log-uniform 1 KiB - 4 MiB, rarely a round number."""
    return int(2 ** rng.uniform(10, 22))


def draw(seed: int) -> dict[str, Any]:
    """The case of one seed: network, system and workload parameters (the ETs follow from them)."""
    rng = random.Random(seed)
    dims = [list(d) for d in rng.choice(NETWORKS)]
    npus = 1
    for d in dims:
        npus *= d[1]
    aware = len(dims) == 1 and not (dims[0][0] == "Ring" and dims[0][1] == 2) and rng.random() < 0.3
    system = {
        "chunks": rng.choice([1, 1, 2, 4]),
        "endpoint_delay": rng.choice([1, 10, 10, 100]),
        "local_mem_bw": rng.choice([50, 1600, 1600]),
        "algorithm": "direct" if (len(dims) == 1 and dims[0][0] != "Ring" and rng.random() < 0.3) else "ring",
        "roofline": rng.random() < 0.3,
        "peak_perf": rng.choice([100, 900]),
    }
    case: dict[str, Any] = {"name": f"w{seed}", "seed": seed, "version": GENERATOR_VERSION,
                            "backend": "aware" if aware else "unaware", "dims": dims, "npus": npus, **system}
    if rng.random() < 0.15:
        case["workload"] = "text"
        case["text"] = _text_workload(rng)
        case["roofline"] = False  # the converter's compute nodes carry no tensor_size: the roofline skips them
    else:
        case["workload"] = "dag"
        divisors = [t for t in range(1, npus + 1) if npus % t == 0]
        case["tp"] = rng.choice(divisors)
        case["layers"] = rng.randint(1, 4)
        # ASTRA-sim's per-NPU remote memory: latency + tensor_size / bw (bytes per ns, a whole number)
        case["memory"] = ({"bw": rng.choice([16, 50, 200]), "latency": rng.choice([0, 100, 1000])}
                          if rng.random() < 0.3 else None)
    return case


def _text_workload(rng: random.Random) -> str:
    """An ASTRA-sim text workload: the tutorial's MICRO all-reduce, or a DATA / MODEL layer list."""
    kind = rng.choice(["MICRO", "MICRO", "DATA", "MODEL"])
    if kind == "MICRO":
        coll = rng.choice(COLLECTIVES)
        size = 1048576 if rng.random() < 0.5 else _size(rng)
        return f"MICRO\n1\n{coll.replace('-', '')} -1 1 NONE 0 1 NONE 0 1 {TEXT_COMM[coll]} {size} 1\n"
    layers = rng.randint(1, 3)
    lines = [kind, str(layers)]
    for i in range(layers):
        t = [rng.randint(1, 20) for _ in range(3)]
        if kind == "DATA":
            comm = ["NONE 0", "NONE 0", f"ALLREDUCE {_size(rng)}"]
        else:
            comm = [f"ALLGATHER {_size(rng)}", f"ALLREDUCE {_size(rng)}", "NONE 0"]
        lines.append(f"layer{i} -1 {t[0]} {comm[0]} {t[1]} {comm[1]} {t[2]} {comm[2]} 1")
    return "\n".join(lines) + "\n"


def build(case: dict[str, Any], folder: Path) -> tuple[str, str | None]:
    """Write the case's ETs into `folder`: (workload prefix, comm-group JSON path or None)."""
    if case["workload"] == "text":
        from infragraph.workload.chakra import text_converter

        src = folder / "workload.txt"
        src.write_text(case["text"], encoding="utf-8")
        text_converter()(str(src), str(folder / "wl"), case["npus"], 1).convert()
        return str(folder / "wl"), None
    per_rank, groups = dag(case)
    from infragraph.workload.chakra import et_bytes

    for rank, nodes in enumerate(per_rank):
        (folder / f"wl.{rank}.et").write_bytes(et_bytes(nodes))
    if not groups:
        return str(folder / "wl"), None
    cg = folder / "wl.json"
    cg.write_text(json.dumps({str(k): v for k, v in groups.items()}), encoding="utf-8")
    return str(folder / "wl"), str(cg)


def dag(case: dict[str, Any]) -> tuple[list[list[Any]], dict[int, list[int]]]:
    """Every NPU's nodes (Chakra messages) and the comm groups of a `dag` case (see the module doc)."""
    from infragraph.workload.chakra import make_node

    rng = random.Random(case["seed"] * 7919 + 1)
    npus, tp = case["npus"], case["tp"]
    dp = npus // tp
    groups: dict[int, list[int]] = {}
    tp_group = {}  # rank -> group id
    dp_group = {}
    if tp > 1:
        for b in range(dp):
            gid = len(groups) + 1
            groups[gid] = list(range(b * tp, (b + 1) * tp))
            for r in groups[gid]:
                tp_group[r] = gid
    if dp > 1:
        for t in range(tp):
            gid = len(groups) + 1
            groups[gid] = list(range(t, npus, tp))
            for r in groups[gid]:
                dp_group[r] = gid
    # the step's template, the same on every NPU (SPMD): each entry becomes one node per NPU
    template: list[dict[str, Any]] = []
    jitter = rng.random() < 0.7  # compute durations differ per NPU
    for layer in range(case["layers"]):
        template.append({"op": "recv", "dir": 0, "tag": layer})
        if case.get("memory") and rng.random() < 0.7:
            template.append({"op": "mem-load", "bytes": int(2 ** rng.uniform(12, 24))})
        template.append({"op": "comp", "us": rng.randint(0, 30), "ops": int(2 ** rng.uniform(20, 34)),
                         "bytes": int(2 ** rng.uniform(16, 28)) if rng.random() < 0.95 else 0})
        if tp > 1 and rng.random() < 0.8:
            template.append({"op": "coll", "on": "tp", "type": rng.choice(COLLECTIVES), "size": _size(rng)})
        template.append({"op": "send", "dir": 0, "tag": layer, "size": _size(rng)})
    for layer in reversed(range(case["layers"])):
        template.append({"op": "recv", "dir": 1, "tag": 100 + layer})
        template.append({"op": "comp", "us": rng.randint(0, 30), "ops": int(2 ** rng.uniform(20, 34)),
                         "bytes": int(2 ** rng.uniform(16, 28))})
        template.append({"op": "send", "dir": 1, "tag": 100 + layer, "size": _size(rng)})
        if case.get("memory") and rng.random() < 0.7:
            template.append({"op": "mem-store", "bytes": int(2 ** rng.uniform(12, 24))})
        if dp > 1 and rng.random() < 0.6:
            template.append({"op": "coll", "on": "dp", "type": rng.choice(COLLECTIVES), "size": _size(rng)})
    if rng.random() < 0.3:
        template.append({"op": "coll", "on": "all", "type": rng.choice(COLLECTIVES), "size": _size(rng)})
    # a pipeline-like chain over the DP axis: stage s = rank // tp sends forward to s + 1 (dir 0),
    # backward to s - 1 (dir 1); the message size of each (dir, tag) comes from the sender's entry
    sizes = {(e["dir"], e["tag"]): e["size"] for e in template if e["op"] == "send"}
    dep_prob = rng.choice([0.5, 0.8, 1.0])
    ctrl_prob = rng.choice([0.0, 0.2, 0.4])
    per_rank: list[list[Any]] = []
    for rank in range(npus):
        r_rng = random.Random(case["seed"] * 104729 + rank)
        nodes: list[Any] = []
        last_comm: int | None = None  # the NPU's previous collective or send
        prev: int | None = None
        nid = 0
        for e in template:
            peer = None
            if e["op"] in ("send", "recv"):
                fwd = e["dir"] == 0
                if e["op"] == "send":
                    peer = rank + tp if fwd else rank - tp
                else:
                    peer = rank - tp if fwd else rank + tp
                if not 0 <= peer < npus:
                    continue
            if e["op"] == "coll":
                if e["on"] == "tp" and rank not in tp_group or e["on"] == "dp" and rank not in dp_group:
                    continue
            nid += 1
            deps = [prev] if prev is not None and r_rng.random() < dep_prob else []
            ctrl = [r_rng.randrange(1, nid)] if nid > 1 and r_rng.random() < ctrl_prob else []
            if e["op"] in ("coll", "send", "mem-load", "mem-store") and last_comm is not None \
                    and last_comm not in deps + ctrl:
                ctrl.append(last_comm)
            name = f"{e['op']}{nid}"
            if e["op"] == "comp":
                us = e["us"] + (r_rng.randint(0, 5) if jitter else 0)
                ops = e["ops"] + (r_rng.randrange(1 << 20) if jitter else 0)
                n = make_node(nid, name, "compute", tuple(deps), tuple(ctrl), duration_us=us, is_cpu_op=False,
                              num_ops=ops, tensor_size=e["bytes"])
            elif e["op"] in ("mem-load", "mem-store"):
                n = make_node(nid, name, e["op"], tuple(deps), tuple(ctrl), is_cpu_op=False, tensor_size=e["bytes"])
            elif e["op"] == "coll":
                attrs: dict[str, Any] = {"is_cpu_op": False, "comm_type": e["type"], "comm_size": e["size"]}
                if e["on"] != "all":
                    attrs["pg_name"] = str((tp_group if e["on"] == "tp" else dp_group)[rank])
                n = make_node(nid, name, "collective", tuple(deps), tuple(ctrl), **attrs)
            else:
                src, dst = (rank, peer) if e["op"] == "send" else (peer, rank)
                n = make_node(nid, name, e["op"], tuple(deps), tuple(ctrl), is_cpu_op=False, comm_src=src,
                              comm_dst=dst, comm_tag=e["tag"], comm_size=sizes[(e["dir"], e["tag"])])
            nodes.append(n)
            prev = nid
            if e["op"] in ("coll", "send", "mem-load", "mem-store"):
                last_comm = nid
        per_rank.append(nodes)
    return per_rank, groups


# -- running a case on the real binaries --

def configs(case: dict[str, Any], folder: Path) -> dict[str, str]:
    """ASTRA-sim's network / system / remote-memory files for the case."""
    net = folder / "network.yml"
    dims = case["dims"]
    net.write_text(
        f"topology: [ {', '.join(d[0] for d in dims)} ]\n"
        f"npus_count: [ {', '.join(str(d[1]) for d in dims)} ]\n"
        f"bandwidth: [ {', '.join(repr(d[2]) for d in dims)} ]\n"
        f"latency: [ {', '.join(repr(d[3]) for d in dims)} ]\n", encoding="utf-8")
    algs = [case["algorithm"]] * len(dims)
    system = {
        "scheduling-policy": "LIFO", "endpoint-delay": case["endpoint_delay"],
        "active-chunks-per-dimension": 1, "preferred-dataset-splits": case["chunks"],
        "all-reduce-implementation": algs, "all-gather-implementation": algs,
        "reduce-scatter-implementation": algs, "all-to-all-implementation": algs,
        "collective-optimization": "localBWAware", "local-mem-bw": case["local_mem_bw"], "boost-mode": 0,
        "roofline-enabled": 1 if case["roofline"] else 0, "peak-perf": case["peak_perf"],
    }
    sysf = folder / "system.json"
    sysf.write_text(json.dumps(system, indent=1), encoding="utf-8")
    mem = folder / "remote_memory.json"
    m = case.get("memory")
    mem.write_text(json.dumps({"memory-type": "PER_NPU_MEMORY_EXPANSION", "remote-mem-latency": m["latency"],
                               "remote-mem-bw": m["bw"]} if m else {"memory-type": "NO_MEMORY_EXPANSION"}),
                   encoding="utf-8")
    return {"network": str(net), "system": str(sysf), "memory": str(mem)}


def run_binary(case: dict[str, Any], binary: str, timeout_s: float = 60.0) -> list[int] | str:
    """Every NPU's finish time from the binary, or why there is none."""
    with tempfile.TemporaryDirectory(prefix="wlcorpus-") as tmp:
        folder = Path(tmp)
        prefix, cg = build(case, folder)
        cfg = configs(case, folder)
        cmd = [binary, f"--workload-configuration={prefix}",
               f"--comm-group-configuration={cg or 'empty'}",
               f"--system-configuration={cfg['system']}", f"--network-configuration={cfg['network']}",
               f"--remote-memory-configuration={cfg['memory']}"]
        try:
            out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout_s, cwd=tmp)
        except subprocess.TimeoutExpired:
            return "timeout"
        if out.returncode != 0:
            tail = (out.stderr or out.stdout).strip().splitlines()[-1:] or [""]
            return f"exit {out.returncode}: {tail[0][:200]}"
        found = {int(m.group(1)): int(m.group(2)) for m in FINISHED.finditer(out.stdout)}
        if sorted(found) != list(range(case["npus"])):
            return f"finish lines for {len(found)} of {case['npus']} NPUs"
        return [found[i] for i in range(case["npus"])]


# -- replaying a case with the toolchain (used by tests/workload/test_corpus.py) --

def stack_params(case: dict[str, Any]) -> dict[str, str]:
    """std.fabrics.stack's parameters for the case's network (ASTRA-sim's GB/s are GiB/s)."""
    dims = case["dims"]
    return {"shape": "_".join(f"{KIND_SHAPE[d[0]]}({d[1]})" for d in dims),
            "bandwidth": "[" + ", ".join(f"{d[2]!r} GiB/s" for d in dims) + "]",
            "latency": "[" + ", ".join(f"{d[3]!r} ns" for d in dims) + "]"}


def replay_options(case: dict[str, Any]):
    """The replay's options for the case, as `infragraph simulate --workload` would set them."""
    from infragraph.simulate import SimulationOptions
    from infragraph.workload.replay import ReplayOptions

    sim = SimulationOptions(model="astra-aware" if case["backend"] == "aware" else "astra",
                            algorithm=(case["algorithm"],) * len(case["dims"]), chunks=case["chunks"],
                            endpoint_delay_ns=case["endpoint_delay"], local_mem_bw_gb_per_s=case["local_mem_bw"],
                            scheduling="arrival")  # the astra models' default: ASTRA-sim's queue order
    m = case.get("memory")
    return ReplayOptions(sim=sim, roofline=case["roofline"], peak_perf_tflops=case["peak_perf"],
                         remote_mem_bw_gb_per_s=m["bw"] if m else None, remote_mem_latency_ns=m["latency"] if m else 0)


@lru_cache(maxsize=len(NETWORKS))
def prepared_network(dims_json: str) -> Any:
    """The prepared stack fabric of a network (compiled once per network: parsing is the slow part)."""
    from infragraph import blueprints
    from infragraph.simulate import prepare

    return prepare(blueprints.graph("std.fabrics.stack", **stack_params({"dims": json.loads(dims_json)})))


def replay_case(case: dict[str, Any]) -> list[int]:
    """Every NPU's finish time from the toolchain's replay of the case."""
    from infragraph.workload.replay import replay
    from infragraph.workload.trace import read_et_set

    p = prepared_network(json.dumps(case["dims"]))
    with tempfile.TemporaryDirectory(prefix="wlcorpus-") as tmp:
        prefix, cg = build(case, Path(tmp))
        w = read_et_set(prefix, case["npus"], cg)
        w.source = case["name"]
        r = replay(p, w, replay_options(case))
    return [int(n["finish_ns"]) for n in r["npus"]]


def main(argv: list[str] | None = None) -> int:
    import os

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=20, help="first case seed (case i has seed SEED * 100000 + i)")
    ap.add_argument("--count", type=int, default=400)
    ap.add_argument("--out", required=True, help="JSON lines, gzip-compressed when the name ends in .gz")
    ap.add_argument("--timeout", type=float, default=60.0)
    args = ap.parse_args(argv)
    binaries = {"unaware": os.environ.get("ASTRA_UNAWARE"), "aware": os.environ.get("ASTRA_AWARE")}
    if not all(binaries.values()):
        print("set ASTRA_UNAWARE and ASTRA_AWARE to the analytical binaries", file=sys.stderr)
        return 1
    opener = gzip.open if args.out.endswith(".gz") else open
    dropped: dict[str, int] = {}
    kept = 0
    with opener(args.out, "wt", encoding="utf-8") as fh:
        for i in range(args.count):
            case = draw(args.seed * 100000 + i)
            t0 = time.perf_counter()
            got = run_binary(case, binaries[case["backend"]], args.timeout)
            if isinstance(got, str):
                dropped[got] = dropped.get(got, 0) + 1
                print(f"{case['name']}: dropped ({got})", file=sys.stderr)
                continue
            case["finish_ns"] = got
            case["wall_s"] = round(time.perf_counter() - t0, 3)
            fh.write(json.dumps(case) + "\n")
            kept += 1
    print(f"{kept} cases kept, {sum(dropped.values())} dropped: {dropped}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
