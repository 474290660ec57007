//! The schedule validator over columns (infragraph/collectives/columns.py): every rank ends with
//! every chunk it must hold, each rank's contribution reduced into it exactly once.
//!
//! Why not bit masks: the exact state, one bit per (rank, chunk, contributing rank), is n^2 K bits
//! per rank — 550 TB at 16,384 ranks. Here the state of (rank, chunk) is the linear form of its
//! contributions: how many it holds (exact, u32) and a fingerprint, the sum of one random 61-bit
//! weight per contributing rank modulo the prime p = 2^61 - 1 (12 B per (rank, chunk): 3.2 GB at
//! 16,384 ranks, one chunk each). A copy copies both; a reduce adds both. A count above n is
//! refused at the step it happens (some contribution twice), so every multiplicity stays below
//! p; then a final state other than "each rank exactly once" has the right count and
//! fingerprint only if a nonzero vector of multiplicity differences, each in -1..n, is orthogonal
//! to the weights mod p: probability 1/p < 4.4e-19 per (rank, chunk) over the weights, which are
//! drawn per run from `seed` (callers draw it from the OS). A correct schedule is never refused.
//!
//! Semantics as the format's (schedule.py): a step's transfers read the state at the start of
//! the step; a copy replaces the receiver's state, a reduce adds to it (to what earlier transfers
//! of the same step left); a receiver may get a chunk by copy once per step.

use crate::prefetch::{prefetch_entry, AHEAD};

const P: u64 = (1 << 61) - 1;

/// A column of unsigned little-endian values of `width` bytes (2 or 4).
#[derive(Clone, Copy)]
pub struct Col<'a> {
    pub bytes: &'a [u8],
    pub width: usize,
}

impl Col<'_> {
    pub fn len(&self) -> usize {
        self.bytes.len() / self.width
    }

    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    #[inline]
    pub fn get(&self, i: usize) -> usize {
        let b = &self.bytes[i * self.width..(i + 1) * self.width];
        if self.width == 2 {
            u16::from_le_bytes([b[0], b[1]]) as usize
        } else {
            u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize
        }
    }
}

/// The collective a schedule must implement.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Goal {
    AllGather,
    ReduceScatter,
    AllReduce,
}

/// A schedule as columns: transfers of step s are `step_ptr[s] .. step_ptr[s + 1]`.
pub struct Columns<'a> {
    pub goal: Goal,
    pub ranks: usize,
    pub chunks_per_rank: usize,
    pub step_ptr: &'a [u64],
    pub src: Col<'a>,
    pub dst: Col<'a>,
    pub chunk: Col<'a>,
    pub reduce: &'a [u8],
}

