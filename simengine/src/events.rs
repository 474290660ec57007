//! The event queue, ordered by (time, insertion sequence): events at the same instant run in the
//! order they were scheduled, so every run is deterministic. In `ordered` mode (the aware model)
//! an instant's message events run first, by message slot, then its steps in scheduling order:
//! an order that does not depend on when an event was scheduled, so a message may cross private
//! links ahead of the clock (network::Network::hop) without changing what happens.
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, VecDeque};

use crate::fxhash::FxBuild;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ev {
    /// A member's lane reaches step `step` of a phase (member-phase state `mps`).
    Step { mps: u32, lane: u8, step: u32 },
    /// Message `idx` of a step whose sends a staggered step released one by one.
    Send { mps: u32, lane: u8, step: u32, idx: u32 },
    /// A message reaches its destination NPU.
    Deliver { msg: u32 },
    /// Congestion-aware model: a message reaches the link at route-arena position `pos`, with
    /// `left` links to go after it (carried in the event so a hop needs no route lookup).
    Hop { msg: u32, pos: u32, left: u32 },
    /// Fair-share model: the earliest flow may have drained (stale unless `gen` is current).
    FairWake { gen: u32 },
    /// Fair-share model: flows were added; recompute rates once for the instant.
    FairRecompute,
}

/// Events are bucketed by exact time: a min-heap holds each distinct time once and a FIFO holds
/// that instant's events in scheduling order. Collectives on symmetric fabrics put thousands of
/// events on the same instant, so this pops far faster than a heap of individual events while
/// keeping the same (time, insertion order) semantics.
#[derive(Default)]
pub struct EventQueue {
    times: BinaryHeap<Reverse<u64>>,
    buckets: HashMap<u64, VecDeque<Ev>, FxBuild>,
    current_time: f64,
    current: VecDeque<Ev>,
    spare: Vec<VecDeque<Ev>>,
    pub processed: u64,
    /// Same-instant order by `key` instead of scheduling order (see the module note).
    pub ordered: bool,
}

/// Same-instant rank in ordered mode: message events by slot, then steps (stable: FIFO).
fn rank(ev: &Ev) -> u64 {
    match ev {
        Ev::Hop { msg, .. } | Ev::Deliver { msg } => *msg as u64,
        _ => u64::MAX,
    }
}

impl EventQueue {
    /// A queue; `ordered`: same-instant order independent of scheduling time (module note).
    pub fn new(ordered: bool) -> Self {
        EventQueue { ordered, ..Default::default() }
    }

    pub fn push(&mut self, time: f64, ev: Ev) {
        debug_assert!(time >= self.current_time, "event scheduled in the past");
        if time == self.current_time && (!self.current.is_empty() || self.processed > 0) {
            if self.ordered {
                let at = self.current.partition_point(|e| rank(e) <= rank(&ev));
                self.current.insert(at, ev);
            } else {
                self.current.push_back(ev);
            }
            return;
        }
        // Non-negative f64 bit patterns order like the numbers (+0.0 normalises -0.0).
        let key = (time + 0.0).to_bits();
        match self.buckets.get_mut(&key) {
            Some(b) => b.push_back(ev),
            None => {
                let mut b = self.spare.pop().unwrap_or_default();
                b.push_back(ev);
                self.buckets.insert(key, b);
                self.times.push(Reverse(key));
            }
        }
    }

    /// When the next event is due, if any.
    pub fn peek_time(&self) -> Option<f64> {
        if !self.current.is_empty() {
            return Some(self.current_time);
        }
        self.times.peek().map(|Reverse(key)| f64::from_bits(*key))
    }

    pub fn pop(&mut self) -> Option<(f64, Ev)> {
        if self.current.is_empty() {
            let Reverse(key) = self.times.pop()?;
            let next = self.buckets.remove(&key).expect("bucket for queued time");
            let old = std::mem::replace(&mut self.current, next);
            self.spare.push(old);
            if self.ordered {
                self.current.make_contiguous().sort_by_key(rank); // stable: steps stay FIFO
            }
            self.current_time = f64::from_bits(key);
        }
        let ev = self.current.pop_front()?;
        self.processed += 1;
        Some((self.current_time, ev))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn earliest_first_then_fifo() {
        let mut q = EventQueue::default();
        q.push(5.0, Ev::Deliver { msg: 1 });
        q.push(1.0, Ev::Deliver { msg: 2 });
        q.push(5.0, Ev::Deliver { msg: 3 });
        assert_eq!(q.pop(), Some((1.0, Ev::Deliver { msg: 2 })));
        q.push(1.0, Ev::Deliver { msg: 4 }); // same instant, scheduled while processing it
        q.push(5.0, Ev::Deliver { msg: 5 });
        let order: Vec<Ev> = std::iter::from_fn(|| q.pop().map(|e| e.1)).collect();
        let d = |msg| Ev::Deliver { msg };
        assert_eq!(order, vec![d(4), d(1), d(3), d(5)]);
    }
}
