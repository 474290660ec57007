"""infragraph.collectives.replay: the engine's schedule timers refuse a transfer list that names a
link or chunk that does not exist, with a message saying which (never a panic or a wrong time)."""

from __future__ import annotations

import numpy as np
import pytest

from infragraph.collectives.links import logical_links
from infragraph.collectives.replay import replay, work_conserving_order
from infragraph.errors import InfraGraphError
from infragraph.graph.ranks import npu_order
from infragraph.sources import load_graph


@pytest.mark.parametrize("timer", [replay, work_conserving_order])
def test_a_transfer_on_a_link_that_does_not_exist_is_refused(timer):
    g = load_graph("examples/ring8.igl")
    links = logical_links(g, npu_order(g))
    link, chunk, reduce = np.array([10**6]), np.zeros(1, dtype=np.int64), np.zeros(1, dtype=bool)
    with pytest.raises(InfraGraphError) as e:
        timer(links, link, chunk, reduce, 1024.0, 8)
    assert f"cannot time the schedule: transfer 0 names link 1000000 of {links.src.size}" in str(e.value)


def test_both_timers_run_a_valid_list():
    """Every NPU sends its own chunk over each of its links: nothing waits, every transfer starts at
    0 and lands later, and the work-conserving order is a permutation of the list."""
    g = load_graph("examples/ring8.igl")
    links = logical_links(g, npu_order(g))
    link = np.arange(links.src.size)
    chunk = np.asarray(links.src, dtype=np.int64)  # rank r holds chunk r at the start
    start, land, _ = replay(links, link, chunk, np.zeros(link.size, dtype=bool), 1024.0, 8)
    assert (land > start).all() and (start == 0).all()
    assert sorted(work_conserving_order(links, link, chunk, np.zeros(link.size, dtype=bool), 1024.0, 8)) == list(range(link.size))
