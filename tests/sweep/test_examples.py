"""The workload sweep example (examples/sweeps/libra_gpt3.toml) stays what its README says: 108
points, three parallelizations of its 128 NPUs sharing three ET sets, every split of the 600 GB/s
budget summing to it, and the cost model's range."""

from __future__ import annotations

import json
from pathlib import Path

from infragraph.sweep.points import expand
from infragraph.sweep.spec import read_spec

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "sweeps" / "libra_gpt3.toml"


def test_the_libra_gpt3_example_expands_as_its_readme_says():
    spec = read_spec(EXAMPLE)
    points = expand(spec)
    assert len(points) == 108
    strategies = {(p.workload.spec.tp, p.workload.spec.pp, p.workload.spec.dp) for p in points}
    assert strategies == {(8, 4, 4), (8, 2, 8), (4, 4, 8)}
    assert len({p.workload.key for p in points}) == 3
    assert all(p.workload.spec.world == 128 and p.workload.spec.hidden == 12288 for p in points)
    links = (7, 2, 1)  # per NPU in FC(8), RI(4), SW(4)
    for p in points:
        bandwidths = [float(b.split()[0]) for b in json.loads(p.inputs["bandwidth"])]
        assert abs(sum(b * n for b, n in zip(bandwidths, links)) - 600) < 1e-3
        assert min(p.inputs["p1"], p.inputs["p2"], p.inputs["p3"]) >= 10
    assert [name for name, _e in spec.report] == ["network_cost_kusd", "step_ms", "step_ms_x_musd"]
    cost = dict(spec.report)["network_cost_kusd"]
    costs = [cost.evaluate(p.inputs) for p in points]
    assert (min(costs), max(costs)) == (245.76, 783.36)
