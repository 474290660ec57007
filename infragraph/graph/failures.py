"""Failed and degraded links and nodes: one graph -> graph transform that every consumer calls.

Failures come from two places, merged here so that simulate, lint, translate, visualize and
analyze cannot disagree about them:

- the document's annotations (the public format allows any attribute on nodes, edges and link
  classes): ``failed: true`` cuts every edge of a node, an edge pair or a link class;
  ``bandwidth_factor`` (finite, in (0, 1]) and ``extra_latency_ns`` (finite, >= 0) degrade them;
- a `FailureSpec` built from the command line (``--fail``, ``--fail-random``, ``--degrade``).

Targets name fully qualified nodes (``spine.1.switch.0``), a device copy (``spine.1``: all of its
nodes), shell globs over node names (``spine.*``, ``leaf.?.port.3``), or edges as two node
targets joined by ``--`` (``leaf.0.port.3--spine.1.port.0``, either order). A failed node cuts every
edge that touches it; the node itself stays (ids do not move) but carries no traffic. Degradations
compose: factors multiply, extra latencies add. Random failures pick cables — edges between two
different instance copies — uniformly without replacement with numpy's PCG64 seeded by `seed`.

`apply_failures` removes failed edges and moves degraded edges onto new link classes (named
``<link>~x<factor>+<latency>ns``) so every consumer that reads link bandwidth and latency sees the
degraded values; the failure annotations are dropped from the result, so applying twice is the
same as applying once. A target that matches nothing, and every out-of-range number, is an error.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from fnmatch import translate

import numpy as np

from ..errors import Diagnostic, InfraGraphError, Location, did_you_mean, error
from .fqg import FQG

FAILED = "failed"
BANDWIDTH_FACTOR = "bandwidth_factor"
EXTRA_LATENCY = "extra_latency_ns"
ATTRIBUTES = (FAILED, BANDWIDTH_FACTOR, EXTRA_LATENCY)
_GLOB = re.compile(r"[*?\[]")


@dataclass(frozen=True)
class Degrade:
    """One degradation: every edge of `target` runs at `bandwidth_factor` x its bandwidth and
    `extra_latency_ns` more latency."""

    target: str
    bandwidth_factor: float = 1.0
    extra_latency_ns: float = 0.0


@dataclass(frozen=True)
class FailureSpec:
    """Failures asked for outside the document (the command line). Empty: annotations only."""

    fail: tuple[str, ...] = ()
    fail_random: float | None = None  # fraction of cables, in (0, 1]
    seed: int = 0
    degrade: tuple[Degrade, ...] = ()
    use_annotations: bool = True
    fail_random_count: int | None = None  # or a number of cables (--fail-random K); not both

    def is_empty(self) -> bool:
        return not (self.fail or self.fail_random is not None or self.fail_random_count is not None or self.degrade)


@dataclass
class Failures:
    """Failures resolved against one graph: per-edge and per-node arrays of that graph's ids."""

    failed_edge: np.ndarray  # bool per edge
    failed_node: np.ndarray  # bool per node
    bandwidth_factor: np.ndarray  # float per edge, 1.0 = healthy
    extra_latency_ns: np.ndarray  # float per edge, 0.0 = healthy
    sources: list[str] = field(default_factory=list)  # what was applied, in words
    random_edges: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))

    @property
    def degraded_edge(self) -> np.ndarray:
        return ~self.failed_edge & ((self.bandwidth_factor != 1.0) | (self.extra_latency_ns != 0.0))

    def any(self) -> bool:
        return bool(self.failed_edge.any() or self.failed_node.any() or self.degraded_edge.any())

    def summary(self, g: FQG, limit: int = 20) -> dict:
        """JSON-ready: counts, the first `limit` failed and degraded edges by name, and the sources."""
        names = g.node_names
        failed = np.flatnonzero(self.failed_edge)
        degraded = np.flatnonzero(self.degraded_edge)
        return {
            "failed_edges": int(failed.size),
            "failed_nodes": int(self.failed_node.sum()),
            "degraded_edges": int(degraded.size),
            "failed": [edge_name(g, int(e), names) for e in failed[:limit]],
            "failed_node_names": [names[n] for n in np.flatnonzero(self.failed_node)[:limit]],
            "degraded": [{"edge": edge_name(g, int(e), names), "bandwidth_factor": float(self.bandwidth_factor[e]),
                          "extra_latency_ns": float(self.extra_latency_ns[e])} for e in degraded[:limit]],
            "sources": list(self.sources),
        }


