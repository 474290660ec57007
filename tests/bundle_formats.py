"""Format validators for translator bundles: every rule the real ASTRA-sim / HTSim / ns-3 parsers enforce.

Written from what the real tools read and what they aborted on when the bundles were run (issue 11,
/work/shared/design/backend-formats.md, /work/shared/backends/README.md), independently of the
translators' own code: a translator bug that writes a file the real tool rejects fails here.
`validate(bundle)` returns a list of problems (empty = the files would load and run).
"""

from __future__ import annotations

import json
import math
import re
from fractions import Fraction

import numpy as np
import yaml
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from infragraph.translators.base import Bundle
from infragraph.translators.ns3 import FLOAT_KEYS, MAX_BUFFER_MIB, MAX_LINKS, MAX_SWITCH_PORTS, UINT_KEYS

ASTRA_COLLECTIVE_TYPES = {"all_reduce": 0, "all_gather": 2, "all_to_all": 6, "reduce_scatter": 7}
IMPLEMENTATION_KEYS = ("all-reduce-implementation", "reduce-scatter-implementation", "all-gather-implementation",
                       "all-to-all-implementation")
ALGORITHMS = {"ring", "direct", "halvingDoubling", "doubleBinaryTree"}


def validate(b: Bundle) -> list[str]:
    checks = {"astra-analytical": _analytical, "htsim": _htsim, "ns3": _ns3}
    return checks[b.backend](b.files) if b.backend in checks else []


# --- shared: system.json, remote memory, workload, run.sh ----------------------------------------

def _varint(data: bytes, i: int) -> tuple[int, int]:
    value, shift = 0, 0
    while True:
        byte = data[i]
        value |= (byte & 0x7F) << shift
        i, shift = i + 1, shift + 7
        if not byte & 0x80:
            return value, i


def _fields(msg: bytes) -> list[tuple[int, int | bytes]]:
    """(field number, value) of a protobuf message: varints as int, length-delimited as bytes."""
    out, i = [], 0
    while i < len(msg):
        key, i = _varint(msg, i)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, i = _varint(msg, i)
        elif wire == 2:
            n, i = _varint(msg, i)
            value, i = msg[i:i + n], i + n
        else:
            raise ValueError(f"wire type {wire}")
        out.append((number, value))
    return out


def _workload(files: dict, num_npus: int) -> tuple[list[str], int | None]:
    """Chakra ET checks (ASTRA-sim reads `<prefix>.<npu>.et` for every NPU); returns (problems, comm_type)."""
    ets = sorted(k for k in files if k.startswith("workload/"))
    stems = {re.sub(r"\.\d+\.et$", "", k) for k in ets}
    if len(stems) != 1:
        return [f"workload: expected one prefix, found {sorted(stems)}"], None
    stem = stems.pop()
    want = {f"{stem}.{i}.et" for i in range(num_npus)}
    if set(ets) != want:
        return [f"workload: files {len(ets)} do not match {num_npus} NPUs ({sorted(set(ets) ^ want)[:3]})"], None
    problems, kinds = [], set()
    for npu in range(num_npus):
        data = files[f"{stem}.{npu}.et"]
        try:
            n, i = _varint(data, 0)
            meta = dict(_fields(data[i:i + n]))
            m, j = _varint(data, i + n)
            if j + m != len(data):
                problems.append(f"workload {npu}: more than one node or trailing bytes")
            node = _fields(data[j:j + m])
        except (IndexError, ValueError) as e:
            return [f"workload {npu}: not length-delimited protobuf ({e})"], None
        if meta.get(1) != b"0.0.4":
            problems.append(f"workload {npu}: GlobalMetadata version {meta.get(1)!r}, ASTRA-sim's feeder wants 0.0.4")
        scalar = {k: v for k, v in node if k != 10}
        if scalar.get(1, 0) != npu or scalar.get(3) != 7:
            problems.append(f"workload {npu}: node id {scalar.get(1, 0)} type {scalar.get(3)}; expected id {npu}, "
                            f"COMM_COLL_NODE (7)")
        attrs = {}
        for k, v in node:
            if k == 10:
                a = dict(_fields(v))
                attrs[a.get(1, b"").decode()] = a
        if set(attrs) != {"is_cpu_op", "comm_type", "comm_size"} or 27 not in attrs["is_cpu_op"] \
                or 9 not in attrs["comm_type"] or attrs["comm_size"].get(9, 0) <= 0:
            problems.append(f"workload {npu}: attributes {sorted(attrs)} (need is_cpu_op bool, comm_type int64, "
                            f"comm_size int64 > 0)")
            continue
        kinds.add(attrs["comm_type"][9])
    if len(kinds) > 1:
        problems.append(f"workload: NPUs disagree on comm_type {sorted(kinds)}")
    kind = kinds.pop() if kinds else None
    if kind is not None and ASTRA_COLLECTIVE_TYPES.get(stem.split("/")[-1]) != kind:
        problems.append(f"workload: file stem {stem} but comm_type {kind}")
    return problems, kind


