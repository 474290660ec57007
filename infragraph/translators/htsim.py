"""HTSim backend (ASTRA-sim + csg-htsim, TCP): fat_tree.topo + the analytical YAML it also reads.

HTSim builds its own fat tree from a handful of parameters, so the graph must be exactly the fat
tree those parameters describe. We infer them from the graph (tiers by distance from the NPUs, pod
size from the tier-0/1 components, radices, speeds, latencies, bundles, oversubscription), then
check every consistency rule HTSim applies when loading (`rules`) and that the tree HTSim would
build has the graph's switch counts, before writing anything. Anything else is refused with the
failing rule. `Nodes` = NPU count = the YAML's npus_count (one Switch dimension: HTSim takes only
the NPU count and logical dims from it; bandwidth/latency there are informational).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ..errors import Diagnostic, InfraGraphError, Location
from ..graph.fqg import FQG
from .astra_analytical import network_yaml
from .astra_system import ALGORITHMS, REMOTE_MEMORY, SYSTEM_SETTINGS, ranks_file, system_config
from .base import Bundle, Options, Translator, refuse, render
from .chakra_et import Workload, workload_files
from .comparison import HTSIM as HTSIM_MODEL, against_simulate
from .launch import HTSIM, config_args, run_script
from .logical_dims import Chosen, same_groups, stated_dims
from .readme import readme
from .fat_tree import FatTree, NotAFatTree, infer
from .structure import SW, Dimension, Fabric, NotSplittable, host_per_gpu_nic_pair, rated_fabric


def rules(ft: FatTree) -> list[tuple[str, bool, str]]:
    """HTSim's load-time consistency rules, each (rule, holds, values), in HTSim's order; the
    derived counts must also match the switches of the graph. Division must be exact."""
    out: list[tuple[str, bool, str]] = []
    t = ft.tiers
    n, pod = ft.nodes, ft.podsize

    def rule(text: str, ok: bool, detail: str) -> bool:
        out.append((text, bool(ok), detail))
        return bool(ok)

    rule("Tiers is 2 or 3", len(t) in (2, 3), f"Tiers = {len(t)}")
    if len(t) not in (2, 3):
        return out
    rule("Nodes % Podsize == 0", pod > 0 and n % pod == 0, f"{n} % {pod}")
    rule("Podsize % Radix_Down0 == 0", pod % t[0].radix_down == 0, f"{pod} % {t[0].radix_down}")
    rule("Radix_Down0 / Radix_Up0 == Oversubscribed0",
         Fraction(t[0].radix_down, t[0].radix_up) == t[0].oversubscribed,
         f"{t[0].radix_down} / {t[0].radix_up} vs {t[0].oversubscribed}")
    rule("Downlink_Latency_ns > 0 on every tier", all(x.latency > 0 for x in t), str([x.latency for x in t]))
    rule("Bundle == 1 on tier 0", t[0].bundle == 1, f"Bundle0 = {t[0].bundle}")
    pods = n // pod if pod else 0
    tor_uplinks = Fraction(n * t[0].speed, t[1].speed * t[0].oversubscribed)
    tors = n // t[0].radix_down
    rule("tor_uplinks = Nodes*speed0/(speed1*oversub0) is whole and equals ToRs*Radix_Up0",
         tor_uplinks.denominator == 1 and tor_uplinks == tors * t[0].radix_up,
         f"{tor_uplinks} vs {tors}*{t[0].radix_up}")
    agg_per_pod = tor_uplinks / (pods * t[1].radix_down) if pods else Fraction(0)
    rule("agg_per_pod = tor_uplinks/(pods*Radix_Down1) is whole", agg_per_pod.denominator == 1 and agg_per_pod > 0,
         f"{tor_uplinks}/({pods}*{t[1].radix_down}) = {agg_per_pod}")
    rule("agg_per_pod*Bundle1 == Radix_Up0", agg_per_pod * t[1].bundle == t[0].radix_up,
         f"{agg_per_pod}*{t[1].bundle} vs {t[0].radix_up}")
    rule("ToRs (Nodes/Radix_Down0) == tier-0 switches of the graph", tors == t[0].switches and n % t[0].radix_down == 0,
         f"{n}/{t[0].radix_down} vs {t[0].switches}")
    rule("pods*agg_per_pod == tier-1 switches of the graph", agg_per_pod * pods == t[1].switches,
         f"{pods}*{agg_per_pod} vs {t[1].switches}")
    if len(t) == 3:
        agg_uplinks = tor_uplinks * t[1].speed / (t[2].speed * t[1].oversubscribed)
        cores = agg_uplinks / t[2].radix_down
        rule("agg_uplinks = tor_uplinks*speed1/(speed2*oversub1) is whole", agg_uplinks.denominator == 1,
             f"{agg_uplinks}")
        rule("cores = agg_uplinks/Radix_Down2 is whole", cores.denominator == 1 and cores > 0, f"{cores}")
        rule("cores % agg_per_pod == 0", agg_per_pod > 0 and cores % agg_per_pod == 0, f"{cores} % {agg_per_pod}")
        rule("cores*Bundle2/agg_per_pod == Radix_Up1",
             agg_per_pod > 0 and cores * t[2].bundle / agg_per_pod == t[1].radix_up,
             f"{cores}*{t[2].bundle}/{agg_per_pod} vs {t[1].radix_up}")
        rule("cores == tier-2 switches of the graph", cores == t[2].switches, f"{cores} vs {t[2].switches}")
    return out


@dataclass
class HTSimPlan:
    g: FQG
    fab: Fabric
    tree: FatTree
    chosen: Chosen
    system: dict[str, Any]
    values: dict[str, Any]
    workload: Workload


RING_DEFAULT_NOTE = (
    "collective algorithms default to ring on HTSim: with halvingDoubling ASTRA-sim's HTSim glue aborts when a "
    "late packet or ACK finishes a flow twice (assertion 'notify_sender_sending_finished failed'), and direct "
    "bursts every NPU's flows at once into HTSim's small queues and can run into HTSim's fixed simulated end "
    "time ('Simulation timed out') on oversubscribed trees; ring completed on every fat tree tried")


HTSIM_MSS_BYTES = 1500  # csg-htsim's default TCP data packet size (Packet::data_packet_size)


def ring_message_bytes(w: Workload, splits: int, npus: int) -> int:
    """Bytes of one message of ASTRA-sim's ring on `npus` NPUs: the chunk (size // splits, at least
    one byte per NPU except for all-gather) divided by the NPUs, or the whole chunk for all-gather."""
    chunk = w.size_bytes // splits
    if w.collective == "all-gather":
        return max(1, chunk)
    return max(chunk, npus) // npus


def byte_credit_note(w: Workload, splits: int, npus: int) -> str:
    """Why HTSim's times come out short (measured; benchmarks/README.md, real backends)."""
    m = ring_message_bytes(w, splits, npus)
    return (f"HTSim TIMES ARE OPTIMISTIC: csg-htsim adds one TCP MSS ({HTSIM_MSS_BYTES:,} B) to every flow's size and "
            f"ASTRA-sim's HTSim glue reports that size as received, matching receives by byte count per (collective, "
            f"source, destination); the surplus completes receives whose data has not arrived, so NPUs run ahead of "
            f"their data. With this bundle's ring messages of {m:,} B each is credited {m + HTSIM_MSS_BYTES:,} B "
            f"(+{HTSIM_MSS_BYTES / m:.0%}); measured on a radix-8 2-tier Clos, 1 MiB all-reduce, 4 chunks: 287,713 ns "
            f"as shipped, 985,232 ns with the extra MSS removed. Each step also waits a TCP round trip (the receiver "
            f"is told when the sender's last ACK arrives)")


