"""ASTRA-sim's ns-3 backend: topology.txt, logical_topology.json, config.txt (+ system.json, run.sh).

Node ids: NPUs 0..N-1 in rank order, then switches and hubs (structure.fabric), then any forwarding
nodes added on request. One line per full-duplex link with its rate (Gbps = 1e9 bit/s, as our graph
stores it) and delay (written in ms like ASTRA-sim's examples: 500 ns -> 0.0005ms); the device-internal
path GPU -> NIC -> port is folded into the GPU's link (bandwidth = slowest hop, delay = sum).

ns-3 routes shortest paths with ECMP and only switch nodes forward: two NPUs wired to each other are
reachable only as one-hop neighbours. Direct NPU-to-NPU wiring that needs a hop through another NPU
(a ring or torus of more than 3) is refused, or with `forwarding-nodes=true` each such NPU gets a
forwarding switch node that carries its direct links (flagged in the notes).

Limits of ASTRA-sim's ns-3 fork (its scratch/common.h and point-to-point model), checked here:
- it keeps one interface per pair of neighbours, so of several links between two nodes only the last
  carries traffic (measured: two 200 Gbps links per NPU ran exactly as one); parallel links are
  written as one link of their summed rate (flagged);
- a switch node has counters for ports 1..1024 only (arrays of 1025), so a node with more links is
  refused, and each switch node allocates 1025 x 1025 x 8 four-byte counters (33.6 MB), stated in the
  README;
- link i gets the subnet 10.(i/254+1).(i%254+1).0, valid for at most 64,770 links; more are refused.
These limits are those of the fork's initial 'astra-sim' commit (8fd3604, the one we could build);
`--set fork-limits=false` writes such a topology anyway, flagged, for a build without them.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from ..errors import Diagnostic, InfraGraphError, Location
from ..graph.fqg import FQG
from .astra_system import REMOTE_MEMORY, SYSTEM_SETTINGS, rank_names, ranks_file, system_config
from .base import (Bundle, Options, Setting, Translator, list_of, parse_bool, parse_nonnegative_float, parse_positive_int,
                   refuse, render)
from .chakra_et import Workload, workload_files
from .comparison import NS3 as NS3_MODEL, against_simulate
from .launch import NS3, config_args, run_script
from .logical_dims import Chosen, bundle_dims, stated_dims
from .readme import readme
from .structure import RING, Dimension, Fabric, rated_fabric

SWITCH_KINDS = (1, 2)  # structure.SWITCH, structure.HUB: nodes that forward

# config.txt keys with the defaults of ASTRA-sim's ns-3 examples; KMAX/KMIN/PMAX maps default to
# one entry per link rate present in the topology (see _ecn_maps).
CONFIG_DEFAULTS: tuple[tuple[str, str, str], ...] = (
    ("ENABLE_QCN", "1", "enable congestion notification (ECN marking)"),
    ("USE_DYNAMIC_PFC_THRESHOLD", "1", "shared-buffer dynamic PFC thresholds"),
    ("PACKET_PAYLOAD_SIZE", "1000", "bytes of payload per packet"),
    ("TOPOLOGY_FILE", "topology.txt", "the topology file of this bundle"),
    ("FLOW_FILE", "flow.txt", "unused by ASTRA-sim (flows come from the workload) but read"),
    ("TRACE_FILE", "trace.txt", "nodes to trace"),
    ("TRACE_OUTPUT_FILE", "mix.tr", "packet trace output"),
    ("FCT_OUTPUT_FILE", "fct.txt", "flow completion times output"),
    ("PFC_OUTPUT_FILE", "pfc.txt", "PFC pause events output"),
    ("QLEN_MON_FILE", "qlen.txt", "queue length monitor output"),
    ("QLEN_MON_START", "0", "queue monitor start (ns)"),
    ("QLEN_MON_END", "20000", "queue monitor end (ns)"),
    ("SIMULATOR_STOP_TIME", "40000000000000.00", "simulation stop time (s); large: stop when the workload ends"),
    ("CC_MODE", "1", "congestion control: 1 DCQCN, 3 HPCC, 7 TIMELY, 8 DCTCP"),
    ("ALPHA_RESUME_INTERVAL", "1", "DCQCN alpha update interval (us)"),
    ("RATE_DECREASE_INTERVAL", "4", "DCQCN rate decrease interval (us)"),
    ("CLAMP_TARGET_RATE", "0", "DCQCN clamp target rate"),
    ("RP_TIMER", "900", "DCQCN rate increase timer (us)"),
    ("EWMA_GAIN", "0.00390625", "DCQCN g"),
    ("FAST_RECOVERY_TIMES", "1", "DCQCN fast recovery steps"),
    ("RATE_AI", "50Mb/s", "additive increase"),
    ("RATE_HAI", "100Mb/s", "hyper additive increase"),
    ("MIN_RATE", "100Mb/s", "minimum sending rate"),
    ("DCTCP_RATE_AI", "1000Mb/s", "DCTCP additive increase"),
    ("BUFFER_SIZE", "32", "switch buffer (MiB per switch: ns-3 multiplies by 1024 x 1024 in 32 bits, so at most 4095)"),
    ("ERROR_RATE_PER_LINK", "0.0000", "packet error rate of every link"),
    ("L2_CHUNK_SIZE", "4000", "bytes per go-back-N chunk"),
    ("L2_ACK_INTERVAL", "1", "packets per ACK"),
    ("L2_BACK_TO_ZERO", "0", "go-back-0 on loss"),
    ("HAS_WIN", "1", "window-based sending"),
    ("GLOBAL_T", "0", "one global window size for all flows"),
    ("VAR_WIN", "1", "per-flow window from its base RTT"),
    ("FAST_REACT", "1", "HPCC fast reaction"),
    ("U_TARGET", "0.95", "HPCC target utilisation"),
    ("MI_THRESH", "0", "HPCC multiplicative increase threshold"),
    ("INT_MULTI", "1", "INT multiplier"),
    ("MULTI_RATE", "0", "HPCC per-hop rates"),
    ("SAMPLE_FEEDBACK", "0", "HPCC sample feedback"),
    ("PINT_LOG_BASE", "1.05", "PINT log base"),
    ("PINT_PROB", "1.0", "PINT sampling probability"),
    ("RATE_BOUND", "1", "pace to the line rate"),
    ("ACK_HIGH_PRIO", "0", "ACKs in the high-priority queue"),
    ("LINK_DOWN", "0 0 0", "time src dst of a link failure (0 0 0: none)"),
    ("ENABLE_TRACE", "1", "write the packet trace"),
    ("KMAX_MAP", "", "ECN Kmax per link rate: 'count (rate_bps KB)*'; default 16 KB per Gbit/s of each rate present"),
    ("KMIN_MAP", "", "ECN Kmin per link rate; default 4 KB per Gbit/s of each rate present"),
    ("PMAX_MAP", "", "ECN Pmax per link rate; default 0.2 for each rate present"),
)

# How ASTRA-sim's ns-3 reads each config.txt value (`conf >> value` into these C++ types). A decimal
# where it reads an integer leaves the stream failed and the reading loop never ends, so every value is
# checked here. Keys not listed are one whitespace-free token (file names, rates like 50Mb/s).
UINT_KEYS = frozenset("ENABLE_QCN USE_DYNAMIC_PFC_THRESHOLD CLAMP_TARGET_RATE PACKET_PAYLOAD_SIZE L2_CHUNK_SIZE "
                      "L2_ACK_INTERVAL L2_BACK_TO_ZERO FAST_RECOVERY_TIMES VAR_WIN FAST_REACT RATE_BOUND CC_MODE "
                      "HAS_WIN GLOBAL_T MI_THRESH INT_MULTI ACK_HIGH_PRIO ENABLE_TRACE BUFFER_SIZE QLEN_MON_START "
                      "QLEN_MON_END MULTI_RATE SAMPLE_FEEDBACK NIC_TOTAL_PAUSE_TIME".split())
FLOAT_KEYS = frozenset("PAUSE_TIME SIMULATOR_STOP_TIME ALPHA_RESUME_INTERVAL RP_TIMER EWMA_GAIN ERROR_RATE_PER_LINK "
                       "RATE_DECREASE_INTERVAL U_TARGET PINT_LOG_BASE PINT_PROB".split())
MAP_KEYS = {"KMAX_MAP": "integer", "KMIN_MAP": "integer", "PMAX_MAP": "number"}  # count (rate_bps value)*

# limits of ASTRA-sim's ns-3 fork (see the module docstring)
MAX_BUFFER_MIB = (2**32 - 1) // 2**20  # BUFFER_SIZE * 1024 * 1024 must fit uint32_t
MAX_SWITCH_PORTS = 1024  # SwitchNode / SwitchMmu arrays of pCnt = 1025, port 0 unused
MAX_LINKS = 254 * 255  # link i -> subnet 10.(i/254+1).(i%254+1).0
SWITCH_NODE_BYTES = 1025 * 1025 * 8 * 4  # SwitchNode::m_bytes[pCnt][pCnt][qCnt] of uint32_t


def _config_value(key: str) -> Callable[[str], str]:
    """The parser for one config.txt key: the text as written, refused unless ns-3 can read it."""
    def whole(t: str) -> bool:
        return t.isdigit()

    def number(t: str) -> bool:
        try:
            return math.isfinite(float(t))
        except ValueError:
            return False

    def parse(text: str) -> str:
        words = text.split()
        if key in UINT_KEYS and not (len(words) == 1 and whole(words[0])):
            raise ValueError("ns-3 reads it as a whole number >= 0 (a decimal makes it loop forever)")
        if key == "BUFFER_SIZE" and not 1 <= int(words[0]) <= MAX_BUFFER_MIB:
            raise ValueError(f"MiB per switch from 1 to {MAX_BUFFER_MIB}: ns-3 multiplies it by 1024 x 1024 in "
                             f"32 bits, so a larger value wraps around to a smaller buffer")
        if key in FLOAT_KEYS and not (len(words) == 1 and number(words[0])):
            raise ValueError("expected one finite number")
        if key == "LINK_DOWN" and not (len(words) == 3 and all(map(whole, words))):
            raise ValueError("expected 'time src dst' (three whole numbers; 0 0 0 = none)")
        if key in MAP_KEYS and words:
            n = words[0]
            value_ok = whole if MAP_KEYS[key] == "integer" else number
            if not (whole(n) and len(words) == 1 + 2 * int(n)
                    and all(whole(r) and value_ok(v) for r, v in zip(words[1::2], words[2::2]))):
                raise ValueError(f"expected 'count' then count pairs 'rate_bps {MAP_KEYS[key]}'")
        if key not in UINT_KEYS | FLOAT_KEYS | MAP_KEYS.keys() | {"LINK_DOWN"} and len(words) != 1:
            raise ValueError("expected one word without spaces")
        return text
    return parse


NS3_SETTINGS: tuple[Setting, ...] = (
    *(Setting(k, v, doc, _config_value(k)) for k, v, doc in CONFIG_DEFAULTS),
    Setting("logical-dims", "", "logical dimensions for collectives, e.g. 8,2 (product = NPUs); "
            "empty = the graph's dims annotation (as infragraph simulate), else the detected RI/FC/SW product, "
            "else one dimension of all NPUs (ring)", list_of(parse_positive_int)),
    Setting("forwarding-nodes", "false", "give NPUs wired to each other a forwarding switch node "
            "(ns-3 NPUs do not forward) instead of refusing multi-hop direct wiring", parse_bool),
    Setting("forwarding-latency-ns", "0", "delay of the added NPU-to-forwarding-node links (ns)",
            parse_nonnegative_float),
    Setting("fork-limits", "true", "refuse what ASTRA-sim's ns-3 fork cannot hold (switches over 1024 ports, "
            "more than 64,770 links); false writes it anyway, flagged", parse_bool),
    *SYSTEM_SETTINGS,
)


def format_number(x: float) -> str:
    """Shortest positional decimal (no exponent, no trailing zeros): 400.0 -> '400', 5e-4 -> '0.0005'."""
    return np.format_float_positional(float(x), trim="-", precision=12)


def rate(gbps: float) -> str:
    """ns-3 DataRate text, always in Gbps (ns-3 rejects Tbps)."""
    return f"{format_number(gbps)}Gbps"


def rate_key(text: str) -> int:
    """The bit/s ns-3 derives from a rate text: it parses the number as a double and truncates
    number * 1e9 to an integer, so '1.001Gbps' is 1000999999 (not 1001000000); the ECN maps are
    looked up with exactly this value."""
    assert text.endswith("Gbps")
    return int(float(text[:-4]) * 1e9)


def delay(ns: float) -> str:
    return f"{format_number(ns / 1e6)}ms"


def multi_hop_direct(fab: Fabric) -> list[tuple[int, int]]:
    """Components of the NPU-to-NPU wiring that are not cliques: (an NPU in it, its size)."""
    N = fab.num_npus
    direct = (fab.src < N) & (fab.dst < N)
    if not direct.any():
        return []
    a, b = np.minimum(fab.src[direct], fab.dst[direct]), np.maximum(fab.src[direct], fab.dst[direct])
    _, label = connected_components(coo_matrix((np.ones(a.size), (a, b)), shape=(N, N)), directed=False)
    pairs = np.unique(a * N + b)
    size = np.bincount(label, minlength=N)
    pair_count = np.bincount(label[pairs // N], minlength=N)
    bad = np.flatnonzero((size > 1) & (pair_count != size * (size - 1) // 2))
    return [(int(np.flatnonzero(label == c)[0]), int(size[c])) for c in bad]


@dataclass
class Ns3Plan:
    g: FQG
    fab: Fabric
    src: np.ndarray
    dst: np.ndarray
    bw: np.ndarray
    lat: np.ndarray
    err: np.ndarray
    num_nodes: int
    switch_ids: np.ndarray
    chosen: Chosen
    system: dict[str, Any]
    values: dict[str, Any]
    notes: list[str]
    workload: Workload


def _npu_link_record(fab: Fabric, npu: int) -> str | None:
    """The document record of one direct link of `npu` (to locate a refusal)."""
    N = fab.num_npus
    hit = np.flatnonzero(((fab.src == npu) & (fab.dst < N)) | ((fab.dst == npu) & (fab.src < N)))
    return fab.edge_where(int(hit[0])) if hit.size else None


def _edge_error_rates(fab: Fabric) -> np.ndarray:
    """Per-link error rate from a link's `error_rate` attribute (the ns-3 importer writes it), else 0."""
    per_link = np.array([float(x.attributes.get("error_rate", 0.0)) for x in fab.g.links] or [0.0])
    return per_link[fab.g.edge_link[fab.origin]] if fab.num_edges else np.zeros(0)


