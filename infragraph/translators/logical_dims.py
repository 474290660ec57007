"""The logical dimensions a bundle's collectives run over, chosen as `infragraph simulate` chooses them.

simulate runs a collective over the graph's `dims` annotation when it covers all NPUs
(simulate.dims.resolve), else flat. Every bundle starts from the same annotation, so a hand-written
fabric that states `SW(8)_SW(128)` gets those two dimensions in ns-3's logical_topology.json, the
engine bundle's `--dims`, and HTSim's network.yml where HTSim's NPU order allows it. Where the graph
states none, a bundle uses the RI/FC/SW product it detects (ASTRA-sim's logical topology is a
product), and its README says that simulate runs flat there and gives the `--dims` that matches.

`same_groups` decides whether dimensions over one NPU numbering describe the same collective groups
as dimensions over another (a backend that renumbers NPUs, HTSim or a Clos approximation).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..graph.fqg import FQG
from ..importers.astra_analytical import KIND_HINT_ANNOTATION
from ..simulate.dims import Dims, resolve
from .structure import FC, RING, SHORT_KIND, SW, Dimension, Fabric, NotAProduct, Product, detect_product

# simulate's kinds (RI, FC, SW, LI; None where unstated) in ASTRA-sim's spelling. A line has no
# ASTRA-sim kind; like a dimension of unstated kind it gets simulate's `auto` choice there, ring.
ASTRA_KIND = {"RI": RING, "FC": FC, "SW": SW, "LI": RING, None: RING}


@dataclass(frozen=True)
class Stated:
    """The graph's stated dimensions as simulate resolves them for all NPUs."""

    dims: Dims  # sizes () = none usable (source "flat"; `note` says why when an annotation was ignored)

    @property
    def given(self) -> bool:
        return bool(self.dims.sizes)

    def dimensions(self) -> list[Dimension]:
        """As translator dimensions (bandwidth and latency unknown: the backend reads the real links)."""
        return [Dimension(ASTRA_KIND[k], n, 0, math.nan, math.nan)
                for n, k in zip(self.dims.sizes, self.dims.kinds)]

    def shape(self) -> str:
        return self.dims.shape()


def shape(dims: list[Dimension]) -> str:
    """'SW(8)_SW(128)', or 'flat' for no dimensions."""
    return "_".join(f"{SHORT_KIND[d.kind]}({d.size})" for d in dims) or "flat"


def stated_dims(g: FQG, num_npus: int) -> Stated:
    """The graph's `dims` annotation resolved over all `num_npus` NPUs, exactly as simulate does."""
    return Stated(resolve(g.graph_annotations.get("dims"), None, num_npus))


