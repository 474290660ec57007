//! A schedule with per-chunk dependencies under the fair model: every directed link carries the
//! schedule's messages one at a time, in the order of the schedule's steps.
//!
//! Why: with per-chunk dependencies a transfer leaves as soon as its chunk is at its sender, so a
//! sender may start many transfers over one link at once (to one peer, or to several peers behind
//! one switch port). Under fair sharing each of them then takes as long as all of them together,
//! and the one the next step needs lands late (a synthesized 4x4 mesh all-reduce: 45 % of the
//! lower bound in the engine against 67 % in the synthesizer's model). One message at a time per
//! link, in step order, is the synthesizer's timing model (infragraph/collectives/replay.py: each
//! physical link serves its transfers in order) and what a per-peer send queue (an NCCL channel,
//! an MSCCL thread block) does. A message goes when it is first in line on every link of its
//! route; the links are free again when its last byte has left (`Ev::Drained`).
//!
//! No deadlock: a message waits for its data (messages of earlier steps) and for the messages
//! ahead of it on its links (an earlier step, or the same step and a lower chunk), so the message
//! first in (step, chunk) order among those not yet sent can always go.
//!
//! A transfer that names its path (a way: `schedule_program`) is ordered on that path's links;
//! the others on the engine's route for their pair. A *channel* is (sender, receiver, way): two
//! ways between one pair (a DGX's NVSwitch chips) are ordered apart, each on its own links.
//!
//! Positions are the schedule's ranks (members of the one process group the per-chunk groups
//! copy); `job` is the schedule chunk a per-chunk process group moves; the engine's own chunks
//! (`--chunks`) are `lane`s with an order each.
use std::collections::HashMap;

use crate::schedule_program::NO_WAY;

/// The schedule's messages in (step, chunk, sender, receiver, way) order, built once from the schedule.
#[derive(Debug, PartialEq)]
pub struct PairOrder {
    /// (sender, receiver, way) per channel id (`pair` below; way `NO_WAY`: routed by the engine).
    pub pairs: Vec<(u32, u32, u32)>,
    pair_of: HashMap<(u32, u32, u32), u32>,
    /// (pair, job) -> that job's messages on the pair (ids: places in the global order), in step order.
    msgs: HashMap<(u32, u32), Vec<u32>>,
    /// Pair of each message.
    msg_pair: Vec<u32>,
}

impl PairOrder {
    /// From the schedule's transfers (parallel arrays; `way` empty: none names a path). Transfers
    /// of one chunk between one pair over one way in one step are one message, as the per-chunk
    /// programs send them.
    pub fn new(step: &[u32], src: &[u32], dst: &[u32], chunk: &[u32], way: &[u32]) -> PairOrder {
        let way_of = |i: usize| if way.is_empty() { NO_WAY } else { way[i] };
        let mut all: Vec<(u32, u32, u32, u32, u32)> =
            (0..step.len()).map(|i| (step[i], chunk[i], src[i], dst[i], way_of(i))).collect();
        all.sort_unstable();
        all.dedup();
        let (mut pairs, mut pair_of, mut msgs, mut msg_pair) = (Vec::new(), HashMap::new(), HashMap::new(), Vec::new());
        for (id, &(_, c, a, b, w)) in all.iter().enumerate() {
            let pair = *pair_of.entry((a, b, w)).or_insert_with(|| {
                pairs.push((a, b, w));
                pairs.len() as u32 - 1
            });
            msgs.entry((pair, c)).or_insert_with(Vec::new).push(id as u32);
            msg_pair.push(pair);
        }
        PairOrder { pairs, pair_of, msgs, msg_pair }
    }
}

/// Per lane: each link's next place in its order and whether a message holds it, the message a
/// pair has in flight, the messages sent so far per (pair, job), and the ones waiting (`W`: what
/// the engine needs to send one) by message id.
struct Lane<W> {
    next: Vec<u32>,
    busy: Vec<bool>,
    flying: HashMap<u32, u32>,
    sent: HashMap<(u32, u32), u32>,
    waiting: HashMap<u32, W>,
}

pub struct PairGate<W> {
    /// Links of each pair's route (dense link ids), CSR.
    link_ptr: Vec<u32>,
    links: Vec<u32>,
    /// Messages crossing each dense link, in order, CSR.
    line_ptr: Vec<u32>,
    line: Vec<u32>,
    lanes: HashMap<u32, Lane<W>>,
}

