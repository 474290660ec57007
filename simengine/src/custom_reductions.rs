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
//!
//! Also: a COMM_SEND node completes when its message arrives (the analytical backends call the
//! send's callback on arrival, CallbackTracker), and the custom algorithm ends, for its NPU, when no
//! node is left. So a member is done with a schedule only once its own sends have arrived too,
//! not when its last receipt is in (all-pairs: a member whose last receipt comes early still waits
//! for its last message to land).
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

/// A receiver step: when it started (NaN: not yet), and its arrivals as (time, reduction ns).
type StepArrivals = (f64, Vec<(f64, f64)>);

/// Messages in flight, reductions arrived, and members waiting for their own sends to land.
#[derive(Default)]
pub struct Reductions {
    /// Sent, not yet arrived: (receiver member-phase, tag, sender rank) -> (the receiver's
    /// reduction in ns, the sender's member-phase). One message per sender, receiver and step: a
    /// schedule merges the transfers of a pair's step.
    sent: HashMap<(u32, u32, u32), (f64, u32), FxBuild>,
    /// Per sender member-phase: its messages not yet arrived, and whether it has walked all its
    /// steps (then it is done when the count reaches 0).
    sending: HashMap<u32, (u32, bool), FxBuild>,
    /// Per (member-phase, tag): when the receiver's step started (NaN: not yet), and the
    /// arrivals with their reductions.
    steps: HashMap<(u32, u32), StepArrivals, FxBuild>,
}

impl Reductions {
    /// Member-phase `src_mps` sent a message the receiver reduces `ns` of (0: none).
    pub fn sent(&mut self, dst_mps: u32, tag: u32, src_rank: u32, ns: f64, src_mps: u32) {
        self.sent.insert((dst_mps, tag, src_rank), (ns, src_mps));
        self.sending.entry(src_mps).or_insert((0, false)).0 += 1;
    }

    /// A message arrived at `now`. Returns its sender's member-phase when that was the sender's
    /// last message in flight and the sender has walked all its steps: it is done now.
    pub fn arrived(&mut self, dst_mps: u32, tag: u32, src_rank: u32, now: f64) -> Option<u32> {
        let (ns, src_mps) = self.sent.remove(&(dst_mps, tag, src_rank))?;
        if ns > 0.0 {
            self.steps.entry((dst_mps, tag)).or_insert((f64::NAN, Vec::new())).1.push((now, ns));
        }
        let entry = self.sending.get_mut(&src_mps).expect("a sender of a message in flight is known");
        entry.0 -= 1;
        if entry.0 == 0 && entry.1 {
            self.sending.remove(&src_mps);
            return Some(src_mps);
        }
        None
    }

    /// `mps` has walked all its steps: true when it must still wait for messages of its own to land.
    pub fn wait_for_sends(&mut self, mps: u32) -> bool {
        match self.sending.get_mut(&mps) {
            Some(entry) if entry.0 > 0 => {
                entry.1 = true;
                true
            }
            _ => {
                self.sending.remove(&mps);
                false
            }
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
        r.sent(7, 3, 0, 5_000.0, 10);
        r.sent(7, 3, 1, 2_000.0, 11);
        r.sent(7, 3, 2, 0.0, 12); // a copy: no reduction
        r.arrived(7, 3, 0, 100.0); // before the step starts at 400: reduces from 400
        r.started(7, 3, 400.0);
        r.arrived(7, 3, 1, 4_000.0);
        r.arrived(7, 3, 2, 5_000.0);
        assert_eq!(r.done(7, 3, 5_000.0), 6_000.0); // 4,000 + 2,000, not 5,000 + 7,000
        r.sent(7, 4, 0, 5_000.0, 10);
        r.arrived(7, 4, 0, 10.0);
        r.started(7, 4, 20.0);
        assert_eq!(r.done(7, 4, 20.0), 5_020.0);
        assert_eq!(r.done(7, 5, 30.0), 30.0); // no reductions: the last arrival
        assert!(r.sent.is_empty() && r.steps.is_empty());
    }

    #[test]
    fn a_member_is_done_when_its_own_messages_have_landed() {
        let mut r = Reductions::default();
        r.sent(1, 0, 0, 0.0, 20);
        r.sent(2, 0, 0, 0.0, 20);
        assert_eq!(r.arrived(1, 0, 0, 5.0), None);
        assert!(r.wait_for_sends(20)); // walked all its steps, one message still in flight
        assert_eq!(r.arrived(2, 0, 0, 9.0), Some(20));
        r.sent(1, 1, 0, 0.0, 21);
        assert_eq!(r.arrived(1, 1, 0, 3.0), None); // still walking its steps
        assert!(!r.wait_for_sends(21));
        assert!(r.sending.is_empty());
    }
}
