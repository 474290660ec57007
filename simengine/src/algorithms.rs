//! Collective algorithms as per-member step programs.
//!
//! One *phase* runs one algorithm among the `n` members of one dimension group. Each member walks
//! a sequence of steps per *lane* (independent sub-schedules: the two directions of a
//! bidirectional ring, the two trees of a double binary tree). A step issues its sends at once,
//! then waits for `recv` messages tagged with this step, then spends the endpoint delay (if it
//! received anything) plus the reduction time for `reduce_bytes`. Generating steps on demand,
//! instead of materialising programs, keeps memory flat for thousands of NPUs.
//!
//! Sizes follow the ASTRA-sim conventions of the design note: the phase input `bytes_in` is the
//! per-member buffer (All-Gather: the member's shard), and the reduction cost is charged once per
//! step on the step's reduced output.
use std::sync::Arc;

use crate::error::{SimError, SimResult};
use crate::schedule_program::Program;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    AllReduce,
    ReduceScatter,
    AllGather,
    AllToAll,
    Broadcast,
    Reduce,
    PointToPoint,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Algo {
    Ring,
    RingBidirectional,
    Direct,
    HalvingDoubling,
    DoubleBinaryTree,
    /// A custom schedule's transfers (`schedule_program`); the program comes with the phase.
    Schedule,
}

impl Op {
    pub fn parse(s: &str) -> SimResult<Op> {
        Ok(match s {
            "all-reduce" => Op::AllReduce,
            "reduce-scatter" => Op::ReduceScatter,
            "all-gather" => Op::AllGather,
            "all-to-all" => Op::AllToAll,
            "broadcast" => Op::Broadcast,
            "reduce" => Op::Reduce,
            "point-to-point" => Op::PointToPoint,
            _ => return Err(SimError::InvalidInput(format!("unknown collective '{s}'"))),
        })
    }
    pub fn name(self) -> &'static str {
        match self {
            Op::AllReduce => "all-reduce",
            Op::ReduceScatter => "reduce-scatter",
            Op::AllGather => "all-gather",
            Op::AllToAll => "all-to-all",
            Op::Broadcast => "broadcast",
            Op::Reduce => "reduce",
            Op::PointToPoint => "point-to-point",
        }
    }
}

impl Algo {
    pub fn parse(s: &str) -> SimResult<Algo> {
        Ok(match s {
            "ring" => Algo::Ring,
            "ring-bidirectional" | "bidirectional-ring" => Algo::RingBidirectional,
            "direct" => Algo::Direct,
            "halving-doubling" | "hd" => Algo::HalvingDoubling,
            "double-binary-tree" | "dbt" => Algo::DoubleBinaryTree,
            "schedule" => Algo::Schedule,
            _ => return Err(SimError::InvalidInput(format!("unknown algorithm '{s}'"))),
        })
    }
    pub fn name(self) -> &'static str {
        match self {
            Algo::Ring => "ring",
            Algo::RingBidirectional => "ring-bidirectional",
            Algo::Direct => "direct",
            Algo::HalvingDoubling => "halving-doubling",
            Algo::DoubleBinaryTree => "double-binary-tree",
            Algo::Schedule => "schedule",
        }
    }
}

/// One message a step sends: to a position in the dimension group, with the receiver's tag.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Send {
    pub to: usize,
    pub bytes: f64,
    pub tag: u32,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StepSpec {
    pub recv: u32,
    pub reduce_bytes: f64,
}

/// Receiver tag of a lane's step (lanes run independently, so their steps must not collide).
pub fn tag(lane: usize, step: usize) -> u32 {
    ((lane as u32) << 24) | step as u32
}

#[derive(Debug, Clone, PartialEq)]
pub struct PhaseAlgo {
    pub op: Op,
    pub algo: Algo,
    pub n: usize,
    pub bytes_in: f64,
    /// Root position (broadcast / reduce / point-to-point source).
    pub root: usize,
    /// ASTRA-sim mode: byte counts are integers and divisions truncate.
    pub integer: bool,
    /// The schedule of an `Algo::Schedule` phase.
    pub program: Option<Arc<Program>>,
    /// ASTRA-sim mode: the phase runs on a communicator group's ring (`CollectiveSpec::local_ring`).
    pub local_ring: bool,
    /// ASTRA-sim mode: the ring (and direct's order of peers) runs the other way round (to
    /// position - 1): the all-gather phases
    /// of a multi-dimensional all-reduce (QueueLevelHandler::get_next_queue_id_last gives them
    /// RingTopology::Direction::Anticlockwise).
    pub anticlockwise: bool,
}

