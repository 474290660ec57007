"""Translating a fabric with failed or degraded links: exact where the backend can say it, refused
(with the reason) where it cannot.

Failures are applied by the one graph transform (`graph.failures`) before the translator sees the
graph. ns-3's topology file gives every link its own rate and delay, so a failed link is simply
left out and a degraded one written with its reduced rate and added delay; its `LINK_DOWN`
setting is not used for this (it takes a single link and a failure time during the run). The
engine bundle is the graph itself. HTSim and ASTRA-sim's analytical network describe the fabric
by tiers or dimensions with one speed each and have no way to say that one link is down or slow.
"""

from __future__ import annotations

from ..graph.failures import FailureSpec, with_failures
from ..errors import error
from .base import Bundle, Options, Translator

EXACT = {
    "ns3": "failed links are left out of the topology file; degraded links are written with their reduced "
           "rate and added delay (ns-3 reads both per link). LINK_DOWN stays as set: it fails one link at a "
           "given time during the run",
    "simengine": "failed links are left out of the graph; degraded links carry their reduced bandwidth and "
                 "added latency",
}
CANNOT = {
    "htsim": "HTSim builds its fat tree from per-tier host counts, radixes and speeds (the .topo file); it has "
             "no way to take one link down or slow one link",
    "astra-analytical": "ASTRA-sim's analytical network gives each dimension one bandwidth and one latency for "
                        "all of its links; it cannot take one link down or slow one link",
}


def translate_with_failures(translator: Translator, g, options: Options | None = None,
                            spec: FailureSpec = FailureSpec()) -> Bundle:
    """The bundle for `g` with its failures (annotations plus `spec`) applied, or a located refusal
    when the backend cannot express them. A bundle with failures lists them in FAILURES.txt."""
    failed, f = with_failures(g, spec)
    if not f.any():
        return translator.translate(g, options)
    s = f.summary(g, limit=10 ** 9)
    what = f"{s['failed_edges']} failed link(s), {s['failed_nodes']} failed node(s), {s['degraded_edges']} degraded link(s)"
    how = EXACT.get(translator.name)
    if how is None:
        raise error(f"{translator.name} cannot express failed or degraded links ({what}): "
                    f"{CANNOT.get(translator.name, 'this backend has no failure model')}",
                    "--fail" if not spec.is_empty() else "annotations",
                    "translate for ns3 (exact: links dropped or slowed) or simulate with `infragraph simulate "
                    "--fail ...`, which also reports the slowdown against the healthy fabric")
    bundle = translator.translate(failed, options)
    bundle.notes.append(f"failures applied: {what}; {how}")
    lines = [f"# Failures applied to this bundle: {what}.", f"# {how}.", ""]
    lines += [f"# {x}" for x in s["sources"]] + [""]
    lines += [f"failed {x}" for x in s["failed"]]
    lines += [f"down {x}" for x in s["failed_node_names"]]
    lines += [f"degraded {d['edge']} bandwidth_factor={d['bandwidth_factor']:g} extra_latency_ns={d['extra_latency_ns']:g}"
              for d in s["degraded"]]
    bundle.files["FAILURES.txt"] = "\n".join(lines) + "\n"
    return bundle
