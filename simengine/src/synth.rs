//! The hot loops of collective synthesis (infragraph/collectives/matching.py, replay.py).
//!
//! `all_gather`: greedy link-chunk matching over the time-expanded network (TACOS's method,
//! organised around links). Every logical link (an NPU-to-NPU path, its physical links as
//! resources) is a server; when it and every resource of its path are free and its source holds
//! a chunk its destination neither holds nor is receiving, it sends one: of two random picks
//! among those the one fewer ranks hold or receive (rarest of two). A pick is uniform over a
//! per-link candidate list when the source has at most LIST_MAX_DEGREE out-links (grids), else a
//! scan back from a random place in the source's arrival order (switch groups). When a path
//! frees, the links sharing a resource with it are tried neediest destination first (fewest
//! chunks held or coming); when a chunk lands, the links out of its new holder are tried the same
//! way. A per-link count of the chunks its source could give its destination keeps each try
//! O(path length); the cost per transfer is nearly flat in the number of NPUs (memory: bits per
//! (chunk, rank) and the candidate lists; benchmarks/README.md, "Synthesis").
//!
//! `replay`: times a given transfer list over the same links (a transfer starts when its source's
//! data for the chunk is final and its path is free, in list order per resource).
//!
//! Units: ns. `ser[l]` is the time a chunk holds link l's resources, `fly[l]` the time from its
//! start to its landing (serialization + path latency).
use std::collections::BTreeMap;

use crate::prefetch::{prefetch, prefetch_entry, prefetch_ptr, AHEAD};

const EPS: f64 = 1e-9;

/// Logical links in CSR form; resources are dense ids 0..resources.
pub struct Links {
    pub npus: usize,
    pub src: Vec<u32>,
    pub dst: Vec<u32>,
    pub ser: Vec<f64>,
    pub fly: Vec<f64>,
    pub path_ptr: Vec<u32>,
    pub path: Vec<u32>,
    pub resources: usize,
}

impl Links {
    pub fn check(&self) -> Result<(), String> {
        let m = self.src.len();
        if self.dst.len() != m || self.ser.len() != m || self.fly.len() != m || self.path_ptr.len() != m + 1 {
            return Err("link arrays differ in length".into());
        }
        if self.path_ptr[m] as usize != self.path.len() {
            return Err("path offsets do not cover the path array".into());
        }
        for l in 0..m {
            if self.src[l] as usize >= self.npus || self.dst[l] as usize >= self.npus || self.src[l] == self.dst[l] {
                return Err(format!("link {l} joins ranks {} and {} of {}", self.src[l], self.dst[l], self.npus));
            }
            if !(self.ser[l] > 0.0 && self.ser[l].is_finite() && self.fly[l] >= self.ser[l] && self.fly[l].is_finite()) {
                return Err(format!("link {l} has serialization {} ns and flight {} ns", self.ser[l], self.fly[l]));
            }
            if self.path_ptr[l] > self.path_ptr[l + 1] {
                return Err(format!("link {l} has a negative path length"));
            }
        }
        if self.path.iter().any(|&r| r as usize >= self.resources) {
            return Err("a path names a resource out of range".into());
        }
        Ok(())
    }

    pub fn path_of(&self, l: usize) -> &[u32] {
        &self.path[self.path_ptr[l] as usize..self.path_ptr[l + 1] as usize]
    }
}

/// The all-gather's transfers in start order; `record` false keeps only the count and the time.
#[derive(Debug)]
pub struct Gathered {
    pub link: Vec<u32>,
    pub chunk: Vec<u32>,
    pub start: Vec<f64>,
    pub transfers: u64,
    pub time_ns: f64,
}