def edge_name(g: FQG, e: int, names: list[str] | None = None) -> str:
    names = names if names is not None else g.node_names
    return f"{names[int(g.edge_src[e])]}--{names[int(g.edge_dst[e])]}"


def healthy_failures(g: FQG) -> Failures:
    return Failures(np.zeros(g.num_edges, bool), np.zeros(g.num_nodes, bool),
                    np.ones(g.num_edges), np.zeros(g.num_edges))


# --- checking numbers -------------------------------------------------------------------------


def check_value(attribute: str, value: object) -> str | None:
    """What is wrong with a failure attribute's value, or None. Other attributes are not ours."""
    if attribute == FAILED:
        if isinstance(value, bool) or (isinstance(value, str) and value.lower() in ("true", "false")):
            return None
        return f"'{FAILED}' must be true or false, got {value!r}"
    if attribute == BANDWIDTH_FACTOR:
        return check_factor(value)
    if attribute == EXTRA_LATENCY:
        return check_latency(value)
    return None


def check_factor(value: object) -> str | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or not 0.0 < value <= 1.0:
        return f"a bandwidth factor must be a finite number in (0, 1] (1 = healthy), got {value!r}"
    return None


def check_latency(value: object) -> str | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        return f"an extra latency must be a finite number of ns >= 0, got {value!r}"
    return None


def _is_true(value: object) -> bool:
    return value is True or (isinstance(value, str) and value.lower() == "true")


def parse_degrade(text: str) -> Degrade:
    """`TARGET:bandwidth=0.5,latency=200ns` (either key may be left out) -> a Degrade.
    `bandwidth` is the factor the bandwidth is multiplied by (0.5 or 50%); `latency` is the extra
    latency and needs a time unit (ns, us, ms)."""
    from ..units import UnitError, parse_quantity, to_ns

    where = f"--degrade {text}"
    target, colon, rest = text.rpartition(":")
    if not colon or not target.strip() or not rest.strip():
        raise error(f"bad --degrade '{text}'; expected TARGET:bandwidth=FACTOR,latency=EXTRA", where,
                    "e.g. --degrade 'leaf.0.port.3--spine.1.port.0:bandwidth=0.5,latency=200ns'")
    factor, extra = 1.0, 0.0
    for item in rest.split(","):
        key, eq, value = (s.strip() for s in item.partition("="))
        if not eq or key not in ("bandwidth", "latency"):
            raise error(f"bad --degrade item '{item.strip()}'; expected bandwidth=FACTOR or latency=EXTRA", where)
        if key == "bandwidth":
            try:
                factor = float(value[:-1]) / 100.0 if value.endswith("%") else float(value)
            except ValueError:
                raise error(f"bad bandwidth factor '{value}'; expected a number in (0, 1] such as 0.5 or 50%",
                            where) from None
            problem = check_factor(factor)
        else:
            try:
                extra = round(to_ns(parse_quantity(value.lstrip("+"))), 6)  # 1us is 1000 ns, not 999.99…
            except UnitError as e:
                raise error(f"bad extra latency '{value}': {e}", where, "give a time with its unit, e.g. 200ns or 1us") from None
            problem = check_latency(extra)
        if problem:
            raise error(problem, where)
    return Degrade(target.strip(), factor, extra)


# --- selecting nodes and edges ----------------------------------------------------------------


def select_nodes(g: FQG, pattern: str, where: str) -> np.ndarray:
    """Node ids named by `pattern` (a full name, a device copy `inst.i`, or a glob); an error
    located at `where` when nothing matches."""
    pattern = pattern.strip()
    if not pattern:
        raise error("empty node name", where, "name a node like 'spine.1.switch.0', a device copy "
                    "like 'spine.1', or a glob like 'spine.*'")
    if not _GLOB.search(pattern):
        parts = pattern.split(".")
        inst = next((x for x in g.instances if x.name == parts[0]), None)
        if inst is not None and len(parts) == 2 and parts[1].isdigit() and int(parts[1]) < inst.count:
            first = inst.first_node + int(parts[1]) * inst.nodes_per_copy
            return np.arange(first, first + inst.nodes_per_copy)
        try:
            return np.array([g.node_id(pattern)])
        except InfraGraphError as e:
            d = e.diagnostics[0]
            raise InfraGraphError(Diagnostic(d.message, Location(path=where), d.hint)) from None
    rx = re.compile(translate(pattern))
    copy_rx = re.compile(translate(pattern + ".*"))
    hits = [node for node, n in _candidates(g, pattern) if rx.match(n) or copy_rx.match(n)]
    if not hits:
        prefixes = {f"{x.name}.*" for x in g.instances}
        raise error(f"'{pattern}' matches no node of graph '{g.name}'", where,
                    did_you_mean(pattern, prefixes) or "node names look like 'instance.index.component.index'; "
                    f"instances: {', '.join(x.name for x in g.instances[:12])}")
    return np.asarray(hits, dtype=np.int64)


