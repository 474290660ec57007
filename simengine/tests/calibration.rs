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