def htsim_default(dim: Dimension, key: str) -> str:
    """HTSim's default algorithm: ring (RING_DEFAULT_NOTE says why)."""
    return "ring"


def halving_doubling_refusals(system: dict[str, Any]) -> list[Diagnostic]:
    return [Diagnostic(f"{key} names halvingDoubling, with which ASTRA-sim's HTSim backend aborts (a flow's finish "
                       f"callback fires twice: 'notify_sender_sending_finished failed')", Location(path=f"--set {key}"),
                       f"use --set {key}=ring (the HTSim default) or direct")
            for key in ALGORITHMS if "halvingDoubling" in system[key]]


def logical_dims(g: FQG, tree: FatTree) -> Chosen:
    """The graph's stated dims (as simulate runs them) when they describe the same NPU groups in
    HTSim's NPU order (host h on ToR h / Radix_Down0), else one dimension of all NPUs, said. The
    dimensions' bandwidth and latency are the tier-0 link's (HTSim reads only the NPU counts)."""
    stated = stated_dims(g, tree.nodes)
    speed, latency = float(tree.tiers[0].speed), float(tree.tiers[0].latency)
    flat = [Dimension(SW, tree.nodes, 1, speed, latency)]
    if not stated.given:
        return Chosen(flat, "flat: the graph states no dims; one dimension in HTSim's NPU order (ranks.txt)", stated,
                      [], f"SW({tree.nodes})")
    sizes = list(stated.dims.sizes)
    if same_groups(sizes, tree.host_order):
        return Chosen([Dimension(d.kind, d.size, 0, speed, latency) for d in stated.dimensions()],
                      "the graph's dims annotation", stated, [])
    return Chosen(flat, f"flat: the graph's {stated.shape()} has no equivalent in HTSim's NPU order", stated,
                  [f"the graph states dims {stated.shape()}, which `infragraph simulate` runs over, but HTSim numbers "
                   f"its NPUs ToR by ToR (ranks.txt) and in that order the groups of {stated.shape()} are not "
                   f"dimensions ASTRA-sim can name (dimension 0 = consecutive NPU ids); the collective runs as one "
                   f"dimension of {tree.nodes} NPUs in ranks.txt order, which `infragraph simulate --dims "
                   f"{tree.nodes}` runs in the graph's rank order instead"], f"SW({tree.nodes})")


