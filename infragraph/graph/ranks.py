"""Rank order of the NPUs (nodes of type ``xpu``), shared by every consumer of the graph.

The simulator and the translators must agree on which NPU is rank r, so the rule lives here, with
the graph: by the ``rank`` annotation when present (it must be a permutation of 0..N-1), else by
name with numeric segments compared as numbers (``host.10`` after ``host.9``).
"""

from __future__ import annotations

import re

import numpy as np

from ..errors import Diagnostic, InfraGraphError, Location, error
from .fqg import FQG

NPU_TYPE = "xpu"


def _natural_key(name: str) -> tuple:
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", name))


def _ranks(keys: list) -> np.ndarray:
    """Position of each key in sorted order (stable)."""
    out = np.zeros(len(keys), dtype=np.int64)
    out[sorted(range(len(keys)), key=keys.__getitem__)] = np.arange(len(keys))
    return out


def npu_order(g: FQG) -> np.ndarray:
    """FQG node ids of the NPUs, index = rank. Raises a located error for a bad `rank` annotation.

    Without `rank` annotations the order is by name, compared part by part: instance name (numeric
    runs as numbers), then copy index, then the component path (numeric runs as numbers), so
    `host.10.xpu.0` follows `host.9.xpu.1`. Computed per instance and per device, not per NPU.
    """
    npus = g.nodes_of_type(NPU_TYPE)
    if npus.size == 0:
        present = ", ".join(g.type_names) or "none"
        raise error(f"the graph has no NPUs: no node has type '{NPU_TYPE}' (node types present: {present})",
                    hint="give the accelerators `choice: xpu`")
    ranks = g.node_annotation("rank")
    if not ranks:
        inst_rank = _ranks([_natural_key(i.name) for i in g.instances])
        firsts = np.array([i.first_node for i in g.instances], dtype=np.int64)
        npcs = np.array([max(1, i.nodes_per_copy) for i in g.instances], dtype=np.int64)
        suffix_rank = {}
        for k, inst in enumerate(g.instances):  # natural rank of each local suffix, once per instance
            suffix_rank[k] = _ranks([_natural_key(x) for x in inst.suffixes])
        inst = g.node_instance[npus].astype(np.int64)
        local = (npus - firsts[inst]) % npcs[inst]
        srank = np.zeros(npus.size, dtype=np.int64)
        for k in np.unique(inst).tolist():
            sel = inst == k
            srank[sel] = suffix_rank[k][local[sel]]
        order = np.lexsort((srank, g.node_copy[npus], inst_rank[inst]))
        return npus[order].astype(np.int64)
    n = int(npus.size)
    order = np.full(n, -1, dtype=np.int64)
    diags = []
    for node in npus.tolist():
        value = ranks.get(node)
        if value is None:
            diags.append(Diagnostic(f"NPU '{g.node_name(node)}' has no 'rank' annotation while other NPUs do",
                                    Location(path="annotations.nodes"), "annotate every xpu node or none"))
        elif isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n:
            diags.append(Diagnostic(f"NPU '{g.node_name(node)}' has rank {value!r}; expected an integer in 0..{n - 1}",
                                    Location(path="annotations.nodes")))
        elif order[value] != -1:
            diags.append(Diagnostic(f"rank {value} is given to both '{g.node_name(int(order[value]))}' and "
                                    f"'{g.node_name(node)}'", Location(path="annotations.nodes"),
                                    "ranks must be a permutation of 0..N-1"))
        else:
            order[value] = node
        if len(diags) >= 20:
            break
    if diags:
        raise InfraGraphError(diags)
    return order