impl<W> PairGate<W> {
    /// `route(src, dst, way)`: the directed links a message from position src to dst over `way`
    /// (`NO_WAY`: the engine's route) crosses; none: its
    /// messages are not ordered (a route sprayed over several ways, which the synthesizer models as
    /// separate links, each with its own order: holding every way for one message would serialize
    /// what runs side by side, as on a DGX's four NVSwitch chips).
    pub fn new<E>(order: &PairOrder, mut route: impl FnMut(u32, u32, u32) -> Result<Vec<u32>, E>) -> Result<Self, E> {
        let mut dense: HashMap<u32, u32> = HashMap::new();
        let (mut link_ptr, mut links) = (vec![0u32], Vec::new());
        for &(a, b, w) in &order.pairs {
            let mut ls: Vec<u32> = route(a, b, w)?
                .into_iter()
                .map(|l| {
                    let next = dense.len() as u32;
                    *dense.entry(l).or_insert(next)
                })
                .collect();
            ls.sort_unstable();
            ls.dedup();
            links.extend(ls);
            link_ptr.push(links.len() as u32);
        }
        let mut line_ptr = vec![0u32; dense.len() + 1];
        for &p in &order.msg_pair {
            for &l in &links[link_ptr[p as usize] as usize..link_ptr[p as usize + 1] as usize] {
                line_ptr[l as usize + 1] += 1;
            }
        }
        for i in 0..dense.len() {
            line_ptr[i + 1] += line_ptr[i];
        }
        let mut fill = line_ptr.clone();
        let mut line = vec![0u32; line_ptr[dense.len()] as usize];
        for (m, &p) in order.msg_pair.iter().enumerate() {
            for &l in &links[link_ptr[p as usize] as usize..link_ptr[p as usize + 1] as usize] {
                line[fill[l as usize] as usize] = m as u32;
                fill[l as usize] += 1;
            }
        }
        Ok(PairGate { link_ptr, links, line_ptr, line, lanes: HashMap::new() })
    }

    /// The same gate with nothing sent (a run restarted from the beginning).
    pub fn reset(&mut self) {
        self.lanes.clear();
    }

    fn links_of(&self, pair: u32) -> &[u32] {
        &self.links[self.link_ptr[pair as usize] as usize..self.link_ptr[pair as usize + 1] as usize]
    }

    /// Whether message `m` (of `pair`) is first in line and unblocked on every link of its route.
    fn may_go(&self, lane: &Lane<W>, pair: u32, m: u32) -> bool {
        self.links_of(pair).iter().all(|&l| !lane.busy[l as usize] && self.line[(self.line_ptr[l as usize] + lane.next[l as usize]) as usize] == m)
    }

    /// Job `job`'s next message from `src` to `dst` over `way` in `lane`: returned when it may go
    /// now (its links are then held until `done`), else kept until its turn.
    #[allow(clippy::too_many_arguments)]
    pub fn send(&mut self, order: &PairOrder, lane: u32, job: u32, src: u32, dst: u32, way: u32, msg: W) -> Option<W> {
        let pair = order.pair_of[&(src, dst, way)];
        let dense = self.line_ptr.len() - 1;
        let mut st = self.lanes.remove(&lane).unwrap_or_else(|| Lane {
            next: vec![0; dense],
            busy: vec![false; dense],
            flying: HashMap::new(),
            sent: HashMap::new(),
            waiting: HashMap::new(),
        });
        let k = st.sent.entry((pair, job)).or_insert(0);
        let m = order.msgs[&(pair, job)][*k as usize];
        *k += 1;
        if self.links_of(pair).is_empty() {
            self.lanes.insert(lane, st);
            return Some(msg);
        }
        let go = self.may_go(&st, pair, m);
        let out = if go {
            self.hold(&mut st, pair, m);
            Some(msg)
        } else {
            st.waiting.insert(m, msg);
            None
        };
        self.lanes.insert(lane, st);
        out
    }

    fn hold(&self, st: &mut Lane<W>, pair: u32, m: u32) {
        for &l in self.links_of(pair) {
            st.busy[l as usize] = true;
        }
        st.flying.insert(pair, m);
    }

