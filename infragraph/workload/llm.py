"""A transformer training step as Chakra ETs: one trace per GPU from a small spec (docs/workloads.md,
"LLM training steps").

Every node's FLOPs and bytes come from Megatron-LM's per-layer counts (Narayanan et al., SC'21,
"Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM", section 5.1 and
appendix): per layer and micro-batch of b sequences of s tokens, hidden h, FFN width f (4h by
default), forward FLOPs are 8bsh^2 + 4bs^2h (attention) + 4bshf (MLP), backward twice forward, the
logit layer 2bshV forward; tensor parallelism divides each by t. Communication per layer and
micro-batch: the TP all-reduces of b*s*h activations (two forward, two backward), or with sequence
parallelism an all-gather and a reduce-scatter in their place; PP activations and gradients of
b*s*h elements (divided by t with sequence parallelism) per micro-batch; DP gradients at the end of
the step (all-reduce, or with ZeRO 1/2 a reduce-scatter plus an all-gather of the updated
parameters; ZeRO 3 / FSDP gathers each layer's parameters before its forward and backward and
reduce-scatters its gradients after its backward); MoE: an all-to-all of the routed tokens before
and after the experts, forward and backward. Elements are 2 bytes (bf16).

HBM: the memory-bound operators of a layer (layer norms, softmax, dropouts, residual adds, GeLU) and
the optimizer step run as compute nodes of their own, timed bytes / HBM bandwidth; their byte
counts are the reads and writes of the tensors in Korthikanti et al.'s activation inventory
("Reducing Activation Recomputation in Large Transformer Models", MLSys 2023, section 4: 34sbh +
5as^2b bytes per layer), with its tensor- and sequence-parallel split (docs/workloads.md, "HBM").

Ranks: rank = tp_index + TP * (dp_index + DP * pp_index): TP inside the server first, then DP, then
PP (Megatron's default order). Expert parallelism splits each DP group into DP/EP groups of EP
consecutive members.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from ..document.io import YamlSourceMap
from ..document.reader import parse_text
from ..errors import Diagnostic, InfraGraphError, Location, error
from .chakra import MAX_I64, et_bytes, located, make_node

BYTES = 2  # bf16: weights, activations and the parameters ZeRO gathers
# Gradients reduced across data-parallel ranks: fp32 unless the spec says grad_reduce_in_bf16, as
# Megatron-LM does for bf16 training (megatron/training/arguments.py: bf16 sets
# accumulate_allreduce_grads_in_fp32 unless --grad-reduce-in-bf16).
FP32 = 4
MASK = 1  # a dropout mask element (Megatron-LM / PyTorch: one byte per element)
# The optimizer step per parameter it updates (Megatron-LM's mixed-precision Adam): read the fp32
# master weight and the two fp32 moments and write them back (3 x 4 B each way), write the bf16
# copy the next step computes with (2 B), and read the main gradient (4 B fp32, 2 B in bf16).
ADAM_BYTES = 3 * FP32 * 2 + BYTES
# The unit of each float key, for its messages (an HBM bandwidth of '3.35 TB/s' is refused, not read).
UNITS = {"peak_tflops": "TFLOP/s (1e12 FLOP/s)", "efficiency": "a fraction of peak",
         "hbm_gb_per_s": "GB/s (1e9 B/s)"}
MAX_NODES = 2**31  # ET nodes in a step, all ranks (GPT-3 175B at micro-batch 1 on 1,024 GPUs: 19.2 M)


@dataclass(frozen=True)
class LlmSpec:
    """The model, the batch, the parallelism and the GPU (docs/workloads.md lists every key)."""

    layers: int
    hidden: int
    heads: int
    seq: int
    vocab: int
    global_batch: int
    micro_batch: int = 1
    ffn: int = 0  # 0: 4 x hidden
    tp: int = 1
    pp: int = 1
    dp: int = 1
    ep: int = 1
    experts: int = 0  # 0: dense
    top_k: int = 1
    sequence_parallel: bool = False
    zero: int = 0  # 0..3; FSDP is zero 3
    grad_reduce_in_bf16: bool = False  # Megatron-LM's --grad-reduce-in-bf16 (default: fp32)
    schedule: str = "1f1b"
    peak_tflops: float = 989.0  # H100 SXM dense bf16
    efficiency: float = 0.5
    hbm_gb_per_s: float = 3350.0

    def __post_init__(self) -> None:
        for f in fields(self):
            v = getattr(self, f.name)
            if f.type == "int" and (isinstance(v, bool) or not isinstance(v, int) or v < (0 if f.name in ("ffn", "experts", "zero") else 1)):
                raise error(f"workload spec: '{f.name}' is {v!r}; expected a whole number >= "
                            f"{0 if f.name in ('ffn', 'experts', 'zero') else 1}")
            if f.type == "float" and (not isinstance(v, (int, float)) or isinstance(v, bool) or not math.isfinite(v) or v <= 0):
                raise error(f"workload spec: '{f.name}' is {v!r}; expected a finite number > 0, in "
                            f"{UNITS[f.name]}")
            if f.type == "bool" and not isinstance(v, bool):  # 'yes please' would count as true
                raise error(f"workload spec: '{f.name}' is {v!r}; expected true or false")
        checks = [
            (self.layers % self.pp == 0, f"layers {self.layers} must divide evenly over pp {self.pp}"),
            (self.hidden % self.heads == 0, f"hidden {self.hidden} must be a multiple of heads {self.heads}"),
            (self.heads % self.tp == 0, f"heads {self.heads} must divide evenly over tp {self.tp}"),
            (self.global_batch % (self.micro_batch * self.dp) == 0,
             f"global_batch {self.global_batch} must be a multiple of micro_batch x dp = {self.micro_batch * self.dp}"),
            (self.zero <= 3, f"zero stage {self.zero}; expected 0, 1, 2 or 3 (3 = FSDP)"),
            (self.efficiency <= 1, f"efficiency {self.efficiency}; expected a fraction of peak in (0, 1]"),
            (self.schedule == "1f1b", f"schedule '{self.schedule}'; expected '1f1b'"),
            (not self.sequence_parallel or self.seq % self.tp == 0, f"seq {self.seq} must divide over tp {self.tp} "
                                                                    "with sequence parallelism"),
        ]
        if self.experts:
            checks += [(self.dp % self.ep == 0, f"ep {self.ep} must divide dp {self.dp}"),
                       (self.experts % self.ep == 0, f"experts {self.experts} must divide evenly over ep {self.ep}"),
                       (self.top_k <= self.experts, f"top_k {self.top_k} exceeds experts {self.experts}")]
        elif self.ep != 1:
            checks.append((False, f"ep {self.ep} needs experts (a MoE model)"))
        for ok, message in checks:
            if not ok:
                raise error(f"workload spec: {message}")
        # About 10 nodes per layer, phase and micro-batch (matmuls, memory-bound operators, TP, MoE,
        # ZeRO-3 collectives): a step beyond MAX_NODES would run for hours and exhaust memory before
        # writing a file.
        nodes = self.world * (self.micro_batches * (self.layers // self.pp) * 2 * 10 + 16)
        if nodes > MAX_NODES:
            raise error(f"workload spec: global_batch {self.global_batch} over micro_batch {self.micro_batch} x dp "
                        f"{self.dp} is {self.micro_batches:,} micro-batches, which with {self.layers // self.pp} layers "
                        f"per stage on {self.world:,} ranks is up to {nodes:.3g} ET nodes; expected at most "
                        f"{MAX_NODES:,} (fewer micro-batches: a larger micro_batch or a smaller global_batch)")
        # Chakra stores num_ops, tensor_size and comm_size as int64: a node's count must stay below
        # 2^63. No compute node exceeds a backward block (2 x the largest of attention, MLP and
        # logits, over tp); no node's bytes exceed the parameters' plus 4 activations' (x top_k).
        b, s, h = self.micro_batch, self.seq, self.hidden
        for what, value in ((f"one compute node's FLOPs (seq {s}, hidden {h}, micro_batch {b}, vocab {self.vocab}, "
                             f"tp {self.tp})", 2 * max(self.attention_flops(), self.mlp_flops(),
                                                       self.logit_flops()) // self.tp),
                            (f"one node's bytes of weights and activations (hidden {h}, seq {s}, micro_batch {b}, "
                             f"layers {self.layers})", (self.params() + 4 * b * s * h * self.top_k) * BYTES)):
            if value > MAX_I64:
                raise error(f"workload spec: {what} come to {value:.3e}, more than a Chakra ET node holds "
                            f"(int64, {MAX_I64:.3e})")

    @property
    def f(self) -> int:
        return self.ffn or 4 * self.hidden

    @property
    def grad_bytes(self) -> int:
        """Bytes per gradient element in the data-parallel reductions (FP32 above)."""
        return BYTES if self.grad_reduce_in_bf16 else FP32

    @property
    def world(self) -> int:
        return self.tp * self.pp * self.dp

    @property
    def micro_batches(self) -> int:
        return self.global_batch // (self.micro_batch * self.dp)

    def rank(self, t: int, d: int, p: int) -> int:
        return t + self.tp * (d + self.dp * p)

    # -- Megatron-LM counts (whole model, one micro-batch of b sequences, before dividing by t) --
    def attention_flops(self) -> int:
        b, s, h = self.micro_batch, self.seq, self.hidden
        return 8 * b * s * h * h + 4 * b * s * s * h

    def mlp_flops(self) -> int:
        """Dense MLP, or the routed experts: each token through top_k experts."""
        b, s, h = self.micro_batch, self.seq, self.hidden
        return 4 * b * s * h * self.f * (self.top_k if self.experts else 1)

    def hbm_bytes(self, block: str, phase: str) -> int:
        """One TP rank's HBM traffic, in bytes, of a layer block's memory-bound operators for one
        micro-batch (docs/workloads.md, "HBM"). Each operator reads its inputs and writes its output
        once (2 B per bf16 element, 1 B per dropout-mask element). Forward, per element: layer norm
        4 (read x, write y), dropout 5 (read, write, mask), residual add 6 (two reads, a write),
        softmax 4, GeLU 4; backward: layer norm 6 and softmax 6 and GeLU 6 (read the saved input or
        output and the gradient, write the gradient), dropout 5 (gradient, mask, gradient), residual
        6 (sum of two gradients). Tensors of b*s*h elements (layer norm, dropout, residual) are
        replicated on every TP rank, or split over them with sequence parallelism; the a*s^2*b
        attention scores (softmax, attention dropout) and the b*s*f GeLU elements split over TP,
        Korthikanti et al.'s rule."""
        b, s, h, t = self.micro_batch, self.seq, self.hidden, self.tp
        rows = b * s * h // t if self.sequence_parallel else b * s * h
        fwd = phase == "fwd"
        # each block has one layer norm, one dropout and one residual add on b*s*h elements
        shared = ((2 if fwd else 3) * BYTES + (2 * BYTES + MASK) + 3 * BYTES) * rows
        if block == "attn":
            scores = self.heads * s * s * b // t
            # softmax (read + write, or 3 tensors backward) and the attention dropout
            return shared + (2 if fwd else 3) * BYTES * scores + (2 * BYTES + MASK) * scores
        gelu = b * s * self.f * (self.top_k if self.experts else 1) // t
        return shared + (2 if fwd else 3) * BYTES * gelu

    def layer_hbm_bytes(self) -> int:
        """One TP rank's memory-bound bytes for one layer and micro-batch, forward and backward."""
        return sum(self.hbm_bytes(block, phase) for block in ("attn", "mlp") for phase in ("fwd", "bwd"))

    def optimizer_bytes_per_param(self) -> int:
        """HBM bytes of the optimizer step per parameter it updates (ADAM_BYTES plus the gradient)."""
        return ADAM_BYTES + self.grad_bytes

    def logit_flops(self) -> int:
        return 2 * self.micro_batch * self.seq * self.hidden * self.vocab

    def expert_params(self) -> int:
        """One MLP (dense) or one expert's: 2hf + h + f."""
        return 2 * self.hidden * self.f + self.hidden + self.f

    def dense_layer_params(self) -> int:
        """A layer's parameters outside its experts: attention 4h^2 + 4h, two layer norms 4h, and the
        MLP of a dense model."""
        h = self.hidden
        return 4 * h * h + 4 * h + 4 * h + (0 if self.experts else self.expert_params())

    def params(self) -> int:
        """Parameters: per layer 4h^2 + 4h (attention) + MLP 2hf + h + f (x experts) + 4h (two
        layer norms); word and position embeddings Vh + sh (the output layer shares the words)."""
        per_layer = self.dense_layer_params() + self.expert_params() * self.experts
        return self.layers * per_layer + self.vocab * self.hidden + self.seq * self.hidden

    def active_params(self) -> int:
        """The parameters one token goes through: top_k experts of each MoE layer (params() if dense)."""
        return self.params() - self.layers * self.expert_params() * (self.experts - self.top_k if self.experts else 0)

    def step_flops(self) -> int:
        """Forward + backward (2x forward) FLOPs of the whole step, every GPU together."""
        per_mb = self.layers * (self.attention_flops() + self.mlp_flops()) + self.logit_flops()
        return 3 * per_mb * self.micro_batches * self.dp

    def tokens(self) -> int:
        return self.global_batch * self.seq


