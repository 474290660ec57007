"""Reading engine results (schemas/simulation-result.schema.json) for the pictures and plots.

Per-link load: a result's `links` lists directed links that carried traffic (`edge` = FQG edge
index, `utilization`); an undirected FQG edge takes the larger of its two directions. A sweep is
a JSON list of results (one per size). Problems are reported with the file and the JSON path
(`links[3].edge`), never as a traceback.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, Callable

import numpy as np

from ..errors import Diagnostic, InfraGraphError, Location
from ..graph.fqg import FQG
from ..integers import exact_integer


def _fail(path: str, where: str, message: str, hint: str | None = None) -> InfraGraphError:
    return InfraGraphError(Diagnostic(message, Location(path, path=where or None), hint))


def read_json(path: str | Path) -> Any:
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as e:
        raise _fail(str(path), "", f"cannot read results: {e.strerror or e}") from None
    except json.JSONDecodeError as e:
        raise InfraGraphError(Diagnostic(f"not valid JSON: {e.msg}", Location(str(path), e.lineno, e.colno))) from None


def _number(value: Any) -> bool:
    """A finite JSON number (not a boolean)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def link_utilization(g: FQG, path: str | Path, warn: Callable[[Diagnostic], None] | None = None) -> np.ndarray:
    """Per FQG edge, the utilization the result in `path` reports (NaN where it carried nothing).

    A sweep (a list of results) uses its largest size, which loads the links most. A result that
    kept only its busiest links (`simulate --links N`, 100 by default) colours only those: `warn`
    is told so, since the picture would otherwise suggest the other links were idle."""
    data, where = _largest(path)
    if not isinstance(data, dict) or "links" not in data:
        raise _fail(str(path), where, "no per-link load here: expected a simulation result with a 'links' list",
                    "write one with: infragraph simulate FILE ... --json RESULTS.json")
    if data.get("graph") not in (None, g.name):
        raise _fail(str(path), f"{where}graph", f"these results are for graph '{data['graph']}', not '{g.name}'")
    if not isinstance(data["links"], list):
        raise _fail(str(path), f"{where}links", "expected a list of links")
    util = np.full(g.num_edges, np.nan)
    for i, item in enumerate(data["links"]):
        p = f"{where}links[{i}]"
        if not isinstance(item, dict):
            raise _fail(str(path), p, "expected an object with 'edge' and 'utilization'")
        e, u = exact_integer(item.get("edge")), item.get("utilization")  # the schema's "integer": 3.0 is 3
        if e is None or not 0 <= e < g.num_edges:
            raise _fail(str(path), f"{p}.edge", f"edge {item.get('edge')!r} is not an edge of '{g.name}' "
                        f"(0..{g.num_edges - 1})", "the results must come from the same graph file")
        if not _number(u) or u < 0:
            raise _fail(str(path), f"{p}.utilization", f"utilization must be a number ≥ 0, got {u!r}")
        util[e] = u if np.isnan(util[e]) else max(util[e], u)
    used = data.get("links_used")
    if warn is not None and _number(used) and used > len(data["links"]):
        warn(Diagnostic(f"the result kept only the {len(data['links'])} busiest of its {used} used links; the "
                        "others are drawn as if idle", Location(str(path), path=f"{where}links"),
                        "simulate with --links all to colour every link", severity="warning"))
    return util


def _largest(path: str | Path) -> tuple[Any, str]:
    """The result in `path`, or a sweep's result of the largest size; with its JSON path prefix
    ("" or "[k].", so that "links" follows it)."""
    data = read_json(path)
    if not isinstance(data, list):
        return data, ""
    if not data:
        raise _fail(str(path), "", "the results list is empty")
    sizes = [r.get("size_bytes", 0) if isinstance(r, dict) else 0 for r in data]
    k = int(np.argmax(sizes))
    return data[k], f"[{k}]."


def tier_notes(path: str | Path) -> list[str]:
    """Caption lines of the per-tier load (result field `tiers`): one per tier that carried
    traffic, utilization percentiles of its used links. Empty for results written before tiers."""
    data, where = _largest(path)
    tiers = data.get("tiers") if isinstance(data, dict) else None
    if tiers is None:
        return []
    lines = []
    for i, t in enumerate(tiers if isinstance(tiers, list) else [None]):
        try:
            u = t["utilization"]
            if not t["links_used"]:
                continue
            lines.append(f"load {t['tier']}: p50 {u['p50']:.0%}, p90 {u['p90']:.0%}, max {u['max']:.0%} "
                         f"({t['links_used']}/{t['links']} directed links used)")
        except (KeyError, TypeError, ValueError):
            raise _fail(str(path), f"{where}tiers[{i}]", "expected a tier with links_used, links and "
                        "utilization p50/p90/max (see schemas/simulation-result.schema.json)") from None
    if lines and data.get("bottleneck_tier"):
        lines.insert(0, f"line colour = utilization; bottleneck tier: {data['bottleneck_tier']}")
    return lines


def sweep_records(paths: list[str]) -> list[dict]:
    """Flat records {series, size_bytes, time_ns, busbw} from result files (single or lists)."""
    out = []
    for path in paths:
        data = read_json(path)
        items = data if isinstance(data, list) else [data]
        for i, r in enumerate(items):
            where = f"[{i}]" if isinstance(data, list) else ""
            if not isinstance(r, dict):
                raise _fail(path, where, "expected a simulation result object")
            missing = [k for k in ("size_bytes", "collective_time_ns", "bus_bandwidth_gb_per_s") if k not in r]
            if missing:
                raise _fail(path, where, f"not a simulation result: missing {', '.join(missing)}",
                            "write results with: infragraph simulate FILE --size 1KiB..1GiB --json OUT.json")
            algo = r.get("algorithm", "?")
            algo = "+".join(algo) if isinstance(algo, list) else str(algo)
            series = f"{r.get('graph', Path(path).stem)} · {r.get('collective', '')} {algo}".strip()
            if r.get("model"):
                series += f" ({r['model']})"
            bad = [k for k in ("size_bytes", "collective_time_ns", "bus_bandwidth_gb_per_s") if not _number(r[k])]
            if bad:
                raise _fail(path, f"{where}.{bad[0]}" if where else bad[0], f"{bad[0]} must be a finite number, "
                                                                           f"got {r[bad[0]]!r}")
            out.append({"series": series, "size_bytes": float(r["size_bytes"]),
                        "time_ns": float(r["collective_time_ns"]), "busbw": float(r["bus_bandwidth_gb_per_s"])})
    if not out:
        raise _fail(paths[0] if paths else "<none>", "", "no results to plot")
    return out
