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
    for i in 0..t {
        let (a, b, c) = (s.src.get(i), s.dst.get(i), s.chunk.get(i));
        if a >= s.ranks || b >= s.ranks || a == b || c >= chunks || s.reduce[i] > 1 {
            return Err(format!("transfer {i}: src {a}, dst {b}, chunk {c}, op {} (ranks 0..{}, chunks 0..{}, op 0 or 1)",
                               s.reduce[i], s.ranks - 1, chunks - 1));
        }
    }
    Ok(())
}

/// Prove `s` implements its collective, or say where it does not: the first failing transfer
/// (step, ranks, chunk) in step and list order, else the first (chunk, rank) that ends wrong.
pub fn prove(s: &Columns, seed: u64) -> Result<(), String> {
    check_shape(s)?;
    let (n, k) = (s.ranks, s.chunks_per_rank);
    let chunks = n * k;
    let w: Vec<u64> = (0..n).map(|r| weight(seed, r)).collect();
    let all = w.iter().fold(0u64, |acc, &x| add(acc, x));
    // State of (rank r, chunk c) at r * chunks + c.
    let mut count = vec![0u32; n * chunks];
    let mut print = vec![0u64; n * chunks];
    for (r, &weight_r) in w.iter().enumerate() {
        for c in 0..chunks {
            let key = r * chunks + c;
            if s.goal == Goal::AllGather {
                if c / k == r {
                    count[key] = n as u32;
                    print[key] = all;
                }
            } else {
                count[key] = 1;
                print[key] = weight_r;
            }
        }
    }
    let mut touched = vec![0u64; (n * chunks).div_ceil(64)];
    let mut sent: Vec<(u32, u64)> = Vec::new();
    let steps = s.step_ptr.len() - 1;
    for step in 0..steps {
        let (lo, hi) = (s.step_ptr[step] as usize, s.step_ptr[step + 1] as usize);
        // What each sender holds at the start of the step.
        sent.clear();
        sent.extend((lo..hi).map(|i| {
            let key = s.src.get(i) * chunks + s.chunk.get(i);
            (count[key], print[key])
        }));
        for (i, &(have, fp)) in (lo..hi).zip(&sent) {
            let (a, b, c) = (s.src.get(i), s.dst.get(i), s.chunk.get(i));
            if have == 0 {
                return Err(format!("step {step}: rank {a} sends chunk {c} to rank {b} but does not hold it"));
            }
            let key = b * chunks + c;
            let seen = touched[key / 64] >> (key % 64) & 1 == 1;
            if s.reduce[i] == 0 {
                if seen {
                    return Err(format!("step {step}: rank {b} receives chunk {c} twice by copy"));
                }
                count[key] = have;
                print[key] = fp;
            } else {
                let total = count[key] as u64 + have as u64;
                if total > n as u64 {
                    return Err(format!("step {step}: rank {b} reduces chunk {c} from rank {a} and would hold {total} contributions \
                                        of {n} ranks: some rank's twice"));
                }
                count[key] = total as u32;
                print[key] = add(print[key], fp);
            }
            touched[key / 64] |= 1 << (key % 64);
        }
        for i in lo..hi {
            let key = s.dst.get(i) * chunks + s.chunk.get(i);
            touched[key / 64] = 0;
        }
    }
    // The first (chunk, rank) that ends wrong, in chunk order then rank order.
    let mut first: Option<(usize, usize)> = None;
    for r in 0..n {
        for c in 0..chunks {
            if s.goal == Goal::ReduceScatter && c / k != r {
                continue;
            }
            let key = r * chunks + c;
            if (count[key] as usize != n || print[key] != all) && first.is_none_or(|f| (c, r) < f) {
                first = Some((c, r));
            }
        }
    }
    if let Some((c, r)) = first {
        let key = r * chunks + c;
        let what = match count[key] as usize {
            0 => "without it".to_string(),
            m if m < n => format!("holding {m} of the {n} ranks' contributions"),
            _ => format!("holding {n} contributions but not each rank's exactly once"),
        };
        return Err(format!("after the last step ({}): rank {r} ends with chunk {c} {what}", steps as i64 - 1));
    }
    Ok(())
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
        prove(&cols, 12345)
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
}
