//! The design note's calibration values: ASTRA-sim-compatible mode must reproduce them exactly.
mod common;
use _simengine::algorithms::{Algo, Op};
use _simengine::network::Model;
use _simengine::topology::Topology;
use _simengine::{simulate, SimConfig};
use common::*;

fn astra() -> SimConfig {
    SimConfig { astra: true, ..Default::default() }
}

fn ring8_all_reduce(local_mem_bw: f64) -> f64 {
    let topo = ring(8, ASTRA_50GB, 500.0);
    let mut s = spec(Op::AllReduce, Algo::Ring, 8, 1048576.0);
    s.chunks = 4;
    s.endpoint_delay_ns = 10.0;
    s.local_mem_bw_gb_per_s = Some(local_mem_bw);
    simulate(&topo, &ranks(8), &s, &astra()).unwrap().collective_time_ns
}

#[test]
fn ring8_all_reduce_local_mem_bw_50_is_117780_ns() {
    assert_eq!(ring8_all_reduce(50.0), 117_780.0);
}

#[test]
fn ring8_all_reduce_local_mem_bw_1600_is_64440_ns() {
    assert_eq!(ring8_all_reduce(1600.0), 64_440.0);
}

/// Two 1 MiB point-to-point flows from node 0 to node 1 over one 50 GiB/s, 0.5 us link.
fn two_flows(model: Model) -> Vec<f64> {
    let topo = Topology::uniform(2, &[(0, 1)], ASTRA_50GB, 500.0).unwrap();
    let mut s = spec(Op::PointToPoint, Algo::Direct, 2, 1048576.0);
    s.groups = vec![vec![0, 1], vec![0, 1]];
    let cfg = SimConfig { model, astra: true, trace: true, ..Default::default() };
    let out = simulate(&topo, &ranks(2), &s, &cfg).unwrap();
    let mut ends: Vec<f64> = out.trace.iter().map(|f| f.end_ns).collect();
    ends.sort_by(f64::total_cmp);
    ends
}

#[test]
fn two_flows_unaware_take_20_03_us_each() {
    assert_eq!(two_flows(Model::Unaware), vec![20_031.0, 20_031.0]);
}

#[test]
fn two_flows_aware_second_arrives_at_39_56_us() {
    assert_eq!(two_flows(Model::Aware), vec![20_031.0, 39_562.0]);
}

/// RI(4)_FC(2)_SW(4) in ASTRA-sim mode, 1 chunk: ring RS, direct RS, halving-doubling AR through
/// the switch (2 hops: T = floor(2L + m/B)), then direct AG and ring AG — each phase must take
/// exactly the design note's formula, and the phases add up.
#[test]
fn ri_fc_sw_stack_matches_the_phase_formulas() {
    let (topo, n) = stack(&[("RI", 4), ("FC", 2), ("SW", 4)], ASTRA_50GB, 500.0);
    let mut s = spec(Op::AllReduce, Algo::Ring, n, 1048576.0);
    s.dims = vec![4, 2, 4];
    s.algorithms = vec![Algo::Ring, Algo::Direct, Algo::HalvingDoubling];
    s.endpoint_delay_ns = 10.0;
    s.local_mem_bw_gb_per_s = Some(50.0);
    let out = simulate(&topo, &ranks(topo.num_nodes as u32), &s, &astra()).unwrap();
    let e = 10.0;
    let bpns = 50.0 * 1073741824.0 / 1e9;
    let t = |hops: f64, m: f64| (hops * 500.0 + m / bpns).floor();
    let rd = |m: f64| 3.0 * (m / 50.0).floor();
    let d0 = 1048576.0;
    let ring_rs = e + 3.0 * (t(1.0, d0 / 4.0) + e + rd(d0 / 4.0));
    let d1 = d0 / 4.0;
    let direct_rs = t(1.0, d1 / 2.0) + 2.0 * e + rd(d1 / 2.0);
    let d2 = d1 / 2.0;
    let hd_ar = e + [2.0, 4.0, 4.0, 2.0].iter().map(|k| t(2.0, d2 / k) + e).sum::<f64>() + rd(d2 / 4.0);
    let direct_ag = t(1.0, d2) + 2.0 * e;
    let ring_ag = e + 3.0 * (t(1.0, d1) + e);
    assert_eq!(out.collective_time_ns, ring_rs + direct_rs + hd_ar + direct_ag + ring_ag);
}

