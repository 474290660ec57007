//! ASTRA-sim's two system-layer scheduling options (518bd51), as the engine runs them.
//!
//! - *Intra-dimension* scheduling (`Sys::insert_stream`, astra-sim/system/Sys.cc) decides where a
//!   chunk that reaches a dimension's queue waits: FIFO behind every waiting chunk (arrival order);
//!   SCF (smallestFirst) in front of the first waiting chunk whose phase is at least as large
//!   (`max(initial, final)` bytes), or at the end when exactly one phase follows this one;
//!   lessRemainingPhaseFirst in front of the first waiting chunk with at least as many phases to
//!   go. Chunks in an all-reduce or all-to-all phase always queue FIFO.
//! - *Inter-dimension* scheduling (`Sys::generate_collective` and
//!   astra-sim/system/scheduling/OfflineGreedy.cc) decides the order in which each chunk visits the
//!   dimensions. Ascending (the README's "baseline") visits them 0, 1, ... (all-gather in reverse).
//!   offlineGreedy (the README's "themis", the least-loaded dimension first) keeps a load per
//!   dimension in "MiB at dimension 0's bandwidth": before each chunk the dimensions are sorted by
//!   load (ties keep their order; all-gather takes the reversed, most loaded first order), the
//!   chunk visits them in that order and adds `chunk/MiB x (n-1)/n / (bw_d/bw_0)` (reduce-scatter
//!   and all-reduce, the chunk shrinking n-fold per dimension) or `chunk/MiB x (n-1) / (bw_d/bw_0)`
//!   (all-gather, growing) to each. Unless the first dimension's load lags the most loaded one by
//!   at least 1/16 of a chunk: then the chunk goes in dimension order 0, 1, ... and the loads are
//!   added position by position (after reversing for all-gather, so dimension `i`'s share lands on
//!   the load at position `i`, as the C++ does). An all-reduce under localBWAware then runs
//!   reduce-scatter over every dimension in that order and all-gather back (no all-reduce phase), and
//!   the last chunk carries only the remaining bytes. All-to-all always goes ascending.
//!   ASTRA-sim 518bd51's JSON loader (`Sys::initialize_sys`) reads neither key: its binaries run
//!   FIFO / ascending whatever system.json says; the behaviour above is what its code does when the
//!   values are set (tested against a build whose loader reads them).

/// Where a chunk waits in a dimension's queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntraScheduling {
    Fifo,
    SmallestFirst,
    LessRemainingPhaseFirst,
}

/// Order in which each chunk visits the dimensions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InterScheduling {
    Ascending,
    OfflineGreedy,
}

/// What `Sys::insert_stream` compares for one waiting chunk.
#[derive(Debug, Clone, Copy)]
pub struct QueueKey {
    /// `max(initial, final)` bytes of the chunk's current phase.
    pub bytes: f64,
    /// Phases that follow the current one.
    pub phases_to_go: usize,
    /// All-reduce and all-to-all phases always queue FIFO.
    pub fifo_only: bool,
}

impl IntraScheduling {
    /// Index in `waiting` (chunks not yet started, in queue order) where `new` goes.
    pub fn insert_at(self, waiting: &[QueueKey], new: QueueKey) -> usize {
        if new.fifo_only {
            return waiting.len();
        }
        match self {
            IntraScheduling::Fifo => waiting.len(),
            IntraScheduling::SmallestFirst if new.phases_to_go == 1 => waiting.len(),
            IntraScheduling::SmallestFirst => waiting.iter().position(|w| w.bytes >= new.bytes).unwrap_or(waiting.len()),
            IntraScheduling::LessRemainingPhaseFirst => {
                waiting.iter().position(|w| w.phases_to_go >= new.phases_to_go).unwrap_or(waiting.len())
            }
        }
    }
}

const MIB: f64 = 1048576.0;

/// offlineGreedy's state over one collective: a load per dimension, kept in its sorted order.
pub struct Greedy {
    /// (dimension, load), in the order the last sort left them.
    loads: Vec<(usize, f64)>,
    sizes: Vec<usize>,
    /// Bandwidth of each dimension relative to dimension 0.
    rel_bw: Vec<f64>,
}

impl Greedy {
    pub fn new(sizes: &[usize], bandwidth: &[f64]) -> Greedy {
        Greedy {
            loads: (0..sizes.len()).map(|d| (d, 0.0)).collect(),
            sizes: sizes.to_vec(),
            rel_bw: bandwidth.iter().map(|b| b / bandwidth[0]).collect(),
        }
    }

    fn load(&self, chunk: u64, d: usize, shrinking: bool) -> f64 {
        let n = self.sizes[d] as f64;
        let share = if shrinking { (n - 1.0) / n } else { n - 1.0 };
        (chunk as f64 / MIB * share) / self.rel_bw[d]
    }

