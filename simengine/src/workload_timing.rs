//! The workload replay's timing when every collective and message is timed alone (`--model
//! astra`): a `Timing` that answers from a cache of engine runs by shape, so the replay's event
//! loop calls the caller only once per distinct run (a handful on a symmetric stack) instead of
//! once per collective and message, and keeps the report's records as columns.
//!
//! The caller numbers the shapes (infragraph/workload/timing.py decides them):
//! - a collective node's shape: (collective, the group's canonical image under the fabric's
//!   symmetries, size); the cache key adds every member's start offset from the first issue (none
//!   when all issue together), and the answer is per member position, so every group with the same
//!   image shares it (member `p` of a group is member `p` of its image);
//! - a message's shape (per point-to-point key): (source, destination, size); its answer is a
//!   duration, the same whenever the message is sent.
//!
//! Every use of an answer, cached or not, adds the run's bytes per link tier, in the loop's order
//! (the order the caller's own sums took, so the sums are the same to the bit).
use std::collections::HashMap;

use crate::workload_replay::Timing;

/// One engine run of a collective shape: every member's finish (group position order) and the
/// last finish, as offsets from the first issue (ns); its bus bandwidth; its bytes per link tier.
pub struct CollectiveRun {
    pub finish_offset: Vec<f64>,
    pub end_offset: f64,
    pub busbw: f64,
    pub tier_bytes: Vec<f64>,
}

/// A message shape's time from its send to its arrival (ns) and its bytes per link tier.
pub struct MessageRun {
    pub duration: f64,
    pub tier_bytes: Vec<f64>,
}

/// The engine runs the cache asks for on a miss.
pub trait Runs {
    type Error;
    /// Collective shape `shape` with member `p` starting at `starts[p]` ns after the first (empty:
    /// all together).
    fn collective(&mut self, shape: u32, starts: &[f64]) -> Result<CollectiveRun, Self::Error>;
    fn message(&mut self, shape: u32) -> Result<MessageRun, Self::Error>;
}

/// The report's records, one row per collective (in the order their last member issued them) and
/// per message (in send order): the node (a collective's last issuing member) and the times.
#[derive(Default)]
pub struct Records {
    pub coll_node: Vec<u32>,
    pub coll_start: Vec<f64>,
    pub coll_end: Vec<f64>,
    pub coll_last_issue: Vec<f64>,
    pub coll_busbw: Vec<f64>,
    pub msg_node: Vec<u32>,
    pub msg_start: Vec<f64>,
    pub msg_end: Vec<f64>,
}

/// `Timing` from `runs`, cached by shape: `coll_shape` per node (collective nodes), `msg_shape`
/// per point-to-point key (the DAG's `channel` of a send).
pub struct Cached<'a, R: Runs> {
    runs: R,
    coll_shape: &'a [u32],
    msg_shape: &'a [u32],
    channel: &'a [u32],
    collectives: HashMap<(u32, Vec<u64>), CollectiveRun>,
    messages: HashMap<u32, MessageRun>,
    /// Bytes per link tier over every collective and message timed so far.
    pub tier_bytes: Vec<f64>,
    pub records: Records,
}

impl<'a, R: Runs> Cached<'a, R> {
    pub fn new(runs: R, coll_shape: &'a [u32], msg_shape: &'a [u32], channel: &'a [u32]) -> Self {
        Cached { runs, coll_shape, msg_shape, channel, collectives: HashMap::new(), messages: HashMap::new(),
                 tier_bytes: Vec::new(), records: Records::default() }
    }

    fn add_tiers(total: &mut Vec<f64>, bytes: &[f64]) {
        if total.len() < bytes.len() {
            total.resize(bytes.len(), 0.0);
        }
        for (t, &b) in total.iter_mut().zip(bytes) {
            *t += b;
        }
    }
}