impl PhaseAlgo {
    /// Checks the op/algorithm/size combination once, before simulation; a refusal is the
    /// algorithm option's (the group's size comes from the fabric, but the choice is the user's).
    pub fn validate(&self) -> SimResult<()> {
        self.check().map_err(|e| e.about("algorithm"))
    }

    fn check(&self) -> SimResult<()> {
        let unsupported = |why: &str| {
            Err(SimError::Unsupported(format!("{} {} on {} members: {why}", self.algo.name(), self.op.name(), self.n)))
        };
        if self.algo == Algo::Schedule {
            return match &self.program {
                None => unsupported("no schedule given for this dimension"),
                Some(p) if p.op != self.op || p.n != self.n => Err(SimError::Unsupported(format!(
                    "the schedule implements {} over {} ranks, but this phase runs {} over {} members (a \
                     multi-dimensional all-reduce under localBWAware runs reduce-scatter and all-gather phases, \
                     which an all-reduce schedule of reduce steps then copy steps provides; else use \
                     --optimization baseline)",
                    p.op.name(), p.n, self.op.name(), self.n
                ))),
                Some(_) => Ok(()),
            };
        }
        match (self.algo, self.op) {
            (_, Op::PointToPoint) => Ok(()),
            (Algo::HalvingDoubling, Op::AllToAll) => unsupported("use direct or ring for all-to-all"),
            (Algo::HalvingDoubling, _) if !self.n.is_power_of_two() => {
                unsupported("halving-doubling needs a power-of-two group size")
            }
            (Algo::DoubleBinaryTree, Op::AllReduce) if self.integer && !self.n.is_power_of_two() => {
                unsupported("ASTRA-sim's double binary tree covers a power-of-two number of NPUs")
            }
            (Algo::DoubleBinaryTree, Op::ReduceScatter | Op::AllGather | Op::AllToAll) => {
                unsupported(
                    "double binary tree implements all-reduce, broadcast and reduce (a multi-dimensional \
                     all-reduce with it needs collective optimization baseline)",
                )
            }
            _ => Ok(()),
        }
    }

    pub fn lanes(&self) -> usize {
        match (self.algo, self.op) {
            (_, Op::PointToPoint) => 1,
            (Algo::DoubleBinaryTree, Op::AllReduce) if self.integer => 1,
            (Algo::RingBidirectional | Algo::DoubleBinaryTree, _) => 2,
            _ => 1,
        }
    }

    pub(crate) fn div(&self, x: f64, k: f64) -> f64 {
        if self.integer {
            (x / k).floor()
        } else {
            x / k
        }
    }

    /// Bytes one lane carries.
    pub(crate) fn lane_bytes(&self) -> f64 {
        self.div(self.bytes_in, self.lanes() as f64)
    }

    /// Step `s` of `lane` for the member at position `pos`; `None` once the lane is finished.
    /// `chunk` is the phase's turn on its dimension (`JobPlan::turn`; ASTRA-sim alternates its two
    /// trees by it): the chunk's index when every chunk has one phase there.
    pub fn step(&self, pos: usize, lane: usize, s: usize, chunk: usize, sends: &mut Vec<Send>) -> Option<StepSpec> {
        sends.clear();
        if self.integer {
            if let Some(program) = self.astra_step(pos, s, chunk, sends) {
                return program;
            }
        }
        if self.op == Op::PointToPoint {
            return match (pos == self.root, s) {
                (true, 0) => {
                    sends.push(Send { to: 1 - self.root, bytes: self.bytes_in, tag: tag(0, 0) });
                    Some(StepSpec { recv: 0, reduce_bytes: 0.0 })
                }
                (false, 0) => Some(StepSpec { recv: 1, reduce_bytes: 0.0 }),
                _ => None,
            };
        }
        match self.algo {
            Algo::Schedule => {
                let program = self.program.as_ref().expect("validated: a schedule phase has its program");
                program.step(pos, s, self.bytes_in, |x, k| self.div(x, k), sends)
            }
            Algo::Ring => self.ring(pos, if self.anticlockwise { -1 } else { 1 }, lane, s, sends),
            Algo::RingBidirectional => self.ring(pos, if lane == 0 { 1 } else { -1 }, lane, s, sends),
            Algo::Direct => self.direct(pos, s, sends),
            Algo::HalvingDoubling => self.halving_doubling(pos, s, sends),
            Algo::DoubleBinaryTree => self.tree(pos, lane, s, sends),
        }
    }