def _system(files: dict, dims: list[tuple[str, int]], comm_type: int | None) -> list[str]:
    out = []
    try:
        s = json.loads(files["system.json"])
    except (KeyError, ValueError) as e:
        return [f"system.json: {e}"]
    need = {"scheduling-policy", "endpoint-delay", "active-chunks-per-dimension", "preferred-dataset-splits",
            *IMPLEMENTATION_KEYS, "collective-optimization", "local-mem-bw"}
    if need - set(s):
        out.append(f"system.json lacks {sorted(need - set(s))} (preferred-dataset-splits missing divides by zero)")
        return out
    if s["scheduling-policy"] not in ("LIFO", "FIFO"):
        out.append(f"system.json scheduling-policy {s['scheduling-policy']!r}")
    if not (isinstance(s["endpoint-delay"], int) and s["endpoint-delay"] >= 1):
        out.append(f"system.json endpoint-delay {s['endpoint-delay']!r}: ASTRA-sim aborts on 0 (integer >= 1)")
    for k in ("active-chunks-per-dimension", "preferred-dataset-splits"):
        if not (isinstance(s[k], int) and s[k] >= 1):
            out.append(f"system.json {k} {s[k]!r}: integer >= 1")
    if s["collective-optimization"] not in ("baseline", "localBWAware"):
        out.append(f"system.json collective-optimization {s['collective-optimization']!r}")
    if not (isinstance(s["local-mem-bw"], (int, float)) and math.isfinite(s["local-mem-bw"]) and s["local-mem-bw"] > 0):
        out.append(f"system.json local-mem-bw {s['local-mem-bw']!r}: GB/s > 0")
    for k in IMPLEMENTATION_KEYS:
        algs = s[k]
        if not isinstance(algs, list) or len(algs) != len(dims) or not set(algs) <= ALGORITHMS:
            out.append(f"system.json {k} {algs!r}: one of {sorted(ALGORITHMS)} per dimension ({len(dims)})")
            continue
        if k == "all-to-all-implementation" and "halvingDoubling" in algs:
            out.append("system.json: all-to-all halvingDoubling makes ASTRA-sim exit 1 ('unknown communication type')")
        if "doubleBinaryTree" in algs and k != "all-reduce-implementation":
            out.append(f"system.json {k}: doubleBinaryTree is all-reduce only")
        for a, (_, n) in zip(algs, dims):
            if a == "halvingDoubling" and n & (n - 1):
                out.append(f"system.json {k}: halvingDoubling on a dimension of {n} (power of two only)")
    try:
        mem = json.loads(files["remote_memory.json"])
        if mem.get("memory-type") != "NO_MEMORY_EXPANSION":
            out.append(f"remote_memory.json memory-type {mem.get('memory-type')!r}")
    except (KeyError, ValueError) as e:
        out.append(f"remote_memory.json: {e}")
    return out


def _run_sh(files: dict, binary: str) -> list[str]:
    run = files.get("run.sh", "")
    out = []
    if binary not in run:
        out.append(f"run.sh does not look for {binary}")
    for ref in re.findall(r'\$here/([A-Za-z0-9_.\-]+)"', run):
        if ref not in files and ref != "run.log":
            out.append(f"run.sh names $here/{ref}, which the bundle lacks")
    if 'WORKLOAD:-$here/workload/' not in run:
        out.append("run.sh does not default to the bundle's own workload")
    return out