class Ns3(Translator):
    name = "ns3"
    description = "ASTRA-sim ns-3 backend: packet-level topology, logical topology and configuration"
    settings = NS3_SETTINGS

    def plan(self, g: FQG, options: Options) -> Ns3Plan:
        values = self.resolve_settings(options)
        fab = rated_fabric(g, "ns-3")
        notes = list(fab.notes)
        src, dst, bw, lat, err = fab.src, fab.dst, fab.bw_gbps, fab.lat_ns, _edge_error_rates(fab)
        num_nodes = fab.num_vertices
        switch_ids = np.flatnonzero(np.isin(fab.vertex_kind, SWITCH_KINDS))
        bad = multi_hop_direct(fab)
        if bad and not values["forwarding-nodes"]:
            raise InfraGraphError([Diagnostic(
                f"NPUs wired directly to each other need multi-hop forwarding: {size} NPUs including "
                f"'{fab.name(npu)}' are linked without switches but not all pairwise, and ns-3 NPUs do not "
                f"forward (only switch nodes do), so ns-3 cannot route between them",
                Location(path=_npu_link_record(fab, npu)), "use --set forwarding-nodes=true to give each such NPU a forwarding switch node "
                "(flagged), or translate for astra-analytical") for npu, size in bad[:5]])
        if bad:
            src, dst, bw, lat, err, num_nodes, switch_ids, note = self._add_forwarding(fab, err, values)
            notes.append(note)
        src, dst, bw, lat, err, note = merge_parallel_links(src, dst, bw, lat, err, num_nodes,
                                                            lambda v: _vertex_name(fab, v))
        if note:
            notes.append(note)
        over = _fork_limits(fab, src, dst, switch_ids, num_nodes)
        if values["fork-limits"]:
            refuse(over)
        notes += [f"FLAGGED: fork-limits=false: {d.message}" for d in over]
        chosen = self._logical_dims(fab, g, values, options.approximate)
        notes += chosen.notes
        system, diags = system_config(chosen.dims, values, options.workload)
        refuse(diags + _map_refusals(values, {rate(b) for b in np.unique(bw).tolist()}))
        return Ns3Plan(g, fab, src, dst, bw, lat, err, num_nodes, switch_ids, chosen, system, values, notes,
                       options.workload)

    def _add_forwarding(self, fab: Fabric, err: np.ndarray, values: dict):
        """Each NPU with direct NPU links gets forwarding node F(npu); NPU-NPU links become F-F links and
        NPU-F carries the sum of the NPU's direct bandwidth. Switch ids follow the existing ones."""
        N, V = fab.num_npus, fab.num_vertices
        direct = (fab.src < N) & (fab.dst < N)
        npus = np.unique(np.concatenate([fab.src[direct], fab.dst[direct]]))
        fwd = np.full(N, -1, dtype=np.int64)
        fwd[npus] = V + np.arange(npus.size)
        src, dst = fab.src.copy(), fab.dst.copy()
        src[direct], dst[direct] = fwd[src[direct]], fwd[dst[direct]]
        inj = np.bincount(fab.src[direct], weights=fab.bw_gbps[direct], minlength=N) + \
            np.bincount(fab.dst[direct], weights=fab.bw_gbps[direct], minlength=N)
        new_lat = float(values["forwarding-latency-ns"])
        src = np.concatenate([src, fwd[npus]])
        dst = np.concatenate([dst, npus])
        bw = np.concatenate([fab.bw_gbps, inj[npus]])
        lat = np.concatenate([fab.lat_ns, np.full(npus.size, new_lat)])
        err = np.concatenate([err, np.zeros(npus.size)])
        switch_ids = np.concatenate([np.flatnonzero(np.isin(fab.vertex_kind, SWITCH_KINDS)), fwd[npus]])
        note = (f"FLAGGED: added {npus.size} forwarding switch node(s) (ids {V}..{V + npus.size - 1}), one per NPU "
                f"with direct NPU links, because ns-3 NPUs do not forward; each NPU reaches its node over a link "
                f"of its total direct bandwidth and {new_lat:g} ns, and the direct links join the forwarding "
                f"nodes. Routes now pass through these nodes, which the real hardware does in the NPU")
        return src, dst, bw, lat, err, V + npus.size, switch_ids, note

    def _logical_dims(self, fab: Fabric, g: FQG, values: dict, approximate: bool) -> Chosen:
        """`--set logical-dims`, else the dimensions simulate would use (logical_dims.bundle_dims);
        with none, one dimension of all NPUs (ns-3 needs one) of unstated kind, so ring, as simulate."""
        N = fab.num_npus
        given = values["logical-dims"]
        if given:
            if int(np.prod(given)) != N:
                raise InfraGraphError(Diagnostic(
                    f"logical-dims {','.join(map(str, given))} multiply to {int(np.prod(given))}, the graph has "
                    f"{N} NPUs", Location(path="--set logical-dims")))
            return Chosen([Dimension(RING, n, 0, np.nan, np.nan) for n in given], "--set logical-dims",
                          stated_dims(g, N), [], "x".join(map(str, given)))
        chosen = bundle_dims(fab, g, approximate)
        if not chosen.dims:
            chosen.dims = [Dimension(RING, N, 0, np.nan, np.nan)]
            chosen.written = str(N)
        return chosen

    def render(self, plan: Ns3Plan) -> Bundle:
        fab = plan.fab
        # one formatted "rate delay error" tail per distinct link class, then one line per link
        cols = [np.unique(x, return_inverse=True) for x in (plan.bw, plan.lat, plan.err)]
        code = (cols[0][1].ravel() * cols[1][0].size + cols[1][1].ravel()) * cols[2][0].size + cols[2][1].ravel()
        ucode, inv = np.unique(code, return_inverse=True)
        ib, rest = np.divmod(ucode, cols[1][0].size * cols[2][0].size)
        il, ie = np.divmod(rest, cols[2][0].size)
        uniq = np.stack([cols[0][0][ib], cols[1][0][il], cols[2][0][ie]], axis=1)
        tails = np.array([f"{rate(b)} {delay(l)} {format_number(e)}" for b, l, e in uniq.tolist()], dtype=object)
        lines = [f"{s} {d} {t}" for s, d, t in zip(plan.src.tolist(), plan.dst.tolist(), tails[inv.ravel()].tolist())]
        topology = render("ns3_topology.txt.j2", num_nodes=plan.num_nodes, num_switches=int(plan.switch_ids.size),
                          num_links=len(lines), switch_ids=" ".join(map(str, plan.switch_ids.tolist())),
                          links="\n".join(lines))
        config = [(k, plan.values[k]) for k, _, _ in CONFIG_DEFAULTS]
        maps = _ecn_maps(sorted({rate(b) for b in uniq[:, 0].tolist()}, key=rate_key))
        config = [(k, v if v != "" else maps[k]) for k, v in config]
        ranks = rank_names(fab)
        files: dict[str, str | bytes] = {
            "topology.txt": topology,
            "flow.txt": "0\n",
            "trace.txt": "0\n",
            "logical_topology.json": json.dumps({"logical-dims": [str(d.size) for d in plan.chosen.dims]}) + "\n",
            "config.txt": render("ns3_config.txt.j2", entries=config),
            "system.json": json.dumps(plan.system, indent=2) + "\n",
            "remote_memory.json": REMOTE_MEMORY,
            "ranks.txt": ranks_file(ranks),
            "run.sh": run_script(NS3, plan.workload, fab.num_npus,
                                 config_args(system_configuration="system.json",
                                             remote_memory_configuration="remote_memory.json",
                                             network_configuration="config.txt",
                                             logical_topology_configuration="logical_topology.json")
                                 + ["--comm-group-configuration='\"empty\"'"]),
        }
        summary = (f"{plan.num_nodes:,} nodes ({fab.num_npus:,} NPUs, {plan.switch_ids.size:,} switches), "
                   f"{len(lines):,} links; {fab.collapsed_links:,} links had a device-internal path folded in; "
                   f"logical dims {plan.chosen.shape()} ({plan.chosen.source}). Memory: ASTRA-sim's ns-3 allocates "
                   f"{SWITCH_NODE_BYTES / 1e6:.1f} MB of counters per switch node, "
                   f"{plan.switch_ids.size * SWITCH_NODE_BYTES / 1e9:,.2f} GB for these before any traffic")
        files["README.md"] = readme(self, plan.g.name, fab.num_npus, summary, files, plan.notes,
                                    any("FLAGGED" in n for n in plan.notes), self.settings_table(plan.values),
                                    plan.workload, units=["rate: Gbps = 1e9 bit/s (ns-3 DataRate), as stored in the graph",
                                           "delay: written in ms (500 ns -> 0.0005ms)",
                                           "a GPU's internal path (GPU -> NIC -> port) is folded into its link: "
                                           "bandwidth = slowest hop, delay = sum",
                                           "BUFFER_SIZE: MiB per switch (x 1024 x 1024 bytes); KMAX/KMIN "
                                           "thresholds: kB = 1000 bytes (whole numbers)"],
                                    against=against_simulate(plan.g, plan.chosen.dims, plan.chosen.shape(),
                                                             plan.chosen.source, plan.chosen.stated, plan.system,
                                                             plan.workload, NS3_MODEL))
        files.update(workload_files(plan.workload, fab.num_npus))
        return Bundle(self.name, files, plan.notes, ranks)