/// Events still to happen, grouped by their exact time (f64 bits: non-negative floats order as
/// their bits). Within a time, landings come before frees and each kind goes in link order, the
/// order a binary heap keyed (time, kind, link) gives. Why buckets: on a symmetric fabric a few
/// distinct times are in flight while ~2 x links events are, and the heap's O(log) cache-missing
/// sift cost 30 % of the matching at 4,096 NPUs; a bucket costs a push and its share of one sort.
/// Every event of a bucket is pushed before the bucket is taken (a transfer started at t lands
/// and frees after t), so a taken bucket is complete.
#[derive(Default)]
struct Calendar {
    times: BTreeMap<u64, Bucket>,
    spare: Vec<Bucket>,
}

#[derive(Default)]
struct Bucket {
    lands: Vec<u64>, // link << 32 | chunk
    frees: Vec<u32>, // link
}

impl Calendar {
    fn bucket(&mut self, time: f64) -> &mut Bucket {
        let spare = &mut self.spare;
        self.times.entry(time.to_bits()).or_insert_with(|| spare.pop().unwrap_or_default())
    }

    fn push_land(&mut self, time: f64, link: u32, chunk: u32) {
        self.bucket(time).lands.push((link as u64) << 32 | chunk as u64);
    }

    fn push_free(&mut self, time: f64, link: u32) {
        self.bucket(time).frees.push(link);
    }

    /// The earliest time and its events, sorted; hand the bucket back with `recycle`.
    fn pop(&mut self) -> Option<(f64, Bucket)> {
        let (bits, mut b) = self.times.pop_first()?;
        b.lands.sort_unstable();
        b.frees.sort_unstable();
        Some((f64::from_bits(bits), b))
    }

    fn recycle(&mut self, mut b: Bucket) {
        b.lands.clear();
        b.frees.clear();
        self.spare.push(b);
    }
}

/// splitmix64: a small, seedable generator; the schedule is a function of the seed.
struct Rng(u64);

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

impl Rng {
    fn scale(state: u64, n: usize) -> usize {
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        ((z as u128 * n as u128) >> 64) as usize
    }

    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(GOLDEN);
        Self::scale(self.0, n)
    }

    /// What the (ahead + 1)-th next `below(n)` will return (splitmix64 is counter-based).
    fn peek(&self, ahead: u64, n: usize) -> usize {
        Self::scale(self.0.wrapping_add(GOLDEN.wrapping_mul(ahead + 1)), n)
    }
}

fn csr(groups: usize, keys: impl Iterator<Item = (usize, u32)> + Clone) -> (Vec<u32>, Vec<u32>) {
    let mut ptr = vec![0u32; groups + 1];
    for (g, _) in keys.clone() {
        ptr[g + 1] += 1;
    }
    for i in 0..groups {
        ptr[i + 1] += ptr[i];
    }
    let mut fill = ptr.clone();
    let mut out = vec![0u32; ptr[groups] as usize];
    for (g, v) in keys {
        out[fill[g] as usize] = v;
        fill[g] += 1;
    }
    (ptr, out)
}

/// Which ranks hold (or are receiving) each chunk, chunk-major with the two bits of a (chunk,
/// rank) side by side: the links into and out of a rank join it to ranks numbered near it on
/// grids and switch groups, so "does each neighbour of v hold c" reads one or two cache lines
/// where a rank-major bitset read one line per neighbour.
struct ByChunk {
    words: usize, // per chunk and kind: ceil(ranks / 64)
    bits: Vec<u64>,
}

const HELD: usize = 0;
const GOT: usize = 1;

impl ByChunk {
    #[inline(always)]
    fn at(&self, kind: usize, c: usize, r: usize) -> usize {
        (c * self.words + r / 64) * 2 + kind
    }

    #[inline(always)]
    fn has(&self, kind: usize, c: usize, r: usize) -> bool {
        self.bits[self.at(kind, c, r)] >> (r % 64) & 1 == 1
    }

    #[inline(always)]
    fn set(&mut self, kind: usize, c: usize, r: usize) {
        let i = self.at(kind, c, r);
        self.bits[i] |= 1 << (r % 64);
    }
}

