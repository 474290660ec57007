"""Small Chakra ET sets for the workload tests, written with the toolchain's own writer."""

from __future__ import annotations

import json
from pathlib import Path

from infragraph.workload.chakra import et_bytes, make_node


def write_set(folder: Path, per_rank: list[list], groups: dict[int, list[int]] | None = None,
              name: str = "wl") -> tuple[str, str | None]:
    """Write <folder>/<name>.<rank>.et for each rank's node list; (prefix, comm-group path or None)."""
    prefix = folder / name
    for rank, nodes in enumerate(per_rank):
        Path(f"{prefix}.{rank}.et").write_bytes(et_bytes(nodes))
    cg = None
    if groups is not None:
        cg = str(folder / f"{name}.json")
        Path(cg).write_text(json.dumps({str(k): v for k, v in groups.items()}))
    return str(prefix), cg


def comp(i: int, us: int, deps=(), **kw):
    return make_node(i, f"comp{i}", "compute", deps, duration_us=us, **kw)


def coll(i: int, kind: str, size: int, group: int = 0, deps=()):
    attrs = {"comm_type": kind, "comm_size": size}
    if group:
        attrs["pg_name"] = str(group)
    return make_node(i, f"{kind}{i}", "collective", deps, **attrs)


def send(i: int, src: int, dst: int, size: int, tag: int = 0, deps=()):
    return make_node(i, f"send{i}", "send", deps, comm_src=src, comm_dst=dst, comm_size=size, comm_tag=tag)


def recv(i: int, src: int, dst: int, size: int, tag: int = 0, deps=()):
    return make_node(i, f"recv{i}", "recv", deps, comm_src=src, comm_dst=dst, comm_size=size, comm_tag=tag)
