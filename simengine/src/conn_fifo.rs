//! Under the fair model, a member's messages of one collective to one peer leave in order: the
//! next goes when the previous one's last byte has left the sender (`Ev::Drained`).
//!
//! Why: a member that starts late already holds every message it needs, so it walks its steps
//! back to back and issues all its ring-step messages to its successor at once. Max-min sharing
//! would give each 1/k of the link, none would land before all had drained, and the successor
//! would then do the same with its own: on a 4-rank ring reduce-scatter with one late member the
//! time after its issue was 1.9x the issued-together time, 5.8x on 16 GPUs in NCCL mode
//! (docs/workloads.md, "A late member under `fair`"). NCCL runs one channel's ring as one loop
//! over one connection to the next rank (src/device/all_reduce.h `runRing`: the reduce-scatter
//! steps, then the all-gather steps, then the next slice of the channel's data), and the
//! connection numbers its steps and posts them in order (src/device/prims_simple.h: `step`
//! advances by one slice per post, into a ring of NCCL_STEPS slots); channels are separate thread
//! blocks with separate connections. The aware model's FIFO links keep the order too. Draining,
//! not landing, frees the connection: the sender streams its steps back to back and the route's
//! latency overlaps them.
//!
//! A connection is (job, chunk, lane, sender, receiver). Phases share it, so an all-reduce's
//! all-gather steps queue behind its reduce-scatter steps to the same peer, as in `runRing`. Chunks share it when
//! one chunk at a time runs per dimension (they are then consecutive slices of one channel, as in
//! NCCL mode's pipelined chunks); with more active chunks per dimension each chunk is a channel of
//! its own and they run side by side, as NCCL's channels do. Lanes (a bidirectional ring's two
//! directions, a double binary tree's two trees) are channels of their own.
//!
//! Members that issue together send at most one message per connection at a time on a symmetric
//! fabric (a ring step's send follows the receive of the previous step, which left when the
//! member's own previous send did), so their times do not change.
use std::collections::hash_map::Entry;
use std::collections::{HashMap, VecDeque};

use crate::fxhash::FxBuild;

/// One member's channel to one peer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Conn {
    pub job: u32,
    /// The chunk, or `ALL_CHUNKS` when the chunks are slices of one channel.
    pub chunk: u32,
    pub lane: u8,
    /// Member indices in the job's group (the receiver's real index, not its representative's in
    /// a folded run).
    pub src: u32,
    pub dst: u32,
}

/// `Conn::chunk` when every chunk of a job travels on one connection.
pub const ALL_CHUNKS: u32 = u32::MAX;

/// A message on the wire: the network's message id when sent whole, or the engine's split entry
/// when sprayed over several ways (`Msg::parent`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Handle {
    Whole(u32),
    Sprayed(u32),
}

pub struct ConnFifo<W> {
    /// Connections with a message on the wire, each with the messages queued behind it.
    busy: HashMap<Conn, VecDeque<W>, FxBuild>,
    /// Each message on the wire, by message id (`Handle::Whole`) and by split entry
    /// (`Handle::Sprayed`): its connection and the parts of it still draining. Both are dense
    /// slot numbers the network and the engine reuse, so plain vectors.
    whole: Vec<Option<(Conn, u32)>>,
    sprayed: Vec<Option<(Conn, u32)>>,
}

impl<W> Default for ConnFifo<W> {
    fn default() -> Self {
        ConnFifo { busy: HashMap::default(), whole: Vec::new(), sprayed: Vec::new() }
    }
}

impl<W> ConnFifo<W> {
    /// `msg` for `conn`: returned when the connection is free (the caller sends it now and calls
    /// `on_wire`), else queued behind the messages issued before it.
    pub fn send(&mut self, conn: Conn, msg: W) -> Option<W> {
        match self.busy.entry(conn) {
            Entry::Occupied(mut queue) => {
                queue.get_mut().push_back(msg);
                None
            }
            Entry::Vacant(free) => {
                free.insert(VecDeque::new());
                Some(msg)
            }
        }
    }

