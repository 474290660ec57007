//! The event queue, ordered by (time, insertion sequence): events at the same instant run in the
//! order they were scheduled, so every run is deterministic. In `ordered` mode (the aware model)
//! an instant's message events run first, by the message's key (`set_key`), then by message
//! slot, then its steps in scheduling order: an order that does not depend on when an event was
//! scheduled, so a message may cross private links ahead of the clock (network::Network::hop)
//! without changing what happens. The engine keys a message by its sender's place and send
//! count, which a symmetry of the run maps onto itself (see `symmetry`), so a folded run orders
//! same-instant messages as the full run does.
use std::collections::VecDeque;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ev {
    /// A member's lane reaches step `step` of a phase (member-phase state `mps`).
    Step { mps: u32, lane: u8, step: u32 },
    /// ASTRA-sim compatibility: a received message's endpoint delay has passed and its reduction
    /// starts; lane `lane` reaches step `step` once it is done (see `Sim::processing`).
    Reduce { mps: u32, lane: u8, step: u32 },
    /// ASTRA-sim's direct all-reduce (`direct_packets`): a message of `round` is handed over to
    /// the collective (its receive was posted after it arrived).
    PacketReceived { mps: u32, round: u8 },
    /// ASTRA-sim compatibility: NPU `rank`'s list of system events for this instant runs
    /// (`sys_events`).
    SysEvents { rank: u32 },
    /// A member starts its part of the collective (`CollectiveSpec::starts`): the member-phase
    /// state of its chunk 0, phase 0.
    Start { mps: u32 },
    /// A message reaches its destination NPU.
    Deliver { msg: u32 },
    /// Fair-share model, when asked for (`FairShare::drained_events`): a message's last byte has
    /// left its sender (it is delivered after its route's latency).
    Drained { msg: u32 },
    /// Congestion-aware model: a message reaches the link at route-arena position `pos`, with
    /// `left` links to go after it (carried in the event so a hop needs no route lookup).
    Hop { msg: u32, pos: u32, left: u32 },
    /// ASTRA-sim compatibility, congestion-aware model: the link (the first of a hop's links)
    /// has serialized its message; its next waiting message starts (network::Network::link_free).
    LinkFree { link: u32 },
    /// Fair-share model: the earliest flow may have drained (stale unless `gen` is current).
    FairWake { gen: u32 },
    /// Fair-share model: flows were added; recompute rates once for the instant.
    FairRecompute,
    /// A workload session's own event (`engine::Session::at`): handed back to its caller, which
    /// decides what `kind` and `node` mean.
    External { kind: u8, node: u32 },
}

/// Future events wait in a radix heap keyed by the bit pattern of their time (non-negative f64
/// bits order like the numbers): bucket i > 0 holds the events whose time's bits first differ from
/// those of the last instant taken at bit i - 1, bucket 0 those at that instant. A push is an
/// append; taking the next instant sorts one bucket's events into lower ones, moving each event at
/// most once per bit. Buckets keep insertion order and are redistributed in order, so events of one
/// instant come out in scheduling order, as from a heap of (time, sequence). Collectives on
/// symmetric fabrics put thousands of events on one instant; they are taken as one batch.
pub struct EventQueue {
    buckets: Vec<Vec<(u64, Ev)>>,
    /// Bits of the last instant taken out of the buckets.
    last: u64,
    current_time: f64,
    current: VecDeque<Ev>,
    pub processed: u64,
    /// Same-instant order by `rank` instead of scheduling order (see the module note).
    pub ordered: bool,
    /// Per message slot, the key its events are ordered by (ordered mode; 0 when never set).
    keys: Vec<u64>,
}

impl Default for EventQueue {
    fn default() -> Self {
        EventQueue {
            buckets: (0..65).map(|_| Vec::new()).collect(),
            last: 0,
            current_time: 0.0,
            current: VecDeque::new(),
            processed: 0,
            ordered: false,
            keys: Vec::new(),
        }
    }
}

/// The radix-heap bucket of time bits `key` when `last` was the last instant taken.
fn bucket(key: u64, last: u64) -> usize {
    (64 - (key ^ last).leading_zeros()) as usize
}

/// Same-instant rank in ordered mode: message events by (key, slot), then steps (stable: FIFO).
fn rank(keys: &[u64], ev: &Ev) -> u128 {
    match ev {
        Ev::Hop { msg, .. } | Ev::Deliver { msg } | Ev::Drained { msg } => {
            let key = keys.get(*msg as usize).copied().unwrap_or(0);
            ((key as u128) << 32) | *msg as u128
        }
        _ => u128::MAX,
    }
}

