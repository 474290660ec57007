"""Compatibility with the public `infragraph` package (3.1.0): its documents load here unchanged,
ours load there, and both expand to the same fully qualified graph where its expansion is right.

The public package lives in its own virtual environment (scripts/setup.sh makes it), because it
and this project are both `import infragraph`.
"""

import json
import os
import subprocess
from pathlib import Path

import pytest

from infragraph.document import io
from infragraph.errors import InfraGraphError
from infragraph.graph import expand

ROOT = Path(__file__).resolve().parents[2]
PUBLIC_PYTHON = ROOT / ".venv-public-infragraph" / "bin" / "python"
DRIVER = Path(__file__).with_name("public_driver.py")
BP = "infragraph.blueprints"

if not PUBLIC_PYTHON.exists():
    pytest.fail(f"{PUBLIC_PYTHON} is missing: run scripts/setup.sh, which installs the public package there",
                pytrace=False)


def public(*args: str) -> str:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # the public package, never ours
    r = subprocess.run([str(PUBLIC_PYTHON), str(DRIVER), *args], capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 0, r.stderr
    return r.stdout


def our_graph(g):
    names = g.node_names
    return sorted(names), sorted(sorted((names[a], names[b])) for a, b in zip(g.edge_src.tolist(), g.edge_dst.tolist()))


@pytest.mark.parametrize("target, args", [
    (f"{BP}.fabrics.single_tier_fabric:SingleTierFabric",
     json.dumps({"server": f"{BP}.devices.generic.server:Server", "server_count": 4})),
    (f"{BP}.fabrics.clos_fat_tree_fabric:ClosFatTreeFabric",
     json.dumps({"switch": f"{BP}.devices.generic.generic_switch:Switch", "host": f"{BP}.devices.generic.server:Server",
                 "levels": 2, "bandwidth": [100, 400]})),
    (f"{BP}.fabrics.single_tier_fabric:SingleTierFabric",
     json.dumps({"server": f"{BP}.devices.nvidia.dgx:NvidiaDGX", "server_count": 2})),
])
def test_public_documents_load_unchanged_and_expand_identically(tmp_path, target, args):
    text = public("export", target, *([args] if args else []))
    src = tmp_path / "public.yaml"
    src.write_text(text)
    try:
        g = expand(io.load(src))
    except InfraGraphError as e:
        pytest.fail(f"public document rejected: {e}")
    theirs = json.loads(public("expand", str(src)))
    nodes, edges = our_graph(g)
    assert nodes == theirs["nodes"]
    # the public graph is simple (parallel links collapse): compare the distinct pairs
    assert sorted(set(map(tuple, edges))) == sorted(set(map(tuple, theirs["edges"])))


def test_public_clos_blueprint_is_rejected_for_its_truncating_one2one(tmp_path):
    """The public ClosFabric wires 2 NICs one2one to 16 ports; the public expansion silently truncates."""
    src = tmp_path / "clos.yaml"
    src.write_text(public("export", f"{BP}.fabrics.closfabric:ClosFabric"))
    with pytest.raises(InfraGraphError, match=r"one2one needs the same number of endpoints on both sides, got 2 \(ep1\) and 16"):
        expand(io.load(src))


def test_our_documents_load_in_the_public_package(tmp_path):
    doc = io.load(ROOT / "tests" / "data" / "mini.yaml")
    for fmt in ("yaml", "json"):
        out = tmp_path / f"ours.{fmt}"
        io.dump(doc, out)
        theirs = json.loads(public("expand", str(out)))
        nodes, edges = our_graph(expand(io.load(out)))
        assert theirs["nodes"] == nodes and len(theirs["nodes"]) == 13
        assert theirs["edges"] == edges and len(edges) == 12
