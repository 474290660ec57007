"""Capacity rule: oversubscription per switch tier.

Tiers are found from the wiring, not from names: boxes (top-level instance copies) that hold an
NPU, or no switch at all, are tier 0 (hosts); every other box is a switch box whose tier is its
distance in cable hops from the nearest host box. For a switch box, *down* bandwidth is the sum
over its cables to lower tiers and *up* over its cables to higher tiers; its oversubscription is
down / up. The top tier (no up links) is not rated. The allowed ratio is, in order: the command
line / configuration `max-oversubscription`, the document's graph annotation
`max_oversubscription` (the design's stated intent, e.g. 3 for a 3:1 leaf), else 1.0.
"""

from __future__ import annotations

import numpy as np

from ...units import format_bandwidth
from ..model import Finding, LintContext
from .registry import rule

DEFAULT_OVERSUBSCRIPTION = 1.0


def allowed_ratio(ctx: LintContext) -> tuple[float, str]:
    """The maximum down/up ratio and where it came from (for the message)."""
    if ctx.options.max_oversubscription is not None:
        return float(ctx.options.max_oversubscription), "the configured maximum"
    stated = ctx.g.graph_annotations.get("max_oversubscription")
    if isinstance(stated, (int, float)) and not isinstance(stated, bool):
        return float(stated), "the document's max_oversubscription"
    return DEFAULT_OVERSUBSCRIPTION, "the default maximum"


@rule("IG009", "oversubscription", "warning",
      "A switch tier carries more bandwidth down than up, beyond the allowed oversubscription")
def oversubscription(ctx: LintContext):
    g, f = ctx.g, ctx.facts
    switches = np.flatnonzero(f.of_type("switch"))
    if switches.size == 0 or f.num_boxes < 2:
        return
    is_switch_box, cables, tier = f.tiers.is_switch_box, f.tiers.cables, f.tiers.tier
    a, b, bw = f.box[g.edge_src[cables]], f.box[g.edge_dst[cables]], np.nan_to_num(f.bandwidth[cables])
    ta, tb = tier[a], tier[b]
    lower, upper = np.where(ta < tb, a, b), np.where(ta < tb, b, a)
    step = (ta != tb) & (ta >= 0) & (tb >= 0)
    up = np.bincount(lower[step], weights=bw[step], minlength=f.num_boxes)
    down = np.bincount(upper[step], weights=bw[step], minlength=f.num_boxes)
    rated = is_switch_box & (up > 0) & (down > 0)
    ratio = np.zeros(f.num_boxes)
    ratio[rated] = down[rated] / up[rated]
    limit, origin = allowed_ratio(ctx)
    over = rated & (ratio > limit * (1 + 1e-9))
    sw_boxes, first_switch = np.unique(f.box[switches], return_index=True)
    switch_of_box = dict(zip(sw_boxes.tolist(), switches[first_switch].tolist()))
    tiers = sorted(set(tier[over].tolist()))
    for t in ctx.capped("IG009", tiers):
        in_tier = np.flatnonzero(rated & (tier == t))
        bad = in_tier[ratio[in_tier] > limit * (1 + 1e-9)]
        worst = int(bad[np.argmax(ratio[bad])])
        node = switch_of_box[worst]
        name = g.node_name(node)
        yield Finding(
            "IG009",
            f"tier {t} ({t} cable hop(s) from the hosts): {bad.size} of {in_tier.size} switches are "
            f"oversubscribed up to {ratio[worst]:.2f}:1 ('{name}': {format_bandwidth(down[worst])} down vs "
            f"{format_bandwidth(up[worst])} up, per direction), above {origin} {limit:g}:1",
            ctx.locate.node(node),
            (name,),
            "add uplinks or faster uplinks, or state the intended ratio with --max-oversubscription "
            "or a graph annotation max_oversubscription",
        )
