//! A custom collective schedule (infragraph/collectives/schedule.py) as a per-member step program.
//!
//! Why a program of its own: the built-in algorithms generate their steps from a formula; a
//! schedule lists its transfers. Member `pos` walks the schedule's steps in order; step `s` sends
//! every transfer of step `s` whose source is `pos` (transfers to the same receiver in one step go
//! as one message of their summed chunks), then waits for the messages of step `s` addressed to
//! it, then pays the endpoint delay (if it received anything) and the reduction of the chunks it
//! received with `reduce` (under the astra models per message, concurrently: `custom_reductions`). So a member's step `s` starts when its own step `s - 1` is done: steps
//! are sequence points per member, not a global barrier. This is the built-in ring's step
//! discipline, which is why the ring written as a schedule times exactly like `ring`.
//!
//! Only the steps a member takes part in are its steps (a step without sends or receipts would
//! pass at once): a message's tag is its receiver's index among its own steps.
//!
//! Paths: a transfer may name the way it takes (`way`, an index into the run's explicit routes,
//! `NO_WAY`: routed by the engine). Transfers of one step from one sender to one receiver over
//! different ways are separate messages, so each crosses its own links (a DGX's four NVSwitch
//! chips carry four chunks side by side).
//!
//! Sizes: a transfer carries one chunk of the phase input; the input splits into `ranks x
//! chunks_per_rank` chunks, except for all-gather, whose input is the member's own shard of
//! `chunks_per_rank` chunks (the engine's size convention).
use crate::algorithms::{tag, Op, Send, StepSpec};
use crate::csr_runs::sort_dedup_run;
use crate::error::{SimError, SimResult};

/// A transfer without a path of its own: the engine routes it.
pub const NO_WAY: u32 = u32::MAX;

#[derive(Debug, PartialEq)]
pub struct Program {
    pub op: Op,
    pub n: usize,
    /// Chunks the phase input splits into: transfer bytes = input / divisor.
    pub divisor: f64,
    /// Per position, the range of its local steps (`n + 1` offsets): only the schedule steps in
    /// which it sends or receives (a step with neither passes at once, so skipping it changes no
    /// time and saves an event).
    pos_start: Vec<u32>,
    /// Per local step: range of `sends` (offsets, one more entry than local steps).
    send_start: Vec<u32>,
    /// (receiver position, chunks in the message, the receiver's local step = the message's tag,
    /// chunks of it the receiver reduces).
    sends: Vec<(u32, u32, u32, u32)>,
    /// Per local step: messages to wait for, chunks received with `reduce`.
    recv: Vec<u32>,
    reduce_chunks: Vec<u32>,
    /// Per entry of `sends`, the way (explicit route index) it takes; empty: every message routed.
    send_way: Vec<u32>,
}

