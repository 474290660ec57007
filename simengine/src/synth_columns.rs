//! A synthesized collective as the schedule's columns, grouped by step, without per-transfer
//! objects anywhere (infragraph/collectives/synthesize.py, docs/collectives.md "Large schedules").
//!
//! Why: a 16,384-NPU all-reduce has 536,838,144 (2 × 16,384 × 16,383) transfers. Kept as the matching's timeline, the
//! replay's start/land/round and a sort's indices it needed ~60 B per transfer in Python; here it
//! is the matching's link and chunk (8 B per all-gather transfer), one round per transfer (4 B),
//! the replay's per-(rank, chunk) state, and the output columns (src, dst, chunk at 2 B each when
//! ranks and chunks fit 16 bits, else 4 B; reduce 1 B).
//!
//! The transfer order is the one synthesize.py's composition gives: all-gather as matched,
//! reduce-scatter as the all-gather backwards (the copy that landed last is the first reduce, over
//! the reversed link), all-reduce as that reduce-scatter then the all-gather. Rounds are the
//! replay's (synth::replay_each); the columns list the transfers stably by round, as a stable sort
//! by step would.
use crate::synth::{replay_each, Gathered, Links};

/// The schedule's columns: transfers of step s are `step_ptr[s] .. step_ptr[s + 1]`.
pub struct Columns {
    /// Bytes per value of `src`, `dst`, `chunk`: 2 when ranks and chunks are <= 65,536, else 4.
    pub width: usize,
    pub step_ptr: Vec<u64>,
    pub src: Vec<u8>,
    pub dst: Vec<u8>,
    pub chunk: Vec<u8>,
    /// 1 for a reduce, 0 for a copy.
    pub reduce: Vec<u8>,
    /// The link (of the replay's links) of every transfer, u32 little-endian, when asked for
    /// (`keep_link`): the path the schedule names (synthesize.py); else empty.
    pub link: Vec<u8>,
    /// Per step, its earliest start (ns).
    pub step_start: Vec<f64>,
    /// The last landing (ns): the schedule's time in the synthesizer's model.
    pub time_ns: f64,
}

/// Little-endian `value` at index `i` of a column of `width`-byte values.
#[inline]
fn put(col: &mut [u8], i: usize, value: u32, width: usize) {
    col[i * width..(i + 1) * width].copy_from_slice(&value.to_le_bytes()[..width]);
}

/// Replay the `count` transfers `transfer(i)` = (link of `links`, chunk, reduce) in index order and
/// write them as columns grouped by round (stable within a round); `keep_link`: also each one's link.
pub fn columns(links: &Links, chunks: usize, count: usize, transfer: impl Fn(usize) -> (u32, u32, bool), keep_link: bool) -> Result<Columns, String> {
    if count > u32::MAX as usize {
        return Err(format!("{count} transfers; at most {} fit the columns", u32::MAX));
    }
    let mut round: Vec<u32> = Vec::with_capacity(count);
    let mut step_start: Vec<f64> = Vec::new();
    let mut time_ns = 0.0f64;
    replay_each(links, chunks, count, &transfer, |_, start, land, r| {
        round.push(r);
        let r = r as usize;
        if r >= step_start.len() {
            step_start.resize(r + 1, f64::INFINITY);
        }
        step_start[r] = step_start[r].min(start);
        time_ns = time_ns.max(land);
    })?;
    let steps = step_start.len();
    let mut step_ptr = vec![0u64; steps + 1];
    for &r in &round {
        step_ptr[r as usize + 1] += 1;
    }
    for s in 0..steps {
        step_ptr[s + 1] += step_ptr[s];
    }
    let width = if links.npus <= 1 << 16 && chunks <= 1 << 16 { 2 } else { 4 };
    // Written a step's transfers at a time, thousands of steps at once: huge pages.
    let col = |bytes: usize| crate::huge_pages::filled(bytes, 0u8);
    let mut out = Columns { width, step_ptr, src: col(count * width), dst: col(count * width), chunk: col(count * width),
                            reduce: col(count), link: col(if keep_link { 4 * count } else { 0 }), step_start, time_ns };
    let mut next: Vec<u64> = out.step_ptr[..steps].to_vec();
    for (i, &r) in round.iter().enumerate() {
        let (l, c, reduce) = transfer(i);
        let at = next[r as usize] as usize;
        next[r as usize] += 1;
        // 16-bit columns hold 0..65,535: rank/chunk 65,536 is excluded by `width` above.
        put(&mut out.src, at, links.src[l as usize], width);
        put(&mut out.dst, at, links.dst[l as usize], width);
        put(&mut out.chunk, at, c, width);
        out.reduce[at] = reduce as u8;
        if keep_link {
            put(&mut out.link, at, l, 4);
        }
    }
    Ok(out)
}

