"""NCCL and hwloc server dumps: counts and rates from the example files, use as a Clos host,
every malformed input located."""

from collections import Counter
from pathlib import Path

import pytest

from infragraph.cli import main
from infragraph.errors import InfraGraphError
from infragraph.graph import expand
from infragraph.importers import ImportOptions, import_source
from infragraph.importers.hwloc import read_hwloc
from infragraph.importers.nccl import read_nccl

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "import"
NCCL = EXAMPLES / "nccl_8gpu_server.xml"
HWLOC = EXAMPLES / "hwloc_4gpu_server.xml"
GEN4_X16 = 16.0 * 16 * 128 / 130  # Gbit/s of payload


def _links(server):
    return Counter((tuple(sorted((a[0], b[0]))), round(gbps, 6), kind) for a, b, gbps, kind in server.links)


def test_nccl_example_components_and_rates():
    s = read_nccl(NCCL.read_text(), str(NCCL))
    assert (s.cpus, s.gpus, s.pcie_switches, s.nvswitches) == (2, 8, 4, 6)
    assert Counter(s.nics) == {(1, 200.0): 8, (1, 100.0): 1}
    assert _links(s) == {
        (("cpu", "pcie_switch"), round(GEN4_X16, 6), "PCIe"): 4,
        (("gpu", "pcie_switch"), round(GEN4_X16, 6), "PCIe"): 8,
        (("nic", "pcie_switch"), round(GEN4_X16, 6), "PCIe"): 8,
        (("cpu", "nic"), round(8.0 * 8 * 128 / 130, 6), "PCIe"): 1,  # the management NIC, Gen3 x8
        (("gpu", "nvswitch"), 200.0, "NVLink"): 8 * 6 * 2,  # sm 80: 25 GB/s per link
        (("cpu", "cpu"), 512.0, "CPU interconnect"): 1,
    }
    assert any("CPU interconnect 512 Gbit/s per direction" in n for n in s.assumptions())


def test_nvlink_rate_override_and_unknown_generation(tmp_path):
    s = read_nccl(NCCL.read_text(), str(NCCL), nvlink_gbps=400.0)
    assert {g for *_, g, k in s.links if k == "NVLink"} == {400.0}
    path = tmp_path / "t.xml"
    path.write_text(NCCL.read_text().replace('sm="80"', 'sm="75"', 1))
    with pytest.raises(InfraGraphError) as e:
        read_nccl(path.read_text(), str(path))
    assert "no NVLink rate known for sm 75" in str(e.value) and "--nvlink-bandwidth" in str(e.value)
    line = next(i for i, t in enumerate(path.read_text().splitlines(), 1) if 'sm="75"' in t)
    assert str(e.value).startswith(f"{path}:{line}:")


def test_imported_server_is_a_clos_host(tmp_path):
    assert main(["import", str(NCCL), "--from", "nccl", "-o", str(tmp_path / "srv.igl"), "-q"]) == 0
    (tmp_path / "cl.igl").write_text(
        'import "srv.igl" as srv\nimport std.fabrics.clos as clos\nfabric cl {\n'
        "    include clos.clos(radix = 16, nics_per_host = 8, rail_optimized = true, "
        "host_device = srv.nccl_8gpu_server) as c\n}\n")
    from infragraph.sources import load_graph

    g = load_graph(tmp_path / "cl.igl")
    kinds = Counter(g.type_names[t] for t in g.node_type)
    assert kinds["xpu"] == 16 * 8 and kinds["nvswitch" if "nvswitch" in kinds else "switch"] >= 16 * 6


def test_hwloc_example_folds_switch_ports_and_reads_nvlinks():
    s = read_hwloc(HWLOC.read_text(), str(HWLOC), nic_gbps=200.0)
    assert (s.cpus, s.gpus, s.pcie_switches, s.nvswitches, len(s.nics)) == (2, 4, 2, 0, 4)
    hw = round(31.507692 * 8, 6)
    assert _links(s) == {(("cpu", "pcie_switch"), hw, "PCIe"): 2, (("gpu", "pcie_switch"), hw, "PCIe"): 4,
                         (("nic", "pcie_switch"), hw, "PCIe"): 4, (("cpu", "cpu"), 512.0, "CPU interconnect"): 1,
                         (("gpu", "gpu"), 800.0, "NVLink"): 2, (("gpu", "gpu"), 400.0, "NVLink"): 2}
    doc, notes = import_source("hwloc", HWLOC, ImportOptions(nic_gbps=200.0))
    assert expand(doc).num_nodes == 2 + 4 + 2 + 4 * 3
    assert any("PCIe latency 150 ns" in n for n in notes)


