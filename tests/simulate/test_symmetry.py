"""Symmetric collectives folded onto representative members (simengine/src/symmetry.rs): the
folded run's result equals the full run's, field for field, on random symmetric fabrics and on
fabrics whose symmetry is broken (failed cables, a slowed cable, extra asymmetry); the result
says which path ran and why."""

from __future__ import annotations

import json
import random

import pytest

from infragraph import blueprints, schemas
from infragraph.cli import main
from infragraph.graph.failures import Degrade, FailureSpec, with_failures
from infragraph.simulate import SimulationOptions, prepare, simulate

# What differs by design: the engine's own effort, and the path report.
EFFORT = ("events", "wall_time_s", "events_per_second", "symmetry")


def _both(p, opts: SimulationOptions) -> tuple[dict, dict]:
    folded = simulate(p, SimulationOptions(**{**opts.__dict__, "symmetry": True}))
    full = simulate(p, SimulationOptions(**{**opts.__dict__, "symmetry": False}))
    assert {k: v for k, v in folded.items() if k not in EFFORT} == {k: v for k, v in full.items() if k not in EFFORT}
    assert full["symmetry"] == {"path": "full", "members_simulated": full["symmetry"]["members_simulated"],
                                "members": full["symmetry"]["members"], "reason": "turned off with --no-symmetry"}
    schemas.validate("simulation-result", folded)
    return folded, full


def _random_case(rng: random.Random) -> SimulationOptions:
    collective = rng.choice(["all-reduce", "all-reduce", "reduce-scatter", "all-gather", "all-to-all"])
    algorithm = rng.choice(["ring", "ring", "ring-bidirectional"])
    return SimulationOptions(collective=collective, algorithm=(algorithm,), dims=(), model=rng.choice(["aware", "unaware"]),
                             size_bytes=rng.choice([1000, 1 << 20, 3 << 20]), chunks=rng.randint(1, 3),
                             active_chunks=rng.randint(1, 2), top_links=None)


@pytest.mark.parametrize("seed", range(6))
def test_folded_equals_full_on_random_symmetric_clos(seed):
    rng = random.Random(seed)
    radix, tiers = rng.choice([(4, 2), (4, 3), (8, 2)])
    p = prepare(blueprints.graph("std.fabrics.clos", radix=radix, tiers=tiers))
    folded_any = False
    for _ in range(3):
        folded, full = _both(p, _random_case(rng))
        s = folded["symmetry"]
        assert s["members"] == p.npu_nodes.size
        if s["path"] == "symmetric":
            folded_any = True
            assert s["reason"] is None and p.npu_nodes.size % s["members_simulated"] == 0
            assert folded["events"] < full["events"]
        else:
            assert s["reason"]
    assert folded_any, "a flat ring on a healthy Clos folds"


def test_flat_ring_on_a_three_tier_clos_folds_onto_one_pod():
    """radix 4, 3 tiers: 2 hosts per leaf, 2 leaves per pod; the ring's hops inside a leaf, across
    leaves and across pods repeat every pod (4 hosts)."""
    p = prepare(blueprints.graph("std.fabrics.clos", radix=4, tiers=3))
    folded, _ = _both(p, SimulationOptions(collective="all-reduce", algorithm=("ring",), dims=(), model="aware"))
    assert folded["symmetry"] == {"path": "symmetric", "members_simulated": 4, "members": 16, "reason": None}


@pytest.mark.parametrize("seed", range(4))
def test_broken_symmetry_gives_the_full_answer(seed):
    """A failed cable or a slowed one breaks the pattern: the check refuses the fold (or keeps it where
    no ring route crosses the broken part), and either way the answer is the full run's."""
    rng = random.Random(100 + seed)
    g = blueprints.graph("std.fabrics.clos", radix=4, tiers=3)
    spec = (FailureSpec(fail_random=0.1, seed=seed) if seed % 2 == 0
            else FailureSpec(degrade=(Degrade(target=f"host.{rng.randrange(16)}.nic.*", bandwidth_factor=0.5),)))
    broken, _ = with_failures(g, spec)
    p = prepare(broken)
    reasons = []
    for _ in range(3):
        opts = _random_case(rng)
        try:
            folded, _full = _both(p, opts)
        except Exception as exc:  # a failure that splits the group is the same error either way
            assert "no path" in str(exc) or "split" in str(exc)
            continue
        reasons.append(folded["symmetry"]["reason"])
    if seed % 2:  # a slowed NIC is on two ring connections: no shift maps the ring onto itself
        assert reasons and all(reasons), reasons


