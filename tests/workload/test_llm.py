"""The transformer-step generator: totals against Megatron-LM's formulas, traces that replay."""

from __future__ import annotations

import pytest

from infragraph.errors import InfraGraphError
from infragraph.workload.llm import BYTES, FP32, Generator, LlmSpec, read_spec, summary
from infragraph.workload.trace import read_et_set

GPT3 = dict(layers=96, hidden=12288, heads=96, seq=2048, vocab=51200, global_batch=1536, tp=8, pp=8, dp=16)


def test_gpt3_175b_has_175b_parameters_and_megatrons_flops():
    s = LlmSpec(**GPT3)
    assert 174.5e9 < s.params() < 175.0e9
    b, sq, L, h, V = s.global_batch, s.seq, s.layers, s.hidden, s.vocab
    # Megatron-LM (SC'21, eq. 3 without recomputation): 72 B s L h^2 (1 + s/6h + V/12hL)
    megatron = 72 * b * sq * L * h * h * (1 + sq / (6 * h) + V / (12 * h * L))
    assert s.step_flops() == pytest.approx(megatron, rel=1e-12)
    six_p_t = 6 * s.params() * s.tokens()
    assert 1.0 < s.step_flops() / six_p_t < 1.03  # the attention-score term, s/6h = 2.8 %


def test_dense_step_flops_are_six_p_t_when_attention_and_small_terms_vanish():
    # with s << h, no biases of note and V << hL the step is 6 x params x tokens to 0.1 %
    s = LlmSpec(layers=8, hidden=4096, heads=32, seq=4, vocab=8, global_batch=64, dp=4, micro_batch=2)
    assert s.step_flops() == pytest.approx(6 * s.params() * s.tokens(), rel=1e-3)


def test_moe_routes_each_token_through_top_k_experts():
    dense = LlmSpec(layers=2, hidden=64, heads=4, seq=16, vocab=100, global_batch=8, dp=4)
    moe = LlmSpec(layers=2, hidden=64, heads=4, seq=16, vocab=100, global_batch=8, dp=4, ep=2, experts=8, top_k=2)
    assert moe.mlp_flops() == 2 * dense.mlp_flops()
    assert moe.params() - dense.params() == 2 * 7 * (2 * 64 * 256 + 64 + 256)


def test_a_moe_token_uses_top_k_experts_of_the_parameters():
    dense = LlmSpec(layers=2, hidden=64, heads=4, seq=16, vocab=100, global_batch=8, dp=4)
    moe = LlmSpec(layers=2, hidden=64, heads=4, seq=16, vocab=100, global_batch=8, dp=4, ep=2, experts=8, top_k=2)
    assert dense.active_params() == dense.params()
    assert moe.active_params() == dense.params() + 2 * (2 * 64 * 256 + 64 + 256)  # a second expert per layer


def _traces(tmp_path, **kw):
    s = LlmSpec(**{**dict(layers=4, hidden=64, heads=4, seq=32, vocab=100, global_batch=8), **kw})
    out = Generator(s).write(tmp_path / "step")
    return s, out, read_et_set(str(tmp_path / "step"), s.world, out["comm_group_file"])


def _memory_bound(name: str) -> bool:
    return name.endswith(("_mem", "_optimizer"))


@pytest.mark.parametrize("kw", [dict(tp=2, pp=2, dp=2), dict(tp=2, dp=2, sequence_parallel=True, zero=1),
                                dict(dp=4, ep=2, experts=4, top_k=2, zero=3)])
def test_traces_hold_every_flop_once(tmp_path, kw):
    # the matmuls carry the step's FLOPs (3 x forward, 6 x params x tokens plus attention scores);
    # the memory-bound nodes added for HBM carry num_ops 1 and leave the total as it was
    s, _, w = _traces(tmp_path, **kw)
    computes = [n for nodes in w.nodes for n in nodes.values() if n.kind == "compute"]
    total = sum(n.num_ops for n in computes if not _memory_bound(n.name))
    assert total == pytest.approx(s.step_flops(), rel=1e-9)
    assert {n.num_ops for n in computes if _memory_bound(n.name)} == {1}