/// Out-degree up to which a rank's links keep candidate lists (`State::cand`); above it (switch
/// groups), a chunk landing would be added to every out-link's list and go stale in all but one
/// (4.5 s instead of 2.7 s for a 1,024-NPU RFS all-gather), so those ranks' links scan the
/// arrival order instead.
const LIST_MAX_DEGREE: u32 = 8;

/// How many landings ahead a bucket's landings are prefetched (`State::prefetch_land`): a
/// landing is ~50 ns of work, a fetch from memory ~100 ns, and the lists' tails need two.
const LAND_AHEAD: usize = 8;

/// How many freed links ahead their likely candidates are prefetched (`State::prefetch_picks`).
const FREE_AHEAD: usize = 2;

struct State<'a> {
    links: &'a Links,
    words: usize,
    /// Rank-major bitsets, for the scanning picks (a pick reads one row; empty when no rank
    /// scans): chunks rank r holds (kept for scanning ranks only) / holds or is receiving.
    held: Vec<u64>,
    got: Vec<u64>,
    by_chunk: ByChunk,
    /// Links out of a rank of out-degree <= LIST_MAX_DEGREE: the chunks the source holds that
    /// the destination lacked when they were added, in no order; stale ones (the destination has
    /// since got them) are dropped when drawn or when they outnumber the live ones (`want[l]`).
    listed: Vec<bool>,
    cand: Vec<Vec<u32>>,
    /// Ranks of higher out-degree: chunks in arrival order, order[at[r] .. at[r] + olen[r]].
    at: Vec<usize>,
    order: Vec<u32>,
    olen: Vec<u32>,
    count: Vec<u32>,
    ngot: Vec<u32>,
    want: Vec<u32>,
    busy: Vec<bool>,
    busy_until: Vec<f64>,
    in_ptr: Vec<u32>,
    in_links: Vec<u32>,
    rng: Rng,
}