def _candidates(g: FQG, pattern: str):
    """(node id, name) pairs a glob can match: only the named instance's nodes when the pattern's
    first segment is a plain instance name (`core.*` reads 1,024 switches, not 600k names)."""
    head = pattern.split(".", 1)[0]
    if _GLOB.search(head):
        yield from enumerate(g.node_names)
        return
    for inst in g.instances:
        if inst.name == head:
            for copy in range(inst.count):
                first = inst.first_node + copy * inst.nodes_per_copy
                for k, suffix in enumerate(inst.suffixes):
                    yield first + k, f"{head}.{copy}.{suffix}"


def select_edges(g: FQG, target: str, where: str) -> tuple[np.ndarray, np.ndarray | None]:
    """(edge ids, node ids or None) named by `target`: `A--B` selects the edges joining A and B;
    a node target selects every edge touching its nodes (and returns the nodes)."""
    if "--" in target:
        left, _, right = target.partition("--")
        a, b = select_nodes(g, left, where), select_nodes(g, right, where)
        sa = np.zeros(g.num_nodes, bool)
        sb = np.zeros(g.num_nodes, bool)
        sa[a] = True
        sb[b] = True
        hit = (sa[g.edge_src] & sb[g.edge_dst]) | (sb[g.edge_src] & sa[g.edge_dst])
        edges = np.flatnonzero(hit)
        if edges.size == 0:
            raise error(f"no edge joins '{left.strip()}' and '{right.strip()}'", where,
                        "an edge target is NODE--NODE with two ends that are cabled to each other")
        return edges, None
    nodes = select_nodes(g, target, where)
    mark = np.zeros(g.num_nodes, bool)
    mark[nodes] = True
    return np.flatnonzero(mark[g.edge_src] | mark[g.edge_dst]), nodes


def cables(g: FQG) -> np.ndarray:
    """Edge ids of the cables: edges joining two different copies of instances (a leaf and a spine,
    a host and a leaf), not the links inside one device copy (a NIC inside its host)."""
    s, d = g.edge_src, g.edge_dst
    return np.flatnonzero((g.node_instance[s] != g.node_instance[d]) | (g.node_copy[s] != g.node_copy[d]))


# --- resolving --------------------------------------------------------------------------------


def resolve_failures(g: FQG, spec: FailureSpec = FailureSpec()) -> Failures:
    """The failures of `g`: its annotations (unless `spec.use_annotations` is off) plus `spec`.
    Every problem is reported together, each located (annotation or command-line flag)."""
    f = healthy_failures(g)
    diags: list[Diagnostic] = []
    if spec.use_annotations:
        diags += _annotated(g, f)
    for target in spec.fail:
        where = f"--fail {target}"
        try:
            edges, nodes = select_edges(g, target, where)
        except InfraGraphError as e:
            diags += e.diagnostics
            continue
        f.failed_edge[edges] = True
        if nodes is not None:
            f.failed_node[nodes] = True
        f.sources.append(f"--fail {target}: {edges.size} edge(s)" + ("" if nodes is None else f", {nodes.size} node(s)"))
    for d in spec.degrade:
        where = f"--degrade {d.target}"
        for problem in (check_factor(d.bandwidth_factor), check_latency(d.extra_latency_ns)):
            if problem:
                diags.append(Diagnostic(problem, Location(path=where)))
        try:
            edges, _ = select_edges(g, d.target, where)
        except InfraGraphError as e:
            diags += e.diagnostics
            continue
        f.bandwidth_factor[edges] *= d.bandwidth_factor
        f.extra_latency_ns[edges] += d.extra_latency_ns
        f.sources.append(f"--degrade {d.target}: {edges.size} edge(s) x{d.bandwidth_factor:g} bandwidth, "
                         f"+{d.extra_latency_ns:g} ns")
    if spec.fail_random is not None or spec.fail_random_count is not None:
        given = f"{spec.fail_random:g}" if spec.fail_random is not None else f"{spec.fail_random_count}"
        try:
            f.random_edges = random_cables(g, spec.fail_random, spec.seed, ~f.failed_edge, spec.fail_random_count)
        except InfraGraphError as e:
            diags += e.diagnostics
        else:
            f.failed_edge[f.random_edges] = True
            f.sources.append(f"--fail-random {given} --seed {spec.seed}: "
                             f"{f.random_edges.size} of {int(cables(g).size)} cables")
    if diags:
        raise InfraGraphError(diags)
    return f


