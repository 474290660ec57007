"""infragraph.graph.summary: `info` states that every bandwidth is per direction."""

from __future__ import annotations

from infragraph import blueprints
from infragraph.graph.summary import format_summary, summary


def test_info_says_bandwidth_is_per_direction():
    s = summary(blueprints.graph("std.devices.dgx"))
    text = format_summary(s)
    assert "link classes (bandwidth per direction; every link is full duplex):" in text
    assert "Gbps per direction (the sum over edges, each way)" in text
    # 32 GPU-NVSwitch links of 450 / 4 GB/s = 900 Gbit/s each, per direction
    nvlink = [x for x in s["links"] if x["bandwidth_gbps"] == 900.0]
    assert len(nvlink) == 1 and nvlink[0]["edges"] == 32
