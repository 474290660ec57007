"""Test fabrics for the visualizer, built as InfraGraph documents (public format dicts).

Test-only stand-ins until the blueprint library lands: 2- and 3-tier Clos of hosts, a k-ary n-cube
torus of NPUs, a dragonfly (absolute global arrangement) and a GPU whose inside is an 8x4 NoC mesh.
Each function returns the expanded FQG; `*_doc` returns the document dict (written to YAML by the
docs/benchmark commands so the CLI can be run on a real file).
"""

from __future__ import annotations

import itertools

from infragraph.document.io import from_dict
from infragraph.graph import expand
from infragraph.graph.fqg import FQG
from tests.docparts import edge, link, switch_device


def _switch(name: str, ports: int) -> dict:
    """The test fabrics' switch: a 25.6 Tbit/s, 50 ns ASIC-to-port fabric."""
    return switch_device(name, ports, 25600, 50)


HOST = {"name": "host",
        "components": [{"name": "xpu", "choice": "xpu", "count": 1}, {"name": "nic", "choice": "nic", "count": 1}],
        "links": [link("pcie", 512, 100)],
        "edges": [{"ep1": {"component": "xpu"}, "ep2": {"component": "nic"}, "link": "pcie"}]}


def clos2_doc(leaves: int = 8, spines: int = 4, hosts_per_leaf: int = 4) -> dict:
    """2-tier leaf/spine: every leaf to every spine (one link), hosts_per_leaf hosts per leaf."""
    h = hosts_per_leaf
    edges = []
    for j in range(leaves):
        edges.append(edge(f"host[{j * h}:{(j + 1) * h}]", "nic[0]", f"leaf[{j}]", f"port[0:{h}]", "access"))
        edges.append(edge(f"leaf[{j}]", f"port[{h}:{h + spines}]", f"spine[0:{spines}]", f"port[{j}]", "uplink"))
    return {"name": f"clos2-{leaves * h}", "devices": [HOST, _switch("leafsw", h + spines), _switch("spinesw", leaves)],
            "links": [link("access", 400, 500.0), link("uplink", 800, 500.0)],
            "instances": [{"name": "host", "device": "host", "count": leaves * h},
                          {"name": "leaf", "device": "leafsw", "count": leaves},
                          {"name": "spine", "device": "spinesw", "count": spines}],
            "edges": edges}


def clos3_doc(pods: int = 4, leaves: int = 2, aggs: int = 2, hosts_per_leaf: int = 2, cores_per_agg: int = 2) -> dict:
    """3-tier Clos: pods of leaves and aggs (full bipartite inside a pod); agg a of every pod goes
    to core group a (cores_per_agg cores); hosts_per_leaf hosts per leaf."""
    h, k = hosts_per_leaf, cores_per_agg
    edges = []
    for p in range(pods):
        for l in range(leaves):
            lf = p * leaves + l
            edges.append(edge(f"host[{lf * h}:{(lf + 1) * h}]", "nic[0]", f"leaf[{lf}]", f"port[0:{h}]", "access"))
            edges.append(edge(f"leaf[{lf}]", f"port[{h}:{h + aggs}]", f"agg[{p * aggs}:{(p + 1) * aggs}]",
                               f"port[{l}]", "uplink"))
        for a in range(aggs):
            edges.append(edge(f"agg[{p * aggs + a}]", f"port[{leaves}:{leaves + k}]",
                               f"core[{a * k}:{(a + 1) * k}]", f"port[{p}]", "core"))
    hosts = pods * leaves * h
    return {"name": f"clos3-{hosts}",
            "devices": [HOST, _switch("leafsw", h + aggs), _switch("aggsw", leaves + k), _switch("coresw", pods)],
            "links": [link("access", 400, 500.0), link("uplink", 800, 500.0),
                      link("core", 1600, 500.0)],
            "instances": [{"name": "host", "device": "host", "count": hosts},
                          {"name": "leaf", "device": "leafsw", "count": pods * leaves},
                          {"name": "agg", "device": "aggsw", "count": pods * aggs},
                          {"name": "core", "device": "coresw", "count": aggs * k}],
            "edges": edges}