def _group_keys(sizes: list[int], ranks: np.ndarray) -> list[np.ndarray]:
    """Per dimension k, a label per rank naming its group: the rank with coordinate k set to 0
    (dimension 0 varies fastest, as in ASTRA-sim)."""
    keys, stride = [], 1
    for n in sizes:
        keys.append(ranks - (ranks // stride % n) * stride)
        stride *= n
    return keys


def same_groups(sizes: list[int], order: np.ndarray | None) -> bool:
    """Whether dimensions `sizes` over a backend's NPU numbering, where its rank r is graph rank
    order[r] (None: the graph's own order), split the NPUs into the same groups in every dimension
    as the same `sizes` over the graph's ranks: then a collective over either runs between the same
    NPUs."""
    if order is None:
        return True
    order = np.asarray(order)
    ranks = np.arange(order.size)
    if math.prod(sizes) != order.size:
        return False
    for kg, kb in zip(_group_keys(sizes, order), _group_keys(sizes, ranks)):
        pairs = np.unique(np.stack([kg, kb], axis=1), axis=0)
        if len(pairs) != len(np.unique(kg)) or len(pairs) != len(np.unique(kb)):
            return False
    return True


def merge_into(dims: list[Dimension], sizes: list[int]) -> list[list[int]] | None:
    """Which consecutive `dims` make up each of `sizes` (lists of indices), when every merged run is
    of Switch dimensions; None when `sizes` is not such a coarsening of `dims`."""
    out, i = [], 0
    for n in sizes:
        run, product = [], 1
        while i < len(dims) and product < n:
            run.append(i)
            product *= dims[i].size
            i += 1
        if product != n or (len(run) > 1 and any(dims[j].kind != SW for j in run)):
            return None
        out.append(run)
    return out if i == len(dims) else None


@dataclass
class Chosen:
    """A logical-only backend's dimensions (ns-3, the engine bundle): what, from where, and what to tell."""

    dims: list[Dimension]  # [] = flat
    source: str  # for the README: where the dimensions come from
    stated: Stated
    notes: list[str]
    written: str | None = None  # how to print dims whose kinds are not stated ('8x128'); None: from the kinds

    def shape(self) -> str:
        """The shape as stated ('SW(8)_SW(128)', '8x128' without kinds), else the detected product's."""
        if self.written is not None:
            return self.written
        return self.stated.shape() if self.stated.given else shape(self.dims)


def bundle_dims(fab: Fabric, g: FQG, approximate: bool) -> Chosen:
    """The graph's stated dims when they cover its NPUs (as simulate), else the RI/FC/SW product
    detected in rank order (said: simulate runs flat there), else none."""
    stated = stated_dims(g, fab.num_npus)
    if stated.given:
        return Chosen(stated.dimensions(), "the graph's dims annotation", stated, [])
    hint = g.graph_annotations.get(KIND_HINT_ANNOTATION)
    ignored = f" ({stated.dims.note})" if stated.dims.note else ""
    try:
        product = detect_product(fab, approximate, str(hint).split(",") if hint else None)
    except NotAProduct as e:
        return Chosen([], f"none: the graph states no dims{ignored} and is not an RI/FC/SW product", stated,
                      [f"no logical dimensions: the graph states no dims{ignored} and is not an RI/FC/SW product "
                       f"({e}); the collective runs as one flat dimension of all NPUs, as `infragraph simulate` "
                       f"runs it"])
    sizes = ",".join(str(d.size) for d in product.dims)
    return Chosen(product.dims, f"detected: the graph is the RI/FC/SW product {product.shape()}", stated,
                  [f"logical dimensions {product.shape()} detected in the graph, which states no dims{ignored}: "
                   f"`infragraph simulate` runs such a graph flat unless given `--dims {sizes}`"])


def coarsen(product: Product, stated: Stated) -> Product | None:
    """The product with consecutive Switch dimensions merged into the graph's stated dims, when the
    stated dims are such a coarsening and describe the same NPU groups in the product's rank order;
    None otherwise. A merged dimension takes the smallest bandwidth (its bottleneck tier) and the
    largest per-hop latency (the path up to its highest tier) of the dimensions it joins, which is
    exact for none of them: the merge is flagged as an approximation."""
    sizes = list(stated.dims.sizes)
    runs = merge_into(product.dims, sizes)
    if runs is None or not same_groups(sizes, product.order):
        return None
    dims, merged = [], []
    for run in runs:
        parts = [product.dims[i] for i in run]
        if len(parts) == 1:
            dims.append(parts[0])
            continue
        d = Dimension(SW, math.prod(p.size for p in parts), 0, min(p.bw_gbps for p in parts),
                      max(p.lat_ns for p in parts), exact=False)
        dims.append(d)
        merged.append(f"{shape(parts)} into SW({d.size}) at {d.bw_gbps:g} Gbit/s and {d.lat_ns:g} ns per hop")
    if not merged:
        return product
    note = (f"APPROXIMATION: the graph states dims {stated.shape()}, so {'; '.join(merged)} (the smallest bandwidth "
            f"and the largest latency of the dimensions merged): the collective runs over the stated dimensions, as "
            f"`infragraph simulate` runs it, where {product.shape()} would follow the switch tiers")
    return Product(dims, product.notes + [note], product.order)