class HTSim(Translator):
    name = "htsim"
    description = "ASTRA-sim HTSim backend (csg-htsim, TCP): fat-tree description + analytical YAML"
    settings = SYSTEM_SETTINGS

    def plan(self, g: FQG, options: Options) -> HTSimPlan:
        values = self.resolve_settings(options)
        fab = rated_fabric(g, "HTSim")
        try:
            fab = host_per_gpu_nic_pair(fab)
            tree = infer(fab)
        except NotSplittable as e:
            raise InfraGraphError(Diagnostic(
                f"not a fat tree HTSim can build: {e}; ASTRA-sim makes every NPU an HTSim host, and an HTSim host has "
                f"exactly one link (one host per GPU-NIC pair)", Location(), e.hint)) from None
        except NotAFatTree as e:
            raise InfraGraphError(Diagnostic(f"not a fat tree HTSim can build: {e}", Location(),
                                             "HTSim builds only 2- or 3-tier fat trees whose hosts have one NIC (or one per GPU); translate "
                                             "with --to ns3, which takes any topology")) from None
        failed = [(r, d) for r, ok, d in rules(tree) if not ok]
        if failed:
            raise InfraGraphError([Diagnostic(f"HTSim consistency rule fails: {r} ({d})", Location(),
                                              "HTSim would reject this .topo or build a different tree; make the Clos uniform (one radix, "
                                              "speed and latency per tier) or translate with --to ns3")
                                   for r, d in failed])
        chosen = logical_dims(g, tree)
        system, diags = system_config(chosen.dims, values, options.workload, htsim_default)
        refuse(diags + halving_doubling_refusals(system))
        return HTSimPlan(g, fab, tree, chosen, system, values, options.workload)

    def render(self, plan: HTSimPlan) -> Bundle:
        fab, tree = plan.fab, plan.tree
        names = fab.g.node_names
        ranks = [names[i] for i in fab.vertex_node[tree.host_order].tolist()]
        dims = plan.chosen.dims
        moved = int(np.count_nonzero(tree.host_order != np.arange(fab.num_npus)))
        order_note = ([f"ranks.txt: {moved} NPU(s) take a different rank than in the graph's order, because HTSim "
                       f"wires host h to ToR h / Radix_Down0 (hosts of one ToR, and ToRs of one pod, consecutive); "
                       f"ASTRA-sim NPU id = HTSim host = the rank in ranks.txt"] if moved else [])
        notes = fab.notes + order_note + [RING_DEFAULT_NOTE, byte_credit_note(
            plan.workload, plan.system["preferred-dataset-splits"], tree.nodes), f"network.yml gives HTSim the NPU count and the "
                             f"logical dimensions {plan.chosen.shape()}; their bandwidth/latency are the tier-0 link's and "
                             f"HTSim ignores them (it reads fat_tree.topo)"] + plan.chosen.notes
        files: dict[str, str | bytes] = {
            "fat_tree.topo": render("htsim_fat_tree.topo.j2", source=plan.g.name, nodes=tree.nodes,
                                    podsize=tree.podsize, tiers=tree.tiers),
            "network.yml": network_yaml(dims, plan.chosen.shape(), plan.g.name),
            "system.json": json.dumps(plan.system, indent=2) + "\n",
            "remote_memory.json": REMOTE_MEMORY,
            "ranks.txt": ranks_file(ranks),
            "run.sh": run_script(HTSIM, plan.workload, fab.num_npus,
                                 config_args(system_configuration="system.json",
                                             remote_memory_configuration="remote_memory.json",
                                             network_configuration="network.yml")
                                 + ['--htsim_opts -topo "$here/fat_tree.topo"']),
        }
        summary = (f"{len(tree.tiers)}-tier fat tree, Podsize {tree.podsize}, switches per tier "
                   f"{[t.switches for t in tree.tiers]}; every HTSim consistency rule checked")
        files["README.md"] = readme(self, plan.g.name, fab.num_npus, summary, files, notes, False,
                                    self.settings_table(plan.values), plan.workload,
                                    units=["Downlink_speed_Gbps: Gbit/s (1e9 bit/s) of the links below each tier",
                                           "Downlink_Latency_ns: ns of those links (a GPU's internal path folded in)"],
                                    against=against_simulate(plan.g, dims, plan.chosen.shape(), plan.chosen.source,
                                                             plan.chosen.stated, plan.system, plan.workload,
                                                             HTSIM_MODEL))
        files.update(workload_files(plan.workload, fab.num_npus))
        return Bundle(self.name, files, notes, ranks)