def test_refusals_say_why():
    p = prepare(blueprints.graph("std.fabrics.clos", radix=4, tiers=2))
    base = SimulationOptions(collective="all-reduce", algorithm=("ring",), dims=(), model="aware")
    cases = {
        "fair model": SimulationOptions(**{**base.__dict__, "model": "fair"}),
        "halving-doubling": SimulationOptions(**{**base.__dict__, "algorithm": ("halving-doubling",)}),
        "process groups": SimulationOptions(**{**base.__dict__, "groups": ((0, 1, 2, 3), (4, 5, 6, 7))}),
        "has a root": SimulationOptions(**{**base.__dict__, "collective": "broadcast"}),
        "arrival": SimulationOptions(**{**base.__dict__, "scheduling": "arrival"}),
        "sprayed": SimulationOptions(**{**base.__dict__, "routing_policy": "spray"}),
    }
    for why, opts in cases.items():
        folded, _ = _both(p, opts)
        assert folded["symmetry"]["path"] == "full" and why in folded["symmetry"]["reason"], folded["symmetry"]


def test_cli_states_the_path(tmp_path, capsys):
    args = ["simulate", "std.fabrics.clos", "-D", "radix=4", "-D", "tiers=3", "--model", "aware", "--algorithm", "ring",
            "--dims", "16", "--size", "1MiB"]
    assert main(args + ["--json", str(tmp_path / "a.json")]) == 0
    assert "symmetric: 4 of 16 members simulated" in capsys.readouterr().out
    assert main(args + ["--no-symmetry", "--json", str(tmp_path / "b.json")]) == 0
    assert "full run (turned off with --no-symmetry)" in capsys.readouterr().out
    a, b = (json.loads((tmp_path / f).read_text()) for f in ("a.json", "b.json"))
    assert a["collective_time_ns"] == b["collective_time_ns"] and a["ranks"] == b["ranks"]


def test_hashed_ecmp_breaks_the_symmetry_of_the_hierarchical_all_reduce():
    """Why the hierarchical all-reduce of the scale benchmarks is not folded (docs/simulate.md,
    "Symmetric collectives"): 16 servers of 8 GPUs sharing 2 NICs under a 2-tier Clos, ring in the
    server, halving-doubling across. With ECMP hashing the full run's servers finish at many
    different times (the hash spreads each connection over the uplinks on its own, so collisions
    differ from server to server): no fold that copies representative servers can give this answer.
    Without hashing (first way everywhere) the same servers finish at one or two times."""
    server = "hosts.host(cpus=1, gpus=8, nics=2, pcie_switches=2, scaleup_switches=1)"
    p = prepare(blueprints.graph("std.fabrics.clos", radix=8, tiers=2, nics_per_host=2, host_device=server))
    assert p.npu_nodes.size == 128
    gpu0 = {}
    for ecmp in (True, False):
        r = simulate(p, SimulationOptions(collective="all-reduce", algorithm=("ring", "halving-doubling"), dims=(8, 16),
                                          model="aware", size_bytes=1 << 20, ecmp=ecmp, top_links=None))
        assert r["symmetry"]["path"] == "full" and "halving-doubling" in r["symmetry"]["reason"]
        gpu0[ecmp] = {rank["finish_ns"] for rank in r["ranks"] if rank["rank"] % 8 == 0}
    assert len(gpu0[True]) >= 8, gpu0[True]
    assert len(gpu0[False]) <= 2, gpu0[False]