def random_cables(g: FQG, fraction: float | None, seed: int, alive: np.ndarray | None = None,
                  count: int | None = None) -> np.ndarray:
    """round(fraction x alive cables) cable ids, or `count` of them when given, drawn without
    replacement from PCG64(seed)."""
    where = "--fail-random"
    if count is not None:
        check_seed(seed)
        pool = cables(g)
        if alive is not None:
            pool = pool[alive[pool]]
        if isinstance(count, bool) or not isinstance(count, (int, np.integer)) or not 1 <= count <= pool.size:
            raise error(f"the number of cables to fail must be a whole number from 1 to the {pool.size:,} cables "
                        f"left, got {count!r}", where)
        return draw_cables(pool, int(count), seed)
    if isinstance(fraction, bool) or not isinstance(fraction, (int, float)) or not math.isfinite(fraction) \
            or not 0.0 < fraction <= 1.0:
        raise error(f"the fraction of cables to fail must be a finite number in (0, 1], got {fraction!r}", where)
    check_seed(seed)
    pool = cables(g)
    if alive is not None:
        pool = pool[alive[pool]]
    k = int(round(fraction * pool.size))
    if k == 0:
        raise error(f"failing {fraction:g} of {pool.size} cables rounds to 0 failures", where,
                    f"give a fraction of at least {0.5 / max(pool.size, 1):.3g}")
    return draw_cables(pool, k, seed)


def check_seed(seed: object) -> None:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise error(f"the seed must be an integer >= 0, got {seed!r}", "--seed")


def draw_cables(pool: np.ndarray, k: int, seed: int) -> np.ndarray:
    """`k` ids from `pool` without replacement, sorted; the same seed gives the same draw."""
    return np.sort(np.random.default_rng(seed).choice(pool, size=k, replace=False))


def _annotated(g: FQG, f: Failures) -> list[Diagnostic]:
    """Apply failure annotations on nodes, edges and link classes to `f`; bad values are errors."""
    diags: list[Diagnostic] = []

    def values(attr: str, table: dict, what) -> list[tuple[int, object]]:
        out = []
        for key, value in table.get(attr, {}).items():
            problem = check_value(attr, value)
            if problem:
                diags.append(Diagnostic(f"{what(key)}: {problem}", Location(path="annotations")))
            else:
                out.append((key, value))
        return out

    incident = None
    for attr in ATTRIBUTES:
        node_vals = values(attr, g.node_attrs, lambda n: f"node '{g.node_name(n)}'")
        edge_vals = values(attr, g.edge_attrs, lambda e: f"edge '{edge_name(g, e)}'")
        link_table = {attr: {i: x.attributes[attr] for i, x in enumerate(g.links) if attr in x.attributes}}
        link_vals = values(attr, link_table, lambda i: f"link '{g.links[i].qualified_name}'")
        for node, value in node_vals:
            if incident is None:
                incident = _incidence(g)
            edges = incident(node)
            _set(f, attr, edges, value)
            if attr == FAILED and _is_true(value):
                f.failed_node[node] = True
        for edge, value in edge_vals:
            _set(f, attr, np.array([edge]), value)
        for link, value in link_vals:
            _set(f, attr, np.flatnonzero(g.edge_link == link), value)
        if node_vals or edge_vals or link_vals:
            f.sources.append(f"annotation '{attr}' on {len(node_vals)} node(s), {len(edge_vals)} edge(s), "
                             f"{len(link_vals)} link class(es)")
    return diags


def _set(f: Failures, attr: str, edges: np.ndarray, value) -> None:
    if attr == FAILED:
        if _is_true(value):
            f.failed_edge[edges] = True
    elif attr == BANDWIDTH_FACTOR:
        f.bandwidth_factor[edges] *= float(value)
    else:
        f.extra_latency_ns[edges] += float(value)


def _incidence(g: FQG):
    """node -> ids of the edges touching it (CSR over both directions, built once)."""
    ends = np.concatenate([g.edge_src, g.edge_dst])
    order = np.argsort(ends, kind="stable")
    start = np.searchsorted(ends[order], np.arange(g.num_nodes + 1))
    eid = order % max(g.num_edges, 1)
    return lambda n: eid[start[n]:start[n + 1]]


# --- applying ---------------------------------------------------------------------------------