/// A port between two NPUs passes bits on: the aware model treats NPU -> port -> NPU as one
/// store-and-forward hop (as ASTRA-sim's single link), not two.
#[test]
fn ports_are_cut_through_in_the_aware_model() {
    let mut topo = Topology::new(3, &[0, 2], &[2, 1], &[ASTRA_50GB; 2], &[250.0, 250.0], Some(&[0, 0, 7]), &[]).unwrap();
    let mut s = spec(Op::PointToPoint, Algo::Direct, 2, 1048576.0);
    s.groups = vec![vec![0, 1], vec![0, 1]];
    let cfg = SimConfig { model: Model::Aware, astra: true, trace: true, ..Default::default() };
    let ends = |topo: &Topology| {
        let out = simulate(topo, &ranks(2), &s, &cfg).unwrap();
        let mut e: Vec<f64> = out.trace.iter().map(|f| f.end_ns).collect();
        e.sort_by(f64::total_cmp);
        e
    };
    // Store-and-forward at the middle node: 2 x floor(250 + 19531.25), second waits 19531.
    assert_eq!(ends(&topo), vec![39_562.0, 59_093.0]);
    topo.set_cut_through_kinds(&[7]);
    assert_eq!(ends(&topo), vec![20_031.0, 39_562.0]);
}

/// Cases of the real binaries' reference corpus (shared/backends/astra-sim, names s1-NNNN), kept
/// here as numbers so `cargo test` checks the ASTRA-sim behaviours without the Python suite.
fn corpus_case(topo: &Topology, n: u32, op: Op, algo: Algo, size: f64, splits: usize, active: usize, cfg: SimConfig) -> Vec<f64> {
    let mut s = spec(op, algo, n, size);
    s.chunks = splits;
    s.active_chunks_per_dim = active;
    s.endpoint_delay_ns = 10.0;
    s.local_mem_bw_gb_per_s = Some(1600.0);
    let out = simulate(topo, &ranks(n), &s, &cfg).unwrap();
    out.rank_finish_ns.iter().map(|f| f.unwrap()).collect()
}

fn gib(gb: f64) -> f64 {
    gb * 1073741824.0 * 8.0 / 1e9
}

#[test]
fn s1_0295_direct_all_reduce_on_a_ring_reduces_each_message_on_its_own() {
    // Ring(16) at 212.2 GiB/s, 511 ns; 128 MiB in 12 chunks, 3 active: 73,140 ns on every NPU.
    let topo = ring(16, gib(212.2), 511.0);
    let ends = corpus_case(&topo, 16, Op::AllReduce, Algo::Direct, 134217728.0, 12, 3, astra());
    assert_eq!(ends, vec![73_140.0; 16]);
}

#[test]
fn s1_0279_double_binary_tree_ends_differ_per_npu() {
    // Aware Ring(8) at 25 GiB/s, 10 ns; 197,832 B in 5 chunks: trees alternate per chunk, inner
    // nodes end when they send down, so NPUs finish at different times.
    let topo = ring(8, gib(25.0), 10.0);
    let cfg = SimConfig { model: Model::Aware, astra: true, dor_dims: Some(vec![8]), ..Default::default() };
    let ends = corpus_case(&topo, 8, Op::AllReduce, Algo::DoubleBinaryTree, 197832.0, 5, 1, cfg);
    assert_eq!(ends, vec![116_447.0, 127_002.0, 125_509.0, 127_002.0, 122_461.0, 127_002.0, 125_509.0, 127_002.0]);
}