/// The all-gather's transfers from the last landing to the first (ties: in start order), as
/// indices into `g`: the reduce-scatter's order. `fly[l]` is link l's start-to-landing time.
pub fn landing_order_backwards(g: &Gathered, fly: &[f64]) -> Vec<u32> {
    let arrive = |i: usize| g.start[i] + fly[g.link[i] as usize];
    let n = g.link.len();
    let sorted = (1..n).all(|i| arrive(i - 1) <= arrive(i));
    if sorted {
        // Landings in start order (every link equally fast: a torus): reverse the runs of equal
        // landing times, keeping each run in start order. O(n), no sort.
        let mut out = Vec::with_capacity(n);
        let mut end = n;
        while end > 0 {
            let t = arrive(end - 1);
            let mut begin = end - 1;
            while begin > 0 && arrive(begin - 1) == t {
                begin -= 1;
            }
            out.extend(begin as u32..end as u32);
            end = begin;
        }
        return out;
    }
    let times: Vec<f64> = (0..n).map(arrive).collect();
    let mut out: Vec<u32> = (0..n as u32).collect();
    out.sort_unstable_by(|&a, &b| times[b as usize].total_cmp(&times[a as usize]).then(a.cmp(&b)));
    out
}

/// Which collective a synthesized schedule implements (the matching's all-gather composed).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Composed {
    AllGather,
    ReduceScatter,
    AllReduce,
}