impl<R: Runs> Timing for Cached<'_, R> {
    type Error = R::Error;

    fn collective(&mut self, node: u32, issue_ns: &[f64]) -> Result<Vec<f64>, R::Error> {
        let start = issue_ns.iter().copied().fold(f64::INFINITY, f64::min);
        let last_issue = issue_ns.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let offsets: Vec<f64> = issue_ns.iter().map(|&t| t - start).collect();
        let key_offsets = if offsets.iter().any(|&o| o != 0.0) { offsets.iter().map(|o| o.to_bits()).collect() } else { vec![] };
        let key = (self.coll_shape[node as usize], key_offsets);
        if !self.collectives.contains_key(&key) {
            let starts = if key.1.is_empty() { &[][..] } else { &offsets[..] };
            let run = self.runs.collective(key.0, starts)?;
            self.collectives.insert(key.clone(), run);
        }
        let run = &self.collectives[&key];
        Self::add_tiers(&mut self.tier_bytes, &run.tier_bytes);
        let r = &mut self.records;
        r.coll_node.push(node);
        r.coll_start.push(start);
        r.coll_end.push(start + run.end_offset);
        r.coll_last_issue.push(last_issue);
        r.coll_busbw.push(run.busbw);
        Ok(run.finish_offset.iter().map(|&o| start + o).collect())
    }

    fn message(&mut self, node: u32, t: f64) -> Result<f64, R::Error> {
        let shape = self.msg_shape[self.channel[node as usize] as usize];
        if !self.messages.contains_key(&shape) {
            let run = self.runs.message(shape)?;
            self.messages.insert(shape, run);
        }
        let run = &self.messages[&shape];
        Self::add_tiers(&mut self.tier_bytes, &run.tier_bytes);
        let arrival = t + run.duration;
        let r = &mut self.records;
        r.msg_node.push(node);
        r.msg_start.push(t);
        r.msg_end.push(arrival);
        Ok(arrival)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts the runs asked for; a collective's member p finishes 100 x (p + 1) ns after its own
    /// start; a message takes 40 ns x (shape + 1); tiers: collective [1, 2], message [0.5].
    #[derive(Default)]
    struct Counting {
        asked: Vec<(u32, Vec<f64>)>,
    }
    impl Runs for Counting {
        type Error = ();
        fn collective(&mut self, shape: u32, starts: &[f64]) -> Result<CollectiveRun, ()> {
            self.asked.push((shape, starts.to_vec()));
            let finish_offset: Vec<f64> =
                (0..3).map(|p| starts.get(p).copied().unwrap_or(0.0) + 100.0 * (p as f64 + 1.0)).collect();
            let end_offset = finish_offset.iter().copied().fold(0.0, f64::max);
            Ok(CollectiveRun { finish_offset, end_offset, busbw: 7.0, tier_bytes: vec![1.0, 2.0] })
        }
        fn message(&mut self, shape: u32) -> Result<MessageRun, ()> {
            self.asked.push((1000 + shape, vec![]));
            Ok(MessageRun { duration: 40.0 * (shape as f64 + 1.0), tier_bytes: vec![0.5] })
        }
    }

    #[test]
    fn a_shape_runs_once_per_start_offsets_and_every_use_is_recorded() {
        // nodes 0..3: collectives of shape 0, 0, 1; nodes 3, 4: sends on p2p keys 0, 1, both of message shape 2
        let (coll_shape, msg_shape, channel) = ([0, 0, 1, 0, 0], [2, 2], [0, 0, 0, 0, 1]);
        let mut c = Cached::new(Counting::default(), &coll_shape, &msg_shape, &channel);
        assert_eq!(c.collective(0, &[500.0, 500.0, 500.0]).unwrap(), vec![600.0, 700.0, 800.0]);
        assert_eq!(c.collective(1, &[900.0, 900.0, 900.0]).unwrap(), vec![1000.0, 1100.0, 1200.0]); // cached
        assert_eq!(c.collective(1, &[10.0, 30.0, 10.0]).unwrap(), vec![110.0, 230.0, 310.0]); // new offsets
        assert_eq!(c.collective(0, &[20.0, 40.0, 20.0]).unwrap(), vec![120.0, 240.0, 320.0]); // same offsets
        assert_eq!(c.collective(2, &[0.0, 0.0, 0.0]).unwrap(), vec![100.0, 200.0, 300.0]); // another shape
        assert_eq!(c.message(3, 5.0).unwrap(), 125.0);
        assert_eq!(c.message(4, 9.0).unwrap(), 129.0); // another key, the same message shape
        assert_eq!(c.runs.asked, vec![(0, vec![]), (0, vec![0.0, 20.0, 0.0]), (1, vec![]), (1002, vec![])]);
        assert_eq!(c.tier_bytes, vec![5.0 + 1.0, 10.0]);
        let r = &c.records;
        assert_eq!(r.coll_node, vec![0, 1, 1, 0, 2]);
        assert_eq!(r.coll_start, vec![500.0, 900.0, 10.0, 20.0, 0.0]);
        assert_eq!(r.coll_end, vec![800.0, 1200.0, 310.0, 320.0, 300.0]);
        assert_eq!(r.coll_last_issue, vec![500.0, 900.0, 30.0, 40.0, 0.0]);
        assert_eq!((r.msg_node.clone(), r.msg_start.clone(), r.msg_end.clone()),
                   (vec![3, 4], vec![5.0, 9.0], vec![125.0, 129.0]));
    }
}
