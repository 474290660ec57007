//! Progress reports and early stops (the engine side of Ctrl-C).
mod common;
use std::time::Duration;

use _simengine::algorithms::{Algo, Op};
use _simengine::monitor::{Monitor, Progress};
use _simengine::network::Model;
use _simengine::{simulate, simulate_watched, SimConfig};
use common::*;

/// Records every report; says stop at report `stop_at` (0 = never).
struct Recorder {
    seen: Vec<Progress>,
    stop_at: usize,
}

impl Monitor for Recorder {
    fn report(&mut self, p: &Progress) -> bool {
        self.seen.push(*p);
        self.seen.len() != self.stop_at
    }
}

fn case() -> (_simengine::topology::Topology, _simengine::plan::CollectiveSpec, SimConfig) {
    (torus(&[16, 16], 100.0, 500.0), spec(Op::AllReduce, Algo::Ring, 256, 1048576.0), SimConfig { model: Model::Aware, ..Default::default() })
}

#[test]
fn watched_run_reports_progress_and_gives_the_same_answer() {
    let (t, s, cfg) = case();
    let mut rec = Recorder { seen: vec![], stop_at: 0 };
    let out = simulate_watched(&t, &ranks(256), &s, &cfg, &mut rec, Duration::ZERO).unwrap();
    let plain = simulate(&t, &ranks(256), &s, &cfg).unwrap();
    assert_eq!(out.collective_time_ns, plain.collective_time_ns);
    assert!(out.stopped_at_ns.is_none());
    assert!(rec.seen.len() >= 10);
    let last = rec.seen.last().unwrap();
    // A flat ring of 256: 2 * 255 steps per member plus the step that finds it finished.
    assert_eq!(last.steps_total, 256 * 511);
    assert!(last.steps_done <= last.steps_total && last.fraction() > 0.5);
    assert!(rec.seen.windows(2).all(|w| w[0].sim_time_ns <= w[1].sim_time_ns && w[0].events < w[1].events));
}

#[test]
fn a_stopped_run_is_partial() {
    let (t, s, cfg) = case();
    let mut rec = Recorder { seen: vec![], stop_at: 2 };
    let out = simulate_watched(&t, &ranks(256), &s, &cfg, &mut rec, Duration::ZERO).unwrap();
    let stopped = out.stopped_at_ns.expect("partial");
    assert_eq!(stopped, rec.seen[1].sim_time_ns);
    assert_eq!(out.collective_time_ns, stopped);
    assert!(out.rank_finish_ns.iter().all(|f| f.is_none()), "no rank finished a ring this early");
    assert!(out.delivered < out.messages || out.messages < 256 * 510);
}
