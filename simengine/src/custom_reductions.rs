//! The reductions of a custom collective schedule under the astra models, timed as ASTRA-sim
//! 518bd51 times its custom collectives.
//!
//! Why: ASTRA-sim runs a custom collective from one Chakra ET per NPU
//! (astra-sim/system/astraccl/custom_collectives/CustomAlgorithm.cc). A received message that
//! brings chunks to reduce is followed by a COMP node of its own, timed `duration_micros` x 1,000 ns
//! (0: 1 ns; no roofline there). Every node whose dependencies are done is issued at once and a
//! COMP node holds no resource, so the reductions of one step's messages run concurrently: the step
//! ends at the latest of (the message's arrival, or the step's start if later, + its reduction).
//! The built-in algorithms charge one reduction of all the step's reduced bytes after the last
//! arrival, at ASTRA-sim's built-in rate; under the astra models a schedule step uses this rule
//! instead, with the whole microseconds the exporter (infragraph/collectives/chakra_et.py) writes
//! into the COMP node, so an exported schedule times the same here and in ASTRA-sim.
use std::collections::HashMap;

use crate::fxhash::FxBuild;

/// The COMP node's `duration_micros` for reducing `bytes` at `local_mem_bw` GB/s (1e9 B/s):
/// ASTRA-sim's built-in reduction time, 3 x floor(bytes / bandwidth) ns (two reads and a write),
/// in whole microseconds cut down, as ASTRA-sim's own MSCCL-to-Chakra converter writes it
/// (github:astra-sim/collectiveapi `calculate_comp_time`, its bandwidth fixed at 50; the ETs it
/// shipped with 518bd51 hold 7 for 128 KiB).
pub fn micros(bytes: f64, local_mem_bw_gb_per_s: f64) -> u64 {
    let ns = 3.0 * (bytes / (local_mem_bw_gb_per_s * 1e9) * 1e9).floor();
    (ns / 1000.0).floor() as u64
}

/// What ASTRA-sim charges for that COMP node, in ns: 1 ns for 0 µs; nothing without bytes (the
/// exporter writes no node then).
pub fn reduction_ns(bytes: f64, local_mem_bw_gb_per_s: f64) -> f64 {
    if bytes <= 0.0 {
        return 0.0;
    }
    match micros(bytes, local_mem_bw_gb_per_s) {
        0 => 1.0,
        us => us as f64 * 1000.0,
    }
}

/// Reductions in flight and arrived, per receiving member-phase and step tag.
#[derive(Default)]
pub struct Reductions {
    /// Sent, not yet arrived: (receiver member-phase, tag, sender rank) -> its reduction in ns
    /// (one message per sender, receiver and step: a schedule merges the transfers of a pair's step).
    sent: HashMap<(u32, u32, u32), f64, FxBuild>,
    /// Per (member-phase, tag): when the receiver's step started (NaN: not yet), and the
    /// arrivals with their reductions.
    steps: HashMap<(u32, u32), (f64, Vec<(f64, f64)>), FxBuild>,
}

impl Reductions {
    /// A message the receiver reduces `ns` of is on its way.
    pub fn sent(&mut self, dst_mps: u32, tag: u32, src_rank: u32, ns: f64) {
        if ns > 0.0 {
            self.sent.insert((dst_mps, tag, src_rank), ns);
        }
    }

    /// A message arrived at `now` (a message without a reduction needs no record).
    pub fn arrived(&mut self, dst_mps: u32, tag: u32, src_rank: u32, now: f64) {
        if let Some(ns) = self.sent.remove(&(dst_mps, tag, src_rank)) {
            self.steps.entry((dst_mps, tag)).or_insert((f64::NAN, Vec::new())).1.push((now, ns));
        }
    }

    /// The receiver's step with `tag` started at `now`.
    pub fn started(&mut self, mps: u32, tag: u32, now: f64) {
        self.steps.entry((mps, tag)).or_insert((f64::NAN, Vec::new())).0 = now;
    }

    /// The step's last message arrived (or all had when it started) at `now`: when its last
    /// reduction ends. Forgets the step.
    pub fn done(&mut self, mps: u32, tag: u32, now: f64) -> f64 {
        match self.steps.remove(&(mps, tag)) {
            Some((start, arrivals)) => arrivals.iter().map(|&(a, ns)| a.max(start) + ns).fold(now, f64::max),
            None => now,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reduction_takes_whole_microseconds_as_the_et_stores_it() {
        // 131,072 B at 50 GB/s: 3 x 2,621 = 7,863 ns built in -> 7 us (ASTRA-sim's shipped ring ETs).
        assert_eq!(micros(131_072.0, 50.0), 7);
        assert_eq!(reduction_ns(131_072.0, 50.0), 7_000.0);
        // 3 x 333 = 999 ns -> 0 us, which ASTRA-sim runs as 1 ns; 3 x 334 = 1,002 -> 1 us.
        assert_eq!((micros(16_650.0, 50.0), reduction_ns(16_650.0, 50.0)), (0, 1.0));
        assert_eq!(reduction_ns(16_700.0, 50.0), 1_000.0);
        assert_eq!(reduction_ns(0.0, 50.0), 0.0);
    }

    #[test]
    fn a_step_ends_with_its_latest_reduction_not_the_sum() {
        let mut r = Reductions::default();
        r.sent(7, 3, 0, 5_000.0);
        r.sent(7, 3, 1, 2_000.0);
        r.sent(7, 3, 2, 0.0); // a copy: no record
        r.arrived(7, 3, 0, 100.0); // before the step starts at 400: reduces from 400
        r.started(7, 3, 400.0);
        r.arrived(7, 3, 1, 4_000.0);
        r.arrived(7, 3, 2, 6_000.0);
        assert_eq!(r.done(7, 3, 6_000.0), 6_000.0_f64.max(400.0 + 5_000.0).max(4_000.0 + 2_000.0));
        r.sent(7, 4, 0, 5_000.0);
        r.arrived(7, 4, 0, 10.0);
        r.started(7, 4, 20.0);
        assert_eq!(r.done(7, 4, 20.0), 5_020.0);
        assert_eq!(r.done(7, 5, 30.0), 30.0); // no reductions: the last arrival
        assert!(r.sent.is_empty() && r.steps.is_empty());
    }
}
