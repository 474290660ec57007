//! Members that start a collective at different times (`CollectiveSpec::starts`): a workload's
//! members issue a collective when their own DAG reaches it, and ASTRA-sim starts each member's
//! part at its own issue. Hand-derived times on a 4-ring.
//!
//! 80 Gbit/s links (10 B/ns), 100 ns latency, no endpoint delay, free reductions: a 1000 B
//! message takes tau = 100 + 1000 / 10 = 200 ns alone on a link.
mod common;
use _simengine::algorithms::{Algo, Op};
use _simengine::network::Model;
use _simengine::plan::CollectiveSpec;
use _simengine::{simulate, SimConfig};
use common::*;

const TAU: f64 = 200.0;

fn all_gather(starts: Vec<f64>) -> CollectiveSpec {
    let mut s = spec(Op::AllGather, Algo::Ring, 4, 1000.0);
    s.starts = vec![starts];
    s
}

fn finish(s: &CollectiveSpec, model: Model) -> Vec<f64> {
    let cfg = SimConfig { model, astra: true, ..Default::default() };
    let out = simulate(&ring(4, 80.0, 100.0), &ranks(4), s, &cfg).unwrap();
    out.rank_finish_ns.iter().map(|t| t.unwrap()).collect()
}

#[test]
fn together_the_ring_all_gather_takes_three_message_times() {
    assert_eq!(finish(&all_gather(vec![0.0; 4]), Model::Unaware), vec![3.0 * TAU; 4]);
    assert_eq!(finish(&spec(Op::AllGather, Algo::Ring, 4, 1000.0), Model::Unaware), vec![3.0 * TAU; 4]);
}

/// Member 0 starts at d >= 3 tau. Member 3's three messages (sent at 0, tau, 2 tau as it forwards)
/// wait for member 0, which then runs its three steps at once and finishes at d; its three sends
/// reach member 1 at d + tau, whose forwards reach member 2 at d + 2 tau, and member 3 at d + 3 tau.
#[test]
fn a_member_late_by_more_than_the_collective_delays_the_ring_after_it() {
    let d = 1000.0;
    assert_eq!(finish(&all_gather(vec![d, 0.0, 0.0, 0.0]), Model::Unaware), vec![d, d + TAU, d + 2.0 * TAU, d + 3.0 * TAU]);
    // The same rotated: member 2 late.
    assert_eq!(finish(&all_gather(vec![0.0, 0.0, d, 0.0]), Model::Unaware), vec![d + 2.0 * TAU, d + 3.0 * TAU, d, d + TAU]);
}

/// Member 0 late by d < tau: only the chunk it forwards last is late, by d; it reaches member 3
/// (three places on) at d + 3 tau, and everyone else finishes at 3 tau as if together.
#[test]
fn a_slightly_late_member_delays_only_the_member_its_own_chunk_reaches_last() {
    let d = 100.0;
    assert_eq!(finish(&all_gather(vec![d, 0.0, 0.0, 0.0]), Model::Unaware), vec![3.0 * TAU, 3.0 * TAU, 3.0 * TAU, d + 3.0 * TAU]);
}

/// Congestion-aware: member 0's three sends at d share its link to member 1 (100 ns of
/// serialization each), arriving at d + 200, d + 300, d + 400; member 1 forwards each on arrival
/// (member 2 gets them at d + 400, d + 500), member 2 forwards its last at d + 400 (member 3 gets
/// it at d + 600).
#[test]
fn under_the_aware_model_a_late_member_s_burst_queues_on_its_link() {
    let d = 1000.0;
    assert_eq!(finish(&all_gather(vec![d, 0.0, 0.0, 0.0]), Model::Aware), vec![d, d + 400.0, d + 500.0, d + 600.0]);
}

#[test]
fn every_model_accepts_member_starts_and_nobody_finishes_before_starting() {
    for model in [Model::Unaware, Model::Aware, Model::Fair] {
        let starts = vec![0.0, 350.0, 0.0, 5000.0];
        let cfg = SimConfig { model, ..Default::default() };
        let mut s = spec(Op::AllReduce, Algo::Ring, 4, 4000.0);
        s.starts = vec![starts.clone()];
        let out = simulate(&ring(4, 80.0, 100.0), &ranks(4), &s, &cfg).unwrap();
        for (r, t) in out.rank_finish_ns.iter().enumerate() {
            assert!(t.unwrap() > starts[r], "{model:?}: rank {r} finishes at {t:?}, before it starts");
        }
        // An all-reduce needs every member's data: nobody finishes before the last start.
        assert!(out.rank_finish_ns.iter().all(|t| t.unwrap() > 5000.0), "{model:?}: {:?}", out.rank_finish_ns);
    }
}

#[test]
fn bad_member_starts_are_refused_with_what_was_expected() {
    let cfg = SimConfig::default();
    let t = ring(4, 80.0, 100.0);
    for (starts, want) in [
        (vec![vec![0.0; 3]], "4 members but 3 member starts"),
        (vec![vec![0.0, -1.0, 0.0, 0.0]], "member 1 of process group 0 starts at -1 ns"),
        (vec![vec![0.0, f64::NAN, 0.0, 0.0]], "starts at NaN ns"),
        (vec![vec![0.0; 4], vec![0.0; 4]], "member starts given for 2 process groups, but there are 1"),
    ] {
        let mut s = spec(Op::AllReduce, Algo::Ring, 4, 4000.0);
        s.starts = starts;
        let err = simulate(&t, &ranks(4), &s, &cfg).unwrap_err().to_string();
        assert!(err.contains(want), "{err}");
    }
}