def torus_doc(dims: tuple[int, ...] = (4, 4, 4), annotate: bool = False) -> dict:
    """k-ary n-cube of NPUs with wraparound; id = x + nx*y + nx*ny*z (dimension 1 fastest).
    Port 2d goes to the + neighbour in dimension d, port 2d+1 receives from the - neighbour."""
    n = 1
    for d in dims:
        n *= d
    edges = []
    for idx in range(n):
        coord, rest = [], idx
        for d in dims:
            coord.append(rest % d)
            rest //= d
        for dim, size in enumerate(dims):
            if size < 2 or (size == 2 and coord[dim] == 1):
                continue  # a size-2 dimension has one link, not two
            nxt = list(coord)
            nxt[dim] = (coord[dim] + 1) % size
            j = sum(c * s for c, s in zip(nxt, [1] + list(itertools.accumulate(dims[:-1], lambda a, b: a * b))))
            edges.append(edge(f"npu[{idx}]", f"port[{2 * dim}]", f"npu[{j}]", f"port[{2 * dim + 1}]", "ici"))
    npu = {"name": "npu",
           "components": [{"name": "xpu", "choice": "xpu", "count": 1},
                          {"name": "port", "choice": "port", "count": 2 * len(dims)}],
           "links": [link("serdes", 1600, 20)],
           "edges": [{"ep1": {"component": "xpu"}, "ep2": {"component": "port"}, "link": "serdes",
                      "scheme": "many2many"}]}
    doc = {"name": "torus-" + "x".join(map(str, dims)), "devices": [npu],
           "links": [link("ici", 800, 100)],
           "instances": [{"name": "npu", "device": "npu", "count": n}], "edges": edges}
    if annotate:
        doc["annotations"] = {"graph": [{"attribute": "topology", "value": "torus"},
                                        {"attribute": "shape", "value": "x".join(map(str, dims))}]}
    return doc


def dragonfly_doc(p: int = 2, a: int = 4, h: int = 2, groups: int | None = None) -> dict:
    """Dragonfly: p hosts per router, a routers per group (full mesh), h global links per router,
    g = a*h + 1 groups by default, absolute arrangement (one global link per group pair)."""
    g = groups or a * h + 1
    routers = g * a
    edges = []
    for r in range(routers):
        edges.append(edge(f"host[{r * p}:{(r + 1) * p}]", "nic[0]", f"router[{r}]", f"port[0:{p}]", "access"))
    for grp in range(g):
        for i, j in itertools.combinations(range(a), 2):
            # router i's local port to j: p + (j-1 if j > i else j)
            edges.append(edge(f"router[{grp * a + i}]", f"port[{p + j - 1}]",
                               f"router[{grp * a + j}]", f"port[{p + i}]", "local"))
    for src in range(g):
        for gi in range(a * h):
            dst = gi if gi < src else gi + 1
            if dst >= g or dst < src:
                continue
            back = src if src < dst else src - 1
            r1, k1 = divmod(gi, h)
            r2, k2 = divmod(back, h)
            edges.append(edge(f"router[{src * a + r1}]", f"port[{p + a - 1 + k1}]",
                               f"router[{dst * a + r2}]", f"port[{p + a - 1 + k2}]", "global"))
    return {"name": f"dragonfly-{g}x{a}", "devices": [HOST, _switch("routersw", p + a - 1 + h)],
            "links": [link("access", 400, 500.0), link("local", 800, 500.0),
                      link("global", 400, 1000)],
            "instances": [{"name": "host", "device": "host", "count": routers * p},
                          {"name": "router", "device": "routersw", "count": routers}],
            "edges": edges}


