"""The greedy all-gather (matching.py, simengine/src/synth.rs): every rank receives every chunk it
lacks exactly once, on grids (links pick from candidate lists) and on switch groups (ranks of
out-degree > 8 scan their arrival order); the timeline crosses from the engine compact."""
import numpy as np
import pytest

from infragraph.collectives.links import logical_links
from infragraph.collectives.matching import all_gather
from infragraph.graph.ranks import npu_order
from infragraph.sources import load_graph

FABRICS = {
    "torus [4,4] (degree 4: candidate lists)": ("std.fabrics.torus", {"sizes": "[4,4]"}),
    "RFS RI(2)_FC(2)_SW(16) (degree > 8: scans)": ("std.fabrics.stack", {"shape": '"RI(2)_FC(2)_SW(16)"'}),
}


def links_of(name: str):
    source, defines = FABRICS[name]
    g = load_graph(source, defines)
    return logical_links(g, npu_order(g))


@pytest.mark.parametrize("name", FABRICS)
def test_every_rank_gets_every_chunk_exactly_once(name):
    links = links_of(name)
    n, k = links.npus, 3
    out_degree = np.bincount(links.src, minlength=n)
    assert (out_degree > 8).any() == ("scans" in name)  # the case exercises the pick it names
    ag = all_gather(links, k, 1e6, seed=5)
    dst = links.dst[ag.link]
    assert ag.transfers == ag.link.size == n * (n - 1) * k
    pairs = dst.astype(np.int64) * n * k + ag.chunk
    assert np.unique(pairs).size == pairs.size  # no rank receives a chunk twice
    assert not np.any(ag.chunk // k == dst)  # nor its own
    # A chunk leaves a rank only after it landed there (or the rank started with it).
    landed = {}
    for i in np.argsort(ag.arrive, kind="stable"):
        landed.setdefault((int(dst[i]), int(ag.chunk[i])), float(ag.arrive[i]))
    for s, c, t in zip(links.src[ag.link].tolist(), ag.chunk.tolist(), ag.start.tolist()):
        assert c // k == s or landed[(s, c)] <= t + 1e-6


def test_timeline_is_compact_and_reproducible():
    links = links_of("torus [4,4] (degree 4: candidate lists)")
    a = all_gather(links, 2, 1e6, seed=11)
    b = all_gather(links, 2, 1e6, seed=11)
    assert a.link.dtype == np.uint32 and a.chunk.dtype == np.uint32 and a.start.dtype == np.float64
    assert a.link.nbytes + a.chunk.nbytes + a.start.nbytes == 16 * a.transfers
    assert np.array_equal(a.link, b.link) and np.array_equal(a.chunk, b.chunk) and np.array_equal(a.start, b.start)
    np.testing.assert_allclose(a.arrive, a.start + a.fly_ns[a.link])
    assert a.time_ns == pytest.approx(float(a.arrive.max()))


def test_without_recording_only_the_count_and_time_are_kept():
    links = links_of("torus [4,4] (degree 4: candidate lists)")
    kept, bare = all_gather(links, 1, 1e6, seed=3), all_gather(links, 1, 1e6, seed=3, record=False)
    assert bare.link.size == 0 and bare.transfers == kept.transfers == 16 * 15
    assert bare.time_ns == kept.time_ns