def _vertex_name(fab: Fabric, v: int) -> str:
    """A topology node's graph name; forwarding nodes (added after the fabric's vertices) by their NPU."""
    if v < fab.num_vertices:
        return fab.name(v)
    return f"the forwarding node of an NPU (id {v})"


def merge_parallel_links(src: np.ndarray, dst: np.ndarray, bw: np.ndarray, lat: np.ndarray, err: np.ndarray,
                         num_nodes: int, name: Callable[[int], str]):
    """One link per pair of nodes: ns-3's fork keeps one interface per neighbour, so of parallel links
    only the last would carry traffic. Each group becomes one link (first one's orientation, in file
    order) of the summed rate, the largest delay and error rate; returns the arrays and a flagged note
    (None when there were no parallel links)."""
    pair = np.minimum(src, dst) * num_nodes + np.maximum(src, dst)
    _, first, inv, count = np.unique(pair, return_index=True, return_inverse=True, return_counts=True)
    if first.size == pair.size:
        return src, dst, bw, lat, err, None
    order = np.argsort(first, kind="stable")  # groups in the order of their first link
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    group = rank[inv.ravel()]
    keep = first[order]
    lat_max = np.full(keep.size, -np.inf)
    err_max = np.full(keep.size, -np.inf)
    np.maximum.at(lat_max, group, lat)
    np.maximum.at(err_max, group, err)
    multi = np.flatnonzero(count[order] > 1)
    g0 = int(keep[multi[0]])
    note = (f"FLAGGED: {multi.size:,} pair(s) of nodes joined by several links (e.g. '{name(int(src[g0]))}' and "
            f"'{name(int(dst[g0]))}': {int(count[order][multi[0]])} links) are written as one link of their summed "
            f"rate (and the largest delay), because ASTRA-sim's ns-3 keeps one interface per neighbour and would "
            f"send nothing over the others; on the hardware each flow's packets take one of the links, here one "
            f"flow can use their sum")
    return (src[keep], dst[keep], np.bincount(group, weights=bw, minlength=keep.size), lat_max, err_max, note)


