"""Reading ET sets, comm groups and text workloads; every inconsistency is a located error."""

from __future__ import annotations

import pytest

from infragraph.errors import InfraGraphError
from infragraph.workload.chakra import make_node
from infragraph.workload.trace import read_et_set, read_text
from tests.helpers import shared_file
from tests.workload.etsets import coll, comp, recv, send, write_set


def test_astra_sims_shipped_microbenchmark_reads_as_one_collective_per_npu():
    prefix = shared_file("backends/astra-sim/examples/workload/microbenchmarks/all_reduce/8npus_1MB") / "all_reduce"
    w = read_et_set(str(prefix), 8)
    assert w.num_npus == 8
    for rank, nodes in enumerate(w.nodes):
        (n,) = nodes.values()
        assert (n.id, n.kind, n.collective, n.comm_size, n.group) == (rank, "collective", "all-reduce", 1 << 20, 0)


def test_nodes_keep_durations_deps_and_attributes(tmp_path):
    prefix, cg = write_set(tmp_path, [[comp(1, 3), comp(2, 0, deps=(1,), num_ops=10, tensor_size=4),
                                       coll(3, "all-gather", 512, group=1, deps=(2,))]] * 2, {1: [0, 1]})
    w = read_et_set(prefix, 2, cg)
    n1, n2, n3 = (w.nodes[1][i] for i in (1, 2, 3))
    assert (n1.duration_ns, n2.duration_ns, n2.deps, n2.num_ops, n2.tensor_size) == (3000, 1, (1,), 10, 4)
    assert (n3.collective, n3.comm_size, n3.group, w.members(1)) == ("all-gather", 512, 1, (0, 1))


def test_control_dependencies_count_as_dependencies(tmp_path):
    prefix, _ = write_set(tmp_path, [[comp(1, 1), make_node(2, "c", "compute", (), ctrl_deps=(1,), duration_us=1)]])
    assert read_et_set(prefix, 1).nodes[0][2].deps == (1,)


def test_missing_rank_file(tmp_path):
    prefix, _ = write_set(tmp_path, [[comp(1, 1)]] * 3)
    (tmp_path / "wl.1.et").unlink()
    with pytest.raises(InfraGraphError, match=r"wl\.1\.et: error: missing: the workload has no trace for rank 1"):
        read_et_set(prefix, 3)


def test_more_rank_files_than_npus(tmp_path):
    prefix, _ = write_set(tmp_path, [[comp(1, 1)]] * 3)
    with pytest.raises(InfraGraphError, match=r"wl\.2\.et: error: the workload has a trace for rank 2, but the fabric has only 2"):
        read_et_set(prefix, 2)


def test_dependency_cycle_is_named(tmp_path):
    prefix, _ = write_set(tmp_path, [[comp(1, 1, deps=(3,)), comp(2, 1, deps=(1,)), comp(3, 1, deps=(2,)),
                                      comp(4, 1)]])
    with pytest.raises(InfraGraphError, match=r"wl\.0\.et: error: dependency cycle: .*1 'comp1'.*2 'comp2'.*3 'comp3'"):
        read_et_set(prefix, 1)


def test_dependency_on_an_unknown_node(tmp_path):
    prefix, _ = write_set(tmp_path, [[comp(1, 1, deps=(9,))]])
    with pytest.raises(InfraGraphError, match=r"node 1 'comp1' depends on node 9, which the file does not hold"):
        read_et_set(prefix, 1)


def test_group_naming_an_unknown_rank(tmp_path):
    prefix, cg = write_set(tmp_path, [[coll(1, "all-reduce", 64, group=1)]] * 2, {1: [0, 1, 5]})
    with pytest.raises(InfraGraphError, match=r"wl\.json:1:2: error: group 1 names rank 5, but the fabric has ranks 0\.\.1"):
        read_et_set(prefix, 2, cg)


def test_collective_on_an_undefined_group(tmp_path):
    prefix, cg = write_set(tmp_path, [[coll(1, "all-reduce", 64, group=2)]] * 2, {1: [0, 1]})
    with pytest.raises(InfraGraphError, match=r"wl\.0\.et: error: node 1 'all-reduce1': communicator group 2 is not defined"):
        read_et_set(prefix, 2, cg)


