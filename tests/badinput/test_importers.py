"""The importers under bad input (issue 21 item 3): deep XML, out-of-range hwloc distances, a huge
NVLink count, duplicate bus ids and GPU numbers, duplicate keys in an edge list or its mapping, SimGrid
notations too large to build, and options given to an importer that does not read them. Each case
asserts the exit code, the message and where it points (file:line:col or the option)."""

from __future__ import annotations

from pathlib import Path

import pytest

from .input_cases import at, cli, write

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "import"
NCCL = (EXAMPLES / "nccl_8gpu_server.xml").read_text()
HWLOC = (EXAMPLES / "hwloc_4gpu_server.xml").read_text()


def imported(capsys, tmp_path, source, kind: str, *options: str) -> tuple[int, str]:
    out = tmp_path / "out.yaml"
    code, text = cli(capsys, "import", source, "--from", kind, "-o", out, *options)
    assert "Traceback" not in text and "internal error" not in text
    if code != 0:
        assert not out.exists()
    return code, text


@pytest.mark.parametrize("kind,root,element", [
    ("nccl", "system", "<pci>"), ("hwloc", "topology", '<object type="Machine">'), ("graphml", "graphml", "<graph>")])
def test_deeply_nested_xml_is_refused_at_the_element(capsys, tmp_path, kind, root, element):
    depth = 5000
    closing = "</" + element[1:].split()[0].rstrip(">") + ">"
    text = f"<{root}>" + element * depth + closing * depth + f"</{root}>"
    path = write(tmp_path, "deep.xml", text)
    code, err = imported(capsys, tmp_path, path, kind)
    assert code == 1
    # the 257th element is the one refused: the root plus 255 nested ones are accepted
    assert err.startswith(f"{at(path, text, element, occurrence=256)}: error: XML nested too deeply: "
                          f"more than 256 levels")


@pytest.mark.parametrize("value,why", [("-100000", "-100000 MB/s"), ("99000000000", "99000000000 MB/s")])
def test_hwloc_nvlink_distance_out_of_range(capsys, tmp_path, value, why):
    text = HWLOC.replace('<u64values length="16">0 100000', f'<u64values length="16">0 {value}')
    path = write(tmp_path, "h.xml", text)
    code, err = imported(capsys, tmp_path, path, "hwloc", "--nic-speed", "200 Gbps")
    assert code == 1
    assert err.startswith(f"{at(path, text, '<u64values')}: error: NVLinkBandwidth value {why} (row 1, column 2) "
                          f"is out of range: expected 0 (no link) to 10,000,000 MB/s")


def test_hwloc_duplicate_busid(capsys, tmp_path):
    text = HWLOC.replace('pci_busid="0000:04:00.0"', 'pci_busid="0000:03:00.0"')
    path = write(tmp_path, "h.xml", text)
    code, err = imported(capsys, tmp_path, path, "hwloc", "--nic-speed", "200 Gbps")
    assert code == 1
    first = at(path, text, 'pci_busid="0000:03:00.0"').split(":")[1]
    second = at(path, text, '<object type="PCIDev" pci_busid="0000:03:00.0"', 2)
    assert err.startswith(f"{second}: error: "
                          f"duplicate pci_busid 0000:03:00.0 (first at line {first})")


@pytest.mark.parametrize("count", ["1000000000000", "100000000000000000000000000000", "2.5", "65"])
def test_nccl_nvlink_count_out_of_range(capsys, tmp_path, count):
    text = NCCL.replace('count="2"', f'count="{count}"', 1)
    path = write(tmp_path, "n.xml", text)
    code, err = imported(capsys, tmp_path, path, "nccl")
    assert code == 1
    assert err.startswith(f"{at(path, text, '<nvlink')}: error: <nvlink> count=\"{count}\": expected a whole "
                          f"number of links from 1 to 64")


