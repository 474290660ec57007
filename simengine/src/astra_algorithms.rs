//! Step programs of the ASTRA-sim-compatible models (`astra`, `astra-aware`) where ASTRA-sim's
//! system layer (518bd51) behaves differently from our own algorithms. Facts, per algorithm:
//!
//! - Ring all-to-all: `(n-1)·n/2` messages of `D/n` bytes, each to the next NPU of the ring, each
//!   sent once the previous one has been received and has paid the endpoint delay (ASTRA-sim's
//!   ring counts `n(n-1)/2` streams for all-to-all and never shrinks the message).
//! - Halving-doubling: message sizes are halved with truncation at every step, and the doubling
//!   half of an all-reduce restarts from `floor(D/2n)` doubled; a reduction is charged when a
//!   message is received, on the size of the *next* message (none after the last halving step).
//! - Direct all-reduce: two rounds of a `1/n` share to every other member; the engine runs them
//!   packet by packet (`direct_packets`) and takes only the sends from here.
//! - Double binary tree: one full tree per chunk, chunk `c` on tree `c % 2`: tree 0 is the
//!   in-order complete tree on positions `0..n-1` under a single-child root `n-1`, tree 1 its
//!   mirror under root 0. Leaves send up after the endpoint delay and end once the result comes
//!   back (+ endpoint delay); inner nodes reduce each child's message, send up, reduce the
//!   parent's message and end as they send it to both children; the root reduces its child's
//!   message and sends it back down. Inner nodes and the root do not wait the endpoint delay when
//!   the phase starts.
use crate::algorithms::{tag, Algo, Op, PhaseAlgo, Send, StepSpec};

fn spec(recv: u32, reduce_bytes: f64) -> Option<StepSpec> {
    Some(StepSpec { recv, reduce_bytes })
}

/// A node of one of ASTRA-sim's two binary trees over positions `0..n` (n a power of two).
struct TreeNode {
    parent: Option<usize>,
    /// Left (smaller position) first.
    children: Vec<usize>,
}

/// Height of `x` inside the perfect in-order tree on `0..n-1` (0 = leaf).
fn height(x: usize) -> usize {
    (x + 1).trailing_zeros() as usize
}

/// Tree `which` (0: root n-1, 1: root 0) at position `pos`.
fn tree_node(n: usize, which: usize, pos: usize) -> TreeNode {
    // The perfect subtree holds positions `off..off+n-1`; the top root sits outside it.
    let (top, off) = if which == 0 { (n - 1, 0) } else { (0, 1) };
    let sub_root = n / 2 - 1; // in subtree coordinates
    if pos == top {
        return TreeNode { parent: None, children: vec![sub_root + off] };
    }
    let x = pos - off;
    let h = height(x);
    let children = if h == 0 { vec![] } else { vec![x - (1 << (h - 1)) + off, x + (1 << (h - 1)) + off] };
    let parent = if x == sub_root {
        top
    } else if ((x + 1) >> (h + 1)) & 1 == 0 {
        x + (1 << h) + off
    } else {
        x - (1 << h) + off
    };
    TreeNode { parent: Some(parent), children }
}

impl PhaseAlgo {
    /// ASTRA-sim's program for this step where it differs from ours; `None` to use ours.
    pub(crate) fn astra_step(&self, pos: usize, s: usize, chunk: usize, sends: &mut Vec<Send>) -> Option<Option<StepSpec>> {
        match (self.algo, self.op) {
            (Algo::Ring, Op::AllToAll) => Some(self.astra_ring_all_to_all(pos, s, sends)),
            (Algo::HalvingDoubling, Op::AllReduce | Op::ReduceScatter) => Some(self.astra_halving_doubling(pos, s, sends)),
            (Algo::Direct, Op::AllReduce) => Some(if s < 2 { self.direct_round(pos, s, sends) } else { None }),
            (Algo::DoubleBinaryTree, Op::AllReduce) => Some(self.astra_tree(pos, s, chunk, sends)),
            _ => None,
        }
    }

    /// Whether the phase is ASTRA-sim's direct all-reduce, which the engine runs packet by packet
    /// (`direct_packets`). Cheap, for the engine to ask on every delivered message.
    pub fn packetwise(&self) -> bool {
        self.integer && self.algo == Algo::Direct && self.op == Op::AllReduce
    }

