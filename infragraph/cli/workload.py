"""`infragraph workload SPEC -o PREFIX`: write Chakra ETs for a transformer training step.

    infragraph workload examples/workloads/gpt3_175b.yaml -o out/gpt3/step
    infragraph simulate FABRIC --workload out/gpt3/step --comm-group out/gpt3/step.json

SPEC is a YAML mapping: layers, hidden, heads, seq, vocab, global_batch, micro_batch, tp, pp, dp,
ep, experts, top_k, sequence_parallel, zero (3 = FSDP), grad_reduce_in_bf16, schedule (1f1b), peak_tflops, efficiency,
hbm_gb_per_s (flat, or grouped under model/batch/parallel/moe/gpu). Formulas: docs/workloads.md.
"""

from __future__ import annotations

import argparse

from .common import add_json_argument, add_quiet_argument, emit


def register(sub) -> None:
    p = sub.add_parser("workload", help="write Chakra ETs for a transformer training step from a small spec",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("spec", help="the workload spec (YAML)")
    p.add_argument("-o", "--output", required=True, metavar="PREFIX",
                   help="write PREFIX.<rank>.et for every GPU and PREFIX.json (the communicator groups)")
    p.add_argument("--summary-only", action="store_true", help="print the counts without writing traces")
    add_quiet_argument(p, "no summary on standard output (--json still writes it)")
    add_json_argument(p, "the summary")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..output import check_output
    from ..workload.llm import Generator, read_spec, summary

    if args.json and args.json != "-":
        check_output(args.json, option="--json")
    spec = read_spec(args.spec)
    out = summary(spec) if args.summary_only else Generator(spec).write(args.output)
    # A MoE token goes through top_k experts: 6 x the parameters it uses x tokens.
    six_p_t = (f"6 x active params ({out['active_params'] / 1e9:,.2f} B) x tokens" if spec.experts
               else "6 x params x tokens")
    lines = [f"{spec.world} ranks (TP {spec.tp} x PP {spec.pp} x DP {spec.dp}"
          f"{f', EP {spec.ep}, {spec.experts} experts top-{spec.top_k}' if spec.experts else ''}), "
          f"{out['params'] / 1e9:,.2f} B parameters, {out['tokens_per_step']:,} tokens and "
          f"{out['micro_batches']} micro-batches per step",
             f"step FLOPs {out['step_flops']:.4e} ({six_p_t} = {out['six_p_t']:.4e}); at "
          f"{spec.peak_tflops:g} TFLOP/s x {spec.efficiency:g} per GPU the compute alone takes "
          f"{out['ideal_compute_s'] * 1e3:,.1f} ms",
             f"memory-bound operators (layer norms, softmax, dropouts, residuals, GeLU) at {spec.hbm_gb_per_s:g} GB/s "
          f"of HBM: {out['memory_bound_s'] * 1e3:,.1f} ms per GPU, plus the optimizer step"]
    if not args.summary_only:
        lines.append(f"wrote {out['nodes']:,} nodes in {spec.world} traces {out['prefix']}.<rank>.et and "
                     f"{out['groups']} groups in {out['comm_group_file']}")
    emit(args, out, None if args.quiet else "\n".join(lines))
    return 0