def _fork_limits(fab: Fabric, src: np.ndarray, dst: np.ndarray, switch_ids: np.ndarray,
                 num_nodes: int) -> list[Diagnostic]:
    """What ASTRA-sim's ns-3 fork cannot hold: switch nodes with more than 1024 ports, more than
    64,770 links."""
    out = []
    ports = np.bincount(src, minlength=num_nodes) + np.bincount(dst, minlength=num_nodes)
    for v in switch_ids[ports[switch_ids] > MAX_SWITCH_PORTS][:5].tolist():
        hit = np.flatnonzero((fab.src == v) | (fab.dst == v)) if v < fab.num_vertices else np.zeros(0, int)
        out.append(Diagnostic(
            f"'{_vertex_name(fab, v)}' has {int(ports[v]):,} links; ASTRA-sim's ns-3 switch nodes have counters "
            f"for {MAX_SWITCH_PORTS} ports (arrays of {MAX_SWITCH_PORTS + 1}) and would write past them",
            Location(path=fab.edge_where(int(hit[0])) if hit.size else None),
            "split the switch into a tier of smaller switches (e.g. std.fabrics.clos), translate for "
            "astra-analytical or htsim, or --set fork-limits=false for an ns-3 build without this limit"))
    if src.size > MAX_LINKS:
        out.append(Diagnostic(
            f"{src.size:,} links; ASTRA-sim's ns-3 gives link i the subnet 10.(i/254+1).(i%254+1).0, valid for "
            f"{MAX_LINKS:,} links, and aborts on the address collisions after that",
            Location(path="links"), "translate a smaller fabric (ns-3 is packet-level: thousands of NPUs are "
            "already slow), use astra-analytical or htsim, or --set fork-limits=false for an ns-3 build without "
            "this limit"))
    return out