    /// Whether a direct all-reduce message of `round` is reduced on arrival: every first-round
    /// one, and the second-round ones only in a communicator group of 3 or more members, whose
    /// ring is `Local`: AllToAll::get_non_zero_latency_packets counts (n-1)^2 non-zero-latency
    /// packets there where the whole system's counts n-1, so the second round's packets stay
    /// "processed" (Ring::insert_packet) instead of starting a new unprocessed batch (the same
    /// for n = 2).
    pub fn direct_processes(&self, round: usize) -> bool {
        round == 0 || (self.local_ring && self.n > 2)
    }

    /// Whether the member at `pos` waits the endpoint delay before the phase's first step.
    pub fn astra_start_delay(&self, pos: usize, chunk: usize) -> bool {
        !(self.integer
            && self.algo == Algo::DoubleBinaryTree
            && self.op == Op::AllReduce
            && !tree_node(self.n, chunk % 2, pos).children.is_empty())
    }

    fn astra_ring_all_to_all(&self, pos: usize, s: usize, sends: &mut Vec<Send>) -> Option<StepSpec> {
        let n = self.n;
        if s >= n * (n - 1) / 2 {
            return None;
        }
        sends.push(Send { to: (pos + 1) % n, bytes: self.div(self.bytes_in, n as f64), tag: tag(0, s) });
        spec(1, 0.0)
    }

    /// Bytes of message `s` (0-based) of a halving-doubling reduce-scatter or all-reduce, as
    /// ASTRA-sim computes them with truncating halvings.
    fn astra_hd_bytes(&self, s: usize) -> f64 {
        let k = self.n.trailing_zeros() as usize;
        let mut m = self.bytes_in as u64 / 2;
        for _ in 0..s.min(k) {
            m /= 2;
        }
        // m is now floor(D / 2^(min(s,k)+1)); the doubling half restarts from floor(D/2n) doubled.
        if s < k {
            m as f64
        } else {
            (m << (s - k + 1)) as f64
        }
    }

    fn astra_halving_doubling(&self, pos: usize, s: usize, sends: &mut Vec<Send>) -> Option<StepSpec> {
        let k = self.n.trailing_zeros() as usize;
        let steps = if self.op == Op::AllReduce { 2 * k } else { k };
        if s >= steps {
            return None;
        }
        let dist = if s < k { 1 << s } else { 1 << (2 * k - 1 - s) };
        sends.push(Send { to: pos ^ dist, bytes: self.astra_hd_bytes(s), tag: tag(0, s) });
        let reduce = if s + 1 < k { self.astra_hd_bytes(s + 1) } else { 0.0 };
        spec(1, reduce)
    }

    /// One round (`round` 0 or 1) of ASTRA-sim's direct all-reduce: a 1/n share to every other
    /// member, in the order of ASTRA-sim's receiver rotation (AllToAll::process_max_count).
    fn direct_round(&self, pos: usize, round: usize, sends: &mut Vec<Send>) -> Option<StepSpec> {
        let n = self.n;
        let m = self.div(self.bytes_in, n as f64);
        for k in 1..n {
            sends.push(Send { to: (pos + k) % n, bytes: m, tag: tag(0, round) });
        }
        spec((n - 1) as u32, if self.direct_processes(round) { m } else { 0.0 })
    }