def _ranks(files: dict, num_npus: int) -> list[str]:
    body = [ln for ln in files.get("ranks.txt", "").splitlines() if ln and not ln.startswith("#")]
    ranks = [int(ln.split("\t")[0]) for ln in body]
    return [] if ranks == list(range(num_npus)) else [f"ranks.txt lists {len(ranks)} ranks for {num_npus} NPUs"]


# --- ASTRA-sim analytical -------------------------------------------------------------------------

def _network_yml(text: str) -> tuple[list[str], list[tuple[str, int]]]:
    try:
        net = yaml.safe_load(text)
    except yaml.YAMLError as e:
        return [f"network.yml: {e}"], []
    keys = ("topology", "npus_count", "bandwidth", "latency")
    if not isinstance(net, dict) or any(not isinstance(net.get(k), list) for k in keys):
        return ["network.yml: needs the four lists topology, npus_count, bandwidth, latency"], []
    if len({len(net[k]) for k in keys}) != 1 or not net["topology"]:
        return [f"network.yml: lists of different lengths {[len(net[k]) for k in keys]}"], []
    out = []
    for i, (t, n, bw, lat) in enumerate(zip(*(net[k] for k in keys))):
        if t not in ("Ring", "FullyConnected", "Switch"):
            out.append(f"network.yml dim {i}: topology {t!r} (case-sensitive Ring|FullyConnected|Switch)")
        if not (isinstance(n, int) and n > 1):
            out.append(f"network.yml dim {i}: npus_count {n!r} (integer > 1)")
        for what, v in (("bandwidth", bw), ("latency", lat)):
            if not (isinstance(v, (int, float)) and math.isfinite(v) and v > 0):
                out.append(f"network.yml dim {i}: {what} {v!r} (finite > 0)")
    return out, list(zip(net["topology"], net["npus_count"]))


def _analytical(files: dict) -> list[str]:
    out, dims = _network_yml(files.get("network.yml", ""))
    if out:
        return out
    npus = math.prod(n for _, n in dims)
    wl, kind = _workload(files, npus)
    out += wl + _system(files, dims, kind) + _ranks(files, npus)
    aware = "Congestion_Aware" in files.get("run.sh", "")
    out += _run_sh(files, "AstraSim_Analytical_Congestion_" + ("Aware" if aware else "Unaware"))
    if aware and len(dims) > 1:
        out.append("congestion-aware analytical binary: 'only support 1-dim topology' (exit 255)")
    if aware and dims[0] == ("Ring", 2):
        out.append("congestion-aware analytical binary aborts on a Ring of 2 ('!connected(id)')")
    return out


# --- HTSim ----------------------------------------------------------------------------------------

TIER_KEYS = {"downlink_speed_gbps", "radix_down", "radix_up", "downlink_latency_ns", "switch_latency_ns",
             "oversubscribed", "bundle"}


def parse_topo(text: str) -> tuple[dict, list[dict], list[str]]:
    """csg-htsim's fat-tree file: keywords case-insensitive, '#' comments, integer values."""
    head: dict[str, int] = {}
    tiers: list[dict[str, int]] = []
    out = []
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#")[0].strip()
        if not line:
            continue
        words = line.split()
        key = words[0].lower()
        if len(words) != 2 or not re.fullmatch(r"\d+", words[1]):
            out.append(f"fat_tree.topo:{lineno}: '{line}' is not 'Keyword integer'")
            continue
        v = int(words[1])
        if key == "tier":
            if v != len(tiers):
                out.append(f"fat_tree.topo:{lineno}: Tier {v} out of order")
            tiers.append({})
        elif key in ("nodes", "tiers", "podsize") and not tiers:
            head[key] = v
        elif key in TIER_KEYS and tiers:
            if key in tiers[-1]:
                out.append(f"fat_tree.topo:{lineno}: {words[0]} given twice in a tier")
            tiers[-1][key] = v
        else:
            out.append(f"fat_tree.topo:{lineno}: unknown or misplaced keyword {words[0]} (Queue_Up/Queue_Down are "
                       f"rejected as duplicates under ASTRA-sim)")
    return head, tiers, out