impl State<'_> {
    fn has(bits: &[u64], words: usize, r: usize, c: usize) -> bool {
        bits[r * words + c / 64] >> (c % 64) & 1 == 1
    }

    fn set(bits: &mut [u64], words: usize, r: usize, c: usize) {
        bits[r * words + c / 64] |= 1 << (c % 64);
    }

    /// A chunk link l's source u holds and its destination v neither holds nor is receiving (one
    /// exists: want > 0); see `pick_listed` and `pick_scanned`.
    fn pick(&mut self, l: usize, u: usize, v: usize) -> u32 {
        if self.listed[l] {
            self.pick_listed(l, v)
        } else {
            self.pick_scanned(u, v)
        }
    }

    /// Drawn uniformly from l's candidates; O(1) amortized (each stale candidate is dropped once).
    fn pick_listed(&mut self, l: usize, v: usize) -> u32 {
        let by_chunk = &self.by_chunk;
        let list = &mut self.cand[l];
        if list.len() > 2 * self.want[l] as usize + 32 {
            list.retain(|&c| !by_chunk.has(GOT, c as usize, v));
        }
        loop {
            let j = self.rng.below(list.len());
            let c = list[j];
            if !by_chunk.has(GOT, c as usize, v) {
                return c;
            }
            list.swap_remove(j);
        }
    }

    /// A scan back from a random place in u's arrival order; after SCAN steps without one (late,
    /// when v lacks few of u's chunks), the first such chunk in u's bitset from a random word on,
    /// so a pick costs at most SCAN + chunks/64 steps.
    fn pick_scanned(&mut self, u: usize, v: usize) -> u32 {
        const SCAN: usize = 64;
        let w = self.words;
        let order = &self.order[self.at[u]..self.at[u] + self.olen[u] as usize];
        let mut i = self.rng.below(order.len());
        for _ in 0..SCAN.min(order.len()) {
            if !Self::has(&self.got, w, v, order[i] as usize) {
                return order[i];
            }
            i = if i == 0 { order.len() - 1 } else { i - 1 };
        }
        let start = self.rng.below(w);
        for k in 0..w {
            let word = (start + k) % w;
            let bits = self.held[u * w + word] & !self.got[v * w + word];
            if bits != 0 {
                return (word * 64 + bits.trailing_zeros() as usize) as u32;
            }
        }
        unreachable!("pick: want > 0 but no chunk to give")
    }

    /// Start a transfer on link l at `now` if it can; returns the chunk sent: of two picks, the one
    /// fewer ranks hold or are receiving (rarest of two).
    fn try_link(&mut self, l: usize, now: f64) -> Option<u32> {
        if self.busy[l] || self.want[l] == 0 {
            return None;
        }
        let links = self.links;
        if links.path_of(l).iter().any(|&d| self.busy_until[d as usize] > now + EPS) {
            return None;
        }
        let (u, v) = (links.src[l] as usize, links.dst[l] as usize);
        if self.listed[l] {
            // The two picks' usual draws (no stale candidate between them), their cache misses
            // overlapped rather than taken one after the other.
            let list = &self.cand[l];
            let (c1, c2) = (list[self.rng.peek(0, list.len())], list[self.rng.peek(1, list.len())]);
            prefetch(&self.by_chunk.bits[self.by_chunk.at(GOT, c1 as usize, v)]);
            prefetch(&self.by_chunk.bits[self.by_chunk.at(GOT, c2 as usize, v)]);
        }
        let a = self.pick(l, u, v);
        let b = self.pick(l, u, v);
        let c = if self.count[b as usize] < self.count[a as usize] { b } else { a } as usize;
        if !self.got.is_empty() {
            Self::set(&mut self.got, self.words, v, c);
        }
        self.by_chunk.set(GOT, c, v);
        self.count[c] += 1;
        self.ngot[v] += 1;
        // v now has (or will have) c: links into v whose source holds c can give v one chunk fewer.
        for &m in &self.in_links[self.in_ptr[v] as usize..self.in_ptr[v + 1] as usize] {
            let m = m as usize;
            if self.by_chunk.has(HELD, c, links.src[m] as usize) {
                self.want[m] -= 1;
                if self.want[m] == 0 && self.listed[m] {
                    // Every candidate is stale: free them.
                    if self.cand[m].capacity() > 64 {
                        self.cand[m] = Vec::new();
                    } else {
                        self.cand[m].clear();
                    }
                }
            }
        }
        self.busy[l] = true;
        let end = now + links.ser[l];
        for &d in links.path_of(l) {
            self.busy_until[d as usize] = end;
        }
        Some(c as u32)
    }

    /// Try the links `cands` at `now`, neediest destination first; starts go to `started`.
    fn try_all(&mut self, cands: &[u32], now: f64, scratch: &mut Vec<u32>, started: &mut Vec<(u32, u32)>) {
        scratch.clear();
        let links = self.links;
        scratch.extend(cands.iter().copied().filter(|&m| {
            let m = m as usize;
            !self.busy[m] && self.want[m] > 0 && links.path_of(m).iter().all(|&d| self.busy_until[d as usize] <= now + EPS)
        }));
        if scratch.len() > 1 {
            scratch.sort_unstable_by_key(|&m| (self.ngot[links.dst[m as usize] as usize], m));
        }
        for &m in scratch.iter() {
            if let Some(c) = self.try_link(m as usize, now) {
                started.push((m, c));
            }
        }
    }

    /// Start loading what `land(v, c, out_links)` will touch: stage 0 the candidate lists'
    /// headers, stage 1 (later) the chunk's bits at v and its out-neighbours and the lists' tails.
    /// A hint: no effect on results.
    fn prefetch_land(&self, v: usize, c: usize, out_links: &[u32], stage: u8) {
        for &o in out_links {
            let o = o as usize;
            if stage == 0 {
                prefetch(&self.cand[o]);
            } else {
                prefetch(&self.by_chunk.bits[self.by_chunk.at(GOT, c, self.links.dst[o] as usize)]);
                let list = &self.cand[o];
                prefetch_ptr(list.as_ptr().wrapping_add(list.len()));
            }
        }
        if stage == 1 {
            prefetch(&self.by_chunk.bits[self.by_chunk.at(HELD, c, v)]);
        }
    }

    /// Start loading the candidates link l would draw if the links tried before it draw `drawn`
    /// numbers (two each, when none of their draws is stale): a guess, so only a hint.
    fn prefetch_picks(&self, l: usize, drawn: u64) {
        if self.listed[l] && self.want[l] > 0 {
            let list = &self.cand[l];
            prefetch_ptr(list.as_ptr().wrapping_add(self.rng.peek(drawn, list.len())));
            prefetch_ptr(list.as_ptr().wrapping_add(self.rng.peek(drawn + 1, list.len())));
        }
    }

    /// Chunk c lands at v: v can now give it to each out-neighbour that neither holds nor is
    /// receiving it.
    fn land(&mut self, v: usize, c: usize, out_links: &[u32]) {
        self.by_chunk.set(HELD, c, v);
        if self.at[v] != usize::MAX {
            Self::set(&mut self.held, self.words, v, c);
            self.order[self.at[v] + self.olen[v] as usize] = c as u32;
            self.olen[v] += 1;
        }
        for &o in out_links {
            let o = o as usize;
            if !self.by_chunk.has(GOT, c, self.links.dst[o] as usize) {
                self.want[o] += 1;
                if self.listed[o] {
                    self.cand[o].push(c as u32);
                }
            }
        }
    }
}