# One layer, one GPU, one sequence: b = 1, s = 32, h = 64, a = 4, f = 256, t = 1, no sequence parallelism.
# b*s*h = 2,048 elements (layer norm, dropout, residual), a*s^2*b = 4,096 scores, b*s*f = 8,192 GeLU elements.
TINY = dict(layers=1, hidden=64, heads=4, seq=32, vocab=128, global_batch=1)
TINY_BYTES = {
    # (layer norm 4 + dropout 5 + residual 6) x 2,048 + (softmax 4 + attention dropout 5) x 4,096
    "mb0_l0_fwd_attn_mem": 15 * 2048 + 9 * 4096,   # 67,584
    # (layer norm 6 + dropout 5 + residual 6) x 2,048 + (softmax 6 + attention dropout 5) x 4,096
    "mb0_l0_bwd_attn_mem": 17 * 2048 + 11 * 4096,  # 79,872
    "mb0_l0_fwd_mlp_mem": 15 * 2048 + 4 * 8192,    # GeLU 4 per element: 63,488
    "mb0_l0_bwd_mlp_mem": 17 * 2048 + 6 * 8192,    # GeLU 6 per element: 83,968
    # Adam over every parameter of the stage's gradients: the layer 4h^2 + 8h + 2hf + h + f = 49,984 and
    # the word embedding Vh = 8,192; 30 B each (fp32 weight, m, v read and written, bf16 copy, fp32 grad)
    "dp_optimizer": 30 * (4 * 64 * 64 + 8 * 64 + 2 * 64 * 256 + 64 + 256 + 128 * 64),  # 1,745,280
}


def test_memory_bound_nodes_of_one_layer_take_bytes_over_hbm_bandwidth(tmp_path):
    # at 0.001 GB/s (1e6 B/s) a byte takes 1 us: every duration is its byte count in us
    s, _, w = _traces(tmp_path, **TINY, hbm_gb_per_s=0.001)
    nodes = {n.name: n for n in w.nodes[0].values()}
    assert {name: nodes[name].tensor_size for name in TINY_BYTES} == TINY_BYTES
    assert {name: nodes[name].duration_ns for name in TINY_BYTES} == {k: v * 1000 for k, v in TINY_BYTES.items()}
    assert sorted(name for name in nodes if _memory_bound(name)) == sorted(TINY_BYTES)
    assert s.layer_hbm_bytes() == sum(v for k, v in TINY_BYTES.items() if k.endswith("_mem"))
    # the matmuls stay FLOPs / (peak x efficiency): attention 8bsh^2 + 4bs^2h = 1,310,720 FLOPs forward
    assert nodes["mb0_l0_fwd_attn"].num_ops == 8 * 32 * 64 * 64 + 4 * 32 * 32 * 64
    # each block: matmul, then its memory-bound node; the optimizer step after the last backward's
    assert nodes["mb0_l0_fwd_attn_mem"].deps == (nodes["mb0_l0_fwd_attn"].id,)
    assert nodes["dp_optimizer"].deps == (nodes["mb0_l0_bwd_attn_mem"].id,)