def apply_failures(g: FQG, f: Failures) -> FQG:
    """`g` with failed edges removed and degraded edges on degraded link classes. The failure
    annotations are dropped from the result. Returns a graph without failure annotations (g itself
    when there is nothing to do)."""
    keep = ~f.failed_edge
    degraded = f.degraded_edge
    if not f.any() and not _has_failure_annotations(g):
        return g
    edge_link = g.edge_link.copy()
    links = list(g.links)
    if degraded.any():
        keys = np.stack([g.edge_link[degraded].astype(np.float64), f.bandwidth_factor[degraded],
                         f.extra_latency_ns[degraded]], axis=1)
        uniq, inverse = np.unique(keys, axis=0, return_inverse=True)
        for link, factor, extra in uniq.tolist():
            base = g.links[int(link)]
            links.append(replace(base, name=f"{base.name}~x{factor:g}+{extra:g}ns",
                                 bandwidth_gbps=None if base.bandwidth_gbps is None else base.bandwidth_gbps * factor,
                                 latency_ns=base.latency_ns if extra == 0 else (base.latency_ns or 0.0) + extra,
                                 attributes={k: v for k, v in base.attributes.items() if k not in ATTRIBUTES}))
        edge_link[degraded] = len(g.links) + inverse.ravel()
    links = [x if not (set(x.attributes) & set(ATTRIBUTES)) else
             replace(x, attributes={k: v for k, v in x.attributes.items() if k not in ATTRIBUTES}) for x in links]
    new_id = np.cumsum(keep) - 1
    edge_attrs = {attr: {int(new_id[e]): v for e, v in col.items() if keep[e]}
                  for attr, col in g.edge_attrs.items() if attr not in ATTRIBUTES}
    node_attrs = {attr: col for attr, col in g.node_attrs.items() if attr not in ATTRIBUTES}
    return replace(g, links=links, edge_src=g.edge_src[keep], edge_dst=g.edge_dst[keep], edge_link=edge_link[keep],
                   edge_origin=g.edge_origin[keep], node_attrs=node_attrs, edge_attrs=edge_attrs)


def _has_failure_annotations(g: FQG) -> bool:
    return any(a in g.node_attrs or a in g.edge_attrs for a in ATTRIBUTES) or \
        any(set(x.attributes) & set(ATTRIBUTES) for x in g.links)


def marked(g: FQG, f: Failures) -> FQG:
    """`g` for drawing: every edge kept (same ids), degraded edges on their degraded link classes,
    and the failures normalised to edge annotations — `failed: true` on each failed edge,
    `bandwidth_factor` / `extra_latency_ns` on each degraded one — and `failed: true` on failed nodes."""
    out = apply_failures(g, replace(f, failed_edge=np.zeros_like(f.failed_edge)))
    if out is g:
        out = replace(g)
    out.edge_attrs = dict(out.edge_attrs)
    out.node_attrs = dict(out.node_attrs)
    degraded = f.degraded_edge
    columns = {FAILED: (f.failed_edge, lambda e: True),
               BANDWIDTH_FACTOR: (degraded & (f.bandwidth_factor != 1.0), lambda e: float(f.bandwidth_factor[e])),
               EXTRA_LATENCY: (degraded & (f.extra_latency_ns != 0.0), lambda e: float(f.extra_latency_ns[e]))}
    for attr, (mask, value) in columns.items():
        if mask.any():
            out.edge_attrs[attr] = {int(e): value(e) for e in np.flatnonzero(mask)}
    if f.failed_node.any():
        out.node_attrs[FAILED] = {int(n): True for n in np.flatnonzero(f.failed_node)}
    return out


def edge_states(g: FQG) -> tuple[np.ndarray, np.ndarray]:
    """(failed, degraded) per edge, from a graph's edge annotations (see `marked`)."""
    failed = np.zeros(g.num_edges, bool)
    degraded = np.zeros(g.num_edges, bool)
    for e, v in g.edge_attrs.get(FAILED, {}).items():
        failed[e] = _is_true(v)
    for attr in (BANDWIDTH_FACTOR, EXTRA_LATENCY):
        degraded[list(g.edge_attrs.get(attr, {}))] = True
    return failed, degraded & ~failed


def healthy(g: FQG) -> FQG:
    """`g` as if nothing had failed: failure annotations dropped, every edge kept."""
    return apply_failures(g, healthy_failures(g))


def with_failures(g: FQG, spec: FailureSpec = FailureSpec()) -> tuple[FQG, Failures]:
    """(the failed graph, the resolved failures): the call every consumer makes."""
    f = resolve_failures(g, spec)
    return apply_failures(g, f), f