impl Program {
    /// Builds the program from the schedule's transfers (parallel arrays; `reduce[i]` true for a
    /// reduce transfer; `way[i]` the explicit route it takes or `NO_WAY`, `way` empty: none has
    /// one). Every index is checked: a bad one is an InvalidInput naming transfer `i`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        op: Op,
        n: usize,
        chunks_per_rank: usize,
        steps: usize,
        step: &[u32],
        src: &[u32],
        dst: &[u32],
        reduce: &[bool],
        way: &[u32],
    ) -> SimResult<Program> {
        let bad = |why: String| Err(SimError::InvalidInput(format!("schedule: {why}")));
        if !matches!(op, Op::AllReduce | Op::ReduceScatter | Op::AllGather) {
            return bad(format!("a schedule implements all-reduce, reduce-scatter or all-gather, not {}", op.name()));
        }
        if n < 2 || chunks_per_rank == 0 {
            return bad(format!("{n} ranks and {chunks_per_rank} chunks per rank; expected >= 2 and >= 1"));
        }
        if step.len() != src.len() || src.len() != dst.len() || dst.len() != reduce.len() || !(way.is_empty() || way.len() == step.len()) {
            return bad("the transfer arrays differ in length".into());
        }
        if steps >= 1 << 24 || step.len() >= u32::MAX as usize / 2 {
            return bad(format!("{steps} steps or {} transfers are beyond the engine's index range", step.len()));
        }
        for i in 0..step.len() {
            let (s, a, b) = (step[i] as usize, src[i] as usize, dst[i] as usize);
            if s >= steps || a >= n || b >= n || a == b {
                return bad(format!("transfer {i} (step {s}, {a} -> {b}) is outside {steps} steps of {n} ranks"));
            }
        }
        // Each position's active steps, in order: the steps alone (4 B), bucketed by position
        // with a counting pass, each bucket sorted and deduplicated in place ((position, step)
        // pairs sorted as a whole cost 16 B per transfer, the largest buffer of the build).
        let (active, pos_start) = active_steps(n, step, src, dst);
        let local = |p: u32, s: u32| -> usize {
            let (lo, hi) = (pos_start[p as usize] as usize, pos_start[p as usize + 1] as usize);
            lo + active[lo..hi].partition_point(|&x| x < s)
        };
        let slots = active.len();
        // One message per (src, step, dst, way), in that order.
        let way_of = |i: usize| if way.is_empty() { NO_WAY } else { way[i] };
        let key_of = |i: usize| (src[i], step[i], dst[i], way_of(i));
        let mut order: Vec<u32> = (0..step.len() as u32).collect();
        order.sort_unstable_by_key(|&i| key_of(i as usize));
        let mut send_start = vec![0u32; slots + 1];
        // Exactly one record per message (grown by doubling, the vectors could hold twice that).
        let messages = if order.is_empty() { 0 } else { 1 + order.windows(2).filter(|w| key_of(w[0] as usize) != key_of(w[1] as usize)).count() };
        let mut sends: Vec<(u32, u32, u32, u32)> = Vec::with_capacity(messages);
        let mut recv = vec![0u32; slots];
        let mut reduce_chunks = vec![0u32; slots];
        let mut send_way: Vec<u32> = Vec::with_capacity(if way.is_empty() { 0 } else { messages });
        let mut last: Option<(u32, u32, u32, u32)> = None;
        for &i in &order {
            let i = i as usize;
            let key = key_of(i);
            let at_dst = local(dst[i], step[i]);
            if last == Some(key) {
                sends.last_mut().unwrap().1 += 1;
            } else {
                let tag = (at_dst - pos_start[dst[i] as usize] as usize) as u32;
                sends.push((dst[i], 1, tag, 0));
                if !way.is_empty() {
                    send_way.push(way[i]);
                }
                send_start[local(src[i], step[i]) + 1] += 1;
                recv[at_dst] += 1;
                last = Some(key);
            }
            if reduce[i] {
                reduce_chunks[at_dst] += 1;
                sends.last_mut().unwrap().3 += 1;
            }
        }
        for k in 0..slots {
            send_start[k + 1] += send_start[k];
        }
        let divisor = (if op == Op::AllGather { chunks_per_rank } else { n * chunks_per_rank }) as f64;
        Ok(Program { op, n, divisor, pos_start, send_start, sends, recv, reduce_chunks, send_way })
    }

    /// Local step `s` of the member at `pos` for a phase input of `bytes_in` (`div` divides as
    /// the phase does: truncating in ASTRA-sim mode); `None` once the member is done.
    pub fn step(&self, pos: usize, s: usize, bytes_in: f64, div: impl Fn(f64, f64) -> f64, sends: &mut Vec<Send>) -> Option<StepSpec> {
        let slot = self.pos_start[pos] as usize + s;
        if slot >= self.pos_start[pos + 1] as usize {
            return None;
        }
        let chunk = div(bytes_in, self.divisor);
        for &(to, chunks, at, _) in &self.sends[self.send_start[slot] as usize..self.send_start[slot + 1] as usize] {
            sends.push(Send { to: to as usize, bytes: chunk * chunks as f64, tag: tag(0, at as usize) });
        }
        Some(StepSpec { recv: self.recv[slot], reduce_bytes: chunk * self.reduce_chunks[slot] as f64 })
    }

    /// The way (explicit route index, or `NO_WAY`) of the `i`-th message local step `s` of `pos`
    /// sends (in `step`'s order).
    pub fn way(&self, pos: usize, s: usize, i: usize) -> u32 {
        if self.send_way.is_empty() {
            return NO_WAY;
        }
        self.send_way[self.send_start[self.pos_start[pos] as usize + s] as usize + i]
    }

    /// Of the `i`-th message local step `s` of `pos` sends (in `step`'s order): the fraction of
    /// its bytes the receiver reduces (`reduce` chunks / chunks).
    pub fn reduced_share(&self, pos: usize, s: usize, i: usize) -> f64 {
        let (_, chunks, _, reduced) = self.sends[self.send_start[self.pos_start[pos] as usize + s] as usize + i];
        reduced as f64 / chunks as f64
    }
}

