"""The page's drill-down shows the selected copy's own annotations (srv.12.gpu.5 shows its own
rank, not copy 0's) and lists each attribute once."""

from __future__ import annotations

from pathlib import Path

import pytest

from infragraph.sources import load_graph
from infragraph.visualizer import visualize
from infragraph.visualizer.page import page_data
from tests.visualizer.test_browser import CHROMIUM, DRIVER, browser  # noqa: F401  (the fixture)

SERVERS = """
link nv {
    bandwidth = 900 GB/s
}

device srv {
    component gpu[4]: xpu
    component sw: switch
    gpu -- sw many2many via nv
}

fabric rack {
    instance srv[3]: srv
    srv[0:2].sw -- srv[1:3].sw one2one via nv
    annotate srv.gpu rank = auto
}
"""


@pytest.fixture
def servers(tmp_path) -> Path:
    path = tmp_path / "rack.igl"
    path.write_text(SERVERS)
    return path


def test_page_carries_every_copys_annotations_and_no_per_copy_attributes(servers):
    g = load_graph(servers)
    data = page_data(g)
    ranks = data["annotations"]["rank"]
    assert len(ranks) == len(g.node_attrs["rank"]) and sorted(ranks.values()) == list(range(len(ranks)))
    for layer in data["devices"].values():
        for attrs in layer["attrs"]:
            assert not {"type", "instance", "instance_index", "rank"} & set(attrs)
    for inst in data["instances"]:
        i = next(x for x in g.instances if x.name == inst["name"])
        assert (inst["first_node"], inst["per_copy"]) == (i.first_node, i.nodes_per_copy)


@pytest.mark.skipif(not (CHROMIUM and DRIVER), reason="headless Chromium not installed")
def test_drill_down_shows_the_copys_own_rank(browser, tmp_path, servers):  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    g = load_graph(servers)
    page = tmp_path / "hosts.html"
    visualize(g, str(page))
    browser.get(page.as_uri())
    inst = next(i for i in g.instances if i.count > 1 and any(s.startswith("gpu") for s in i.suffixes))
    local = next(j for j, s in enumerate(inst.suffixes) if s.startswith("gpu") and j > 0)
    copy = inst.count - 1
    name = f"{inst.name}.{copy}.{inst.suffixes[local]}"
    want = g.node_attrs["rank"][inst.first_node + copy * inst.nodes_per_copy + local]
    search = browser.find_element(By.ID, "search")
    search.send_keys(name, Keys.ENTER)
    assert browser.find_element(By.ID, "selected-name").text == name
    rows = [r.text for r in browser.find_elements(By.CSS_SELECTOR, "#info tr")]
    assert f"rank {want}" in rows, rows
    assert sum(r.startswith("type ") for r in rows) == 1