/// The transfers started at `now`: their free and landing events, and their records.
fn flush(cal: &mut Calendar, out: &mut Gathered, started: &mut Vec<(u32, u32)>, links: &Links, now: f64, record: bool) {
    for &(l, c) in started.iter() {
        cal.push_free(now + links.ser[l as usize], l);
        cal.push_land(now + links.fly[l as usize], l, c);
        if record {
            out.link.push(l);
            out.chunk.push(c);
            out.start.push(now);
        }
        out.transfers += 1;
    }
    started.clear();
}

/// Greedy all-gather: rank r starts with chunks r*k .. r*k+k-1, every rank ends with all n*k.
/// Err when some rank can never receive some chunk (the links do not connect every rank).
pub fn all_gather(links: &Links, k: usize, seed: u64, record: bool) -> Result<Gathered, String> {
    let owner: Vec<u32> = (0..links.npus * k).map(|c| (c / k) as u32).collect();
    all_gather_from(links, &owner, seed, record)
}

/// Greedy all-gather of `owner.len()` chunks, chunk c starting at rank `owner[c]` (an all-reduce
/// may reduce each chunk where it likes: a mesh's corners, with few ports, take more chunks).
pub fn all_gather_from(links: &Links, owner: &[u32], seed: u64, record: bool) -> Result<Gathered, String> {
    links.check()?;
    let n = links.npus;
    let total = owner.len();
    if let Some(c) = owner.iter().position(|&r| r as usize >= n) {
        return Err(format!("chunk {c} starts at rank {} of {n}", owner[c]));
    }
    let mut owned = vec![0u32; n];
    for &r in owner {
        owned[r as usize] += 1;
    }
    let m = links.src.len();
    let (out_ptr, out_links) = csr(n, (0..m).map(|l| (links.src[l] as usize, l as u32)));
    let (in_ptr, in_links) = csr(n, (0..m).map(|l| (links.dst[l] as usize, l as u32)));
    let (users_ptr, users) = csr(links.resources, (0..m).flat_map(|l| links.path_of(l).iter().map(move |&d| (d as usize, l as u32))));
    // Links sharing a resource with l (l included, each once).
    let mut nb_ptr = vec![0u32; m + 1];
    let mut nb: Vec<u32> = Vec::new();
    let mut mark = vec![u32::MAX; m];
    for l in 0..m {
        for &d in links.path_of(l) {
            for &o in &users[users_ptr[d as usize] as usize..users_ptr[d as usize + 1] as usize] {
                if mark[o as usize] != l as u32 {
                    mark[o as usize] = l as u32;
                    nb.push(o);
                }
            }
        }
        nb_ptr[l + 1] = nb.len() as u32;
    }
    let words = total.div_ceil(64);
    let by_chunk_words = n.div_ceil(64);
    let scanned: Vec<bool> = (0..n).map(|r| out_ptr[r + 1] - out_ptr[r] > LIST_MAX_DEGREE).collect();
    let mut at = vec![usize::MAX; n];
    let mut next = 0;
    for r in (0..n).filter(|&r| scanned[r]) {
        at[r] = next;
        next += total;
    }
    let listed: Vec<bool> = (0..m).map(|l| !scanned[links.src[l] as usize]).collect();
    let mut st = State {
        links,
        words,
        held: if next > 0 { vec![0; n * words] } else { Vec::new() },
        got: if next > 0 { vec![0; n * words] } else { Vec::new() },
        by_chunk: ByChunk { words: by_chunk_words, bits: crate::huge_pages::filled(total * by_chunk_words * 2, 0) },
        cand: vec![Vec::new(); m],
        listed,
        at,
        order: vec![0; next],
        olen: vec![0; n],
        count: vec![1; total],
        ngot: owned.clone(),
        want: vec![0; m],
        busy: vec![false; m],
        busy_until: vec![0.0; links.resources],
        in_ptr,
        in_links,
        rng: Rng(seed ^ 0x5EED_0F5E_ED0F_5EED),
    };
    for (c, &r) in owner.iter().enumerate() {
        let r = r as usize;
        st.by_chunk.set(HELD, c, r);
        st.by_chunk.set(GOT, c, r);
        if next > 0 {
            State::set(&mut st.held, words, r, c);
            State::set(&mut st.got, words, r, c);
        }
        if scanned[r] {
            st.order[st.at[r] + st.olen[r] as usize] = c as u32;
            st.olen[r] += 1;
        }
        for &l in &out_links[out_ptr[r] as usize..out_ptr[r + 1] as usize] {
            if st.listed[l as usize] {
                st.cand[l as usize].push(c as u32);
            }
        }
    }
    for l in 0..m {
        // Each source holds its own chunks, which its destination lacks.
        st.want[l] = owned[links.src[l] as usize];
    }
    let mut out = Gathered { link: Vec::new(), chunk: Vec::new(), start: Vec::new(), transfers: 0, time_ns: 0.0 };
    if record {
        let expect = (n - 1) * total;
        out.link.reserve_exact(expect);
        out.chunk.reserve_exact(expect);
        out.start.reserve_exact(expect);
    }
    let mut cal = Calendar::default();
    let mut scratch = Vec::new();
    let mut started: Vec<(u32, u32)> = Vec::new();
    let all: Vec<u32> = (0..m as u32).collect();
    let mut pending = ((n - 1) * total) as u64; // deliveries still to land
    let mut now = 0.0;
    st.try_all(&all, now, &mut scratch, &mut started);
    flush(&mut cal, &mut out, &mut started, links, now, record);
    while let Some((t, bucket)) = cal.pop() {
        now = t;
        for (i, &e) in bucket.lands.iter().enumerate() {
            // A bucket's landings are known in advance: ask for what each will touch (the
            // chunk's bits near its new holder, its out-links' candidate lists) a few landings
            // ahead, in two stages (a list's tail is found through its header).
            for (ahead, stage) in [(2 * LAND_AHEAD, 0), (LAND_AHEAD, 1)] {
                if let Some(&f) = bucket.lands.get(i + ahead) {
                    let w = links.dst[(f >> 32) as usize] as usize;
                    st.prefetch_land(w, (f & 0xFFFF_FFFF) as usize, &out_links[out_ptr[w] as usize..out_ptr[w + 1] as usize], stage);
                }
            }
            let (l, c) = ((e >> 32) as usize, (e & 0xFFFF_FFFF) as usize);
            let v = links.dst[l] as usize;
            let outs = &out_links[out_ptr[v] as usize..out_ptr[v + 1] as usize];
            st.land(v, c, outs);
            out.time_ns = now;
            pending -= 1;
            st.try_all(outs, now, &mut scratch, &mut started);
            flush(&mut cal, &mut out, &mut started, links, now, record);
        }
        for (i, &l) in bucket.frees.iter().enumerate() {
            for k in 1..=FREE_AHEAD {
                if let Some(&m) = bucket.frees.get(i + k) {
                    st.prefetch_picks(m as usize, 2 * k as u64);
                }
            }
            let l = l as usize;
            st.busy[l] = false;
            st.try_all(&nb[nb_ptr[l] as usize..nb_ptr[l + 1] as usize], now, &mut scratch, &mut started);
            flush(&mut cal, &mut out, &mut started, links, now, record);
        }
        cal.recycle(bucket);
    }
    if pending != 0 {
        return Err(format!("{pending} chunk deliveries can never happen: the links do not connect every rank"));
    }
    Ok(out)
}