    fn ring(&self, pos: usize, dir: i64, lane: usize, s: usize, sends: &mut Vec<Send>) -> Option<StepSpec> {
        let n = self.n;
        let nf = n as f64;
        let d = self.lane_bytes();
        let next = (pos as i64 + dir).rem_euclid(n as i64) as usize;
        let mut send = |bytes: f64, rtag: usize| sends.push(Send { to: next, bytes, tag: tag(lane, rtag) });
        let spec = |recv: u32, reduce_bytes: f64| Some(StepSpec { recv, reduce_bytes });
        match self.op {
            Op::AllReduce | Op::ReduceScatter | Op::AllGather | Op::AllToAll => {
                let steps = if self.op == Op::AllReduce { 2 * (n - 1) } else { n - 1 };
                if s >= steps {
                    return None;
                }
                let m = self.div(d, nf);
                match self.op {
                    Op::AllReduce => {
                        send(m, s);
                        spec(1, if s < n - 1 { m } else { 0.0 })
                    }
                    Op::ReduceScatter => {
                        send(m, s);
                        spec(1, m)
                    }
                    Op::AllGather => {
                        send(d, s);
                        spec(1, 0.0)
                    }
                    _ => {
                        // Store-and-forward all-to-all: step s relays the blocks still travelling.
                        send(m * (n - 1 - s) as f64, s);
                        spec(1, 0.0)
                    }
                }
            }
            Op::Broadcast => {
                // Chain from the root along `dir`; chain position p (root = 0).
                let p = ((pos as i64 - self.root as i64) * dir).rem_euclid(n as i64) as usize;
                match (p, s) {
                    (0, 0) => {
                        send(d, 0);
                        spec(0, 0.0)
                    }
                    (0, _) => None,
                    (_, 0) => spec(1, 0.0),
                    (p, 1) if p < n - 1 => {
                        send(d, 0);
                        spec(0, 0.0)
                    }
                    _ => None,
                }
            }
            Op::Reduce => {
                // Chain ending at the root: position p, root = n - 1.
                let start = self.root as i64 + dir;
                let p = ((pos as i64 - start) * dir).rem_euclid(n as i64) as usize;
                match (p, s) {
                    (0, 0) => {
                        send(d, 0);
                        spec(0, 0.0)
                    }
                    (0, _) => None,
                    (_, 0) => spec(1, d),
                    (p, 1) if p < n - 1 => {
                        send(d, 0);
                        spec(0, 0.0)
                    }
                    _ => None,
                }
            }
            Op::PointToPoint => unreachable!("handled in step()"),
        }
    }

    fn direct(&self, pos: usize, s: usize, sends: &mut Vec<Send>) -> Option<StepSpec> {
        let n = self.n;
        let d = self.bytes_in;
        let m = self.div(d, n as f64);
        // Peers in order pos+1, pos+2, ... so members do not all target the same peer first; the
        // other way round on an anticlockwise ring (ASTRA-sim's AllToAll turns its receiver in the
        // phase's direction, AllToAll::process_max_count).
        let mut to_all = |bytes: f64, rtag: usize| {
            for k in 1..n {
                let to = if self.anticlockwise { (pos + n - k) % n } else { (pos + k) % n };
                sends.push(Send { to, bytes, tag: tag(0, rtag) });
            }
        };
        let all = (n - 1) as u32;
        match (self.op, s) {
            (Op::AllReduce, 0) | (Op::ReduceScatter, 0) => {
                to_all(m, 0);
                Some(StepSpec { recv: all, reduce_bytes: m })
            }
            (Op::AllReduce, 1) => {
                to_all(m, 1);
                Some(StepSpec { recv: all, reduce_bytes: 0.0 })
            }
            (Op::AllGather, 0) => {
                to_all(d, 0);
                Some(StepSpec { recv: all, reduce_bytes: 0.0 })
            }
            (Op::AllToAll, 0) => {
                to_all(m, 0);
                Some(StepSpec { recv: all, reduce_bytes: 0.0 })
            }
            (Op::Broadcast, 0) if pos == self.root => {
                to_all(d, 0);
                Some(StepSpec { recv: 0, reduce_bytes: 0.0 })
            }
            (Op::Broadcast, 0) => Some(StepSpec { recv: 1, reduce_bytes: 0.0 }),
            (Op::Reduce, 0) if pos == self.root => Some(StepSpec { recv: all, reduce_bytes: d }),
            (Op::Reduce, 0) => {
                sends.push(Send { to: self.root, bytes: d, tag: tag(0, 0) });
                Some(StepSpec { recv: 0, reduce_bytes: 0.0 })
            }
            _ => None,
        }
    }