def fat_tree_rules(head: dict, tiers: list[dict]) -> list[str]:
    """The load-time consistency rules of csg-htsim's fat tree (backend-formats.md)."""
    out = []
    n, pod, T = head.get("nodes", 0), head.get("podsize", 0), head.get("tiers", 0)
    if T not in (2, 3) or len(tiers) != T:
        return [f"Tiers {T} with {len(tiers)} tier blocks (2 or 3)"]
    for i, t in enumerate(tiers):
        need = {"downlink_speed_gbps", "radix_down", "downlink_latency_ns"} | ({"radix_up"} if i < T - 1 else set())
        if need - set(t):
            return [f"tier {i} lacks {sorted(need - set(t))}"]
        if t["downlink_latency_ns"] <= 0:
            out.append(f"tier {i}: Downlink_Latency_ns must be > 0")
    sp = [Fraction(t["downlink_speed_gbps"]) for t in tiers]
    ov = [t.get("oversubscribed", 1) for t in tiers]
    if tiers[0].get("bundle", 1) != 1:
        out.append("Bundle on tier 0 must be 1")
    if not pod or n % pod:
        out.append(f"Nodes {n} % Podsize {pod} != 0")
        return out
    if pod % tiers[0]["radix_down"]:
        out.append(f"Podsize {pod} % Radix_Down0 {tiers[0]['radix_down']} != 0")
    if Fraction(tiers[0]["radix_down"], tiers[0]["radix_up"]) != ov[0]:
        out.append(f"Radix_Down0/Radix_Up0 != Oversubscribed0 ({ov[0]})")
    pods = n // pod
    tor_up = n * sp[0] / (sp[1] * ov[0])
    agg_per_pod = tor_up / (pods * tiers[1]["radix_down"])
    if tor_up.denominator != 1 or agg_per_pod.denominator != 1 or agg_per_pod * tiers[1].get("bundle", 1) != tiers[0]["radix_up"]:
        out.append(f"tor_uplinks {tor_up}, agg_per_pod {agg_per_pod}: agg_per_pod*Bundle1 must equal Radix_Up0")
    if T == 3:
        agg_up = tor_up * sp[1] / (sp[2] * ov[1])
        cores = agg_up / tiers[2]["radix_down"]
        if cores.denominator != 1 or agg_per_pod == 0 or cores % agg_per_pod \
                or cores * tiers[2].get("bundle", 1) / agg_per_pod != tiers[1]["radix_up"]:
            out.append(f"cores {cores}: cores % agg_per_pod == 0 and cores*Bundle2/agg_per_pod == Radix_Up1 fail")
    return out


def _htsim(files: dict) -> list[str]:
    out, dims = _network_yml(files.get("network.yml", ""))
    if out:
        return out
    npus = math.prod(n for _, n in dims)
    head, tiers, problems = parse_topo(files.get("fat_tree.topo", ""))
    out += problems + fat_tree_rules(head, tiers)
    if head.get("nodes") != npus:
        out.append(f"fat_tree.topo Nodes {head.get('nodes')} != network.yml NPUs {npus}")
    wl, kind = _workload(files, npus)
    out += wl + _system(files, dims, kind) + _ranks(files, npus) + _run_sh(files, "AstraSim_HTSim")
    if "halvingDoubling" in files.get("system.json", ""):
        out.append("HTSim: halvingDoubling aborts ASTRA-sim's HTSim glue ('notify_sender_sending_finished failed')")
    if "--htsim_opts -topo" not in files.get("run.sh", ""):
        out.append("run.sh does not pass --htsim_opts -topo")
    return out


# --- ns-3 -----------------------------------------------------------------------------------------

# the C++ types ns-3's config reader uses (one table, with the translator: infragraph.translators.ns3)
NS3_UINT, NS3_DOUBLE = UINT_KEYS, FLOAT_KEYS
NS3_TOKEN = set("DATA_RATE LINK_DELAY TOPOLOGY_FILE FLOW_FILE TRACE_FILE TRACE_OUTPUT_FILE RATE_AI RATE_HAI MIN_RATE "
                "FCT_OUTPUT_FILE DCTCP_RATE_AI PFC_OUTPUT_FILE QLEN_MON_FILE".split())