/// A replayed transfer list: per transfer its start and landing time (ns) and its round.
pub struct Replayed {
    pub start: Vec<f64>,
    pub land: Vec<f64>,
    /// Rounds (schedule steps): the first round after the one that made the sender's data final
    /// and after the last round that used any physical link of the path, so a round uses each
    /// physical link at most once and every dependency lies in an earlier round.
    pub round: Vec<u32>,
}

/// Start and landing time of each transfer, in list order (see the module comment), and its
/// round. `reduce[i]`: the destination's data for the chunk is final once every reduce into it
/// has landed.
pub fn replay(links: &Links, link: &[u32], chunk: &[u32], reduce: &[bool], chunks: usize) -> Result<Replayed, String> {
    if link.len() != chunk.len() || chunk.len() != reduce.len() {
        return Err("transfer arrays differ in length".into());
    }
    let mut out = Replayed { start: Vec::with_capacity(link.len()), land: Vec::with_capacity(link.len()), round: Vec::with_capacity(link.len()) };
    replay_each(links, chunks, link.len(), |i| (link[i], chunk[i], reduce[i]), |_, t, at, r| {
        out.start.push(t);
        out.land.push(at);
        out.round.push(r);
    })?;
    Ok(out)
}

/// When a (rank, chunk)'s data is final: time (ns) and round. Packed, 12 B: the replay's state at
/// 16,384 ranks is 268 M of them (3.2 GB), and one entry per cache miss instead of two (time and
/// round in two arrays, as before) halves the replay's misses.
#[repr(C, packed)]
#[derive(Clone, Copy)]
struct Ready {
    t: f64,
    round: u32,
}