    /// The last byte of the channel's message in flight has left: its links take their next
    /// messages; those that wait already and are first in line everywhere go (pushed to `out`).
    pub fn done(&mut self, order: &PairOrder, lane: u32, src: u32, dst: u32, way: u32, out: &mut Vec<W>) {
        let pair = order.pair_of[&(src, dst, way)];
        if self.links_of(pair).is_empty() {
            return;
        }
        let mut st = self.lanes.remove(&lane).expect("a gated message drained in a lane that sent none");
        st.flying.remove(&pair).expect("a gated message drained on a pair with none in flight");
        for &l in self.links_of(pair) {
            st.busy[l as usize] = false;
            st.next[l as usize] += 1;
        }
        for &l in self.links_of(pair) {
            let at = self.line_ptr[l as usize] + st.next[l as usize];
            if at >= self.line_ptr[l as usize + 1] || st.busy[l as usize] {
                continue;
            }
            let m = self.line[at as usize];
            let p = order.msg_pair[m as usize];
            if st.waiting.contains_key(&m) && self.may_go(&st, p, m) {
                let w = st.waiting.remove(&m).unwrap();
                self.hold(&mut st, p, m);
                out.push(w);
            }
        }
        self.lanes.insert(lane, st);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_carries_messages_in_step_order_one_at_a_time() {
        // Pair 0 -> 1 carries chunk 2 in step 0, chunk 0 and chunk 1 in step 1; pair 1 -> 0 chunk 0.
        let order = PairOrder::new(&[1, 1, 0, 0], &[0, 0, 0, 1], &[1, 1, 1, 0], &[0, 1, 2, 0], &[]);
        let mut gate: PairGate<&str> = PairGate::new(&order, |a, b, _| Ok::<_, ()>(vec![10 * a + b])).unwrap();
        let mut out = Vec::new();
        assert_eq!(gate.send(&order, 0, 1, 0, 1, NO_WAY, "c1"), None); // third in line: waits
        assert_eq!(gate.send(&order, 0, 0, 1, 0, NO_WAY, "other pair"), Some("other pair"));
        assert_eq!(gate.send(&order, 0, 2, 0, 1, NO_WAY, "c2"), Some("c2")); // first: goes
        assert_eq!(gate.send(&order, 0, 0, 0, 1, NO_WAY, "c0"), None); // second, but c2 holds the link
        assert_eq!(gate.send(&order, 1, 2, 0, 1, NO_WAY, "lane 1"), Some("lane 1")); // lanes are independent
        gate.done(&order, 0, 0, 1, NO_WAY, &mut out);
        assert_eq!(out, vec!["c0"]);
        gate.done(&order, 0, 0, 1, NO_WAY, &mut out);
        assert_eq!(out, vec!["c0", "c1"]);
        gate.done(&order, 0, 0, 1, NO_WAY, &mut out);
        assert_eq!(out.len(), 2);
    }

    #[test]
    fn a_pair_without_links_is_not_ordered() {
        let order = PairOrder::new(&[0, 1], &[0, 0], &[1, 1], &[0, 1], &[]);
        let mut gate: PairGate<&str> = PairGate::new(&order, |_, _, _| Ok::<_, ()>(vec![])).unwrap();
        let mut out = Vec::new();
        assert_eq!(gate.send(&order, 0, 1, 0, 1, NO_WAY, "step 1"), Some("step 1"));
        assert_eq!(gate.send(&order, 0, 0, 0, 1, NO_WAY, "step 0"), Some("step 0"));
        gate.done(&order, 0, 0, 1, NO_WAY, &mut out);
        assert!(out.is_empty());
    }

    #[test]
    fn two_ways_between_one_pair_are_ordered_apart() {
        // 0 -> 1 moves chunk 0 over way 0 (link 10) and chunk 1 over way 1 (link 11) in step 0, and
        // chunk 2 over way 0 in step 1: chunks 0 and 1 go at once, chunk 2 waits for chunk 0.
        let order = PairOrder::new(&[0, 0, 1], &[0, 0, 0], &[1, 1, 1], &[0, 1, 2], &[0, 1, 0]);
        let mut gate: PairGate<&str> = PairGate::new(&order, |_, _, w| Ok::<_, ()>(vec![10 + w])).unwrap();
        let mut out = Vec::new();
        assert_eq!(gate.send(&order, 0, 2, 0, 1, 0, "c2"), None);
        assert_eq!(gate.send(&order, 0, 0, 0, 1, 0, "c0"), Some("c0"));
        assert_eq!(gate.send(&order, 0, 1, 0, 1, 1, "c1"), Some("c1"));
        gate.done(&order, 0, 0, 1, 1, &mut out);
        assert!(out.is_empty());
        gate.done(&order, 0, 0, 1, 0, &mut out);
        assert_eq!(out, vec!["c2"]);
    }

    #[test]
    fn pairs_behind_one_port_take_turns() {
        // 0 -> 1 (step 0) and 0 -> 2 (step 1) share link 7 (0's switch port): 0 -> 2 waits.
        let order = PairOrder::new(&[0, 1], &[0, 0], &[1, 2], &[0, 1], &[]);
        let mut gate: PairGate<&str> = PairGate::new(&order, |_, b, _| Ok::<_, ()>(vec![7, 100 + b])).unwrap();
        let mut out = Vec::new();
        assert_eq!(gate.send(&order, 0, 1, 0, 2, NO_WAY, "to 2"), None);
        assert_eq!(gate.send(&order, 0, 0, 0, 1, NO_WAY, "to 1"), Some("to 1"));
        gate.done(&order, 0, 0, 1, NO_WAY, &mut out);
        assert_eq!(out, vec!["to 2"]);
    }
}