def _located(path, text, needle):
    return f"{path}:{next(i for i, t in enumerate(text.splitlines(), 1) if needle in t)}:"


@pytest.mark.parametrize("old, new, message, needle", [
    ('link_speed="16.0 GT/s PCIe" link_width="16">\n        <gpu dev="0"', 'link_speed="" link_width="16">\n        <gpu dev="0"',
     'link_speed="": expected a PCIe rate', 'link_speed=""'),
    ('link_width="16">\n        <gpu dev="0"', 'link_width="-16">\n        <gpu dev="0"', "must be finite and positive",
     'link_width="-16"'),
    ('speed="200000" port="1" latency="0.000000" guid="0x0"', 'speed="nan" port="1" latency="0.000000" guid="0x0"',
     'speed="nan": expected a port speed in Mbit/s', 'speed="nan"'),
    ('speed="200000" port="1" latency="0.000000" guid="0x0"', 'speed="1e999" port="1" latency="0.000000" guid="0x0"',
     "must be finite and positive", 'speed="1e999"'),
    ('<nvlink target="0000:c1:00.0" count="2" tclass="0x068000"/>', '<nvlink target="0000:99:00.0" count="2" tclass="0x030200"/>',
     "NVLink target 0000:99:00.0 is neither a GPU nor an NVSwitch", "0000:99:00.0"),
])
def test_bad_nccl_inputs_are_located(tmp_path, old, new, message, needle):
    text = NCCL.read_text()
    assert old in text
    text = text.replace(old, new, 1)
    path = tmp_path / "t.xml"
    path.write_text(text)
    with pytest.raises(InfraGraphError) as e:
        read_nccl(text, str(path))
    assert message in str(e.value)
    assert str(e.value).startswith(_located(path, text, needle))


def test_bad_hwloc_inputs_are_located(tmp_path):
    text = HWLOC.read_text()
    with pytest.raises(InfraGraphError) as e:
        read_hwloc(text, "h.xml")
    assert "hwloc states no port speed" in str(e.value) and "--nic-speed" in str(e.value)
    assert str(e.value).startswith(_located("h.xml", text, 'pci_type="0207'))
    bad = text.replace('pci_link_speed="31.507692" gp_index="', 'pci_link_speed="0" gp_index="', 1)
    with pytest.raises(InfraGraphError, match="pci_link_speed 0 must be a finite positive number"):
        read_hwloc(bad, "h.xml", 200.0)
    slow_root = text.replace('pci_link_speed="31.507692" gp_index="', 'pci_link_speed="7.876923" gp_index="', 1)
    s = read_hwloc(slow_root, "h.xml", 200.0)  # a Gen4 x4 root port caps the switch's uplink
    assert sorted(g for a, b, g, k in s.links if k == "PCIe" and a[0] == "cpu")[0] == pytest.approx(7.876923 * 8)
    bad = text.replace("</u64values>", " 7</u64values>")
    with pytest.raises(InfraGraphError, match="17 values for 4 objects: expected 16"):
        read_hwloc(bad, "h.xml", 200.0)
    with pytest.raises(InfraGraphError, match=r"h.xml:1:1: error: expected a <topology> document, found <system>"):
        read_hwloc(NCCL.read_text().split("-->\n", 1)[1], "h.xml")


def test_cli_refuses_options_that_do_not_apply_and_bad_values(tmp_path, capsys):
    out = str(tmp_path / "x.yaml")
    assert main(["import", str(NCCL), "--from", "nccl", "--map", "m.yaml", "-o", out]) == 1
    assert "--map does not apply to --from nccl" in capsys.readouterr().err
    assert main(["import", str(HWLOC), "--from", "hwloc", "--nic-speed", "-5 Gbps", "-o", out]) == 1
    assert "--nic-speed '-5 Gbps' must be a finite positive bandwidth" in capsys.readouterr().err
    assert main(["import", str(HWLOC), "--from", "hwloc", "--nic-speed", "5 parsecs", "-o", out]) == 1
    assert capsys.readouterr().err.startswith("--nic-speed: error: --nic-speed '5 parsecs'")
    assert main(["import", str(HWLOC), "--from", "hwloc", "--nic-speed", "200Gbps", "-o", str(tmp_path / "x.txt")]) == 1
    assert "unknown output type '.txt'; expected .igl, .yaml, .yml, .json" in capsys.readouterr().err
    assert main(["import", str(HWLOC), "--from", "hwloc", "--nic-speed", "200Gbps", "-o", out]) == 0
    assert "note: assumed PCIe latency 150 ns" in capsys.readouterr().err