def gpu_noc_doc(width: int = 8, height: int = 4, cus: int = 4, channels: int = 16, io: int = 4, gpus: int = 2) -> dict:
    """GPUs whose inside is a width x height NoC mesh (router id = x + width*y): `cus` compute units
    per router, `channels` memory channels per router on the top and bottom rows, `io` I/O ports
    per router on the left and right columns; the GPUs' I/O ports go to one scale-up switch."""
    n = width * height
    edge_rows = [y for y in sorted({0, height - 1})]
    side_cols = [x for x in sorted({0, width - 1})]
    mem_routers = [y * width + x for y in edge_rows for x in range(width)]
    io_routers = [y * width + x for y in range(height) for x in side_cols]
    dev_edges = []
    for y in range(height):
        dev_edges.append({"ep1": {"component": f"router[{y * width}:{y * width + width - 1}]"},
                          "ep2": {"component": f"router[{y * width + 1}:{y * width + width}]"}, "link": "noc"})
    dev_edges.append({"ep1": {"component": f"router[0:{n - width}]"}, "ep2": {"component": f"router[{width}:{n}]"},
                      "link": "noc"})
    for r in range(n):
        dev_edges.append({"ep1": {"component": f"cu[{r * cus}:{(r + 1) * cus}]"}, "ep2": {"component": f"router[{r}]"},
                          "link": "noc", "scheme": "many2many"})
    for i, r in enumerate(mem_routers):
        dev_edges.append({"ep1": {"component": f"hbm[{i * channels}:{(i + 1) * channels}]"},
                          "ep2": {"component": f"router[{r}]"}, "link": "mem", "scheme": "many2many"})
    for i, r in enumerate(io_routers):
        dev_edges.append({"ep1": {"component": f"io[{i * io}:{(i + 1) * io}]"}, "ep2": {"component": f"router[{r}]"},
                          "link": "noc", "scheme": "many2many"})
    gpu = {"name": "gpu",
           "components": [{"name": "router", "choice": "custom", "custom": {"type": "router"}, "count": n},
                          {"name": "cu", "choice": "xpu", "count": n * cus},
                          {"name": "hbm", "choice": "memory", "count": len(mem_routers) * channels},
                          {"name": "io", "choice": "port", "count": len(io_routers) * io}],
           "links": [link("noc", 8796, 5), link("mem", 137, 100)],
           "edges": dev_edges}
    ports = len(io_routers) * io
    return {"name": f"gpu-noc-{width}x{height}", "devices": [gpu, _switch("scaleup", gpus * ports)],
            "links": [link("scaleup", 256, 1000)],
            "instances": [{"name": "gpu", "device": "gpu", "count": gpus}, {"name": "nvs", "device": "scaleup", "count": 1}],
            "edges": [edge(f"gpu[0:{gpus}]", "io", "nvs[0]", "port", "scaleup")]}


def build(doc: dict) -> FQG:
    """Expand a document dict to its FQG."""
    return expand(from_dict(doc, doc.get("annotations")))


def clos2(**kw) -> FQG:
    return build(clos2_doc(**kw))


def clos3(**kw) -> FQG:
    return build(clos3_doc(**kw))


def torus(dims=(4, 4, 4), annotate=False) -> FQG:
    return build(torus_doc(dims, annotate))


def dragonfly(**kw) -> FQG:
    return build(dragonfly_doc(**kw))


def gpu_noc(**kw) -> FQG:
    return build(gpu_noc_doc(**kw))


DOCS = {"clos2": clos2_doc, "clos3": clos3_doc, "torus": torus_doc, "dragonfly": dragonfly_doc, "gpu_noc": gpu_noc_doc}


if __name__ == "__main__":  # python -m tests.vis_graphs OUTDIR: write the test fabrics as YAML
    import sys
    from pathlib import Path

    import yaml

    out = Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    out.mkdir(parents=True, exist_ok=True)
    for name, make in DOCS.items():
        (out / f"{name}.yaml").write_text(yaml.safe_dump(make(), sort_keys=False))
        print(out / f"{name}.yaml")