def test_group_members_disagreeing_on_their_collectives(tmp_path):
    prefix, _ = write_set(tmp_path, [[coll(1, "all-reduce", 64)], [coll(1, "all-reduce", 128)]])
    with pytest.raises(InfraGraphError, match=r"collective #1 is \('all-reduce', 128\) on rank 1 but "
                                              r"\('all-reduce', 64\) on rank 0"):
        read_et_set(prefix, 2)


def test_send_without_recv(tmp_path):
    prefix, _ = write_set(tmp_path, [[send(1, 0, 1, 4096, tag=7)], [comp(1, 1)]])
    with pytest.raises(InfraGraphError, match=r"wl\.0\.et: error: node 1 'send1': send 0 -> 1 \(tag 7, 4096 bytes\) has "
                                              r"no matching recv"):
        read_et_set(prefix, 2)


def test_recv_without_send_and_size_mismatch(tmp_path):
    prefix, _ = write_set(tmp_path, [[send(1, 0, 1, 4096)], [recv(1, 0, 1, 2048)]])
    with pytest.raises(InfraGraphError, match=r"has no matching (recv|send)"):
        read_et_set(prefix, 2)


def test_truncated_file(tmp_path):
    prefix, _ = write_set(tmp_path, [[comp(1, 1), comp(2, 1)]])
    p = tmp_path / "wl.0.et"
    p.write_bytes(p.read_bytes()[:-3])
    with pytest.raises(InfraGraphError, match=r"wl\.0\.et: error: byte \d+: message of \d+ bytes runs past the end"):
        read_et_set(prefix, 1)


def test_duplicate_node_id(tmp_path):
    prefix, _ = write_set(tmp_path, [[comp(1, 1), comp(1, 2)]])
    with pytest.raises(InfraGraphError, match=r"node id 1 \('comp1'\) appears twice"):
        read_et_set(prefix, 1)


def test_send_in_the_wrong_ranks_file(tmp_path):
    prefix, _ = write_set(tmp_path, [[send(1, 1, 0, 8)], [recv(1, 1, 0, 8)]])
    with pytest.raises(InfraGraphError, match=r"wl\.0\.et: error: node 1 'send1': send from rank 1 in rank 0's trace"):
        read_et_set(prefix, 2)


def test_text_workload_through_chakras_converter(tmp_path):
    p = tmp_path / "micro.txt"
    p.write_text("MICRO\n1\nallreduce -1 1 NONE 0 1 NONE 0 1 ALLREDUCE 1048576 1\n")
    w = read_text(p, 8)
    assert w.num_npus == 8 and w.source == str(p)
    assert [(n.kind, n.collective, n.comm_size) for n in w.nodes[5].values()] == [("collective", "all-reduce", 1048576)]


def test_data_parallel_text_workload_has_forward_backward_chain(tmp_path):
    p = tmp_path / "data.txt"
    p.write_text("DATA\n2\nl0 -1 5 NONE 0 5 NONE 0 5 ALLREDUCE 1024 1\nl1 -1 7 NONE 0 7 NONE 0 7 ALLREDUCE 2048 1\n")
    w = read_text(p, 4)
    kinds = [n.kind for _, n in sorted(w.nodes[0].items())]
    assert kinds.count("compute") == 5 and kinds.count("collective") == 2


@pytest.mark.parametrize("text,message", [
    ("MICRO\n2\nallreduce -1 1 NONE 0 1 NONE 0 1 ALLREDUCE 1048576 1\n", r":2:1: error: the file says 2 layers but lists 1"),
    ("MICRO\nx\n", r":2:1: error: layer count 'x' is not a whole number"),
    ("MICRO\n1\nallreduce -1 1 NONE 0\n", r":3:1: error: layer line has 5 fields; expected 12"),
    ("TRIPLE\n1\nallreduce -1 1 NONE 0 1 NONE 0 1 ALLREDUCE 1048576 1\n", r"Unsupported parallelism type"),
])
def test_bad_text_workloads(tmp_path, text, message):
    p = tmp_path / "bad.txt"
    p.write_text(text)
    with pytest.raises(InfraGraphError, match=message):
        read_text(p, 4)


