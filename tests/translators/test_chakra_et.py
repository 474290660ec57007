"""Chakra ET workload writer: byte-identical to ASTRA-sim's shipped microbenchmark workloads."""


import pytest

from infragraph import translators as T
from infragraph.errors import InfraGraphError
from infragraph.graph import expand
from infragraph.translators.chakra_et import COLLECTIVES, Workload, et_file, workload_files
from tests.helpers import shared_file
from tests.translator_graphs import clos, single_switch

# ASTRA-sim's own example workloads (in shared/, not copied into this repository)
EXAMPLES = "backends/astra-sim/examples/workload/microbenchmarks"


@pytest.mark.parametrize("collective", list(COLLECTIVES))
@pytest.mark.parametrize("npus", [4, 8, 16])
def test_every_file_is_byte_identical_to_astra_sims_example(collective, npus):
    stem = COLLECTIVES[collective][1]
    folder = shared_file(EXAMPLES) / stem / f"{npus}npus_1MB"
    name = f"{stem}_{npus}npus_1MB"
    files = workload_files(Workload(collective, 1 << 20), npus, node_name=name)
    assert len(files) == npus
    for npu in range(npus):
        reference = (folder / f"{stem}.{npu}.et").read_bytes()
        assert files[f"workload/{stem}.{npu}.et"] == reference, (collective, npus, npu)
        assert et_file(npu, name, COLLECTIVES[collective][0], 1 << 20) == reference


def test_a_file_reads_back_as_metadata_then_one_collective_node():
    from chakra.schema.protobuf.et_def_pb2 import GlobalMetadata, Node
    data = workload_files(Workload("all-gather", 12345), 4)["workload/all_gather.3.et"]
    m, n = GlobalMetadata(), Node()
    m.ParseFromString(data[1:1 + data[0]])
    rest = data[1 + data[0]:]
    n.ParseFromString(rest[1:1 + rest[0]])
    assert len(rest) == 1 + rest[0] and m.version == "0.0.4"
    assert (n.id, n.type, n.name) == (3, 7, "all_gather_4npus_12345B")
    assert [(a.name, a.WhichOneof("value")) for a in n.attr] == [
        ("is_cpu_op", "bool_val"), ("comm_type", "int64_val"), ("comm_size", "int64_val")]
    assert [n.attr[1].int64_val, n.attr[2].int64_val, n.attr[0].bool_val] == [2, 12345, False]


def test_large_ids_and_sizes_use_multi_byte_varints():
    files = workload_files(Workload("all-to-all", 2**40 + 3), 16390)
    name = "all_to_all_16390npus_1099511627779B"
    for npu in (0, 1, 127, 128, 299, 16383, 16384, 16389):  # 1-, 2- and 3-byte ids
        assert files[f"workload/all_to_all.{npu}.et"] == et_file(npu, name, 6, 2**40 + 3), npu
    assert b"\x08\xab\x02" in files["workload/all_to_all.299.et"]  # id 299 as a two-byte varint


def test_no_workload_files_and_run_sh_then_needs_workload():
    b = T.get("ns3").translate(expand(single_switch(4)), T.Options(workload=Workload(files=False)))
    assert not any(k.startswith("workload/") for k in b.files)
    assert "${WORKLOAD:?" in b.files["run.sh"] and "workload/" not in b.files["README.md"]


@pytest.mark.parametrize("collective,size,message", [
    ("broadcast", 1024, "no Chakra workload"),
    ("all-reduce", 0, "out of range"),
    ("all-reduce", 2**63, "out of range"),
])
def test_bad_workloads_are_refused(collective, size, message):
    with pytest.raises(InfraGraphError, match=message):
        Workload(collective, size)


@pytest.mark.parametrize("backend", ["astra-analytical", "htsim", "ns3"])
def test_every_astra_bundle_carries_its_workload_and_run_sh_uses_it(backend):
    g = expand(clos(4, 2) if backend == "htsim" else single_switch(8))
    b = T.get(backend).translate(g, T.Options(workload=Workload("reduce-scatter", 4096)))
    ets = sorted(k for k in b.files if k.startswith("workload/"))
    assert ets == sorted(f"workload/reduce_scatter.{i}.et" for i in range(len(b.rank_order)))
    assert 'workload=${WORKLOAD:-$here/workload/reduce_scatter}' in b.files["run.sh"]
    assert "reduce-scatter of 4,096 bytes" in b.files["README.md"]