fn weight(seed: u64, r: usize) -> u64 {
    let mut z = seed.wrapping_add((r as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    1 + z % (P - 1) // 1 ..= p - 1: a zero weight would hide its rank
}

#[inline]
fn add(a: u64, b: u64) -> u64 {
    let s = a + b; // both < 2^61: no overflow
    if s >= P {
        s - P
    } else {
        s
    }
}

/// Check the columns' shape and ranges (the readers check them too, with document paths; this
/// keeps the proof from indexing out of range whoever calls it).
fn check_shape(s: &Columns) -> Result<(), String> {
    let t = s.reduce.len();
    if s.src.len() != t || s.dst.len() != t || s.chunk.len() != t {
        return Err(format!("columns differ in length: src {}, dst {}, chunk {}, op {}", s.src.len(), s.dst.len(), s.chunk.len(), t));
    }
    if s.step_ptr.first() != Some(&0) || *s.step_ptr.last().unwrap() as usize != t || s.step_ptr.windows(2).any(|w| w[0] > w[1]) {
        return Err(format!("step offsets must rise from 0 to the {t} transfers"));
    }
    if s.ranks == 0 || s.chunks_per_rank == 0 {
        return Err("a schedule needs ranks and chunks".into());
    }
    let chunks = s.ranks * s.chunks_per_rank;
    // The first bad transfer of each part; the first part's that has one is the first overall.
    let bad = |range: std::ops::Range<usize>| {
        range.into_iter().find(|&i| {
            let (a, b, c) = (s.src.get(i), s.dst.get(i), s.chunk.get(i));
            a >= s.ranks || b >= s.ranks || a == b || c >= chunks || s.reduce[i] > 1
        })
    };
    let parts = split(0..t, threads(t));
    let found = std::thread::scope(|scope| {
        let handles: Vec<_> = parts.into_iter().map(|r| scope.spawn(move || bad(r))).collect();
        handles.into_iter().map(|h| h.join().expect("shape check thread")).collect::<Vec<_>>()
    });
    if let Some(i) = found.into_iter().flatten().next() {
        let (a, b, c) = (s.src.get(i), s.dst.get(i), s.chunk.get(i));
        return Err(format!("transfer {i}: src {a}, dst {b}, chunk {c}, op {} (ranks 0..{}, chunks 0..{}, op 0 or 1)",
                           s.reduce[i], s.ranks - 1, chunks - 1));
    }
    Ok(())
}

/// Threads for a schedule of `t` transfers: 2 from a million on (the machine's two cores; the
/// answer does not depend on it), else 1.
fn threads(t: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if t >= 1 << 20 { cores.min(2) } else { 1 }
}

/// `range` cut into `parts` consecutive pieces (the first ones longer by one).
fn split(range: std::ops::Range<usize>, parts: usize) -> Vec<std::ops::Range<usize>> {
    let (len, parts) = (range.len(), parts.max(1));
    (0..parts).map(|p| range.start + p * len / parts..range.start + (p + 1) * len / parts).collect()
}

/// A (rank, chunk)'s state: the fingerprint of the contributions it holds (< p, so bit 63 is
/// free: it marks a receipt by copy in the current step) and their count. Packed, 12 B: at 16,384
/// ranks there are 268 M of them (3.2 GB), each touched in no useful order, so one entry is one
/// cache miss (count and fingerprint in two arrays, as before, were two).
#[repr(C, packed)]
#[derive(Clone, Copy)]
struct State {
    print: u64,
    count: u32,
}

const COPIED: u64 = 1 << 63;

/// Where the proof of one part of the chunks fails: at transfer `at` (in step and list order) or,
/// after the last step, at (chunk, rank) `end`; with the message.
enum Failure {
    At(usize, String),
    End(usize, usize, String),
}

/// Prove `s` implements its collective, or say where it does not: the first failing transfer
/// (step, ranks, chunk) in step and list order, else the first (chunk, rank) that ends wrong.
///
/// Transfers of different chunks never touch the same state, so the chunks are cut into ranges
/// proven side by side (two threads on the project's machine), each reading every step and
/// keeping its own chunks' transfers; the first failure in that order over all ranges is the one
/// a single pass would stop at, so the answer does not depend on the number of threads.
pub fn prove(s: &Columns, seed: u64) -> Result<(), String> {
    prove_in(s, seed, threads(s.reduce.len()))
}

/// `prove` with the chunks cut into `parts` ranges, one thread each.
fn prove_in(s: &Columns, seed: u64, parts: usize) -> Result<(), String> {
    check_shape(s)?;
    let chunks = s.ranks * s.chunks_per_rank;
    let w: Vec<u64> = (0..s.ranks).map(|r| weight(seed, r)).collect();
    let parts = split(0..chunks, parts.clamp(1, chunks));
    let failures = std::thread::scope(|scope| {
        let handles: Vec<_> = parts.into_iter().map(|range| {
            let w = &w;
            scope.spawn(move || prove_chunks(s, w, range))
        }).collect();
        handles.into_iter().map(|h| h.join().expect("proof thread")).collect::<Vec<_>>()
    });
    let mut first: Option<(usize, String)> = None;
    let mut end: Option<((usize, usize), String)> = None;
    for f in failures.into_iter().flatten() {
        match f {
            Failure::At(i, msg) if first.as_ref().is_none_or(|(j, _)| i < *j) => first = Some((i, msg)),
            Failure::End(c, r, msg) if end.as_ref().is_none_or(|(k, _)| (c, r) < *k) => end = Some(((c, r), msg)),
            _ => {}
        }
    }
    match (first, end) {
        (Some((_, msg)), _) | (None, Some((_, msg))) => Err(msg),
        (None, None) => Ok(()),
    }
}

/// The proof of the chunks `range` (see `prove`): its first failure, if any.
fn prove_chunks(s: &Columns, w: &[u64], range: std::ops::Range<usize>) -> Option<Failure> {
    let (n, k) = (s.ranks, s.chunks_per_rank);
    let all = w.iter().fold(0u64, |acc, &x| add(acc, x));
    let (lo, width) = (range.start, range.len());
    let mine = |c: usize| c.wrapping_sub(lo) < width;
    let key = |r: usize, c: usize| r * width + (c - lo);
    // State of (rank r, chunk c) at key(r, c).
    let mut state: Vec<State> = crate::huge_pages::with_capacity(n * width);
    for (r, &weight_r) in w.iter().enumerate().take(n) {
        state.extend(range.clone().map(|c| match s.goal {
            Goal::AllGather if c / k == r => State { print: all, count: n as u32 },
            Goal::AllGather => State { print: 0, count: 0 },
            _ => State { print: weight_r, count: 1 },
        }));
    }
    // This part's transfers of the current step and what each sender holds at the start of it.
    let mut own: Vec<u32> = Vec::new();
    let mut sent: Vec<(u32, u64)> = Vec::new();
    let steps = s.step_ptr.len() - 1;
    for step in 0..steps {
        let (lo_i, hi_i) = (s.step_ptr[step] as usize, s.step_ptr[step + 1] as usize);
        own.clear();
        own.extend((lo_i..hi_i).filter(|&i| mine(s.chunk.get(i))).map(|i| i as u32));
        sent.clear();
        for (j, &i) in own.iter().enumerate() {
            if let Some(&ahead) = own.get(j + AHEAD) {
                let a = ahead as usize;
                prefetch_entry(&state[key(s.src.get(a), s.chunk.get(a))]);
                prefetch_entry(&state[key(s.dst.get(a), s.chunk.get(a))]);
            }
            let st = state[key(s.src.get(i as usize), s.chunk.get(i as usize))];
            sent.push((st.count, st.print & !COPIED));
        }
        for (&i, &(have, fp)) in own.iter().zip(&sent) {
            let i = i as usize;
            let (a, b, c) = (s.src.get(i), s.dst.get(i), s.chunk.get(i));
            if have == 0 {
                return Some(Failure::At(i, format!("step {step}: rank {a} sends chunk {c} to rank {b} but does not hold it")));
            }
            let to = &mut state[key(b, c)];
            let (print, count) = (to.print, to.count);
            if s.reduce[i] == 0 {
                if print & COPIED != 0 {
                    return Some(Failure::At(i, format!("step {step}: rank {b} receives chunk {c} twice by copy")));
                }
                *to = State { print: fp | COPIED, count: have };
            } else {
                let total = count as u64 + have as u64;
                if total > n as u64 {
                    return Some(Failure::At(i, format!("step {step}: rank {b} reduces chunk {c} from rank {a} and would hold \
                                                        {total} contributions of {n} ranks: some rank's twice")));
                }
                *to = State { print: add(print & !COPIED, fp) | (print & COPIED), count: total as u32 };
            }
        }
        for &i in &own {
            let to = &mut state[key(s.dst.get(i as usize), s.chunk.get(i as usize))];
            to.print &= !COPIED;
        }
    }
    // The first (chunk, rank) that ends wrong, in chunk order then rank order.
    for c in range.clone() {
        for r in 0..n {
            if s.goal == Goal::ReduceScatter && c / k != r {
                continue;
            }
            let st = state[key(r, c)];
            if st.count as usize != n || st.print != all {
                let what = match st.count as usize {
                    0 => "without it".to_string(),
                    m if m < n => format!("holding {m} of the {n} ranks' contributions"),
                    _ => format!("holding {n} contributions but not each rank's exactly once"),
                };
                return Some(Failure::End(c, r, format!("after the last step ({}): rank {r} ends with chunk {c} {what}", steps as i64 - 1)));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn le16(v: &[u32]) -> Vec<u8> {
        v.iter().flat_map(|&x| (x as u16).to_le_bytes()).collect()
    }

    /// The ring reduce-scatter of n ranks (chunk c owned by rank c), then, for all-reduce, the
    /// ring all-gather: step lists of (src, dst, chunk, reduce).
    fn ring(n: usize, all_reduce: bool) -> Vec<Vec<(u32, u32, u32, u8)>> {
        let mut steps = vec![];
        for s in 0..n - 1 {
            steps.push((0..n).map(|r| (r as u32, ((r + 1) % n) as u32, ((r + n - s - 1) % n) as u32, 1)).collect());
        }
        if all_reduce {
            for s in 0..n - 1 {
                steps.push((0..n).map(|r| (r as u32, ((r + 1) % n) as u32, ((r + n - s) % n) as u32, 0)).collect());
            }
        }
        steps
    }

    fn run(goal: Goal, n: usize, steps: &[Vec<(u32, u32, u32, u8)>]) -> Result<(), String> {
        let mut ptr = vec![0u64];
        let (mut a, mut b, mut c, mut red) = (vec![], vec![], vec![], vec![]);
        for st in steps {
            for &(x, y, z, o) in st {
                a.push(x);
                b.push(y);
                c.push(z);
                red.push(o);
            }
            ptr.push(a.len() as u64);
        }
        let (a, b, c) = (le16(&a), le16(&b), le16(&c));
        let cols = Columns { goal, ranks: n, chunks_per_rank: 1, step_ptr: &ptr, src: Col { bytes: &a, width: 2 },
                             dst: Col { bytes: &b, width: 2 }, chunk: Col { bytes: &c, width: 2 }, reduce: &red };
        let one = prove(&cols, 12345);
        // The chunks proven in parts, side by side, give the single pass's answer.
        for parts in 2..=n {
            assert_eq!(prove_in(&cols, 12345, parts), one, "{parts} parts");
        }
        one
    }

    #[test]
    fn ring_schedules_are_proven() {
        run(Goal::ReduceScatter, 5, &ring(5, false)).unwrap();
        run(Goal::AllReduce, 5, &ring(5, true)).unwrap();
        let e = run(Goal::AllReduce, 5, &ring(5, false)).unwrap_err();
        assert!(e.contains("after the last step (3): rank 1 ends with chunk 0 holding"), "{e}");
    }

    #[test]
    fn a_double_contribution_with_the_right_count_is_caught_by_the_fingerprint() {
        // 3 ranks, reduce-scatter (chunk c to rank c): 1 -> 2, then 2 -> 0 gives chunk 0 {0, 1, 2}.
        run(Goal::ReduceScatter, 3, &[vec![(1, 2, 0, 1), (2, 1, 1, 1), (0, 2, 2, 1)], vec![(2, 0, 0, 1), (1, 2, 2, 1), (0, 1, 1, 1)]]).unwrap();
        // Chunk 0 at rank 0 gets rank 1's twice (1 -> 0 twice) and never rank 2's: count 3 of 3.
        let e = run(Goal::ReduceScatter, 3, &[vec![(1, 0, 0, 1), (2, 1, 1, 1), (0, 2, 2, 1), (1, 2, 2, 1)], vec![(1, 0, 0, 1)]]).unwrap_err();
        assert!(e.contains("rank 0 ends with chunk 0 holding 3 contributions but not each rank's exactly once"), "{e}");
    }

    #[test]
    fn step_errors_name_step_and_ranks() {
        let e = run(Goal::AllGather, 3, &[vec![(0, 1, 1, 0)]]).unwrap_err();
        assert_eq!(e, "step 0: rank 0 sends chunk 1 to rank 1 but does not hold it");
        let e = run(Goal::AllGather, 3, &[vec![(0, 1, 0, 0), (0, 1, 0, 0)]]).unwrap_err();
        assert_eq!(e, "step 0: rank 1 receives chunk 0 twice by copy");
        let e = run(Goal::ReduceScatter, 2, &[vec![(1, 0, 0, 1)], vec![(1, 0, 0, 1)]]).unwrap_err();
        assert!(e.starts_with("step 1: rank 0 reduces chunk 0 from rank 1 and would hold 3 contributions of 2 ranks"), "{e}");
        // A step reads the state at its start: 0 -> 1 and 1 -> 2 of chunk 0 in one step fails.
        let e = run(Goal::AllGather, 3, &[vec![(0, 1, 0, 0), (1, 2, 0, 0)]]).unwrap_err();
        assert_eq!(e, "step 0: rank 1 sends chunk 0 to rank 2 but does not hold it");
    }

    #[test]
    fn the_first_failure_in_list_order_wins_across_parts() {
        // Chunk 3 (the second half of the chunks) fails before chunk 1 (the first half) in list
        // order: split in two parts, the second part's failure is the one reported.
        let e = run(Goal::AllGather, 4, &[vec![(1, 0, 3, 0), (0, 1, 1, 0)]]).unwrap_err();
        assert_eq!(e, "step 0: rank 1 sends chunk 3 to rank 0 but does not hold it");
        // After the last step: the lowest chunk that ends wrong, whichever part holds it. Direct
        // all-gather of 4 ranks without 1 -> 2 (chunk 1) and 3 -> 0 (chunk 3).
        let direct = |skip: &[(u32, u32)]| -> Vec<(u32, u32, u32, u8)> {
            (0..4).flat_map(|a| (0..4).map(move |b| (a, b, a, 0))).filter(|&(a, b, _, _)| a != b && !skip.contains(&(a, b))).collect()
        };
        let e = run(Goal::AllGather, 4, &[direct(&[(1, 2), (3, 0)])]).unwrap_err();
        assert_eq!(e, "after the last step (0): rank 2 ends with chunk 1 without it");
        let e = run(Goal::AllGather, 4, &[direct(&[(3, 0)])]).unwrap_err();
        assert_eq!(e, "after the last step (0): rank 0 ends with chunk 3 without it");
        run(Goal::AllGather, 4, &[direct(&[])]).unwrap();
    }
}
