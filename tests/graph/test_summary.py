"""infragraph.graph.summary (what `info` prints): every bandwidth per direction in Gbit/s / Tbit/s, the
tiers, the bill of materials, and no total of all link bandwidths."""

from __future__ import annotations

from infragraph import blueprints
from infragraph.graph.summary import format_summary, summary


def test_info_says_bandwidth_is_per_direction_in_one_spelling():
    s = summary(blueprints.graph("std.devices.dgx"))
    text = format_summary(s)
    assert "link classes (bandwidth per direction; every link is full duplex):" in text
    # 32 GPU-NVSwitch links of 450 / 4 GB/s = 900 Gbit/s each, per direction
    nvlink = [x for x in s["links"] if x["bandwidth_gbps"] == 900.0]
    assert len(nvlink) == 1 and nvlink[0]["edges"] == 32
    assert "900 Gbit/s" in text and "1.024 Tbit/s" in text
    assert "Gbps" not in text.replace("Gbps-", "").replace("Gbps.", "").replace("Tbps.", "")  # names keep theirs
    assert "total" not in text and "total_bandwidth_gbps" not in s


def test_oversubscribed_clos_designer_view():
    s = summary(blueprints.graph("std.fabrics.clos", oversubscription=[3]))
    text = format_summary(s)
    hosts, leaves, spines = s["tiers"]
    assert (hosts["boxes"], leaves["boxes"], spines["boxes"]) == (48, 8, 2)
    assert leaves["instances"] == ["leaf"] and leaves["ports_used_per_box"] == [8, 8]
    assert leaves["down_cables"] == [{"bandwidth_gbps": 400.0, "count": 48}]
    assert leaves["up_cables"] == [{"bandwidth_gbps": 400.0, "count": 16}]
    assert leaves["oversubscription"] == [3.0, 3.0] and spines["oversubscription"] is None
    assert "    oversubscription    3:1 (down/up bandwidth per box)" in text
    bom = s["bill_of_materials"]
    assert bom["switch_boxes"] == {"1": 8, "2": 2}
    assert bom["cables"] == [{"tiers": [0, 1], "bandwidth_gbps": 400.0, "count": 48},
                             {"tiers": [1, 2], "bandwidth_gbps": 400.0, "count": 16}]
    assert bom["transceivers"] == [{"bandwidth_gbps": 400.0, "count": 128}]
    assert "  cables         tier 1-2: 16 x 400 Gbit/s" in text


def test_direct_fabric_has_cables_within_tier_zero():
    s = summary(blueprints.graph("std.fabrics.torus"))
    [hosts] = s["tiers"]
    assert hosts["role"] == "hosts" and hosts["up_cables"] == [] and hosts["side_cables"][0]["count"] == 32
    assert s["bill_of_materials"]["switch_boxes"] == {}
    assert "  cables         in tier 0: 32 x 800 Gbit/s" in format_summary(s)
