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


def test_show_lists_the_devices_and_functions_a_library_offers_with_their_parameters(capsys):
    """std.devices.hgx's root fabric takes only `system`; its hgx device and a100()..b200() are
    what a program calls, so their parameters are shown too (issue 24.1)."""
    assert main(["blueprints", "show", "std.devices.hgx"]) == 0
    out = capsys.readouterr().out
    assert "  device hgx(...): " in out and "  fn a100(...): " in out and "  fn b200(...): " in out
    for line in ["links: list = [5, 4, 4, 5]", "nvlink_bandwidth: bandwidth = 25 GB/s  (per direction",
                 "gpu_model: string = \"H100\"", "nic_speed: bandwidth = 200 Gbps  (per direction"]:
        assert line in out
    assert main(["blueprints", "show", "std.devices.gb200_nvl72"]) == 0
    assert "c2c_bandwidth: bandwidth = 450 GB/s" in capsys.readouterr().out


def test_every_template_with_parameters_in_the_library_is_shown(capsys):
    import re

    from infragraph import blueprints
    from infragraph.paths import BLUEPRINTS

    for item in blueprints.list_blueprints():
        path = BLUEPRINTS.joinpath(*item["name"].split(".")[1:]).with_suffix(".igl")
        declared = re.findall(r"^(device|fn) (\w+)\(\s*\w", path.read_text(), flags=re.M)
        assert main(["blueprints", "show", item["name"]]) == 0
        out = capsys.readouterr().out
        for kind, name in declared:
            assert f"  {kind} {name}(...)" in out, (item["name"], kind, name)
