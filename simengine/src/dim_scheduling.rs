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
    OfflineGreedyFlex,
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

    /// The bytes the load gap in front of position `i` stands for (`get_chunk_size_from_elapsed_time`
    /// as `get_chunk_scheduling` calls it). Reduce-scatter: the gap between the most loaded
    /// dimension and the one at `i`, counted on `i`'s dimension. All-gather (loads in reversed,
    /// most loaded first order): the gap between `i` and the last dimension of size > 1, counted
    /// on that last dimension and divided by the size of every dimension from it down to `i`.
    fn gap_bytes(&self, i: usize, shrinking: bool) -> u64 {
        let dims = self.loads.len();
        let d = self.loads[i].0;
        if shrinking {
            return self.bytes_of((self.loads[dims - 1].1 - self.loads[i].1).abs(), d, true);
        }
        let mut last = dims - 1;
        while self.sizes[self.loads[last].0] == 1 {
            last -= 1;
        }
        let mut gap = self.bytes_of((self.loads[last].1 - self.loads[i].1).abs(), self.loads[last].0, false);
        // The C++ walks `last` down to `i` (inclusive), dividing by every size on the way.
        let mut k = last as isize - 1;
        while k >= i as isize {
            let dk = self.loads[k as usize].0;
            if self.sizes[dk] > 1 {
                gap /= self.sizes[dk] as u64;
            }
            k -= 1;
        }
        gap
    }

    /// Sorts the loads for the next chunk: ascending, stable (as std::sort's insertion sort is on
    /// so few elements); all-gather most loaded first.
    fn sort_loads(&mut self, shrinking: bool) {
        self.loads.sort_by(|a, b| a.1.partial_cmp(&b.1).unwrap_or(std::cmp::Ordering::Equal));
        if !shrinking {
            self.loads.reverse();
        }
    }

    /// The chunk goes in dimension order 0, 1, ...: the loads are put back in dimension order
    /// (all-gather reversed) and a chunk of `chunk` bytes is added position by position, so
    /// dimension `i`'s share lands on the load at position `i`, as the C++ does.
    fn in_dimension_order(&mut self, chunk: u64, shrinking: bool) -> Vec<usize> {
        let dims = self.loads.len();
        self.loads.sort_by_key(|l| l.0);
        if !shrinking {
            self.loads.reverse();
        }
        let mut c = chunk;
        for pos in 0..dims {
            if self.sizes[pos] == 1 {
                continue;
            }
            self.loads[pos].1 += self.load(c, pos, shrinking);
            c = self.grow(c, pos, shrinking);
        }
        (0..dims).collect()
    }

    /// The dimension order of the next chunk (`OfflineGreedy::get_chunk_scheduling`) for a
    /// collective that shrinks per dimension (reduce-scatter, all-reduce) or grows (all-gather);
    /// `chunk` is the recommended chunk size. Size-1 dimensions are listed but carry no phase.
    pub fn next_order(&mut self, chunk: u64, shrinking: bool) -> Vec<usize> {
        self.sort_loads(shrinking);
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
                if self.gap_bytes(i, shrinking) < chunk / 16 {
                    return self.in_dimension_order(chunk, shrinking);
                }
            }
            order.push(d);
            self.loads[i].1 += self.load(c, d, shrinking);
            c = self.grow(c, d, shrinking);
        }
        order
    }

    /// offlineGreedyFlex's next chunk: its dimension order and its bytes, taken from `remaining`
    /// (`OfflineGreedy::get_chunk_scheduling` with `OfflineGreedyFlex`). The chunk is sized to
    /// the load gap in front of the least loaded dimension (`gap_bytes`); a gap smaller than the
    /// recommended chunk sends a recommended chunk in dimension order instead (loads added for
    /// the bytes it really carries). Otherwise the chunk visits the dimensions least loaded first
    /// and carries `min(remaining, gap)` bytes, while the loads grow by the whole gap.
    pub fn next_flex(&mut self, recommended: u64, remaining: &mut u64, shrinking: bool) -> (Vec<usize>, u64) {
        self.sort_loads(shrinking);
        let dims = self.loads.len();
        let mut order = Vec::with_capacity(dims);
        let mut c = recommended;
        let mut bytes = None;
        for i in 0..dims {
            let d = self.loads[i].0;
            if self.sizes[d] == 1 {
                order.push(d);
                continue;
            }
            if bytes.is_none() {
                c = self.gap_bytes(i, shrinking);
                if c < recommended {
                    let b = recommended.min(*remaining);
                    *remaining -= b;
                    return (self.in_dimension_order(b, shrinking), b);
                }
                let b = c.min(*remaining);
                *remaining -= b;
                bytes = Some(b);
            }
            order.push(d);
            self.loads[i].1 += self.load(c, d, shrinking);
            c = self.grow(c, d, shrinking);
        }
        // Every dimension of size 1: nothing to schedule, the chunk takes the recommended size.
        let b = bytes.unwrap_or_else(|| {
            let b = recommended.min(*remaining);
            *remaining -= b;
            b
        });
        (order, b)
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

    #[test]
    fn flex_sizes_a_chunk_to_the_load_gap_once_it_reaches_the_recommended_size() {
        // Two dims of 4 at equal bandwidth, 1 MiB recommended, 4 MiB to send. Chunk 0: no gap,
        // 1 MiB in dimension order (loads 3/4 and 3/16). Chunk 1: gap (3/4 - 3/16) / (3/4) =
        // 3/4 MiB < 1 MiB, again 1 MiB in order (loads 3/2, 3/8). Chunk 2: gap 3/2 MiB, so
        // 1.5 MiB, dim 1 first. Chunk 3: gap 3/8 MiB, in order with the 0.5 MiB left.
        const M: u64 = 1 << 20;
        let mut g = Greedy::new(&[4, 4], &[50.0, 50.0]);
        let mut left = 4 * M;
        let got: Vec<(Vec<usize>, u64)> = (0..4).map(|_| g.next_flex(M, &mut left, true)).collect();
        assert_eq!(got, vec![(vec![0, 1], M), (vec![0, 1], M), (vec![1, 0], 3 * M / 2), (vec![0, 1], M / 2)]);
        assert_eq!(left, 0);
    }
}