@pytest.mark.parametrize("old, new, marker, message", [
    ('busid="0000:12:00.0"', 'busid="0000:11:00.0"', '<pci busid="0000:11:00.0"', "duplicate PCI busid 0000:11:00.0"),
    ('<gpu dev="1"', '<gpu dev="0"', '<gpu dev="0"', "duplicate GPU dev 0"),
])
def test_nccl_duplicate_ids_name_both_places(capsys, tmp_path, old, new, marker, message):
    text = NCCL.replace(old, new)
    path = write(tmp_path, "n.xml", text)
    code, err = imported(capsys, tmp_path, path, "nccl")
    assert code == 1
    first = at(path, text, marker).split(":")[1]
    assert err.startswith(f"{at(path, text, marker, 2)}: error: {message} (first at line {first})")


def test_edge_list_mapping_duplicate_key(capsys, tmp_path):
    mapping = "node_type:\n  patterns: {\"gpu*\": xpu, \"leaf*\": switch, \"spine*\": switch}\n" \
              "latency:\n  default: 700 ns\nlatency:\n  default: 1 us\n"
    m = write(tmp_path, "map.yaml", mapping)
    code, err = imported(capsys, tmp_path, EXAMPLES / "leaf_spine.edges", "edgelist", "--map", m)
    assert code == 1
    assert err.startswith(f"{at(m, mapping, 'latency', 2)}: error: duplicate key 'latency' (first at line 3, column 1)")


def test_edge_list_line_duplicate_key(capsys, tmp_path):
    text = "gpu0 leaf0 bandwidth=400Gbps latency=500ns bandwidth=100Gbps\n"
    path = write(tmp_path, "e.edges", text)
    code, err = imported(capsys, tmp_path, path, "edgelist")
    assert code == 1
    assert err.startswith(f"{at(path, text, 'bandwidth=100Gbps')}: error: duplicate key 'bandwidth' on this edge "
                          f"(first bandwidth=400Gbps)")


@pytest.mark.parametrize("notation,amount,what", [
    ("FAT_TREE:2;100000,100000;1,1;1,1", "10,000,100,001", "nodes"),
    ("FAT_TREE:1;100000000000000000000000000000;1;1", "about 1e29", "nodes"),
    ("DRAGONFLY:100,1;100,1;100,1;100", "101,000,000", "nodes"),
    ("DRAGONFLY:2,1000000000000;1,1;2,1;1", "1,000,000,000,006", "edges"),
])
def test_simgrid_notation_too_large_names_the_limit(capsys, tmp_path, notation, amount, what):
    code, err = imported(capsys, tmp_path, notation, "simgrid")
    assert code == 1
    limit = "20,000,000" if what == "nodes" else "50,000,000"
    assert err.startswith(f"{notation}: error: {notation.replace(':', ' ', 1)} would build {amount} {what}, "
                          f"more than the limit of {limit} {what}")


def test_simgrid_platform_too_large_is_located_at_its_cluster(capsys, tmp_path):
    text = ('<?xml version="1.0"?>\n<platform version="4.1">\n  <cluster id="c" topology="FAT_TREE" '
            'topo_parameters="1;100000000000000000000000000000;1;1" radical="0-1" bw="1GBps" lat="1us" prefix="n" '
            'suffix="" speed="1Gf"/>\n</platform>\n')
    path = write(tmp_path, "p.xml", text)
    code, err = imported(capsys, tmp_path, path, "simgrid")
    assert code == 1
    assert err.startswith(f"{at(path, text, '<cluster')}: error: FAT_TREE 1;100000000000000000000000000000;1;1 "
                          f"would build about 1e29 nodes")


@pytest.mark.parametrize("kind,options,named,reader", [
    ("ns3", ["--nic-speed", "400 Gbps"], "--nic-speed", "--from hwloc"),
    ("hwloc", ["--nvlink-bandwidth", "25 GB/s"], "--nvlink-bandwidth", "--from nccl"),
    ("nccl", ["--map", "m.yaml"], "--map", "--from graphml and edgelist"),
])
def test_importer_option_given_to_the_wrong_importer_names_it(capsys, tmp_path, kind, options, named, reader):
    source = write(tmp_path, "x.txt", "anything")
    code, err = imported(capsys, tmp_path, source, kind, *options)
    assert code == 1
    assert err.startswith(f"{named}: error: {named} does not apply to --from {kind} (reading {source})")
    assert f"hint: {named} is read by {reader}" in err
