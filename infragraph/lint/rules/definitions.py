"""Definition rules: devices and links defined but never used; NPUs left without a rank."""

from __future__ import annotations

import numpy as np

from ..model import Finding, LintContext, grouped, node_list
from .registry import rule


def _used_devices(ctx: LintContext) -> set[str]:
    """Devices instantiated, or composed (transitively) into an instantiated device."""
    doc = ctx.doc
    contains = {d.name: [c.name for c in d.components if c.choice == "device"] for d in doc.devices}
    used: set[str] = set()
    todo = [i.device for i in doc.instances]
    while todo:
        name = todo.pop()
        if name not in used:
            used.add(name)
            todo.extend(contains.get(name, []))
    return used


@rule("IG010", "unused-definition", "warning", "A device or link is defined but never used")
def unused_definition(ctx: LintContext):
    g = ctx.g
    used_devices = _used_devices(ctx) if ctx.doc is not None else None
    if ctx.doc is not None:
        for i, d in enumerate(ctx.doc.devices):
            if d.name not in used_devices:
                yield Finding("IG010", f"device '{d.name}' is defined but neither instantiated nor composed "
                              f"into a used device", ctx.locate.at(f"devices[{i}]"), (),
                              "remove the device, or add an instance of it")
    uses = np.bincount(g.edge_link, minlength=len(g.links))
    for k, link in enumerate(g.links):
        if uses[k] or (used_devices is not None and link.scope and link.scope not in used_devices):
            continue  # links of an unused device are covered by the device's finding
        where = f" in device '{link.scope}'" if link.scope else ""
        yield Finding("IG010", f"link '{link.name}'{where} is defined but no edge uses it",
                      ctx.locate.link(k), (), "remove the link, or use it in the edges it was meant for")


@rule("IG012", "npu-missing-rank", "error", "Some NPUs have a rank annotation and others do not")
def npu_missing_rank(ctx: LintContext):
    g = ctx.g
    ranks = g.node_annotation("rank")
    if not ranks:
        return
    xpus = np.flatnonzero(ctx.facts.of_type("xpu"))
    has = np.zeros(g.num_nodes, dtype=bool)
    has[np.fromiter(ranks.keys(), dtype=np.int64, count=len(ranks))] = True
    missing = xpus[~has[xpus]]
    by_instance = grouped((int(g.node_instance[n]), n) for n in missing.tolist())
    for inst, nodes in ctx.capped("IG012", by_instance):
        names = ctx.facts.names(nodes[:4])
        yield Finding(
            "IG012",
            f"{len(nodes)} NPU(s) of instance '{g.instances[inst].name}' have no rank while "
            f"{len(ranks)} node(s) have one: {node_list(names, len(nodes))}",
            ctx.locate.node(nodes[0]),
            tuple(names),
            "annotate every xpu with a distinct `rank` (or none of them, to number them in node order)",
        )
