"""Routing policies: how traffic spreads where several equally short ways go on.

- `ecmp`: per-connection hashing; every message of a (source, destination) takes one way, as an
  Ethernet or InfiniBand switch hashing a flow's header does. Different connections can collide
  on one link; results count how many links carried 2+ connections (`routing.collisions`).
- `spray`: equal split; a message goes as one part per equally short way (parallel links of an
  NVLink bundle, the planes of an NVSwitch domain, bonded ports, packet spraying), each with its
  share of the bytes, and arrives with its last part.
- `adaptive`: least-loaded; a connection takes the way fewest connections were routed over before
  it (decided once per connection, when it is first routed).
- `d-mod-k`: destination-mod-k, as InfiniBand's fat-tree routing (OpenSM `ftree`) programs its
  switches: the way is a digit of the destination's index (its NIC among all NICs in rank order,
  or its NPU), so every route to one destination climbs to the same top switch and the
  destinations below a leaf spread evenly over its up-links. The routes repeat with the fabric's
  structure, which is what lets a symmetric run be folded (docs/simulate.md).

A policy is set per *tier*: `scale-up` is every link between a GPU (xpu) and another GPU or a
switch chip (NVLink to a GPU or an NVSwitch); `scale-out` is everything else (PCIe, NICs, cables
to leaves, switch to switch). The default, `scale-up=spray,scale-out=ecmp`, is what the hardware
does: NVLink traffic is striped over every link and NVSwitch, while Ethernet/InfiniBand fabrics
hash connections. Among equally short ways, scale-up links are preferred (a GPU's bundle of 18
NVLinks before its PCIe link, though each lane is slower). Given as `spray` (every tier), `scale-up=spray,scale-out=adaptive`, on the CLI
(`--routing-policy`), in the graph annotation `routing_policy` (in .igl: `routing_policy =
"scale-out=adaptive"` inside the fabric), or as `SimulationOptions.routing_policy`; the option
wins over the annotation. The astra models ignore it (ASTRA-sim has no multipath).
"""

from __future__ import annotations

import numpy as np

from ..errors import did_you_mean, error
from ..graph import FQG

POLICIES = ("ecmp", "spray", "adaptive", "d-mod-k")  # engine codes 0, 1, 2, 3
TIERS = ("scale-up", "scale-out")
DEFAULT = {"scale-up": "spray", "scale-out": "ecmp"}


def parse_policy(text: str, where: str = "routing policy") -> dict[str, str]:
    """'spray' -> every tier; 'scale-up=spray,scale-out=ecmp' -> per tier (tiers not named keep
    the default). Unknown names are errors naming `where`."""
    out = dict(DEFAULT)
    for part in (p.strip() for p in str(text).split(",")):
        if not part:
            continue
        tier, eq, name = part.rpartition("=")
        tier, name = tier.strip(), name.strip()
        if name not in POLICIES:
            raise error(f"bad {where} '{text}': unknown policy '{name}'; expected one of: {', '.join(POLICIES)}",
                        hint=did_you_mean(name, POLICIES))
        if not eq:
            out = {t: name for t in TIERS}
        elif tier not in TIERS:
            raise error(f"bad {where} '{text}': unknown tier '{tier}'; expected {' or '.join(TIERS)}",
                        hint=did_you_mean(tier, TIERS))
        else:
            out[tier] = name
    return out


def scale_up_edges(g: FQG) -> np.ndarray:
    """Per edge: True for a scale-up link (a GPU to a GPU or a switch chip)."""
    types = list(g.type_names)
    kind = np.asarray(g.node_type, dtype=np.int64)
    src, dst = np.asarray(g.edge_src, dtype=np.int64), np.asarray(g.edge_dst, dtype=np.int64)
    code = {t: types.index(t) if t in types else -1 for t in ("xpu", "switch")}
    xpu = (kind == code["xpu"]) if code["xpu"] >= 0 else np.zeros(kind.size, dtype=bool)
    up = xpu | ((kind == code["switch"]) if code["switch"] >= 0 else False)
    return (xpu[src] & up[dst]) | (xpu[dst] & up[src])


def edge_policies(scale_up: np.ndarray, policy: dict[str, str]) -> np.ndarray:
    """Engine code per edge: the policy's index, plus 4 on a scale-up link (which the router prefers
    among equally short ways: a GPU's NVLinks before its PCIe link, however fast each lane)."""
    codes = np.where(scale_up, POLICIES.index(policy["scale-up"]) + 4, POLICIES.index(policy["scale-out"]))
    return codes.astype(np.uint8)


def describe(policy: dict[str, str]) -> str:
    return ",".join(f"{t}={policy[t]}" for t in TIERS)