def test_update_times_wait_the_micro_layers_update_time_after_its_collective(tmp_path):
    p = tmp_path / "micro.txt"
    p.write_text("MICRO\n1\nallreduce -1 1 NONE 0 1 NONE 0 1 ALLREDUCE 1048576 25\n")
    w = read_text(p, 4, update_times=True)
    nodes = sorted(w.nodes[3].values(), key=lambda n: n.id)
    assert [(n.kind, n.deps, n.duration_ns, n.is_cpu_op) for n in nodes] == [
        ("collective", (), 1, False), ("compute", (nodes[0].id,), 25, True)]
    p.write_text("MICRO\n1\nallreduce -1 1 NONE 0 1 NONE 0 1 ALLREDUCE 1048576 0\n")
    assert [n.kind for n in read_text(p, 4, update_times=True).nodes[0].values()] == ["collective"]


@pytest.mark.parametrize("text,passes,message", [
    ("DATA\n1\nl0 -1 5 NONE 0 5 NONE 0 5 ALLREDUCE 1024 1\n", 1,
     r":1:1: error: --text-update-times takes a one-layer MICRO workload of one pass .* DATA parallelism with 1 layer"),
    ("MICRO\n2\na -1 1 NONE 0 1 NONE 0 1 ALLREDUCE 1024 1\nb -1 1 NONE 0 1 NONE 0 1 ALLREDUCE 1024 1\n", 1,
     r":1:1: error: --text-update-times takes .* MICRO parallelism with 2 layer\(s\) and 1 pass"),
    ("MICRO\n1\na -1 1 NONE 0 1 NONE 0 1 ALLREDUCE 1024 1\n", 2, r"with 1 layer\(s\) and 2 pass\(es\)"),
    ("MICRO\n1\na -1 1 NONE 0 1 NONE 0 1 ALLREDUCE 1024 1.5\n", 1,
     r":3:41: error: update time '1.5' is not a whole number of ns"),
])
def test_bad_update_times(tmp_path, text, passes, message):
    p = tmp_path / "bad.txt"
    p.write_text(text)
    with pytest.raises(InfraGraphError, match=message):
        read_text(p, 4, passes, update_times=True)


def _python_read(prefix: str, n: int):
    from pathlib import Path

    from infragraph.workload.trace import _read_file

    return [_read_file(Path(f"{prefix}.{r}.et"), r) for r in range(n)]


def test_the_engines_reader_gives_the_python_readers_nodes(tmp_path):
    """The fast path (the engine decodes the files) reads every attribute value kind the Python
    reader accepts as the Python reader does, and leaves nothing to it on ordinary files."""
    from infragraph.workload.chakra import et_bytes, schema
    from infragraph.workload.trace import _read_columns

    S = schema()
    n = S.Node(id=7, name="odd ints", type=S.COMP_NODE, duration_micros=0)
    n.data_deps.extend([1, 1])
    n.ctrl_deps.extend([1])
    n.attr.add(name="num_ops", uint64_val=2**64 - 1)
    n.attr.add(name="tensor_size", sfixed32_val=12)
    n.attr.add(name="is_cpu_op", bool_val=True)
    n.attr.add(name="unused", double_val=1.5)
    c = S.Node(id=9, name="coll", type=S.COMM_COLL_NODE)
    c.attr.add(name="comm_type", int32_val=7)
    c.attr.add(name="comm_size", sint64_val=4096)
    c.attr.add(name="pg_name", string_val="")
    per_rank = [[comp(1, 2), n, c, send(3, 0, 1, 64, tag=5)], [comp(1, 2), n, c, recv(3, 0, 1, 64, tag=5)]]
    prefix = tmp_path / "wl"
    for r, nodes in enumerate(per_rank):
        (tmp_path / f"wl.{r}.et").write_bytes(et_bytes(nodes))
    cols, bad = _read_columns([f"{prefix}.{r}.et" for r in range(2)])
    assert bad == []
    w = read_et_set(str(prefix), 2)
    assert w.nodes == _python_read(str(prefix), 2)
    assert w.nodes[0][7].num_ops == 2**64 - 1 and w.nodes[0][7].deps == (1,) and w.nodes[1][9].collective == "reduce-scatter"