def _map_refusals(values: dict[str, Any], rates: set[str]) -> list[Diagnostic]:
    """A user-given ECN map must name every link rate (ns-3 aborts: 'must set kmax for each link speed')."""
    out = []
    for key in MAP_KEYS:
        words = values[key].split()
        missing = sorted({rate_key(r) for r in rates} - {int(w) for w in words[1::2]}) if words else []
        if missing:
            out.append(Diagnostic(f"{key} has no entry for link rate(s) {', '.join(map(str, missing[:5]))} bit/s, which "
                                  f"ns-3 aborts on ('must set {key[:4].lower()} for each link speed')",
                                  Location(path=f"--set {key}"), "add an entry per rate (bit/s as ns-3 truncates it), "
                                  "or leave the key unset for the default"))
    return out


def _ecn_maps(rates: list[str]) -> dict[str, str]:
    """DCQCN ECN maps with one entry per link rate text present, keyed as ns-3 keys them (rate_key);
    Kmax/Kmin are whole KB (ns-3 reads them as integers)."""
    def entries(value) -> str:
        return " ".join([str(len(rates))] + [f"{rate_key(r)} {value(rate_key(r) / 1e9)}" for r in rates])
    return {"KMAX_MAP": entries(lambda gbps: str(max(1, round(16 * gbps)))),
            "KMIN_MAP": entries(lambda gbps: str(max(1, round(4 * gbps)))),
            "PMAX_MAP": entries(lambda gbps: "0.2")}