/// The replay's loop: transfer i of `count` is `transfer(i)` = (link, chunk, reduce), taken in
/// index order; `emit(i, start, land, round)` receives each as it is timed. Callers keep what
/// they need (`replay`: every column; synth_columns: rounds only, 4 B per transfer).
pub fn replay_each(links: &Links, chunks: usize, count: usize, transfer: impl Fn(usize) -> (u32, u32, bool),
                   mut emit: impl FnMut(usize, f64, f64, u32)) -> Result<(), String> {
    links.check()?;
    let m = links.src.len();
    let mut free = vec![0.0f64; links.resources];
    let mut next_round = vec![0u32; links.resources];
    let mut ready = crate::huge_pages::filled(links.npus * chunks, Ready { t: 0.0, round: 0 });
    for i in 0..count {
        if i + AHEAD < count {
            let (l, c, _) = transfer(i + AHEAD);
            if (l as usize) < m && (c as usize) < chunks {
                prefetch_entry(&ready[links.src[l as usize] as usize * chunks + c as usize]);
                prefetch_entry(&ready[links.dst[l as usize] as usize * chunks + c as usize]);
            }
        }
        let (l, c, reduce) = transfer(i);
        let (l, c) = (l as usize, c as usize);
        if l >= m || c >= chunks {
            return Err(format!("transfer {i} names link {l} of {m} or chunk {c} of {chunks}"));
        }
        let path = links.path_of(l);
        let from = ready[links.src[l] as usize * chunks + c];
        let (mut t, mut r) = (from.t, from.round);
        for &d in path {
            t = t.max(free[d as usize]);
            r = r.max(next_round[d as usize]);
        }
        let end = t + links.ser[l];
        for &d in path {
            free[d as usize] = end;
            next_round[d as usize] = r + 1;
        }
        let at = t + links.fly[l];
        let to = &mut ready[links.dst[l] as usize * chunks + c];
        *to = if reduce { Ready { t: { to.t }.max(at), round: { to.round }.max(r + 1) } } else { Ready { t: at, round: r + 1 } };
        emit(i, t, at, r);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A bidirectional ring of n ranks, one resource per direction of each link.
    fn ring(n: usize) -> Links {
        let mut src = vec![];
        let mut dst = vec![];
        for r in 0..n {
            src.push(r as u32);
            dst.push(((r + 1) % n) as u32);
            src.push(((r + 1) % n) as u32);
            dst.push(r as u32);
        }
        let m = src.len();
        Links { npus: n, src, dst, ser: vec![1.0; m], fly: vec![1.0; m], path_ptr: (0..=m as u32).collect(), path: (0..m as u32).collect(), resources: m }
    }

    #[test]
    fn ring_all_gather_is_optimal() {
        // Each rank receives n-1 chunks over 2 links of 1 ns each: ceil((n-1)/2) ns at best.
        let out = all_gather(&ring(8), 1, 0, true).unwrap();
        assert_eq!(out.transfers, 8 * 7);
        assert_eq!(out.time_ns, 4.0);
    }

    #[test]
    fn high_degree_ranks_scan_and_every_rank_gets_every_chunk_once() {
        // All-to-all over 12 ranks: out-degree 11 > LIST_MAX_DEGREE, so the picks scan arrival
        // orders. Each rank receives 33 chunks over 11 links of 1 ns: 3 ns at best.
        let n = 12;
        let (mut src, mut dst) = (vec![], vec![]);
        for a in 0..n as u32 {
            for b in (0..n as u32).filter(|&b| b != a) {
                src.push(a);
                dst.push(b);
            }
        }
        let m = src.len();
        let l = Links { npus: n, src, dst, ser: vec![1.0; m], fly: vec![1.0; m], path_ptr: (0..=m as u32).collect(), path: (0..m as u32).collect(), resources: m };
        let out = all_gather(&l, 3, 7, true).unwrap();
        assert_eq!(out.transfers as usize, n * (n - 1) * 3);
        assert!((3.0..=4.0).contains(&out.time_ns), "{} ns", out.time_ns);
        let mut seen = std::collections::HashSet::new();
        for (&li, &c) in out.link.iter().zip(&out.chunk) {
            assert!(seen.insert((l.dst[li as usize], c)), "rank {} got chunk {c} twice", l.dst[li as usize]);
            assert_ne!(c / 3, l.dst[li as usize], "a rank was sent its own chunk");
        }
    }

    #[test]
    fn disconnected_ranks_are_an_error() {
        let mut l = ring(4);
        l.npus = 5; // rank 4 has no links
        assert!(all_gather(&l, 1, 0, false).unwrap_err().contains("can never happen"));
    }

    #[test]
    fn replay_waits_for_data_and_ports() {
        let l = ring(3);
        // 0 -> 1 (link 0) then 1 -> 2 (link 2) of chunk 0: the second waits for the first to land.
        let r = replay(&l, &[0, 2, 2], &[0, 0, 1], &[false, false, false], 3).unwrap();
        assert_eq!(r.start, vec![0.0, 1.0, 2.0]); // 1 -> 2 of chunk 1 (link 2 again) waits for link 2
        assert_eq!(r.land, vec![1.0, 2.0, 3.0]);
        assert_eq!(r.round, vec![0, 1, 2]);
    }
}
