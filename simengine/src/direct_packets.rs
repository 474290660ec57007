//! ASTRA-sim's direct all-reduce, packet by packet, as its system layer runs it (518bd51,
//! astra-sim/system/astraccl/native_collectives/collective_algorithm/AllToAll.cc and Ring.cc,
//! PacketBundle.cc, MemBus.cc; the network side in the analytical backend's
//! common/CommonNetworkApi.cc). Per member and chunk-phase of `n` members:
//!
//! - The first round sends one `1/n` share to each of the `n-1` others at once (the engine's
//!   step 0) and posts a receive for each. A first-round message that arrived before that is
//!   handed over when its receive is posted: an event at that instant, after the ones already due
//!   (`CommonNetworkApi::sim_recv` schedules the handler with a zero delay).
//! - Every handed-over message (`PacketReceived`) reaches the collective `endpoint delay` later
//!   (MemBus); one that needs processing (all first-round messages, and the second-round ones on
//!   a communicator group's ring of 3 or more, whose `Local` dimension counts `(n-1)^2`
//!   non-zero-latency packets) then registers its reduction as a further event; then the message
//!   frees one packet (`General`).
//! - A `General` event before all `n-1` first-round messages were handed over only counts the
//!   free packet. From then on, each `General` sends as many second-round messages as there are
//!   free packets, in the order of the first round; each send posts the receive from the member
//!   that sends to this one at the same index (a message already there is handed over as above).
//! - The member leaves the phase at the `General` that brings the free packets back to `n-1`
//!   after all second-round sends, i.e. once every message of both rounds has been processed.
use std::collections::HashMap;

use crate::fxhash::FxBuild;

/// One member's direct all-reduce in one chunk-phase.
#[derive(Default)]
struct Member {
    started: bool,
    /// First-round messages that arrived before the phase started.
    early: u32,
    /// Messages handed over (both rounds): ASTRA-sim's `total_packets_received`.
    received: u32,
    /// Free packets not yet spent on a send.
    free: u32,
    /// Second-round sends made, which is also the receives posted for the second round.
    sent: u32,
    /// Second-round messages that arrived before their receive was posted, by receive index.
    unclaimed: Vec<bool>,
}

/// What a `General` event does: the second-round sends (by index) that go now, and whether the
/// member leaves the phase.
#[derive(Debug, PartialEq)]
pub struct Released {
    pub sends: std::ops::Range<usize>,
    pub done: bool,
}

/// The state of every member-phase (by the engine's member-phase index) running the packetwise
/// direct all-reduce.
#[derive(Default)]
pub struct DirectPackets {
    members: HashMap<u32, Member, FxBuild>,
}

impl DirectPackets {
    /// The phase starts (its first round is sent): how many first-round messages were already
    /// there, each to be handed over by its own event at this instant.
    pub fn start(&mut self, mps: u32) -> u32 {
        let m = self.members.entry(mps).or_default();
        m.started = true;
        std::mem::take(&mut m.early)
    }

    /// A message of `round` (0 or 1) arrives; for round 1, `index` is the receive it matches
    /// (`DirectPackets::receive_index`). True when its receive is posted, so it is handed over
    /// now; else it waits for the receive.
    pub fn arrived(&mut self, mps: u32, round: usize, index: usize, n: usize) -> bool {
        let m = self.members.entry(mps).or_default();
        if round == 0 {
            if !m.started {
                m.early += 1;
            }
            return m.started;
        }
        if index < m.sent as usize {
            return true;
        }
        if m.unclaimed.is_empty() {
            m.unclaimed = vec![false; n - 1];
        }
        m.unclaimed[index] = true;
        false
    }

    /// A message is handed over to the collective.
    pub fn received(&mut self, mps: u32) {
        self.members.entry(mps).or_default().received += 1;
    }

    /// A message has been processed and frees a packet (`General`), with `n` members.
    pub fn general(&mut self, mps: u32, n: usize) -> Released {
        let last = n as u32 - 1;
        let m = self.members.entry(mps).or_default();
        m.free += 1;
        if m.received < last {
            return Released { sends: 0..0, done: false };
        }
        let go = m.free.min(last - m.sent);
        let sends = m.sent as usize..(m.sent + go) as usize;
        m.sent += go;
        m.free -= go;
        let done = m.sent == last && m.free == last;
        if done {
            self.members.remove(&mps);
        }
        Released { sends, done }
    }

    /// Second-round receive `index` is posted (with send `index`): true when its message is
    /// already there, to be handed over by its own event at this instant.
    pub fn posted(&mut self, mps: u32, index: usize) -> bool {
        let m = self.members.entry(mps).or_default();
        m.unclaimed.get_mut(index).is_some_and(std::mem::take)
    }

    /// The second-round receive a message from position `from` to position `to` matches: the
    /// sender's send index, since send `k` goes to `pos + 1 + k` and posts the receive from
    /// `pos - 1 - k` (AllToAll::process_max_count turns receiver and sender one step each; an
    /// all-reduce phase always runs clockwise, only all-gather phases run the other way).
    pub fn receive_index(from: usize, to: usize, n: usize) -> usize {
        (to + n - from - 1) % n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn second_round_waits_for_every_first_round_message_then_one_send_per_free_packet() {
        let (n, mps) = (4, 7);
        let mut d = DirectPackets::default();
        assert!(!d.arrived(mps, 0, 0, n)); // before the start: handed over at it
        assert_eq!(d.start(mps), 1);
        assert!(d.arrived(mps, 0, 0, n));
        d.received(mps);
        d.received(mps);
        // Two of three first-round messages handed over: the free packet only counts.
        assert_eq!(d.general(mps, n), Released { sends: 0..0, done: false });
        d.received(mps);
        assert_eq!(d.general(mps, n), Released { sends: 0..2, done: false });
        assert_eq!(d.general(mps, n), Released { sends: 2..3, done: false });
        for _ in 0..3 {
            d.received(mps);
        }
        assert_eq!(d.general(mps, n), Released { sends: 3..3, done: false });
        assert_eq!(d.general(mps, n), Released { sends: 3..3, done: false });
        assert_eq!(d.general(mps, n), Released { sends: 3..3, done: true });
    }

    #[test]
    fn an_early_second_round_message_waits_for_its_receive() {
        let (n, mps) = (3, 1);
        let mut d = DirectPackets::default();
        d.start(mps);
        assert!(!d.arrived(mps, 1, 1, n));
        d.received(mps);
        d.received(mps);
        assert_eq!(d.general(mps, n).sends, 0..1);
        assert!(!d.posted(mps, 0));
        assert_eq!(d.general(mps, n).sends, 1..2);
        assert!(d.posted(mps, 1));
        assert!(!d.posted(mps, 1));
        assert!(d.arrived(mps, 1, 0, n)); // its receive is posted already
    }

    #[test]
    fn receive_index_pairs_each_send_with_the_peer_sending_at_the_same_index() {
        let n = 5;
        for from in 0..n {
            for k in 0..n - 1 {
                let to = (from + 1 + k) % n;
                assert_eq!(DirectPackets::receive_index(from, to, n), k);
            }
        }
    }
}