impl EventQueue {
    /// A queue; `ordered`: same-instant order independent of scheduling time (module note).
    pub fn new(ordered: bool) -> Self {
        EventQueue { ordered, ..Default::default() }
    }

    /// The key message slot `msg`'s events are ordered by from now on (ordered mode): set when
    /// the slot is given a message, before its first event is pushed.
    pub fn set_key(&mut self, msg: u32, key: u64) {
        if self.ordered {
            let i = msg as usize;
            if i >= self.keys.len() {
                self.keys.resize(i + 1, 0);
            }
            self.keys[i] = key;
        }
    }

    pub fn push(&mut self, time: f64, ev: Ev) {
        debug_assert!(time >= self.current_time, "event scheduled in the past");
        if time == self.current_time && (!self.current.is_empty() || self.processed > 0) {
            if self.ordered {
                let keys = &self.keys;
                let r = rank(keys, &ev);
                let at = self.current.partition_point(|e| rank(keys, e) <= r);
                self.current.insert(at, ev);
            } else {
                self.current.push_back(ev);
            }
            return;
        }
        // +0.0 normalises -0.0.
        let key = (time + 0.0).to_bits();
        self.buckets[bucket(key, self.last)].push((key, ev));
    }

    /// When the next event is due, if any. Leaves the queue as it is (events may still be pushed
    /// before that time), so it scans the lowest non-empty bucket: for occasional use.
    pub fn peek_time(&self) -> Option<f64> {
        if !self.current.is_empty() {
            return Some(self.current_time);
        }
        let lowest = self.buckets.iter().find(|b| !b.is_empty())?;
        lowest.iter().map(|e| e.0).min().map(f64::from_bits)
    }

    pub fn pop(&mut self) -> Option<(f64, Ev)> {
        if self.current.is_empty() {
            if self.buckets[0].is_empty() {
                let i = (1..self.buckets.len()).find(|&i| !self.buckets[i].is_empty())?;
                let mut items = std::mem::take(&mut self.buckets[i]);
                self.last = items.iter().map(|e| e.0).min().expect("non-empty bucket");
                for (key, ev) in items.drain(..) {
                    self.buckets[bucket(key, self.last)].push((key, ev));
                }
                self.buckets[i] = items; // keeps its capacity; every event went to a lower bucket
            }
            let mut now = std::mem::take(&mut self.buckets[0]);
            self.current.extend(now.drain(..).map(|e| e.1));
            self.buckets[0] = now;
            if self.ordered {
                let keys = &self.keys;
                self.current.make_contiguous().sort_by_key(|e| rank(keys, e)); // stable: steps stay FIFO
            }
            self.current_time = f64::from_bits(self.last);
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

    /// Against a reference ordered by (time, same-instant rank, scheduling sequence), with random
    /// times spanning many exponents (radix buckets) and many events per instant.
    #[test]
    fn matches_a_heap_of_time_and_sequence() {
        for ordered in [false, true] {
            let mut x = 0x9E37_79B9_7F4A_7C15u64;
            let mut rnd = || {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x
            };
            let mut q = EventQueue::new(ordered);
            let mut reference = std::collections::BTreeMap::new();
            let (mut now, mut seq) = (0.0f64, 0u64);
            for round in 0..20_000 {
                if rnd() % 3 != 0 || reference.is_empty() {
                    let time = match rnd() % 4 {
                        0 => now,
                        1 => now + (rnd() % 8) as f64,
                        2 => now + (rnd() % 1000) as f64 * 0.125,
                        _ => now * 2.0 + (rnd() % 1_000_000) as f64,
                    };
                    let ev = if rnd() % 2 == 0 {
                        Ev::Deliver { msg: (rnd() % 50) as u32 }
                    } else {
                        Ev::Step { mps: round, lane: 0, step: 0 }
                    };
                    let r = if ordered { rank(&[], &ev) } else { 0 };
                    q.push(time, ev);
                    reference.insert((time.to_bits(), r, seq), ev);
                    seq += 1;
                } else {
                    let ((bits, _, _), want) = reference.pop_first().unwrap();
                    let (t, got) = q.pop().unwrap();
                    assert_eq!((t, got), (f64::from_bits(bits), want), "ordered={ordered}, round {round}");
                    now = t;
                }
            }
        }
    }
}