NS3_REQUIRED = {"TOPOLOGY_FILE", "FLOW_FILE", "TRACE_FILE", "TRACE_OUTPUT_FILE", "FCT_OUTPUT_FILE", "PFC_OUTPUT_FILE",
                "QLEN_MON_FILE", "SIMULATOR_STOP_TIME", "CC_MODE", "PACKET_PAYLOAD_SIZE", "BUFFER_SIZE",
                "KMAX_MAP", "KMIN_MAP", "PMAX_MAP"}
DATA_RATE_UNITS = {"bps": 1, "b/s": 1, "Bps": 8, "B/s": 8, "kbps": 1e3, "kb/s": 1e3, "Kbps": 1e3, "Kb/s": 1e3,
                   "kBps": 8e3, "kB/s": 8e3, "KBps": 8e3, "KB/s": 8e3, "Kib/s": 1024, "KiB/s": 8192,
                   "Mbps": 1e6, "Mb/s": 1e6, "MBps": 8e6, "MB/s": 8e6, "Mib/s": 2**20, "MiB/s": 8 * 2**20,
                   "Gbps": 1e9, "Gb/s": 1e9, "GBps": 8e9, "GB/s": 8e9, "Gib/s": 2**30, "GiB/s": 8 * 2**30}
TIME_UNITS = ("s", "ms", "us", "ns", "ps", "fs", "min", "h", "d")
UINT = re.compile(r"\d+")
NUMBER = re.compile(r"[0-9]*\.?[0-9]+([eE][-+]?\d+)?")


def data_rate_bps(text: str) -> int | None:
    """ns-3 DataRate::DoParse: digits and '.', then a unit; number parsed as double, times the unit,
    truncated to an integer. None when ns-3 rejects it (e.g. Tbps, which it does not know)."""
    m = re.fullmatch(r"([0-9.]+)(\D.*)", text)
    if not m or m.group(2) not in DATA_RATE_UNITS:
        return None
    try:
        return int(float(m.group(1)) * DATA_RATE_UNITS[m.group(2)])
    except ValueError:
        return None


def parse_ns3_config(text: str) -> tuple[dict[str, list[str]], list[str]]:
    """config.txt as ns-3's reader consumes it: `conf >> key` then a typed read. A token the typed
    read cannot take fully (a decimal where it reads an integer) leaves the stream failed, and the
    reader loops forever; such values are reported."""
    tokens = text.split()
    values: dict[str, list[str]] = {}
    out = []
    i = 0
    while i < len(tokens):
        key = tokens[i]
        i += 1
        if key in NS3_UINT:
            take = 1
            if i >= len(tokens) or not UINT.fullmatch(tokens[i]):
                out.append(f"config.txt {key} {tokens[i] if i < len(tokens) else ''!r}: read as an unsigned integer")
        elif key in NS3_DOUBLE:
            take = 1
            if i >= len(tokens) or not NUMBER.fullmatch(tokens[i]):
                out.append(f"config.txt {key}: not a number")
        elif key in NS3_TOKEN:
            take = 1
        elif key == "LINK_DOWN":
            take = 3
            if not all(UINT.fullmatch(t) for t in tokens[i:i + 3]):
                out.append("config.txt LINK_DOWN: three unsigned integers")
        elif key in ("KMAX_MAP", "KMIN_MAP", "PMAX_MAP"):
            if i >= len(tokens) or not UINT.fullmatch(tokens[i]):
                out.append(f"config.txt {key}: count must be an integer")
                return values, out
            n = int(tokens[i])
            take = 1 + 2 * n
            pairs = tokens[i + 1:i + take]
            value_re = NUMBER if key == "PMAX_MAP" else UINT
            if len(pairs) != 2 * n or not all(UINT.fullmatch(r) and value_re.fullmatch(v)
                                              for r, v in zip(pairs[::2], pairs[1::2])):
                out.append(f"config.txt {key}: {n} pairs 'rate_bps value' with integer rates"
                           f"{'' if key == 'PMAX_MAP' else ' and integer thresholds (a decimal loops ns-3 forever)'}")
        else:
            out.append(f"config.txt: unknown key {key!r} (ns-3 would read its value as the next key)")
            continue
        values[key] = tokens[i:i + take]
        i += take
    missing = NS3_REQUIRED - set(values)
    if missing:
        out.append(f"config.txt lacks {sorted(missing)}")
    buffer = values.get("BUFFER_SIZE", ["1"])[0]
    if UINT.fullmatch(buffer) and not 1 <= int(buffer) <= MAX_BUFFER_MIB:
        out.append(f"config.txt BUFFER_SIZE {buffer}: ns-3 multiplies it by 1024 x 1024 into 32 bits (1..{MAX_BUFFER_MIB})")
    return values, out


