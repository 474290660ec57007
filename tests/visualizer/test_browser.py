"""The page in a real browser: headless Chromium (Debian `chromium` + `chromium-driver`) driven by
Selenium opens the page, searches a node, clicks another, checks what the side panel shows and
saves a screenshot. Skips, saying why, only when Chromium, its driver or selenium is absent."""

from __future__ import annotations

import shutil
import tempfile

import pytest

from tests import vis_graphs as vg
from infragraph.visualizer import visualize

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install selenium)")
pytestmark = pytest.mark.skipif(not (CHROMIUM and DRIVER),
                                reason="headless Chromium not installed (apt-get install chromium chromium-driver)")

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1400,900"]


@pytest.fixture(scope="module")
def browser():
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for f in FLAGS:
        opts.add_argument(f)
    profile = tempfile.mkdtemp(prefix="ig-chromium-")
    opts.add_argument(f"--user-data-dir={profile}")
    drv = webdriver.Chrome(service=Service(DRIVER), options=opts)
    yield drv
    drv.quit()
    shutil.rmtree(profile, ignore_errors=True)


def click_at(browser, x: float, y: float) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    canvas = browser.find_element(By.ID, "view")
    w, h = canvas.size["width"], canvas.size["height"]
    ActionChains(browser).move_to_element_with_offset(canvas, x - w / 2, y - h / 2).click().perform()


def test_search_click_and_drill_down_in_chromium(browser, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    page = tmp_path / "clos.html"
    visualize(vg.clos2(), str(page))
    browser.get(page.as_uri())
    info = lambda: browser.find_element(By.ID, "info").text
    search = browser.find_element(By.ID, "search")
    assert "2-tier Clos" in browser.find_element(By.ID, "notes").text
    search.send_keys("spine.2", Keys.ENTER)
    assert browser.find_element(By.ID, "selected-name").text == "spine.2"
    assert "device spinesw" in info() and "links 8" in info()
    # click another box where the page says it is drawn
    x, y = browser.execute_script("return igviewer.screenOf('leaf.3')")
    click_at(browser, x, y)
    assert browser.find_element(By.ID, "selected-name").text == "leaf.3"
    assert "instance leaf" in info() and "index 3" in info() and "links 8" in info()
    browser.save_screenshot(str(tmp_path / "clos-selected.png"))
    # drill down: fabric -> device -> component
    browser.find_element(By.ID, "drill").click()
    assert "device leafsw (leaf.3.)" in browser.find_element(By.ID, "crumbs").text
    x, y = browser.execute_script("return igviewer.screenOf('asic.0')")
    click_at(browser, x, y)
    assert browser.find_element(By.ID, "selected-name").text == "leaf.3.asic.0"
    assert "type switch" in info() and "links 8" in info()
    # a full component name from the fabric jumps straight into its device
    search = browser.find_element(By.ID, "search")
    search.clear()
    search.send_keys("host.12.xpu.0", Keys.ENTER)
    assert browser.find_element(By.ID, "selected-name").text == "host.12.xpu.0"
    assert "type xpu" in info()
    # filters: hiding a type hides its boxes from clicks
    browser.find_element(By.CSS_SELECTOR, "#crumbs a").click()
    browser.find_element(By.CSS_SELECTOR, "input[data-kind='xpu']").click()
    x, y = browser.execute_script("return igviewer.screenOf('host.0')")
    click_at(browser, x, y)
    assert browser.find_element(By.ID, "info").text != "" and "host.0" not in info()
    path = tmp_path / "clos-device.png"
    browser.save_screenshot(str(path))
    assert path.stat().st_size > 5000


def test_large_fabric_zooms_from_boxes_to_devices(browser, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    page = tmp_path / "big.html"
    visualize(vg.clos3(pods=16, leaves=8, aggs=8, hosts_per_leaf=24, cores_per_agg=8), str(page))
    browser.get(page.as_uri())
    assert "aggregated boxes" in browser.find_element(By.ID, "mode").text
    browser.find_element(By.ID, "search").send_keys("host.1000", Keys.ENTER)
    assert "individual devices" in browser.find_element(By.ID, "mode").text
    assert browser.find_element(By.ID, "selected-name").text == "host.1000"
    browser.save_screenshot(str(tmp_path / "big.png"))


def test_clicking_a_line_shows_its_bundle_load_and_rated_speed(browser, tmp_path):
    """A line of two links of which one carried traffic, and a failed line, clicked on the page."""
    import numpy as np
    from selenium.webdriver.common.by import By

    from infragraph.graph.failures import FailureSpec, marked, resolve_failures
    from infragraph.sources import load_graph
    from infragraph.visualizer.page import write_page

    g = load_graph("std.fabrics.clos", {"radix": "8", "nics_per_host": "2", "host_device": "dgx.dgx(gpus=2)"})
    g = marked(g, resolve_failures(g, FailureSpec(fail=("leaf.0.port.4--spine.0.port.0",))))
    util = np.full(g.num_edges, np.nan)
    port, leaf = g.node_id("host.0.nic.0.port.0"), g.node_id("leaf.0.port.0")  # one of host.0's two cables
    util[((g.edge_src == port) & (g.edge_dst == leaf)) | ((g.edge_src == leaf) & (g.edge_dst == port))] = 0.9
    page = tmp_path / "bundles.html"
    write_page(g, str(page), util)
    browser.get(page.as_uri())
    info = lambda: browser.find_element(By.ID, "info").text

    def click_line(a: str, b: str) -> None:
        (xa, ya), (xb, yb) = (browser.execute_script(f"return igviewer.screenOf('{n}')") for n in (a, b))
        click_at(browser, xa + 0.4 * (xb - xa), ya + 0.4 * (yb - ya))

    click_line("host.0", "leaf.0")
    assert "links 2" in info() and "mean 45%, max 90%" in info() and "carried traffic 1 of 2 links" in info()
    click_line("spine.0", "leaf.0")
    assert "failed all 1 (400 Gbit/s rated)" in info() and "0 Gbit/s working of 400 Gbit/s rated" in info()
