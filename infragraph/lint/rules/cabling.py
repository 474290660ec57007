"""Cabling rules: ports with several cables, self-loops, switches using more ports than they have.

Expansion already rejects the first two in documents; these rules exist for graphs that did not
come through our expansion (FQG JSON written by another tool or edited by hand)."""

from __future__ import annotations

import numpy as np

from ..model import Finding, LintContext, node_list
from .registry import rule


@rule("IG001", "port-cabled-twice", "error", "A port has more than one cable")
def port_cabled_twice(ctx: LintContext):
    g, f = ctx.g, ctx.facts
    ports = np.flatnonzero(f.of_type("port") & (f.cable_degree > 1))
    if ports.size == 0:
        return
    cables = np.flatnonzero(f.is_cable)
    for port in ctx.capped("IG001", ports.tolist()):
        used = cables[(g.edge_src[cables] == port) | (g.edge_dst[cables] == port)]
        peers = [int(g.edge_dst[e] if g.edge_src[e] == port else g.edge_src[e]) for e in used]
        name = g.node_name(port)
        yield Finding(
            "IG001",
            f"port '{name}' has {used.size} cables (to {node_list(f.names(peers))})",
            ctx.locate.edge(int(used[-1])),
            (name, *f.names(peers)),
            "a port takes one cable: move the extra cables to unused ports",
        )


@rule("IG003", "self-loop", "error", "An edge connects a node to itself")
def self_loop(ctx: LintContext):
    g = ctx.g
    loops = np.flatnonzero(g.edge_src == g.edge_dst)
    for e in ctx.capped("IG003", loops.tolist()):
        name = g.node_name(int(g.edge_src[e]))
        yield Finding("IG003", f"node '{name}' is connected to itself", ctx.locate.edge(e), (name,),
                      "check the slices and the scheme of this edge (a ring of one, or a shifted slice)")


@rule("IG008", "switch-port-overuse", "error", "A switch has more cables than it has ports")
def switch_port_overuse(ctx: LintContext):
    """A switch's port budget is its `radix` annotation or, when its device copy holds exactly one
    switch node, that copy's number of `port` components. Used ports = cables on the switch node
    itself + cabled ports of its device copy."""
    g, f = ctx.g, ctx.facts
    switches = np.flatnonzero(f.of_type("switch"))
    if switches.size == 0:
        return
    owners = g.node_owner
    n_owner = int(owners.max()) + 1
    is_port = f.of_type("port")
    ports_per_owner = np.bincount(owners[is_port], minlength=n_owner)
    used_per_owner = np.bincount(owners[is_port & (f.cable_degree > 0)], minlength=n_owner)
    switches_per_owner = np.bincount(owners[switches], minlength=n_owner)
    radix = g.node_annotation("radix")
    sw_owner = owners[switches]
    budget = np.where(switches_per_owner[sw_owner] == 1, ports_per_owner[sw_owner], 0).astype(np.float64)
    budget[budget == 0] = np.nan  # unknown unless annotated
    for i, s in enumerate(switches.tolist()):
        if s in radix and isinstance(radix[s], (int, float)) and not isinstance(radix[s], bool):
            budget[i] = float(radix[s])
    alone = switches_per_owner[sw_owner] == 1
    used = f.cable_degree[switches] + np.where(alone, used_per_owner[sw_owner], 0)
    over = np.flatnonzero(used > budget)  # NaN budgets compare False
    for i in ctx.capped("IG008", over.tolist()):
        s = int(switches[i])
        name = g.node_name(s)
        source = "its 'radix' annotation" if s in radix else "the ports of its device"
        direct = int(f.cable_degree[s])
        yield Finding(
            "IG008",
            f"switch '{name}' uses {int(used[i])} ports but has {int(budget[i])} ({source}); "
            f"{direct} cable(s) attach to the switch node itself",
            ctx.locate.node(s),
            (name,),
            "cable hosts to the switch's port components, or raise its port count / radix",
        )
