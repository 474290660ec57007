"""translators/astra_system.py: the ASTRA-sim system layer every bundle writes: each dimension's
algorithm by its kind, user overrides checked per dimension, and the inputs ASTRA-sim is known to
abort or hang on refused before a bundle is written."""

from __future__ import annotations

import pytest

from infragraph.translators import Options, get
from infragraph.translators.astra_system import system_config
from infragraph.translators.chakra_et import Workload
from infragraph.translators.structure import FC, RING, SW, Dimension

DIMS = [Dimension(RING, 4, 1, 400.0, 100.0), Dimension(FC, 3, 4, 400.0, 100.0), Dimension(SW, 8, 12, 400.0, 100.0),
        Dimension(SW, 6, 96, 400.0, 100.0)]  # 576 NPUs


def settings(**given: str) -> dict:
    return get("htsim").resolve_settings(Options(settings=given))


def test_each_dimension_gets_the_algorithm_of_its_kind():
    system, refusals = system_config(DIMS, settings(), Workload())
    assert refusals == []
    # ring on a ring, direct on a clique, halvingDoubling on a power-of-two switch, else direct
    assert system["all-reduce-implementation"] == ["ring", "direct", "halvingDoubling", "direct"]
    assert system["all-to-all-implementation"] == ["ring", "direct", "direct", "direct"]  # no halvingDoubling there
    assert (system["endpoint-delay"], system["preferred-dataset-splits"], system["local-mem-bw"]) == (10, 4, 1600.0)


def test_an_all_reduce_too_small_for_halving_doubling_falls_back_to_ring():
    # 64 B / 4 chunks = 16 B per chunk, under 2 B per NPU (576 NPUs): ASTRA-sim would abort
    system, refusals = system_config(DIMS, settings(), Workload("all-reduce", 64))
    assert system["all-reduce-implementation"] == ["ring", "direct", "ring", "direct"] and refusals == []


@pytest.mark.parametrize("given, workload, message, where", [
    ({"all-reduce-implementation": "ring,ring"}, Workload(),
     "all-reduce-implementation lists 2 algorithm(s) but the network has 4 dimension(s)",
     "--set all-reduce-implementation"),
    ({"all-gather-implementation": "ring,direct,ring,halvingDoubling"}, Workload("all-gather"),
     "all-gather-implementation: halvingDoubling on dimension 3 needs a power-of-two size, the dimension has 6 NPUs",
     "--set all-gather-implementation"),
    ({"endpoint-delay": "0"}, Workload(), "endpoint-delay 0 ns: ASTRA-sim aborts with 0", "--set endpoint-delay"),
    ({"all-reduce-implementation": "ring,direct,halvingDoubling,direct"}, Workload("all-reduce", 64),
     "all-reduce of 64 bytes with halvingDoubling and 4 chunks on 576 NPUs: ASTRA-sim aborts", "--size"),
    ({}, Workload("all-gather", 3), "all-gather of 3 bytes in 4 chunks: a 0-byte chunk, which ASTRA-sim never "
                                    "finishes", "--size"),
])
def test_inputs_astra_sim_aborts_or_hangs_on_are_refused_at_the_option(given, workload, message, where):
    _, refusals = system_config(DIMS, settings(**given), workload)
    (d,) = refusals
    assert d.message.startswith(message) and d.location.path == where