    fn halving_doubling(&self, pos: usize, s: usize, sends: &mut Vec<Send>) -> Option<StepSpec> {
        let n = self.n;
        let k = n.trailing_zeros() as usize;
        let d = self.bytes_in;
        let pow = |j: usize| (1usize << j) as f64;
        let exchange = |sends: &mut Vec<Send>, dist: usize, bytes: f64| {
            sends.push(Send { to: pos ^ dist, bytes, tag: tag(0, s) });
        };
        match self.op {
            Op::AllReduce | Op::ReduceScatter => {
                let steps = if self.op == Op::AllReduce { 2 * k } else { k };
                if s >= steps {
                    return None;
                }
                if s < k {
                    // Halving: step j = s+1 exchanges D/2^j with the peer at distance 2^(j-1).
                    // ASTRA-sim charges the reduction from the second exchange on.
                    let j = s + 1;
                    let m = self.div(d, pow(j));
                    exchange(sends, 1 << (j - 1), m);
                    Some(StepSpec { recv: 1, reduce_bytes: if j >= 2 { m } else { 0.0 } })
                } else {
                    // Doubling: back up from D/n at distance n/2 to D/2 at distance 1.
                    let t = s - k;
                    let m = self.div(d, pow(k - t));
                    exchange(sends, 1 << (k - 1 - t), m);
                    Some(StepSpec { recv: 1, reduce_bytes: 0.0 })
                }
            }
            Op::AllGather => {
                if s >= k {
                    return None;
                }
                exchange(sends, 1 << (k - 1 - s), d * pow(s));
                Some(StepSpec { recv: 1, reduce_bytes: 0.0 })
            }
            Op::Broadcast | Op::Reduce => {
                // Binomial tree in positions relative to the root; a member's lowest set bit
                // says how far its subtree reaches (the root owns all k levels).
                let v = pos ^ self.root;
                let h = if v == 0 { k } else { v.trailing_zeros() as usize };
                let real = |rel: usize| rel ^ self.root;
                if self.op == Op::Broadcast {
                    match s {
                        0 => Some(StepSpec { recv: if v == 0 { 0 } else { 1 }, reduce_bytes: 0.0 }),
                        i if i <= h => {
                            sends.push(Send { to: real(v + (1 << (h - i))), bytes: d, tag: tag(0, 0) });
                            Some(StepSpec { recv: 0, reduce_bytes: 0.0 })
                        }
                        _ => None,
                    }
                } else {
                    match s {
                        0 => Some(StepSpec { recv: h as u32, reduce_bytes: if h > 0 { d } else { 0.0 } }),
                        1 if v != 0 => {
                            sends.push(Send { to: real(v - (1 << h)), bytes: d, tag: tag(0, 0) });
                            Some(StepSpec { recv: 0, reduce_bytes: 0.0 })
                        }
                        _ => None,
                    }
                }
            }
            Op::AllToAll | Op::PointToPoint => None,
        }
    }

    /// Position of tree index `j` in lane `lane` (the second tree runs over the reversed order,
    /// so the leaves of one tree are the inner nodes of the other).
    fn tree_pos(&self, lane: usize, j: usize) -> usize {
        let n = self.n;
        let rooted = matches!(self.op, Op::Broadcast | Op::Reduce);
        match (lane, rooted) {
            (0, false) => j,
            (_, false) => n - 1 - j,
            (0, true) => (self.root + j) % n,
            (_, true) => (self.root + n - j) % n,
        }
    }

    fn tree_index(&self, lane: usize, pos: usize) -> usize {
        let n = self.n;
        let rooted = matches!(self.op, Op::Broadcast | Op::Reduce);
        match (lane, rooted) {
            (0, false) => pos,
            (_, false) => n - 1 - pos,
            (0, true) => (pos + n - self.root) % n,
            (_, true) => (self.root + n - pos) % n,
        }
    }