    fn astra_tree(&self, pos: usize, s: usize, chunk: usize, sends: &mut Vec<Send>) -> Option<StepSpec> {
        let which = chunk % 2;
        let node = tree_node(self.n, which, pos);
        let d = self.bytes_in;
        // Step at which a node receives from its parent: leaves at 0, inner nodes at 1.
        let down_tag = |c: usize| tag(0, if tree_node(self.n, which, c).children.is_empty() { 0 } else { 1 });
        match (node.parent, node.children.is_empty(), s) {
            // Leaf: send up, wait for the result.
            (Some(p), true, 0) => {
                sends.push(Send { to: p, bytes: d, tag: tag(0, 0) });
                spec(1, 0.0)
            }
            // Inner node: reduce the children's messages, send up and reduce the parent's, send down.
            (Some(_), false, 0) => spec(2, d),
            (Some(p), false, 1) => {
                sends.push(Send { to: p, bytes: d, tag: tag(0, 0) });
                spec(1, d)
            }
            (Some(_), false, 2) | (None, _, 1) => {
                for &c in &node.children {
                    sends.push(Send { to: c, bytes: d, tag: down_tag(c) });
                }
                spec(0, 0.0)
            }
            // Root: reduce the only child's message.
            (None, _, 0) => spec(1, d),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn links(n: usize, which: usize) -> Vec<(usize, Option<usize>, Vec<usize>)> {
        (0..n).map(|p| {
            let t = tree_node(n, which, p);
            (p, t.parent, t.children)
        }).collect()
    }

    #[test]
    fn trees_are_astra_sims_in_order_trees() {
        // 8 NPUs: 7 -> 3 -> {1, 5}, 1 -> {0, 2}, 5 -> {4, 6}; mirror: 0 -> 4 -> {2, 6}, ...
        let t = links(8, 0);
        assert_eq!(t[7], (7, None, vec![3]));
        assert_eq!(t[3], (3, Some(7), vec![1, 5]));
        assert_eq!(t[1], (1, Some(3), vec![0, 2]));
        assert_eq!(t[6], (6, Some(5), vec![]));
        let m = links(8, 1);
        assert_eq!(m[0], (0, None, vec![4]));
        assert_eq!(m[4], (4, Some(0), vec![2, 6]));
        assert_eq!(m[2], (2, Some(4), vec![1, 3]));
        assert_eq!(m[7], (7, Some(6), vec![]));
        assert_eq!(links(2, 0), vec![(0, Some(1), vec![]), (1, None, vec![0])]);
    }

    fn astra(op: Op, algo: Algo, n: usize, bytes: f64) -> PhaseAlgo {
        PhaseAlgo { op, algo, n, bytes_in: bytes, root: 0, integer: true, program: None, local_ring: false, anticlockwise: false }
    }

    #[test]
    fn ring_all_to_all_sends_n_minus_1_times_n_over_2_equal_messages() {
        let p = astra(Op::AllToAll, Algo::Ring, 8, 8000.0);
        // 28 messages of 1000 B per NPU, 8 NPUs.
        assert_eq!(crate::algorithms::tests::check_matching(p), 8.0 * 28.0 * 1000.0);
    }

    #[test]
    fn tree_moves_the_whole_chunk_up_and_down_each_tree() {
        for chunk in [0, 1] {
            // n-1 edges, each carries the chunk up and down.
            let p = astra(Op::AllReduce, Algo::DoubleBinaryTree, 8, 100.0);
            assert_eq!(crate::algorithms::tests::check_matching_chunk(p, chunk), 2.0 * 7.0 * 100.0);
        }
        assert!(astra(Op::AllReduce, Algo::DoubleBinaryTree, 6, 100.0).validate().is_err());
    }

    #[test]
    fn only_leaves_wait_the_endpoint_delay_before_starting() {
        let p = astra(Op::AllReduce, Algo::DoubleBinaryTree, 8, 100.0);
        let waits: Vec<bool> = (0..8).map(|pos| p.astra_start_delay(pos, 0)).collect();
        assert_eq!(waits, vec![true, false, true, false, true, false, true, false]);
        assert!(!p.astra_start_delay(0, 1)); // root of the mirror tree
        assert!(astra(Op::AllReduce, Algo::Ring, 8, 100.0).astra_start_delay(1, 0));
    }

    #[test]
    fn direct_all_reduce_is_two_rounds_run_packetwise() {
        let p = astra(Op::AllReduce, Algo::Direct, 4, 400.0);
        let mut sends = Vec::new();
        for round in 0..2 {
            let st = p.step(1, 0, round, 0, &mut sends).unwrap();
            assert_eq!((st.recv, st.reduce_bytes), (3, if round == 0 { 100.0 } else { 0.0 }));
            assert_eq!(sends.iter().map(|s| (s.to, s.bytes, s.tag)).collect::<Vec<_>>(), vec![(2, 100.0, round as u32), (3, 100.0, round as u32), (0, 100.0, round as u32)]);
        }
        assert!(p.step(1, 0, 2, 0, &mut sends).is_none());
        assert!(p.packetwise() && !PhaseAlgo { integer: false, ..p.clone() }.packetwise());
        assert!(p.direct_processes(0) && !p.direct_processes(1));
        let local = PhaseAlgo { local_ring: true, ..p.clone() };
        assert!(local.direct_processes(1) && !PhaseAlgo { n: 2, ..local }.direct_processes(1));
    }

    #[test]
    fn halving_doubling_sizes_truncate_like_astra_sim() {
        let p = PhaseAlgo { op: Op::AllReduce, algo: Algo::HalvingDoubling, n: 4, bytes_in: 1001.0, root: 0, integer: true, program: None, local_ring: false, anticlockwise: false };
        // 1001/2 = 500, /2 = 250; doubling from floor(250/2) = 125: 250, 500.
        let sizes: Vec<f64> = (0..4).map(|s| p.astra_hd_bytes(s)).collect();
        assert_eq!(sizes, vec![500.0, 250.0, 250.0, 500.0]);
    }
}