def test_doubling_hbm_bandwidth_halves_the_memory_bound_nodes_only(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    _, _, slow = _traces(tmp_path / "a", **TINY, hbm_gb_per_s=0.001)
    _, _, fast = _traces(tmp_path / "b", **TINY, hbm_gb_per_s=0.002)
    before = {n.name: n.duration_ns for n in slow.nodes[0].values() if n.kind == "compute"}
    after = {n.name: n.duration_ns for n in fast.nodes[0].values() if n.kind == "compute"}
    assert before.keys() == after.keys()
    saved = {name: before[name] - after[name] for name in before if before[name] != after[name]}
    assert saved == {name: b * 1000 // 2 for name, b in TINY_BYTES.items()}
    assert sum(saved.values()) == 2_040_192 * 1000 // 2  # the sum of TINY_BYTES, halved


def test_memory_bound_bytes_split_over_tp_as_korthikanti_et_al(tmp_path):
    # without sequence parallelism the b*s*h operators are replicated on every TP rank, with it split;
    # the scores and the GeLU always split over TP
    for sp in (False, True):
        s = LlmSpec(**{**TINY, "tp": 2, "sequence_parallel": sp})
        rows = 2048 // 2 if sp else 2048
        assert s.hbm_bytes("attn", "fwd") == 15 * rows + 9 * 4096 // 2
        assert s.hbm_bytes("mlp", "bwd") == 17 * rows + 6 * 8192 // 2
    moe = LlmSpec(**{**TINY, "dp": 2, "global_batch": 2, "experts": 4, "top_k": 2})
    assert moe.hbm_bytes("mlp", "fwd") == 15 * 2048 + 4 * 8192 * 2  # each token through top_k experts
    assert LlmSpec(**TINY, grad_reduce_in_bf16=True).optimizer_bytes_per_param() == 28


def test_the_optimizer_updates_its_zero_shard_between_the_reduction_and_the_gather(tmp_path):
    s, _, w = _traces(tmp_path, dp=2, zero=1)
    nodes = {n.name: n for n in w.nodes[0].values()}
    rs, opt, ag = nodes["dp_grad_rs"], nodes["dp_optimizer"], nodes["dp_param_ag"]
    assert opt.deps == (rs.id,) and ag.deps == (opt.id,)
    stage_params = 4 * s.dense_layer_params() + s.vocab * s.hidden
    assert opt.tensor_size == 30 * stage_params // 2  # ZeRO: each of 2 DP ranks updates half


def test_groups_follow_tp_inside_the_server_first(tmp_path):
    _, _, w = _traces(tmp_path, tp=2, pp=2, dp=2)
    groups = sorted(w.groups.values())
    assert [0, 1] in [list(g) for g in groups]          # TP: consecutive ranks
    assert [0, 2] in [list(g) for g in groups]          # DP: stride TP
    sends = {(n.src, n.dst) for nodes in w.nodes for n in nodes.values() if n.kind == "send"}
    assert sends == {(0, 4), (1, 5), (2, 6), (3, 7), (4, 0), (5, 1), (6, 2), (7, 3)}  # PP: stride TP x DP


def test_1f1b_on_the_first_stage_starts_with_pp_minus_one_forwards(tmp_path):
    _, _, w = _traces(tmp_path, pp=4, global_batch=8)
    computes = [n.name for _, n in sorted(w.nodes[0].items()) if n.kind == "compute" and n.name.startswith("mb")]
    phases = []
    for name in computes:
        mb, _, phase = name.split("_")[0], name, name.split("_")[2]
        if not phases or phases[-1] != (mb, phase):
            phases.append((mb, phase))
    assert phases[:5] == [("mb0", "fwd"), ("mb1", "fwd"), ("mb2", "fwd"), ("mb3", "fwd"), ("mb0", "bwd")]


@pytest.mark.parametrize("kw,kinds", [
    (dict(tp=2), {"all-reduce"}),
    (dict(tp=2, sequence_parallel=True), {"all-gather", "reduce-scatter"}),
    (dict(dp=2, zero=1), {"all-gather", "reduce-scatter"}),
    (dict(dp=2, zero=3), {"all-gather", "reduce-scatter"}),
    (dict(dp=4, ep=2, experts=4, top_k=2), {"all-to-all", "all-reduce"}),
])
def test_each_parallelism_writes_its_collectives(tmp_path, kw, kinds):
    _, _, w = _traces(tmp_path, **kw)
    assert {n.collective for nodes in w.nodes for n in nodes.values() if n.kind == "collective"} == kinds


def test_generated_step_replays(tmp_path):
    from infragraph import blueprints
    from infragraph.simulate import SimulationOptions, prepare
    from infragraph.workload.replay import ReplayOptions, replay

    s, _, w = _traces(tmp_path, tp=2, pp=2, dp=2)
    p = prepare(blueprints.graph("std.fabrics.stack", shape="RI(8)", bandwidth="[50 GiB/s]", latency="[500 ns]"))
    r = replay(p, w, ReplayOptions(sim=SimulationOptions(model="astra")))
    compute = max(n["compute_ns"] for n in r["npus"])
    assert r["step_time_ns"] >= compute > 0 and len(r["messages"]) == 2 * 4 * 4  # 2 directions x 4 stage pairs x 4 micro-batches
    assert summary(s)["ranks"] == 8


@pytest.mark.parametrize("text,message", [
    ("layers: 3\nhidden: 64\nheads: 4\nseq: 8\nvocab: 10\nglobal_batch: 4\npp: 2\n", "layers 3 must divide evenly over pp 2"),
    ("layers: 2\nhidden: 64\nheads: 4\nseq: 8\nvocab: 10\nglobal_batch: 4\ndp: 3\n", "must be a multiple of micro_batch x dp"),
    ("layers: 2\nhidden: 64\nheads: 4\nseq: 8\nvocab: 10\nglobal_batch: 4\nep: 2\n", "ep 2 needs experts"),
    ("layers: 2\nhidden: 64\nheads: 4\nseq: 8\nvocab: 10\nglobal_batch: 4\nefficiency: 1.5\n", "efficiency 1.5"),
    ("layers: 2\nhidden: 64\nheads: 4\nseq: 8\nvocab: 10\nglobal_batch: 4\ntp: 0\n", "'tp' is 0"),
    ("model:\n  layers: 2\n  hiden: 64\n", "model.hiden: unknown key"),
    ("layers: 2\n", "missing key 'hidden'"),
    ("layers: [2\n", "spec.yaml:2:1: error: invalid YAML"),
])
def test_bad_specs(tmp_path, text, message):
    p = tmp_path / "spec.yaml"
    p.write_text(text)
    with pytest.raises(InfraGraphError, match=message.replace("(", r"\(").replace(")", r"\)")):
        read_spec(p)


def _dp_collectives(w, rank):
    return {n.name: (n.collective, n.comm_size, tuple(w.groups[n.group])) for n in w.nodes[rank].values()
            if n.kind == "collective" and not n.name.startswith("mb")}


@pytest.mark.parametrize("zero", [0, 1])
def test_expert_gradients_are_reduced_over_the_ranks_holding_the_same_experts(tmp_path, zero):
    """Found by the review of 26 Nov 2026: with ep = dp every rank's gradients of all `experts`
    experts were reduced over the whole DP group (8 x the expert bytes of a rank holding one expert,
    on the wrong group). Megatron-LM: experts / ep experts per rank, reduced over dp / ep ranks."""
    s, _, w = _traces(tmp_path, dp=4, ep=2, experts=8, top_k=2, zero=zero, global_batch=8)
    h, f, L = s.hidden, s.f, s.layers
    dense = L * (4 * h * h + 8 * h) + s.vocab * h  # parameters of one stage, first and last: the embedding
    experts = L * (8 // 2) * (2 * h * f + h + f)
    got = _dp_collectives(w, 1)  # DP index 1: expert shard 1, held by DP indices 1 and 3 too
    first = "dp_grad_ar" if zero == 0 else "dp_grad_rs"
    assert got[first] == ("all-reduce" if zero == 0 else "reduce-scatter", FP32 * dense, (0, 1, 2, 3))
    assert got["edp" + first[2:]][1:] == (FP32 * experts, (1, 3))
    if zero:
        assert got["dp_param_ag"][1] == BYTES * dense // 4 and got["edp_param_ag"][1:] == (BYTES * experts // 2, (1, 3))


def test_expert_gradients_need_no_reduction_when_every_dp_rank_holds_other_experts(tmp_path):
    s, _, w = _traces(tmp_path, dp=4, ep=4, experts=8, zero=1, global_batch=8)
    dense = s.layers * (4 * s.hidden ** 2 + 8 * s.hidden) + s.vocab * s.hidden
    assert _dp_collectives(w, 0) == {"dp_grad_rs": ("reduce-scatter", FP32 * dense, (0, 1, 2, 3)),
                                     "dp_param_ag": ("all-gather", BYTES * dense // 4, (0, 1, 2, 3))}


@pytest.mark.parametrize("bf16", [False, True])
@pytest.mark.parametrize("zero", [0, 1, 3])
def test_gradients_are_reduced_in_fp32_as_megatron_does_for_bf16(tmp_path, zero, bf16):
    """Found by the review of 26 Nov 2026: gradients crossed the DP group in bf16 (2 B), which
    Megatron-LM never does unless told to (--grad-reduce-in-bf16): for bf16 training its arguments.py
    sets accumulate_allreduce_grads_in_fp32, so its DP all-reduce / reduce-scatter moves 4 B per
    gradient; the updated parameters ZeRO gathers are bf16."""
    s, _, w = _traces(tmp_path, tp=2, dp=2, zero=zero, grad_reduce_in_bf16=bf16)
    per_rank = (s.layers * (12 * s.hidden ** 2 + 13 * s.hidden) + s.vocab * s.hidden) // 2  # dense, tp 2
    grad = 2 if bf16 else 4
    colls = [n for _, n in sorted(w.nodes[0].items()) if n.kind == "collective" and len(w.groups[n.group]) == 2
             and w.groups[n.group] == (0, 2)]
    reduced = sum(n.comm_size for n in colls if n.collective in ("all-reduce", "reduce-scatter"))
    gathered = sum(n.comm_size for n in colls if n.collective == "all-gather")
    if zero == 3:  # every layer's gradients once (no embedding: ZeRO 3 here shards the layers only)
        assert reduced == pytest.approx(grad * s.layers * (12 * s.hidden ** 2 + 13 * s.hidden) // 2 * s.micro_batches,
                                        rel=1e-6)
    else:
        assert reduced == pytest.approx(grad * per_rank, rel=1e-6)
        assert gathered == (0 if zero == 0 else pytest.approx(2 * per_rank / 2, rel=1e-6))


def test_zero3_gathers_a_moe_layer_from_its_two_groups(tmp_path):
    s, _, w = _traces(tmp_path, dp=4, ep=2, experts=4, zero=3, global_batch=8)
    names = [n.name for _, n in sorted(w.nodes[0].items()) if n.kind == "collective"]
    assert names[:3] == ["mb0_l0_fwd_zero3_ag", "mb0_l0_fwd_zero3_edp_ag", "mb0_l0_fwd_dispatch"]


def test_the_replayed_step_shortens_by_the_hbm_time_saved(tmp_path):
    # 4 data-parallel GPUs, ZeRO 1: each runs the one layer's four memory-bound nodes (294,912 B) and
    # the optimizer over its quarter of the 58,176 parameters (30 B each: 436,320 B), between the
    # reduce-scatter and the all-gather; at 1e6 B/s that is 731,232 us of the step, at 2e6 half of it.
    # The matmuls take 1 us each (6 nodes), the collectives the same time in both runs.
    from infragraph import blueprints
    from infragraph.simulate import SimulationOptions, prepare
    from infragraph.workload.replay import ReplayOptions, replay

    p = prepare(blueprints.graph("std.fabrics.stack", shape="RI(4)", bandwidth="[50 GiB/s]", latency="[500 ns]"))
    steps, compute = {}, {}
    for hbm in (0.001, 0.002):
        (tmp_path / str(hbm)).mkdir()
        _, _, w = _traces(tmp_path / str(hbm), **{**TINY, "global_batch": 4, "dp": 4, "zero": 1, "hbm_gb_per_s": hbm})
        r = replay(p, w, ReplayOptions(sim=SimulationOptions(model="astra")))
        steps[hbm] = r["step_time_ns"]
        compute[hbm] = {n["compute_ns"] for n in r["npus"]}
    hbm_us = 67_584 + 79_872 + 63_488 + 83_968 + 30 * 58_176 // 4
    assert compute == {0.001: {(hbm_us + 6) * 1000}, 0.002: {(hbm_us // 2 + 6) * 1000}}
    assert steps[0.001] - steps[0.002] == hbm_us // 2 * 1000


def test_gpt3_superpods_memory_bound_time_is_the_documented_one():
    # docs/workloads.md "HBM" and examples/workloads/README.md: GPT-3 175B at micro-batch 12, TP 8 with
    # sequence parallelism: 16.0 GB per layer and micro-batch, 458.7 ms per GPU at 3,350 GB/s, 320.1 at
    # 4,800; three quarters of it the attention scores' softmax and dropout (20 B per score, a s^2 b / t)
    s = LlmSpec(**{**GPT3, "micro_batch": 12, "sequence_parallel": True, "zero": 1})
    assert s.layer_hbm_bytes() == 16_005_464_064
    assert 20 * 96 * 2048 ** 2 * 12 // 8 / s.layer_hbm_bytes() == pytest.approx(0.755, abs=1e-3)
    assert summary(s)["memory_bound_s"] == pytest.approx(0.4587, abs=1e-4)
    assert summary(LlmSpec(**{**GPT3, "micro_batch": 12, "sequence_parallel": True, "zero": 1,
                              "hbm_gb_per_s": 4800}))["memory_bound_s"] == pytest.approx(0.3201, abs=1e-4)