/// Per position, the schedule steps it sends or receives in (ascending, each once), concatenated,
/// and the offsets of each position's run (`n + 1`).
fn active_steps(n: usize, step: &[u32], src: &[u32], dst: &[u32]) -> (Vec<u32>, Vec<u32>) {
    let mut start = vec![0usize; n + 1];
    for i in 0..step.len() {
        start[src[i] as usize + 1] += 1;
        start[dst[i] as usize + 1] += 1;
    }
    for p in 0..n {
        start[p + 1] += start[p];
    }
    let mut fill = start.clone();
    let mut steps = vec![0u32; 2 * step.len()];
    for i in 0..step.len() {
        for p in [src[i] as usize, dst[i] as usize] {
            steps[fill[p]] = step[i];
            fill[p] += 1;
        }
    }
    drop(fill);
    let mut pos_start = vec![0u32; n + 1];
    let mut kept = 0;
    for p in 0..n {
        kept = sort_dedup_run(&mut steps, start[p], start[p + 1], kept);
        pos_start[p + 1] = kept as u32;
    }
    steps.truncate(kept);
    steps.shrink_to_fit();
    (steps, pos_start)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ring all-reduce of the collectives package's `ring_schedule`, as transfer arrays.
    fn ring(n: u32) -> Program {
        let (mut step, mut src, mut dst, mut reduce) = (vec![], vec![], vec![], vec![]);
        for s in 0..2 * (n - 1) {
            for r in 0..n {
                step.push(s);
                src.push(r);
                dst.push((r + 1) % n);
                reduce.push(s < n - 1);
            }
        }
        Program::new(Op::AllReduce, n as usize, 1, 2 * (n as usize - 1), &step, &src, &dst, &reduce, &[]).unwrap()
    }

    #[test]
    fn ring_steps_send_one_chunk_to_the_next_member() {
        let p = ring(4);
        let mut sends = Vec::new();
        let spec = p.step(3, 0, 400.0, |x, k| x / k, &mut sends).unwrap();
        assert_eq!(sends, vec![Send { to: 0, bytes: 100.0, tag: tag(0, 0) }]);
        assert_eq!((spec.recv, spec.reduce_bytes), (1, 100.0));
        let spec = p.step(3, 3, 400.0, |x, k| x / k, &mut sends).unwrap();
        assert_eq!((spec.recv, spec.reduce_bytes), (1, 0.0));
        assert!(p.step(3, 6, 400.0, |x, k| x / k, &mut sends).is_none());
    }

    #[test]
    fn transfers_to_one_receiver_in_one_step_are_one_message() {
        let p = Program::new(Op::AllGather, 2, 2, 1, &[0, 0, 0, 0], &[0, 0, 1, 1], &[1, 1, 0, 0], &[false; 4], &[]).unwrap();
        let mut sends = Vec::new();
        let spec = p.step(0, 0, 10.0, |x, k| x / k, &mut sends).unwrap();
        assert_eq!(sends, vec![Send { to: 1, bytes: 10.0, tag: tag(0, 0) }]);
        assert_eq!(spec.recv, 1);
    }

    #[test]
    fn a_member_walks_only_the_steps_it_takes_part_in() {
        // step 0: 0 -> 1; step 3: 1 -> 2. Member 2's first own step is schedule step 3.
        let p = Program::new(Op::AllGather, 3, 1, 4, &[0, 3], &[0, 1], &[1, 2], &[false; 2], &[]).unwrap();
        let mut sends = Vec::new();
        let d = |x: f64, k: f64| x / k;
        assert_eq!(p.step(2, 0, 10.0, d, &mut sends).unwrap().recv, 1);
        assert!(p.step(2, 1, 10.0, d, &mut sends).is_none());
        sends.clear();
        p.step(1, 1, 10.0, d, &mut sends).unwrap();
        assert_eq!(sends, vec![Send { to: 2, bytes: 10.0, tag: tag(0, 0) }]);
    }

    #[test]
    fn a_message_knows_the_share_its_receiver_reduces() {
        // step 0: 0 sends chunks 0 (reduce) and 1 (copy) to 1, and chunk 2 (reduce) to 2.
        let p = Program::new(Op::AllReduce, 3, 1, 1, &[0, 0, 0], &[0, 0, 0], &[1, 1, 2], &[true, false, true], &[]).unwrap();
        let mut sends = Vec::new();
        p.step(0, 0, 30.0, |x, k| x / k, &mut sends).unwrap();
        assert_eq!(sends.iter().map(|x| (x.to, x.bytes)).collect::<Vec<_>>(), vec![(1, 20.0), (2, 10.0)]);
        assert_eq!((p.reduced_share(0, 0, 0), p.reduced_share(0, 0, 1)), (0.5, 1.0));
    }

    #[test]
    fn transfers_over_different_ways_are_separate_messages() {
        // step 0: 0 sends chunks 0 and 1 to 1 over ways 5 and 6, chunk 2 over way 5 again.
        let p = Program::new(Op::AllGather, 2, 3, 1, &[0; 3], &[0; 3], &[1; 3], &[false; 3], &[5, 6, 5]).unwrap();
        let mut sends = Vec::new();
        p.step(0, 0, 30.0, |x, k| x / k, &mut sends).unwrap();
        assert_eq!(sends.iter().map(|x| (x.to, x.bytes)).collect::<Vec<_>>(), vec![(1, 20.0), (1, 10.0)]);
        assert_eq!((p.way(0, 0, 0), p.way(0, 0, 1)), (5, 6));
        assert_eq!(p.step(1, 0, 30.0, |x, k| x / k, &mut Vec::new()).unwrap().recv, 2);
        let routed = Program::new(Op::AllGather, 2, 3, 1, &[0; 3], &[0; 3], &[1; 3], &[false; 3], &[]).unwrap();
        assert_eq!(routed.way(0, 0, 0), NO_WAY);
    }

    #[test]
    fn active_steps_are_each_positions_steps_sorted_once() {
        // (step, src, dst), in no order: 2 -> 0 at step 5, 0 -> 1 at steps 3 and 0 (twice), 1 -> 2 at 3.
        let (step, src, dst) = ([5, 3, 0, 0, 3], [2, 0, 0, 0, 1], [0, 1, 1, 1, 2]);
        let (active, pos_start) = active_steps(4, &step, &src, &dst);
        assert_eq!(pos_start, vec![0, 3, 5, 7, 7]);
        assert_eq!(active, vec![0, 3, 5, 0, 3, 3, 5]);
        assert_eq!(active.capacity(), active.len());
    }

    #[test]
    fn bad_transfers_are_errors() {
        assert!(Program::new(Op::AllGather, 2, 1, 1, &[0], &[0], &[0], &[false], &[]).is_err());
        assert!(Program::new(Op::AllGather, 2, 1, 1, &[1], &[0], &[1], &[false], &[]).is_err());
        assert!(Program::new(Op::Broadcast, 2, 1, 1, &[0], &[0], &[1], &[false], &[]).is_err());
    }
}