    fn slot(&mut self, handle: Handle) -> &mut Option<(Conn, u32)> {
        let (v, i) = match handle {
            Handle::Whole(i) => (&mut self.whole, i as usize),
            Handle::Sprayed(i) => (&mut self.sprayed, i as usize),
        };
        if i >= v.len() {
            v.resize(i + 1, None);
        }
        &mut v[i]
    }

    /// The message `send` let go is on the wire as `handle`, in `parts` flows.
    pub fn on_wire(&mut self, conn: Conn, handle: Handle, parts: u32) {
        *self.slot(handle) = Some((conn, parts));
    }

    /// A flow of `handle` has drained. Once the whole message has, its connection's next message
    /// is returned with the connection (the caller sends it now and calls `on_wire`); None when
    /// nothing waits, or the flow is not one this queue let go (a workload's raw messages).
    pub fn drained(&mut self, handle: Handle) -> Option<(Conn, W)> {
        let slot = self.slot(handle);
        let (conn, parts) = slot.as_mut()?;
        *parts -= 1;
        if *parts > 0 {
            return None;
        }
        let conn = *conn;
        *slot = None;
        let Entry::Occupied(mut queue) = self.busy.entry(conn) else {
            unreachable!("a connection with a message on the wire is busy");
        };
        match queue.get_mut().pop_front() {
            Some(w) => Some((conn, w)),
            None => {
                queue.remove();
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conn(src: u32, dst: u32) -> Conn {
        Conn { job: 0, chunk: ALL_CHUNKS, lane: 0, src, dst }
    }

    #[test]
    fn one_connection_sends_in_issue_order_one_at_a_time() {
        let mut f: ConnFifo<&str> = ConnFifo::default();
        assert_eq!(f.send(conn(3, 0), "step 0"), Some("step 0"));
        f.on_wire(conn(3, 0), Handle::Whole(7), 1);
        assert_eq!(f.send(conn(3, 0), "step 1"), None);
        assert_eq!(f.send(conn(3, 0), "step 2"), None);
        assert_eq!(f.drained(Handle::Whole(7)), Some((conn(3, 0), "step 1")));
        f.on_wire(conn(3, 0), Handle::Whole(7), 1); // the slot is reused
        assert_eq!(f.drained(Handle::Whole(7)), Some((conn(3, 0), "step 2")));
        f.on_wire(conn(3, 0), Handle::Whole(9), 1);
        assert_eq!(f.drained(Handle::Whole(9)), None);
        assert_eq!(f.send(conn(3, 0), "next"), Some("next")); // free again
    }

    #[test]
    fn other_peers_lanes_and_jobs_are_other_connections() {
        let mut f: ConnFifo<u32> = ConnFifo::default();
        let a = conn(0, 1);
        assert_eq!(f.send(a, 1), Some(1));
        f.on_wire(a, Handle::Whole(1), 1);
        assert_eq!(f.send(conn(0, 2), 2), Some(2));
        assert_eq!(f.send(Conn { lane: 1, ..a }, 3), Some(3));
        assert_eq!(f.send(Conn { job: 1, ..a }, 4), Some(4));
        assert_eq!(f.send(Conn { chunk: 0, ..a }, 5), Some(5));
        assert_eq!(f.send(a, 6), None);
    }

    #[test]
    fn a_sprayed_message_frees_its_connection_when_every_part_has_drained() {
        let mut f: ConnFifo<&str> = ConnFifo::default();
        assert_eq!(f.send(conn(0, 1), "a"), Some("a"));
        f.on_wire(conn(0, 1), Handle::Sprayed(4), 3);
        assert_eq!(f.send(conn(0, 1), "b"), None);
        assert_eq!(f.drained(Handle::Sprayed(4)), None);
        assert_eq!(f.drained(Handle::Whole(4)), None); // another message's flow: not this one's
        assert_eq!(f.drained(Handle::Sprayed(4)), None);
        assert_eq!(f.drained(Handle::Sprayed(4)), Some((conn(0, 1), "b")));
    }
}