class _Rank:
    """Builds one rank's node list, numbering ids in order."""

    def __init__(self) -> None:
        self.nodes: list[Any] = []

    def add(self, name: str, kind: str, deps: tuple[int, ...] = (), ctrl: tuple[int, ...] = (), **attrs: Any) -> int:
        nid = len(self.nodes)
        self.nodes.append(make_node(nid, name, kind, tuple(d for d in deps if d is not None),
                                    tuple(c for c in ctrl if c is not None), **attrs))
        return nid


class Generator:
    """One step's ETs for every rank of `spec` (see the module docstring)."""

    def __init__(self, spec: LlmSpec) -> None:
        self.s = spec
        self.groups: dict[int, list[int]] = {}
        self._group_ids: dict[tuple[int, ...], int] = {}

    def group(self, ranks: list[int]) -> int:
        key = tuple(ranks)
        if key not in self._group_ids:
            self._group_ids[key] = len(self._group_ids) + 1
            self.groups[self._group_ids[key]] = list(ranks)
        return self._group_ids[key]

    def compute(self, r: _Rank, name: str, flops: float, bytes_: float, deps=(), ctrl=()) -> int:
        s = self.s
        seconds = flops / (s.peak_tflops * 1e12 * s.efficiency)
        return r.add(name, "compute", deps, ctrl, duration_us=max(1, round(seconds * 1e6)),
                     num_ops=int(flops), tensor_size=max(1, int(bytes_)))

    def memory_bound(self, r: _Rank, name: str, bytes_: int, deps=()) -> int:
        """A memory-bound node: bytes / HBM bandwidth, rounded to whole us (at least 1). num_ops is 1:
        its few FLOPs per element are not counted in the step's FLOPs, and with it ASTRA-sim's roofline
        (num_ops / min(bw x num_ops / tensor_size, peak)) gives tensor_size / bw too."""
        seconds = bytes_ / (self.s.hbm_gb_per_s * 1e9)
        return r.add(name, "compute", deps, (), duration_us=max(1, round(seconds * 1e6)), num_ops=1,
                     tensor_size=max(1, int(bytes_)))

    def collective(self, r: _Rank, name: str, kind: str, size: float, group: int | None, deps=()) -> int | None:
        if group is None or size <= 0:
            return deps[0] if deps else None
        return r.add(name, "collective", deps, comm_type=kind, comm_size=max(1, int(size)), pg_name=str(group))

    def rank_nodes(self, t: int, d: int, p: int) -> list[Any]:
        s = self.s
        b, sq, h = s.micro_batch, s.seq, s.hidden
        tp_group = self.group([s.rank(i, d, p) for i in range(s.tp)]) if s.tp > 1 else None
        dp_ranks = [s.rank(t, i, p) for i in range(s.dp)]
        dp_group = self.group(dp_ranks) if s.dp > 1 else None
        ep_group = None
        if s.experts and s.ep > 1:
            start = d - d % s.ep
            ep_group = self.group(dp_ranks[start:start + s.ep])
        act = BYTES * b * sq * h  # one micro-batch's activations, bytes
        layers = s.layers // s.pp
        # The parameters a rank holds per layer, each with the data-parallel group that reduces its
        # gradients: the dense part over the DP group; with expert parallelism, its experts / ep
        # experts over the ranks that hold the same ones (d mod ep alike: Megatron-LM's expert
        # data-parallel group, dp / ep ranks; none when ep = dp). Until 26 Nov 2026 every expert was
        # reduced over the whole DP group: ep x the experts' gradient bytes, on the wrong group.
        experts_here = s.expert_params() * s.experts // s.ep // s.tp
        # Per shard: (group, parameters, group width, name of its end-of-step nodes (dp_grad_ar,
        # edp_grad_ar), infix of its ZeRO-3 per-layer nodes (mb0_l0_fwd_zero3_ag, ..._zero3_edp_ag)).
        dense = s.dense_layer_params() // s.tp
        shards: list[tuple[int | None, int, int, str, str]] = []
        if s.ep == 1:
            shards.append((dp_group, dense + experts_here, s.dp, "dp", ""))
        else:
            shards.append((dp_group, dense, s.dp, "dp", ""))
            edp_ranks = dp_ranks[d % s.ep::s.ep]
            edp_group = self.group(edp_ranks) if len(edp_ranks) > 1 else None
            shards.append((edp_group, experts_here, len(edp_ranks), "edp", "_edp"))
        first, last = p == 0, p == s.pp - 1
        me = s.rank(t, d, p)
        r = _Rank()
        prev_compute: int | None = None

        def tp_comm(name: str, after: int) -> int:
            if s.sequence_parallel:
                x = self.collective(r, f"{name}_rs", "reduce-scatter", act, tp_group, (after,))
                return self.collective(r, f"{name}_ag", "all-gather", act / s.tp, tp_group, (x,))
            return self.collective(r, f"{name}_ar", "all-reduce", act, tp_group, (after,))

        def layer(phase: str, j: int, i: int, dep: int, ctrl: int | None) -> tuple[int, int]:
            """One layer's forward or backward for micro-batch j: returns (last node, last compute)."""
            mult = 1 if phase == "fwd" else 2
            tag = f"mb{j}_l{i}_{phase}"
            if s.zero == 3:
                for group, params, width, _, infix in shards:
                    dep = self.collective(r, f"{tag}_zero3{infix}_ag", "all-gather",
                                          BYTES * params / width, group, (dep,))
            blocks = [("attn", s.attention_flops(), 4 * h * h), ("mlp", s.mlp_flops(), 2 * h * s.f)]
            if phase == "bwd":
                blocks.reverse()
            last_c = None
            for k, (block, flops, weights) in enumerate(blocks):
                moe = block == "mlp" and s.experts
                if moe:
                    dep = self.collective(r, f"{tag}_dispatch", "all-to-all", act * s.top_k / s.tp, ep_group, (dep,))
                c = self.compute(r, f"{tag}_{block}", mult * flops / s.tp,
                                 BYTES * (weights / s.tp * (s.top_k if moe else 1)) + 4 * act / s.tp,
                                 (dep,), (ctrl if k == 0 else last_c,))
                dep = last_c = self.memory_bound(r, f"{tag}_{block}_mem", s.hbm_bytes(block, phase), (c,))
                if moe:
                    dep = self.collective(r, f"{tag}_combine", "all-to-all", act * s.top_k / s.tp, ep_group, (dep,))
                dep = tp_comm(f"{tag}_{block}", dep) if tp_group else dep
            if s.zero == 3 and phase == "bwd":
                for group, params, _, _, infix in shards:
                    dep = self.collective(r, f"{tag}_zero3{infix}_rs", "reduce-scatter",
                                          s.grad_bytes * params, group, (dep,))
            return dep, last_c

        pp_bytes = act / s.tp if s.sequence_parallel else act
        m = s.micro_batches
        warmup = min(s.pp - p - 1, m)
        order = [("fwd", j) for j in range(warmup)]
        for i in range(m - warmup):
            order += [("fwd", warmup + i), ("bwd", i)]
        order += [("bwd", j) for j in range(m - warmup, m)]
        fwd_end: dict[int, int] = {}
        last_any: list[int] = []
        for phase, j in order:
            if phase == "fwd":
                dep = (r.add(f"mb{j}_fwd_recv", "recv", comm_src=s.rank(t, d, p - 1), comm_dst=me,
                             comm_size=int(pp_bytes), comm_tag=0) if not first else None)
                for i in range(layers):
                    dep, prev_compute = layer("fwd", j, i, dep, prev_compute)
                if last:
                    dep = prev_compute = self.compute(r, f"mb{j}_logits_fwd", s.logit_flops() / s.tp,
                                                      BYTES * (s.vocab * h / s.tp + 2 * b * sq * h), (dep,),
                                                      (prev_compute,))
                else:
                    r.add(f"mb{j}_fwd_send", "send", (dep,), comm_src=me, comm_dst=s.rank(t, d, p + 1),
                          comm_size=int(pp_bytes), comm_tag=0)
                fwd_end[j] = dep
            else:
                if last:
                    dep = prev_compute = self.compute(r, f"mb{j}_logits_bwd", 2 * s.logit_flops() / s.tp,
                                                      BYTES * (s.vocab * h / s.tp + 2 * b * sq * h),
                                                      (fwd_end[j],), (prev_compute,))
                else:
                    dep = r.add(f"mb{j}_bwd_recv", "recv", (fwd_end[j],), comm_src=s.rank(t, d, p + 1), comm_dst=me,
                                comm_size=int(pp_bytes), comm_tag=1)
                for i in reversed(range(layers)):
                    dep, prev_compute = layer("bwd", j, i, dep, prev_compute)
                if not first:
                    dep = r.add(f"mb{j}_bwd_send", "send", (dep,), comm_src=me, comm_dst=s.rank(t, d, p - 1),
                                comm_size=int(pp_bytes), comm_tag=1)
                last_any.append(dep)
        # The DP reductions (ZeRO 0-2) and the optimizer step of each shard: after the reduction (ZeRO
        # 1/2: of this rank's 1 / width of the parameters, before gathering them; ZeRO 3: after the last
        # backward, its layers' reduce-scatters done), one after the other on the GPU.
        deps = tuple(last_any)
        for group, params, width, what, _ in shards:
            stage_params = layers * params + (s.vocab * h // s.tp if what == "dp" and (first or last) else 0)
            width = width if s.zero else 1  # ZeRO 0: every rank updates all of its parameters
            after = deps
            if group is not None and s.zero == 0:
                after = (r.add(f"{what}_grad_ar", "collective", deps, comm_type="all-reduce",
                               comm_size=int(s.grad_bytes * stage_params), pg_name=str(group)),)
            elif group is not None and s.zero < 3:
                after = (r.add(f"{what}_grad_rs", "collective", deps, comm_type="reduce-scatter",
                               comm_size=int(s.grad_bytes * stage_params), pg_name=str(group)),)
            opt = self.memory_bound(r, f"{what}_optimizer", s.optimizer_bytes_per_param() * stage_params // width,
                                    after)
            if group is not None and s.zero in (1, 2):
                r.add(f"{what}_param_ag", "collective", (opt,), comm_type="all-gather",
                      comm_size=max(1, int(BYTES * stage_params / width)), pg_name=str(group))
        return r.nodes

    def write(self, prefix: str | Path) -> dict[str, Any]:
        """Write <prefix>.<rank>.et for every rank and <prefix>.json (the comm groups); a summary back."""
        s = self.s
        prefix = str(prefix)
        Path(prefix).parent.mkdir(parents=True, exist_ok=True)
        nodes = 0
        for p in range(s.pp):
            for d in range(s.dp):
                for t in range(s.tp):
                    ns = self.rank_nodes(t, d, p)
                    nodes += len(ns)
                    Path(f"{prefix}.{s.rank(t, d, p)}.et").write_bytes(et_bytes(ns))
        Path(f"{prefix}.json").write_text(json.dumps({str(k): v for k, v in self.groups.items()}), encoding="utf-8")
        return summary(s) | {"nodes": nodes, "groups": len(self.groups), "prefix": prefix,
                             "comm_group_file": f"{prefix}.json"}


def summary(s: LlmSpec) -> dict[str, Any]:
    return {"ranks": s.world, "params": s.params(), "active_params": s.active_params(), "tokens_per_step": s.tokens(),
            "step_flops": s.step_flops(), "micro_batches": s.micro_batches,
            "six_p_t": 6 * s.active_params() * s.tokens(),  # a MoE token goes through top_k experts, not all
            "ideal_compute_s": s.step_flops() / s.world / (s.peak_tflops * 1e12 * s.efficiency),
            # every GPU's layers' memory-bound operators over the step at hbm_gb_per_s (the optimizer step aside)
            "memory_bound_s": s.layer_hbm_bytes() * (s.layers // s.pp) * s.micro_batches / (s.hbm_gb_per_s * 1e9)}


SPEC_KEYS = {f.name for f in fields(LlmSpec)}
REQUIRED_KEYS = ("layers", "hidden", "heads", "seq", "vocab", "global_batch")
# The optional groups of a spec, each with one of its keys for the message when one is not a mapping.
SECTIONS = {"model": "layers", "batch": "global_batch", "parallel": "tp", "moe": "experts", "gpu": "peak_tflops"}


def read_spec(path: str | Path) -> LlmSpec:
    """A YAML or JSON mapping of LlmSpec's keys (flat, or grouped under model/batch/parallel/moe/gpu)."""
    where = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise located(where, f"cannot read the workload spec: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise located(where, f"not text: {exc.reason} at byte {exc.start}") from None
    # Strictly: a key given twice (`layers: 96` then `layers: 4`) is an error, not the last value.
    raw = parse_text(text, where, "a workload spec needs " + ", ".join(REQUIRED_KEYS))
    if not isinstance(raw, dict):
        raise located(where, f"expected a mapping of spec keys, found {type(raw).__name__}")
    source = YamlSourceMap(text, where)
    flat: dict[str, Any] = {}
    for key, value in raw.items():
        if key in SECTIONS:
            if not isinstance(value, dict):  # `batch: 16` read as an unknown key 'batch' before
                loc = source.locate(str(key))
                raise located(where, f"{key}: expected a mapping of its keys (e.g. {SECTIONS[key]}: ...), found "
                              f"{type(value).__name__} {value!r}", loc.line, loc.column)
            for k, v in value.items():
                if k in flat:  # the same key in two sections, or flat and in a section
                    loc = source.locate(f"{key}.{k}")
                    first = f"{flat[k][0]}.{k}" if flat[k][0] else k
                    raise located(where, f"{key}.{k}: given twice (first as {first}); expected once",
                                  loc.line, loc.column)
                flat[k] = (key, v)
        else:
            if key in flat:
                loc = source.locate(str(key))
                raise located(where, f"{key}: given twice (first as {flat[key][0]}.{key}); expected once",
                              loc.line, loc.column)
            flat[key] = (None, value)
    unknown = [(sec, k) for k, (sec, _) in flat.items() if k not in SPEC_KEYS]
    if unknown:
        sec, k = unknown[0]
        from ..errors import did_you_mean

        loc = source.locate(f"{sec}.{k}" if sec else k)
        raise located(where, f"{sec + '.' if sec else ''}{k}: unknown key; expected one of: {', '.join(sorted(SPEC_KEYS))}",
                      loc.line, loc.column, hint=did_you_mean(k, sorted(SPEC_KEYS)))
    missing = [k for k in REQUIRED_KEYS if k not in flat]
    if missing:
        raise located(where, f"missing key '{missing[0]}'")
    try:
        return LlmSpec(**{k: v for k, (_, v) in flat.items()})
    except InfraGraphError as exc:  # the spec's own checks: at the first key the message names
        message = exc.diagnostics[0].message
        key = next((k for k in re.findall(r"[a-z_]+", message) if k in flat), None)
        if key is None:
            raise located(where, message) from None
        section = flat[key][0]
        loc = source.locate(f"{section}.{key}" if section else key)
        raise InfraGraphError(Diagnostic(message, Location(where, loc.line, loc.column,
                                                           f"{section}.{key}" if section else key))) from None
