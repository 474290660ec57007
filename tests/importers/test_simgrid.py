"""SimGrid's FAT_TREE / DRAGONFLY notations: SimGrid's documented counts, SimGrid's wiring rule
re-derived independently, platform files, and every malformed input located."""

import itertools
from collections import Counter
from pathlib import Path

import pytest

from infragraph.cli import main
from infragraph.errors import InfraGraphError
from infragraph.graph import expand
from infragraph.importers.simgrid import import_simgrid, parse_shortcut
from infragraph.sources import load_graph
from tests.helpers import error_text

ROOT = Path(__file__).resolve().parents[2]


def _count(g, kind):
    return sum(1 for i in range(g.num_nodes) if g.node_name(i).split(".")[0] == kind)


@pytest.mark.parametrize("notation, hosts, switches, cables", [
    ("FAT_TREE:2;4,4;1,2;1,2", 16, 4 + 2, 16 + 4 * 2 * 2),      # SimGrid's documented example
    ("FAT_TREE:3;4,4,4;1,2,2;1,1,1", 64, 16 + 8 + 4, 64 + 16 * 2 + 8 * 2),
    ("DRAGONFLY:3,4;4,3;5,1;2", 120, 60, 120 + 12 * 10 + 3 * 6 * 5 * 3 + 3 * 4),  # SimGrid's documented example
    ("DRAGONFLY:2,1;2,1;2,1;1", 8, 8, 8 + 4 + 4 + 1),
])
def test_documented_host_and_router_counts(notation, hosts, switches, cables):
    g = expand(import_simgrid(notation))
    assert _count(g, "node") == hosts
    assert _count(g, "router") == switches
    assert g.num_edges == cables


def _simgrid_pgft_edges(down, up, parallel):
    """SimGrid's rule, re-derived from labels: level-(l+1) switch and level-l node are joined
    (parallel[l] times) when their labels agree in every digit but digit l."""
    h = len(down)

    def labels(level):
        radices = [up[j] if j < level else down[j] for j in range(h)]
        return [tuple(digits[::-1]) for digits in itertools.product(*[range(r) for r in radices[::-1]])]

    names = {0: [f"node.{i}.xpu.0" for i in range(len(labels(0)))]}
    offset = 0
    for level in range(1, h + 1):
        n = len(labels(level))
        names[level] = [f"router.{offset + i}.asic.0" for i in range(n)]
        offset += n
    edges = Counter()
    for level in range(h):
        for ci, c in enumerate(labels(level)):
            for pi, p in enumerate(labels(level + 1)):
                if all(c[j] == p[j] for j in range(h) if j != level):
                    edges[tuple(sorted((names[level][ci], names[level + 1][pi])))] += parallel[level]
    return edges


@pytest.mark.parametrize("down, up, parallel", [([4, 4], [1, 2], [1, 2]), ([2, 3, 2], [2, 1, 3], [1, 2, 1]),
                                                ([3], [2], [2]), ([2, 2, 2, 2], [1, 2, 2, 2], [1, 1, 1, 1])])
def test_pgft_wiring_equals_simgrids_label_rule(down, up, parallel):
    h = len(down)
    g = expand(import_simgrid(f"FAT_TREE:{h};{','.join(map(str, down))};{','.join(map(str, up))};"
                              f"{','.join(map(str, parallel))}"))
    got = Counter(tuple(sorted((g.node_name(a), g.node_name(b)))) for a, b in zip(g.edge_src, g.edge_dst))
    assert got == _simgrid_pgft_edges(down, up, parallel)


def test_platform_file_sets_the_cable(tmp_path):
    g = expand(import_simgrid(str(ROOT / "examples" / "import" / "simgrid_fat_tree.xml")))
    assert {(g.links[i].bandwidth_gbps, g.links[i].latency_ns) for i in set(g.edge_link.tolist())} == {(100.0, 500.0)}


def test_source_prefix_and_cli(capsys):
    assert load_graph("simgrid:DRAGONFLY:2,1;2,1;2,1;1").num_nodes == 16
    assert main(["info", "simgrid:FAT_TREE:2;4,4;1,2;1,2"]) == 0
    assert main(["info", "simgrid:FAT_TREE:2;4,4;1,2", "-q"]) == 1
    assert "FAT_TREE takes 4 ';'-separated fields" in capsys.readouterr().err


@pytest.mark.parametrize("text, message", [
    ("FAT_TREE", "expected TOPOLOGY:PARAMETERS"),
    ("FAT_TREE:2;4,4;1;1,2", "up (parents per node): expected 2 values, got 1"),
    ("FAT_TREE:2;4,x;1,2;1,2", "down (children per switch): expected comma-separated positive integers"),
    ("FAT_TREE:2;4,0;1,2;1,2", "every value must be at least 1"),
    ("FAT_TREE:0;;;", "levels: every value must be at least 1"),
    ("DRAGONFLY:3,4;4,3;5;2", "routers,links: expected 2 values"),
    ("DRAGONFLY:9,1;2,1;2,1;1", "9 groups but 4 routers per group"),
    ("TORUS:2,2,2", "unknown SimGrid cluster topology 'TORUS'"),
])
def test_bad_notations_are_named(text, message):
    err = error_text(parse_shortcut, text)
    assert message in err and err.startswith(text)


@pytest.mark.parametrize("attrs, message", [
    ('radical="0-7" bw="1GBps" lat="1us"', "radical '0-7' names 8 hosts but FAT_TREE 2;4,4;1,2;1,2 has 16"),
    ('radical="0-15" bw="-1GBps" lat="1us"', "bw '-1GBps' must be a finite positive quantity"),
    ('radical="0-15" bw="1Gparsec" lat="1us"', "bw '1Gparsec'"),
    ('radical="0-15" bw="1GBps"', "<cluster> lacks lat"),
    ('radical="0-x" bw="1GBps" lat="1us"', "radical '0-x': expected ranges"),
])
def test_bad_platform_attributes_are_located(tmp_path, attrs, message):
    path = tmp_path / "p.xml"
    path.write_text('<platform version="4.1">\n  <zone id="z" routing="Full">\n'
                    f'    <cluster id="c" topology="FAT_TREE" topo_parameters="2;4,4;1,2;1,2" {attrs}/>\n'
                    "  </zone>\n</platform>\n")
    with pytest.raises(InfraGraphError) as e:
        import_simgrid(str(path))
    assert message in str(e.value)
    assert str(e.value).startswith(f"{path}:3:5:")
