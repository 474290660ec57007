//! The event queue: a binary heap ordered by (time, insertion sequence), so events at the same
//! instant run in the order they were scheduled and every run is deterministic.
use std::cmp::Ordering;
use std::collections::BinaryHeap;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ev {
    /// A member's lane reaches step `step` of a phase (member-phase state `mps`).
    Step { mps: u32, lane: u8, step: u32 },
    /// A message reaches its destination NPU.
    Deliver { msg: u32 },
    /// Congestion-aware model: a message arrives at hop `hop` of its route.
    Hop { msg: u32, hop: u32 },
    /// Fair-share model: the earliest flow may have drained (stale unless `gen` is current).
    FairWake { gen: u32 },
    /// Fair-share model: flows were added; recompute rates once for the instant.
    FairRecompute,
}

#[derive(Debug, Clone, Copy)]
struct Entry {
    time: f64,
    seq: u64,
    ev: Ev,
}

impl PartialEq for Entry {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Entry {
    fn cmp(&self, o: &Self) -> Ordering {
        // Reversed: BinaryHeap is a max-heap and we want the earliest event first.
        o.time.total_cmp(&self.time).then(o.seq.cmp(&self.seq))
    }
}

#[derive(Default)]
pub struct EventQueue {
    heap: BinaryHeap<Entry>,
    seq: u64,
    pub processed: u64,
}

impl EventQueue {
    pub fn push(&mut self, time: f64, ev: Ev) {
        self.seq += 1;
        self.heap.push(Entry { time, seq: self.seq, ev });
    }

    pub fn pop(&mut self) -> Option<(f64, Ev)> {
        let e = self.heap.pop()?;
        self.processed += 1;
        Some((e.time, e.ev))
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
        let order: Vec<Ev> = std::iter::from_fn(|| q.pop().map(|e| e.1)).collect();
        assert_eq!(order, vec![Ev::Deliver { msg: 2 }, Ev::Deliver { msg: 1 }, Ev::Deliver { msg: 3 }]);
    }
}