SERVER = "hosts.host(cpus=1, gpus=8, nics=2, pcie_switches=2, scaleup_switches=1)"


def _servers(tiers: int):
    """16 (2 tiers) or 64 (3 tiers) servers of 8 GPUs sharing 2 NICs under a radix-8 Clos: the
    scale benchmarks' hierarchical case in small."""
    return prepare(blueprints.graph("std.fabrics.clos", radix=8, tiers=tiers, nics_per_host=2, host_device=SERVER))


@pytest.mark.parametrize("seed", range(4))
def test_d_mod_k_folds_the_hierarchical_all_reduce_onto_one_server(seed):
    """With d-mod-k routing the hierarchical collective (inside the server: ring, bidirectional ring
    or direct; across servers: halving-doubling) repeats with the servers: the run folds onto the 8
    GPUs of server 0 over the orbits of the servers' XORs, and every field of the result equals the
    full run's."""
    rng = random.Random(seed)
    tiers = 2 if seed % 2 == 0 else 3
    p = _servers(tiers)
    servers = p.npu_nodes.size // 8
    opts = SimulationOptions(collective=rng.choice(["all-reduce", "reduce-scatter", "all-gather"]),
                             algorithm=(rng.choice(["ring", "ring-bidirectional", "direct"]), "halving-doubling"),
                             dims=(8, servers), model=rng.choice(["aware", "unaware"]),
                             size_bytes=rng.choice([1 << 20, 3 << 20]), chunks=rng.randint(1, 2),
                             routing_policy="scale-out=d-mod-k", top_links=None)
    folded, full = _both(p, opts)
    assert folded["symmetry"] == {"path": "symmetric", "members_simulated": 8, "members": 8 * servers, "reason": None,
                                  "proof": "structure"}
    assert folded["events"] * 4 < full["events"]


def test_d_mod_k_fold_is_refused_where_the_symmetry_breaks():
    """ECMP hashing, a failed cable or a slowed NIC: the check refuses the fold and says why; the answer
    is the full run's."""
    p = _servers(2)
    base = SimulationOptions(collective="all-reduce", algorithm=("ring", "halving-doubling"), dims=(8, 16),
                             model="aware", size_bytes=1 << 20, routing_policy="scale-out=d-mod-k", top_links=None)
    folded, _ = _both(p, SimulationOptions(**{**base.__dict__, "routing_policy": None}))
    assert folded["symmetry"]["path"] == "full" and "halving-doubling" in folded["symmetry"]["reason"]
    g = blueprints.graph("std.fabrics.clos", radix=8, tiers=2, nics_per_host=2, host_device=SERVER)
    for spec in (FailureSpec(degrade=(Degrade(target="host.5.nic.1.*", bandwidth_factor=0.5),)),
                 FailureSpec(fail=("spine.1.asic.0",))):
        broken, _ = with_failures(g, spec)
        folded, full = _both(prepare(broken), base)
        assert folded["symmetry"]["path"] == "full", folded["symmetry"]
        assert folded["symmetry"]["reason"].startswith("halving-doubling: a member's partners are not one rank shift; ")