def test_the_engines_reader_leaves_what_it_cannot_prove_to_the_python_reader(tmp_path):
    from infragraph.workload.chakra import et_bytes, schema
    from infragraph.workload.trace import _read_columns

    S = schema()
    n = S.Node(id=2, name="pg as a number", type=S.COMM_COLL_NODE)
    n.attr.add(name="comm_type", int64_val=0)
    n.attr.add(name="comm_size", int64_val=8)
    n.attr.add(name="pg_name", int64_val=1)  # the Python reader takes int(1)
    for r in range(2):
        (tmp_path / f"wl.{r}.et").write_bytes(et_bytes([comp(1, 1), n]))
    (tmp_path / "wl.json").write_text('{"1": [0, 1]}')
    _, bad = _read_columns([f"{tmp_path}/wl.{r}.et" for r in range(2)])
    assert bad == [0, 1]
    w = read_et_set(str(tmp_path / "wl"), 2, tmp_path / "wl.json")
    assert w.nodes[1][2].group == 1 and w.cols.group.tolist() == [0, 1, 0, 1]


@pytest.mark.parametrize("where", ["node name", "attribute name", "string attribute"])
def test_the_engines_reader_leaves_a_string_that_is_not_utf8_to_the_python_reader(tmp_path, where):
    """Node names, attribute names and string values are checked as UTF-8 where the engine's
    reader reads them (once each); a file with a bad one is left to the Python reader."""
    from infragraph.workload.chakra import et_bytes, schema
    from infragraph.workload.trace import _read_columns

    S = schema()
    n = S.Node(id=1, name="nodezzzz", type=S.COMP_NODE, duration_micros=1)
    n.attr.add(name="attrzzzz", int64_val=1)
    n.attr.add(name="note", string_val="valuezzzz")
    marker = {"node name": b"nodezzzz", "attribute name": b"attrzzzz", "string attribute": b"valuezzzz"}[where]
    good = et_bytes([n])
    (tmp_path / "wl.0.et").write_bytes(good)
    (tmp_path / "wl.1.et").write_bytes(good.replace(marker, marker[:-2] + b"\xff\xfe"))
    _, bad = _read_columns([f"{tmp_path}/wl.{r}.et" for r in range(2)])
    assert bad == [1]


def test_a_generated_step_reads_the_same_both_ways(tmp_path):
    from infragraph.workload.llm import Generator, LlmSpec

    s = LlmSpec(layers=2, hidden=64, heads=4, seq=32, vocab=100, global_batch=8, tp=2, pp=2, dp=2)
    out = Generator(s).write(tmp_path / "step")
    w = read_et_set(str(tmp_path / "step"), 8, out["comm_group_file"])
    assert w.nodes == _python_read(str(tmp_path / "step"), 8) and len(w.cols.id) > 100


def test_the_engines_reader_takes_any_id_order_and_flags_only_real_cycles(tmp_path):
    """Ids out of order, with gaps (no arithmetic id -> row), a dependency on a later row (the
    acyclicity check runs) and an attribute given twice (the last one counts, as in Python's dict):
    read as the Python reader reads them. A self-dependency and a two-node cycle go to the Python
    reader, which names them."""
    from infragraph.workload.chakra import et_bytes
    from infragraph.workload.trace import _read_columns

    twice = comp(40, 1, deps=(7,))
    twice.attr.add(name="num_ops", int64_val=5)
    twice.attr.add(name="num_ops", int64_val=9)
    nodes = [comp(9, 2, deps=(40,)), twice, comp(7, 1), comp(12, 3, deps=(9, 7))]
    prefix, _ = write_set(tmp_path, [nodes, nodes])
    cols, bad = _read_columns([f"{prefix}.{r}.et" for r in range(2)])
    assert bad == [] and cols.id.tolist() == [7, 9, 12, 40] * 2
    w = read_et_set(prefix, 2)
    assert w.nodes == _python_read(prefix, 2) and w.nodes[0][40].num_ops == 9 and w.nodes[1][12].deps == (9, 7)
    for name, per_rank in (("self", [comp(1, 1, deps=(1,))]), ("pair", [comp(1, 1, deps=(2,)), comp(2, 1, deps=(1,))])):
        for r in range(2):
            (tmp_path / f"{name}.{r}.et").write_bytes(et_bytes(per_rank))
        assert _read_columns([f"{tmp_path}/{name}.{r}.et" for r in range(2)])[1] == [0, 1]
        with pytest.raises(InfraGraphError, match="dependency cycle"):
            read_et_set(str(tmp_path / name), 2)