    fn tree(&self, pos: usize, lane: usize, s: usize, sends: &mut Vec<Send>) -> Option<StepSpec> {
        let n = self.n;
        let d = self.lane_bytes();
        let j = self.tree_index(lane, pos);
        let children: Vec<usize> = [2 * j + 1, 2 * j + 2].into_iter().filter(|&c| c < n).collect();
        let nc = children.len() as u32;
        let parent = if j == 0 { None } else { Some(self.tree_pos(lane, (j - 1) / 2)) };
        let to_children = |sends: &mut Vec<Send>, rtag: usize| {
            for &c in &children {
                sends.push(Send { to: self.tree_pos(lane, c), bytes: d, tag: tag(lane, rtag) });
            }
        };
        let reduce = if nc > 0 { d } else { 0.0 };
        match (self.op, s) {
            // All-reduce: 0 gather+reduce children, 1 send up / wait for result, 2 send down.
            (Op::AllReduce, 0) | (Op::Reduce, 0) => Some(StepSpec { recv: nc, reduce_bytes: reduce }),
            (Op::AllReduce, 1) | (Op::Reduce, 1) => {
                if let Some(p) = parent {
                    sends.push(Send { to: p, bytes: d, tag: tag(lane, 0) });
                }
                let wait = (self.op == Op::AllReduce && parent.is_some()) as u32;
                Some(StepSpec { recv: wait, reduce_bytes: 0.0 })
            }
            (Op::AllReduce, 2) => {
                to_children(sends, 1);
                Some(StepSpec { recv: 0, reduce_bytes: 0.0 })
            }
            (Op::Broadcast, 0) => Some(StepSpec { recv: parent.is_some() as u32, reduce_bytes: 0.0 }),
            (Op::Broadcast, 1) => {
                to_children(sends, 0);
                Some(StepSpec { recv: 0, reduce_bytes: 0.0 })
            }
            _ => None,
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Runs every member's lanes to completion with instantaneous delivery, checking that every
    /// message a step sends is expected by exactly one receiving step (tags match counts).
    pub(crate) fn check_matching(p: PhaseAlgo) -> f64 {
        check_matching_chunk(p, 0)
    }

    pub(crate) fn check_matching_chunk(p: PhaseAlgo, chunk: usize) -> f64 {
        use std::collections::HashMap;
        let mut sent: HashMap<(usize, u32), u32> = HashMap::new();
        let mut expected: HashMap<(usize, u32), u32> = HashMap::new();
        let mut bytes = 0.0;
        let mut buf = Vec::new();
        for pos in 0..p.n {
            for lane in 0..p.lanes() {
                let mut s = 0;
                while let Some(spec) = p.step(pos, lane, s, chunk, &mut buf) {
                    if spec.recv > 0 {
                        *expected.entry((pos, tag(lane, s))).or_default() += spec.recv;
                    }
                    for m in &buf {
                        assert_ne!(m.to, pos, "{p:?} sends to itself");
                        *sent.entry((m.to, m.tag)).or_default() += 1;
                        bytes += m.bytes;
                    }
                    s += 1;
                    assert!(s < 10_000);
                }
            }
        }
        assert_eq!(sent, expected, "{p:?}");
        bytes
    }

    fn phase(op: Op, algo: Algo, n: usize) -> PhaseAlgo {
        PhaseAlgo { op, algo, n, bytes_in: 1024.0 * 1024.0, root: 1 % n, integer: false, program: None, local_ring: false, anticlockwise: false }
    }

    #[test]
    fn every_algorithm_matches_sends_and_receives() {
        let ops = [Op::AllReduce, Op::ReduceScatter, Op::AllGather, Op::AllToAll, Op::Broadcast, Op::Reduce];
        let algos = [Algo::Ring, Algo::RingBidirectional, Algo::Direct, Algo::HalvingDoubling, Algo::DoubleBinaryTree];
        for &n in &[2usize, 3, 4, 7, 8, 16] {
            for op in ops {
                for algo in algos {
                    for integer in [false, true] {
                        let p = PhaseAlgo { integer, ..phase(op, algo, n) };
                        if p.validate().is_ok() {
                            check_matching_chunk(p.clone(), 0);
                            check_matching_chunk(p, 1);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn ring_all_reduce_sends_2_n_minus_1_over_n_of_the_buffer() {
        let p = phase(Op::AllReduce, Algo::Ring, 8);
        let per_member = check_matching(p.clone()) / 8.0;
        assert_eq!(per_member, 2.0 * 7.0 / 8.0 * p.bytes_in);
        let hd = phase(Op::AllReduce, Algo::HalvingDoubling, 8);
        assert_eq!(check_matching(hd) / 8.0, 2.0 * 7.0 / 8.0 * p.bytes_in);
    }

    #[test]
    fn broadcast_delivers_the_buffer_to_every_non_root_once() {
        for algo in [Algo::Ring, Algo::Direct, Algo::HalvingDoubling, Algo::DoubleBinaryTree] {
            let p = phase(Op::Broadcast, algo, 8);
            assert_eq!(check_matching(p.clone()), 7.0 * p.bytes_in, "{algo:?}");
        }
    }

    #[test]
    fn unsupported_combinations_are_errors() {
        assert!(matches!(phase(Op::AllReduce, Algo::HalvingDoubling, 6).validate(),
                         Err(SimError::About { field: "algorithm", .. })));
        assert!(phase(Op::AllToAll, Algo::DoubleBinaryTree, 8).validate().is_err());
    }
}
