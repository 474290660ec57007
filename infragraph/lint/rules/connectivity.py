"""Connectivity rules: components with no edge at all, boxes with no cable, NPUs cut apart."""

from __future__ import annotations

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from ..model import Finding, LintContext, grouped, node_list
from .registry import rule


@rule("IG002", "unconnected-component", "error",
      "A component has no edge at all, or a device copy has no cable to the rest of the fabric")
def unconnected(ctx: LintContext):
    """Unused switch ports are normal and not reported; every other leaf needs an edge. A box (a
    copy of a top-level instance) with no cable to any other box is an island, e.g. a DGX that
    was never cabled, whether or not its insides are wired."""
    g, f = ctx.g, ctx.facts
    lonely = np.flatnonzero((f.degree == 0) & ~f.of_type("port"))
    groups = grouped(((int(g.node_instance[n]), int(g.node_component[n])), n) for n in lonely.tolist())
    for (inst, comp), nodes in ctx.capped("IG002", groups):
        names = f.names(nodes[:4])
        c = g.components[comp]
        yield Finding(
            "IG002",
            f"{len(nodes)} node(s) of component '{c.name}' (device '{c.device}') in instance "
            f"'{g.instances[inst].name}' have no edge: {node_list(names, len(nodes))}",
            ctx.locate.component(nodes[0]),
            tuple(names),
            "connect the component with an edge, or remove it from the device",
        )
    if f.num_boxes < 2:
        return
    crossing = f.box[g.edge_src] != f.box[g.edge_dst]
    cabled = np.zeros(f.num_boxes, dtype=bool)
    cabled[f.box[g.edge_src[crossing]]] = True
    cabled[f.box[g.edge_dst[crossing]]] = True
    # nodes are numbered box by box, so each box's first node is found by binary search
    first_node = np.searchsorted(f.box, np.arange(f.num_boxes))
    has_nodes = first_node < g.num_nodes
    has_nodes[has_nodes] = f.box[first_node[has_nodes]] == np.flatnonzero(has_nodes)
    islands = np.flatnonzero(~cabled & has_nodes)
    for box in ctx.capped("IG002", islands.tolist()):
        node = int(first_node[box])
        yield Finding(
            "IG002",
            f"'{f.box_name(box)}' (device '{g.instances[int(g.node_instance[node])].device}') has no "
            f"cable to any other device",
            ctx.locate.node(node),
            (g.node_name(node),),
            "add edges from this instance copy to the fabric, or lower the instance count",
        )


@rule("IG004", "npu-unreachable", "error", "Some NPUs (xpu) cannot reach each other")
def npus_unreachable(ctx: LintContext):
    g, f = ctx.g, ctx.facts
    xpus = np.flatnonzero(f.of_type("xpu"))
    if xpus.size < 2:
        return
    n = g.num_nodes
    adj = coo_matrix((np.ones(g.num_edges, dtype=np.int8), (g.edge_src, g.edge_dst)), shape=(n, n))
    _, label = connected_components(adj, directed=False)
    groups, first, sizes = np.unique(label[xpus], return_index=True, return_counts=True)
    if groups.size < 2:
        return
    order = np.argsort(sizes, kind="stable")  # smallest island first: most likely the miswired one
    reps = [int(xpus[first[i]]) for i in order]
    names = f.names(reps)
    size_text = ", ".join(str(int(s)) for s in sizes[order][:8]) + (", …" if groups.size > 8 else "")
    yield Finding(
        "IG004",
        f"the NPUs form {groups.size} groups that cannot reach each other (sizes {size_text}); "
        f"e.g. '{names[0]}' cannot reach '{names[1]}'",
        ctx.locate.node(reps[0]),
        tuple(names[:8]),
        "add the missing cables between these groups (check slices of the edges to the fabric)",
    )