def _rate_map(values: list[str]) -> set[int]:
    return {int(r) for r in values[1::2]}


def _ns3(files: dict) -> list[str]:
    cfg, out = parse_ns3_config(files.get("config.txt", ""))
    if out:
        return out
    for key in ("TOPOLOGY_FILE", "FLOW_FILE", "TRACE_FILE"):
        if cfg[key][0] not in files:
            out.append(f"config.txt {key} {cfg[key][0]} is not in the bundle ('cannot open', exit 255)")
    if out:
        return out
    flow = files[cfg["FLOW_FILE"][0]].split()
    if not flow or not UINT.fullmatch(flow[0]) or len(flow) != 1 + 6 * int(flow[0]):
        out.append("flow file: a flow count then 'src dst pg dport size start' per flow")
    trace = files[cfg["TRACE_FILE"][0]].split()
    if not trace or not all(map(UINT.fullmatch, trace)) or len(trace) != 1 + int(trace[0]):
        out.append("trace file: a node count then that many node ids")
    lines = files[cfg["TOPOLOGY_FILE"][0]].split("\n")
    try:
        total, nsw, nlinks = map(int, lines[0].split())
        switches = [int(x) for x in lines[1].split()]
    except (ValueError, IndexError):
        return out + ["topology: header 'nodes switches links' and a line of switch ids"]
    links = [ln.split() for ln in lines[2:] if ln.strip()]
    if len(switches) != nsw or len(set(switches)) != nsw or any(not 0 <= s < total for s in switches):
        out.append(f"topology: {len(switches)} distinct switch ids in range, header says {nsw}")
    if len(links) != nlinks:
        out.append(f"topology: {len(links)} link lines, header says {nlinks}")
    if nlinks > MAX_LINKS:
        out.append(f"topology: {nlinks:,} links; ns-3 gives link i the subnet 10.(i/254+1).(i%254+1).0, valid for "
                   f"{MAX_LINKS:,} links (address collision after that)")
    num_npus = total - nsw
    if set(switches) & set(range(num_npus)):
        out.append("topology: NPUs must be nodes 0..N-1 and switches after them")
    is_switch = np.zeros(total, dtype=bool)
    is_switch[[s for s in switches if 0 <= s < total]] = True
    src, dst, switch_rates = [], [], set()
    for k, ln in enumerate(links[:200000]):
        if len(ln) != 5:
            out.append(f"topology link {k}: 'src dst rate delay error_rate'")
            break
        a, b = int(ln[0]), int(ln[1])
        if not (0 <= a < total and 0 <= b < total) or a == b:
            out.append(f"topology link {k}: endpoints {a} {b}")
            break
        bps = data_rate_bps(ln[2])
        if bps is None or not ln[2].endswith("Gbps"):
            out.append(f"topology link {k}: rate {ln[2]!r} (write Gbps; ns-3 rejects Tbps)")
            break
        if not re.fullmatch(r"[0-9.]+(" + "|".join(TIME_UNITS) + ")", ln[3]):
            out.append(f"topology link {k}: delay {ln[3]!r}")
            break
        if not NUMBER.fullmatch(ln[4]) or not 0 <= float(ln[4]) <= 1:
            out.append(f"topology link {k}: error rate {ln[4]!r}")
            break
        if is_switch[a] or is_switch[b]:
            switch_rates.add(bps)
        src.append(a)
        dst.append(b)
    out += _one_link_per_pair_and_port_counts(src, dst, is_switch)
    for key in ("KMAX_MAP", "KMIN_MAP", "PMAX_MAP"):
        missing = switch_rates - _rate_map(cfg[key])
        if missing:
            out.append(f"config.txt {key} lacks rate(s) {sorted(missing)[:3]} as ns-3 parses them "
                       f"('must set {key[:4].lower()} for each link speed')")
    out += _only_switches_forward(np.array(src, dtype=np.int64), np.array(dst, dtype=np.int64), is_switch, num_npus)
    try:
        logical = json.loads(files["logical_topology.json"])["logical-dims"]
        dims = [int(x) for x in logical]
        if not all(isinstance(x, str) for x in logical) or math.prod(dims) != num_npus:
            out.append(f"logical_topology.json {logical}: strings whose product is the {num_npus} NPUs")
    except (KeyError, ValueError) as e:
        return out + [f"logical_topology.json: {e}"]
    wl, kind = _workload(files, num_npus)
    out += wl + _system(files, [("", d) for d in dims], kind) + _ranks(files, num_npus)
    out += _run_sh(files, "ns3.42-AstraSimNetwork-default") + _run_sh(files, "ns3-dev-AstraSimNetwork-default")
    return out


