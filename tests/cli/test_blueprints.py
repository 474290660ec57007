"""infragraph.cli.blueprints: `blueprints show` lists every parameter with its default and unit."""

from __future__ import annotations

import pytest

from infragraph.cli import main


@pytest.mark.parametrize("name, expected", [
    ("std.devices.dgx", ["nic_speed: bandwidth = 400 Gbps  (per direction",
                         "scaleup_bandwidth: bandwidth = 450 GB/s  (per direction"]),
    ("std.devices.host", ["nic_speed: bandwidth = 400 Gbps", "pcie_bandwidth: bandwidth = 64 GB/s",
                          "scaleup_bandwidth: bandwidth = 900 GB/s", "cpu_bandwidth: bandwidth = 128 GB/s",
                          "nic_ports: int = 1"]),
])
def test_show_lists_the_server_parameters_with_defaults_and_direction(name, expected, capsys):
    assert main(["blueprints", "show", name]) == 0
    out = capsys.readouterr().out
    for line in expected:
        assert line in out
    bandwidth_lines = [x for x in out.splitlines() if ": bandwidth" in x]
    assert bandwidth_lines and all("(per direction; links are full duplex)" in x for x in bandwidth_lines)


def test_a_shown_parameter_can_be_overridden(capsys):
    assert main(["info", "std.devices.dgx", "-D", "scaleup_bandwidth=900 GB/s"]) == 0
    assert "1.8 Tbit/s" in capsys.readouterr().out  # 900 GB/s over 4 NVSwitch chips = 225 GB/s each