/// The columns of `collective` composed from the all-gather `g` matched on `forward` (its link
/// ids); `both` are the links the replay uses: `forward`'s reversed (ids 0..count) then
/// `forward` (ids count..2 count), as synthesize.py's `_concat(links.reversed(), links)`.
pub fn compose(both: &Links, forward_fly: &[f64], g: Gathered, chunks: usize, collective: Composed, keep_link: bool) -> Result<Columns, String> {
    let count = forward_fly.len() as u32;
    let a = g.link.len();
    let back = if collective == Composed::AllGather { Vec::new() } else { landing_order_backwards(&g, forward_fly) };
    let Gathered { link, chunk, start, .. } = g;
    drop(start); // 8 B per transfer no longer needed: the replay retimes every transfer
    let forward = |i: usize| (link[i] + count, chunk[i], false);
    let backward = |i: usize| {
        let j = back[i] as usize;
        (link[j], chunk[j], true)
    };
    match collective {
        Composed::AllGather => columns(both, chunks, a, forward, keep_link),
        Composed::ReduceScatter => columns(both, chunks, a, backward, keep_link),
        Composed::AllReduce => columns(both, chunks, 2 * a, |i| if i < a { backward(i) } else { forward(i - a) }, keep_link),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::synth::{all_gather, replay};

    fn ring(n: usize) -> Links {
        let (mut src, mut dst) = (vec![], vec![]);
        for r in 0..n {
            src.push(r as u32);
            dst.push(((r + 1) % n) as u32);
            src.push(((r + 1) % n) as u32);
            dst.push(r as u32);
        }
        let m = src.len();
        Links { npus: n, src, dst, ser: vec![1.0; m], fly: vec![1.5; m], path_ptr: (0..=m as u32).collect(), path: (0..m as u32).collect(), resources: m }
    }

    fn both(l: &Links) -> Links {
        let m = l.src.len() as u32;
        Links { npus: l.npus, src: [l.dst.clone(), l.src.clone()].concat(), dst: [l.src.clone(), l.dst.clone()].concat(),
                ser: [l.ser.clone(), l.ser.clone()].concat(), fly: [l.fly.clone(), l.fly.clone()].concat(),
                path_ptr: (0..=2 * m).collect(), path: (0..m).map(|x| x ^ 1).chain(m..2 * m).collect(), resources: 2 * m as usize }
    }

    fn u16s(b: &[u8]) -> Vec<u32> {
        b.chunks_exact(2).map(|x| u16::from_le_bytes([x[0], x[1]]) as u32).collect()
    }

    #[test]
    fn all_reduce_columns_are_the_replay_sorted_by_round() {
        let l = ring(6);
        let b = both(&l);
        let g = all_gather(&l, 1, 3, true).unwrap();
        let m = l.src.len() as u32;
        // The reference: the composed list replayed, then stably sorted by round.
        let back = landing_order_backwards(&g, &l.fly);
        let mut link: Vec<u32> = back.iter().map(|&j| g.link[j as usize]).collect();
        let mut chunk: Vec<u32> = back.iter().map(|&j| g.chunk[j as usize]).collect();
        let mut reduce = vec![true; link.len()];
        link.extend(g.link.iter().map(|&x| x + m));
        chunk.extend(&g.chunk);
        reduce.extend(vec![false; g.link.len()]);
        let r = replay(&b, &link, &chunk, &reduce, 6).unwrap();
        let mut order: Vec<usize> = (0..link.len()).collect();
        order.sort_by_key(|&i| r.round[i]);
        let c = compose(&b, &l.fly, g, 6, Composed::AllReduce, true).unwrap();
        assert_eq!(c.width, 2);
        assert_eq!(*c.step_ptr.last().unwrap() as usize, 2 * 6 * 5);
        assert_eq!(u16s(&c.src), order.iter().map(|&i| b.src[link[i] as usize]).collect::<Vec<_>>());
        assert_eq!(u16s(&c.dst), order.iter().map(|&i| b.dst[link[i] as usize]).collect::<Vec<_>>());
        assert_eq!(u16s(&c.chunk), order.iter().map(|&i| chunk[i]).collect::<Vec<_>>());
        assert_eq!(c.reduce, order.iter().map(|&i| reduce[i] as u8).collect::<Vec<_>>());
        let links: Vec<u32> = c.link.chunks_exact(4).map(|x| u32::from_le_bytes([x[0], x[1], x[2], x[3]])).collect();
        assert_eq!(links, order.iter().map(|&i| link[i]).collect::<Vec<_>>());
        assert_eq!(c.time_ns, r.land.iter().cloned().fold(0.0, f64::max));
        for s in 0..c.step_start.len() {
            let first = order[c.step_ptr[s] as usize..c.step_ptr[s + 1] as usize].iter().map(|&i| r.start[i]).fold(f64::INFINITY, f64::min);
            assert_eq!(c.step_start[s], first);
        }
    }

    #[test]
    fn backwards_order_sorts_unequal_landings() {
        // Landing times 5, 3, 3, 9 (not in start order): backwards 9, 5, then the two 3s in start order.
        let g = Gathered { link: vec![0, 1, 1, 0], chunk: vec![0; 4], start: vec![0.0, 1.0, 1.0, 4.0], transfers: 4, time_ns: 9.0 };
        assert_eq!(landing_order_backwards(&g, &[5.0, 2.0]), vec![3, 0, 1, 2]);
        let g = Gathered { link: vec![0, 0, 0], chunk: vec![0; 3], start: vec![0.0, 0.0, 2.0], transfers: 3, time_ns: 3.0 };
        assert_eq!(landing_order_backwards(&g, &[1.0]), vec![2, 0, 1]);
    }
}