def _one_link_per_pair_and_port_counts(src: list[int], dst: list[int], is_switch: np.ndarray) -> list[str]:
    """ns-3's fork keeps one interface per pair of neighbours (nbr2if[a][b]): of parallel links only the
    last carries traffic. Its switch nodes have counters for ports 1..1024 only (arrays of 1025)."""
    out = []
    pairs: dict[tuple[int, int], int] = {}
    for a, b in zip(src, dst):
        key = (min(a, b), max(a, b))
        pairs[key] = pairs.get(key, 0) + 1
    dup = next(((k, n) for k, n in pairs.items() if n > 1), None)
    if dup:
        out.append(f"topology: nodes {dup[0][0]} and {dup[0][1]} are joined by {dup[1]} links; ns-3 keeps one "
                   f"interface per neighbour, so only the last would carry traffic")
    ports = np.bincount(np.array(src + dst, dtype=np.int64), minlength=is_switch.size)
    over = np.flatnonzero(is_switch & (ports > MAX_SWITCH_PORTS))
    if over.size:
        out.append(f"topology: switch node {int(over[0])} has {int(ports[over[0]])} links; ns-3's switch nodes "
                   f"have counters for {MAX_SWITCH_PORTS} ports (it segfaults past them)")
    return out


def _only_switches_forward(src: np.ndarray, dst: np.ndarray, is_switch: np.ndarray, num_npus: int) -> list[str]:
    """ns-3 routes through switch nodes only: every NPU pair must share a component of the
    switch-only subgraph or be joined by a direct link. NPUs are grouped by the set of switch
    components they touch; two groups with no component in common must be fully directly linked."""
    V = is_switch.size
    if num_npus < 2:
        return []
    ss = is_switch[src] & is_switch[dst]
    _, label = connected_components(coo_matrix((np.ones(int(ss.sum())), (src[ss], dst[ss])), shape=(V, V)),
                                    directed=False)
    touch: list[set[int]] = [set() for _ in range(num_npus)]
    for a, b in ((src, dst), (dst, src)):
        m = (a < num_npus) & is_switch[b]
        for npu, comp in zip(a[m].tolist(), label[b[m]].tolist()):
            touch[npu].add(comp)
    groups: dict[frozenset, list[int]] = {}
    for npu, comps in enumerate(touch):
        groups.setdefault(frozenset(comps), []).append(npu)
    direct = (src < num_npus) & (dst < num_npus)
    pairs = {(min(a, b), max(a, b)) for a, b in zip(src[direct].tolist(), dst[direct].tolist())}
    keys = list(groups)
    for i, ka in enumerate(keys):
        for kb in keys[i:]:
            if ka & kb:
                continue
            a_npus, b_npus = groups[ka], groups[kb]
            for a in a_npus:
                for b in b_npus:
                    if a != b and (min(a, b), max(a, b)) not in pairs:
                        return [f"topology: NPUs {a} and {b} are connected only through other NPUs, which ns-3 "
                                f"does not forward through"]
    return []