def test_cli_folds_the_hierarchical_all_reduce_with_d_mod_k(capsys):
    args = ["simulate", "std.fabrics.clos", "-D", "radix=8", "-D", "tiers=2", "-D", "nics_per_host=2",
            "-D", f"host_device={SERVER}", "--model", "aware", "--algorithm", "ring,halving-doubling",
            "--dims", "8x16", "--size", "1MiB", "--routing-policy", "scale-out=d-mod-k"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "symmetric: 8 of 128 members simulated" in out and "d-mod-k" in out


# Server shapes for the structural proof: (GPUs, NICs, PCIe switches, scale-up switches). Six GPUs
# give chunks whose bytes are not exact in fixed point: the link loads are then summed over every
# member's routes (symmetry_proof::link_loads).
_SHAPES = [(8, 2, 2, 1), (4, 1, 1, 1), (4, 4, 2, 0), (8, 4, 4, 1), (6, 2, 2, 1)]


def _random_dmodk_fabric(rng: random.Random):
    """A random full Clos of identical servers (radix 4 or 8, 2 or 3 tiers, 1 to 4 NICs per server),
    its server size and server count."""
    gpus, nics, pcie, up = rng.choice(_SHAPES)
    radix, tiers = rng.choice([(8, 2), (4, 3), (4, 2)] if nics <= 2 else [(8, 2), (8, 3)])
    server = f"hosts.host(cpus=1, gpus={gpus}, nics={nics}, pcie_switches={pcie}, scaleup_switches={up})"
    g = blueprints.graph("std.fabrics.clos", radix=radix, tiers=tiers, nics_per_host=nics, host_device=server)
    return g, gpus


def _dmodk_case(rng: random.Random, gpus: int, servers: int) -> SimulationOptions:
    inside = rng.choice(["ring", "ring-bidirectional", "direct"] + (["halving-doubling"] if gpus & (gpus - 1) == 0 else []))
    return SimulationOptions(collective=rng.choice(["all-reduce", "reduce-scatter", "all-gather"]),
                             algorithm=(inside, "halving-doubling"), dims=(gpus, servers),
                             model=rng.choice(["aware", "unaware"]), size_bytes=rng.choice([1 << 20, 3 << 20, 1000]),
                             chunks=rng.randint(1, 2), routing_policy="scale-out=d-mod-k", top_links=None)


@pytest.mark.parametrize("seed", range(8))
def test_structure_proves_the_d_mod_k_fold_on_random_clos(seed):
    """On random symmetric Clos fabrics (server shapes, radix, tiers, NICs) with d-mod-k routing, the
    fold over the servers' XORs is proved from the structure alone (symmetry_proof: server 0's routes,
    per-generator automorphisms, d-mod-k picks along a Gray code) and every field of the result equals
    the full run's."""
    rng = random.Random(2300 + seed)
    g, gpus = _random_dmodk_fabric(rng)
    p = prepare(g)
    servers = p.npu_nodes.size // gpus
    if servers & (servers - 1):
        pytest.skip(f"{servers} servers: not a power of two")  # never for the shapes above
    folded, full = _both(p, _dmodk_case(rng, gpus, servers))
    assert folded["symmetry"]["path"] == "symmetric", folded["symmetry"]
    assert folded["symmetry"]["proof"] == "structure", folded["symmetry"]
    assert folded["events"] < full["events"]


@pytest.mark.parametrize("seed", range(6))
def test_a_subtly_degraded_link_refuses_the_structural_proof_and_the_answer_stays_exact(seed):
    """One port of one switch 1 ps slower (or at 99.9 % of its bandwidth): no automorphism maps the
    fabric onto itself, so the structure proves nothing. The engine falls back to the route check
    (which folds where no route crosses the port, and refuses otherwise) or to the full run, and the
    answer is the full run's either way."""
    rng = random.Random(2400 + seed)
    g, gpus = _random_dmodk_fabric(rng)
    switches = sorted({name.rsplit(".port.", 1)[0] for name in g.node_names if ".port." in name
                       and name.split(".", 1)[0] in ("leaf", "spine", "agg", "core")})
    target = f"{rng.choice(switches)}.port.{rng.randrange(4)}"
    change = dict(extra_latency_ns=0.001) if seed % 2 else dict(bandwidth_factor=0.999)
    broken, _ = with_failures(g, FailureSpec(degrade=(Degrade(target=target, **change),)))
    p = prepare(broken)
    servers = p.npu_nodes.size // gpus
    folded, _ = _both(p, _dmodk_case(rng, gpus, servers))
    s = folded["symmetry"]
    assert s.get("proof") != "structure", (target, s)
    if s["path"] == "symmetric":
        assert s["proof"].startswith("routes (the structure did not prove it: "), s
    else:
        assert "a member's partners are not one rank shift; " in s["reason"], s