    /// Bytes a load difference stands for on dimension `d` (`get_chunk_size_from_elapsed_time`).
    fn bytes_of(&self, elapsed: f64, d: usize, shrinking: bool) -> u64 {
        let n = self.sizes[d] as f64;
        let share = if shrinking { (n - 1.0) / n } else { n - 1.0 };
        ((elapsed * self.rel_bw[d]) / share * MIB) as u64
    }

    fn grow(&self, chunk: u64, d: usize, shrinking: bool) -> u64 {
        if shrinking {
            chunk / self.sizes[d] as u64
        } else {
            chunk * self.sizes[d] as u64
        }
    }

    /// The dimension order of the next chunk (`OfflineGreedy::get_chunk_scheduling`) for a
    /// collective that shrinks per dimension (reduce-scatter, all-reduce) or grows (all-gather);
    /// `chunk` is the recommended chunk size. Size-1 dimensions are listed but carry no phase.
    pub fn next_order(&mut self, chunk: u64, shrinking: bool) -> Vec<usize> {
        // A stable sort, as std::sort's insertion sort is on so few elements.
        self.loads.sort_by(|a, b| a.1.partial_cmp(&b.1).unwrap_or(std::cmp::Ordering::Equal));
        if !shrinking {
            self.loads.reverse();
        }
        let dims = self.loads.len();
        let mut order = Vec::with_capacity(dims);
        let mut c = chunk;
        let mut checked = false;
        for i in 0..dims {
            let d = self.loads[i].0;
            if self.sizes[d] == 1 {
                order.push(d);
                continue;
            }
            if !checked {
                checked = true;
                let diff = if shrinking {
                    self.bytes_of((self.loads[dims - 1].1 - self.loads[i].1).abs(), d, true)
                } else {
                    let mut last = dims - 1;
                    while self.sizes[self.loads[last].0] == 1 {
                        last -= 1;
                    }
                    let mut diff = self.bytes_of((self.loads[last].1 - self.loads[i].1).abs(), self.loads[last].0, false);
                    // The C++ walks `last` down to `i` (inclusive), dividing by every size on the way.
                    let mut k = last as isize - 1;
                    while k >= i as isize {
                        let dk = self.loads[k as usize].0;
                        if self.sizes[dk] > 1 {
                            diff /= self.sizes[dk] as u64;
                        }
                        k -= 1;
                    }
                    diff
                };
                if diff < chunk / 16 {
                    self.loads.sort_by_key(|l| l.0);
                    if !shrinking {
                        self.loads.reverse();
                    }
                    for pos in 0..dims {
                        if self.sizes[pos] == 1 {
                            continue;
                        }
                        self.loads[pos].1 += self.load(c, pos, shrinking);
                        c = self.grow(c, pos, shrinking);
                    }
                    return (0..dims).collect();
                }
            }
            order.push(d);
            self.loads[i].1 += self.load(c, d, shrinking);
            c = self.grow(c, d, shrinking);
        }
        order
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smallest_first_goes_before_equal_sizes_and_last_phase_goes_last() {
        let k = |bytes, phases_to_go| QueueKey { bytes, phases_to_go, fifo_only: false };
        let waiting = [k(100.0, 3), k(200.0, 2), k(200.0, 0)];
        assert_eq!(IntraScheduling::SmallestFirst.insert_at(&waiting, k(200.0, 2)), 1);
        assert_eq!(IntraScheduling::SmallestFirst.insert_at(&waiting, k(50.0, 1)), 3);
        assert_eq!(IntraScheduling::LessRemainingPhaseFirst.insert_at(&waiting, k(1.0, 2)), 0);
        assert_eq!(IntraScheduling::LessRemainingPhaseFirst.insert_at(&waiting, k(1.0, 4)), 3);
        assert_eq!(IntraScheduling::Fifo.insert_at(&waiting, k(1.0, 0)), 3);
        let ar = QueueKey { fifo_only: true, ..k(1.0, 0) };
        assert_eq!(IntraScheduling::SmallestFirst.insert_at(&waiting, ar), 3);
    }

    #[test]
    fn greedy_starts_in_dimension_order_then_serves_the_least_loaded_dimension() {
        // Two dims of 4 at equal bandwidth, 1 MiB chunks: first chunk ascending (no load yet),
        // then dim 1 (load 1/4 x 3/4) is less loaded than dim 0 (3/4).
        let mut g = Greedy::new(&[4, 4], &[50.0, 50.0]);
        assert_eq!(g.next_order(1 << 20, true), vec![0, 1]);
        assert_eq!(g.next_order(1 << 20, true), vec![1, 0]);
        // All-gather starts from the most loaded: the first chunk sees equal loads (difference 0 <
        // chunk/16) and goes in dimension order.
        let mut g = Greedy::new(&[4, 8], &[50.0, 100.0]);
        assert_eq!(g.next_order(1 << 20, false), vec![0, 1]);
    }
}
