//! Work-conserving replay of a transfer list (infragraph/collectives/replay.py, `list_replay`).
//!
//! Why: `synth::replay` serves each physical link's transfers strictly in list order, so a
//! transfer listed early whose data comes late holds back the link's later ones even when their
//! data is there. An all-reduce lists its reduce-scatter before its all-gather (or, in pieces, by
//! nominal times), so on a link the all-gather waits for the whole reduce-scatter: a mesh corner,
//! whose in-ports are idle in the reduce-scatter and busy in the all-gather, cannot overlap the
//! two. Here a link, whenever it is free, starts the first-listed transfer that is ready (its
//! sender's data for the chunk final) and whose other links are free too. The start times give an
//! order; `synth::replay` of the list in that order times it no later (each transfer's data and
//! links come no later), and cuts it into rounds.
//!
//! Units: ns, as in `synth`.
use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap};

use crate::synth::Links;

/// The start time of each transfer of the list (see the module comment). `reduce[i]`: a
/// reduction (the destination's data is final once every reduce into it listed before the
/// transfer that sends it on has landed).
pub fn list_replay(links: &Links, link: &[u32], chunk: &[u32], reduce: &[bool], chunks: usize) -> Result<Vec<f64>, String> {
    links.check()?;
    if link.len() != chunk.len() || chunk.len() != reduce.len() {
        return Err("transfer arrays differ in length".into());
    }
    let (t, m) = (link.len(), links.src.len());
    let path = |l: usize| &links.path[links.path_ptr[l] as usize..links.path_ptr[l + 1] as usize];
    // need[i]: transfers into (sender, chunk) listed before i, which must all land before i can go.
    let keys = links.npus * chunks;
    let mut seen = vec![0u32; keys];
    let mut need = vec![0u32; t];
    let mut from = vec![0u32; t];
    for i in 0..t {
        let (l, c) = (link[i] as usize, chunk[i] as usize);
        if l >= m || c >= chunks {
            return Err(format!("transfer {i} names link {l} of {m} or chunk {c} of {chunks}"));
        }
        let f = links.src[l] as usize * chunks + c;
        from[i] = f as u32;
        need[i] = seen[f];
        seen[links.dst[l] as usize * chunks + c] += 1;
    }
    // Transfers waiting on each key, in list order (their needs do not decrease), and how far woken.
    let mut wait_ptr = vec![0u32; keys + 1];
    for &f in &from {
        wait_ptr[f as usize + 1] += 1;
    }
    for k in 0..keys {
        wait_ptr[k + 1] += wait_ptr[k];
    }
    let mut fill = wait_ptr.clone();
    let mut waiting = vec![0u32; t];
    for (i, &f) in from.iter().enumerate() {
        waiting[fill[f as usize] as usize] = i as u32;
        fill[f as usize] += 1;
    }
    let mut woken = wait_ptr[..keys].to_vec();
    let mut landed = vec![0u32; keys];
    let mut ready: Vec<BTreeSet<u32>> = vec![BTreeSet::new(); links.resources];
    let mut busy = vec![false; links.resources];
    let mut dirty: Vec<u32> = Vec::new();
    let mut start = vec![f64::NAN; t];
    // Events: (time bits, kind 0 = landing / 1 = links freed, transfer).
    let mut events: BinaryHeap<Reverse<(u64, u8, u32)>> = BinaryHeap::new();
    let wake = |key: usize, landed: &[u32], woken: &mut [u32], ready: &mut [BTreeSet<u32>], dirty: &mut Vec<u32>| {
        while woken[key] < wait_ptr[key + 1] && need[waiting[woken[key] as usize] as usize] <= landed[key] {
            let i = waiting[woken[key] as usize];
            for &d in path(link[i as usize] as usize) {
                ready[d as usize].insert(i);
                dirty.push(d);
            }
            woken[key] += 1;
        }
    };
    for key in 0..keys {
        wake(key, &landed, &mut woken, &mut ready, &mut dirty);
    }
    let mut now = 0.0f64;
    loop {
        dirty.sort_unstable();
        dirty.dedup();
        for &d in &dirty {
            if busy[d as usize] {
                continue;
            }
            let go = ready[d as usize].iter().copied().find(|&i| path(link[i as usize] as usize).iter().all(|&e| !busy[e as usize]));
            let Some(i) = go else { continue };
            let l = link[i as usize] as usize;
            for &e in path(l) {
                busy[e as usize] = true;
                ready[e as usize].remove(&i);
            }
            start[i as usize] = now;
            events.push(Reverse(((now + links.ser[l]).to_bits(), 1, i)));
            events.push(Reverse(((now + links.fly[l]).to_bits(), 0, i)));
        }
        dirty.clear();
        let Some(&Reverse((bits, _, _))) = events.peek() else { break };
        now = f64::from_bits(bits);
        while let Some(&Reverse((b, kind, i))) = events.peek() {
            if b != bits {
                break;
            }
            events.pop();
            let l = link[i as usize] as usize;
            if kind == 1 {
                for &e in path(l) {
                    busy[e as usize] = false;
                    dirty.push(e);
                }
            } else {
                let key = links.dst[l] as usize * chunks + chunk[i as usize] as usize;
                landed[key] += 1;
                wake(key, &landed, &mut woken, &mut ready, &mut dirty);
            }
        }
    }
    if let Some(i) = start.iter().position(|s| s.is_nan()) {
        return Err(format!("transfer {i} never starts: its sender never holds its chunk"));
    }
    Ok(start)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ranks 0 - 1 - 2 on a line, one resource per direction of each link, 1 ns per chunk.
    fn line() -> Links {
        let (src, dst) = (vec![0, 1, 1, 2], vec![1, 0, 2, 1]);
        Links { npus: 3, src, dst, ser: vec![1.0; 4], fly: vec![1.0; 4], path_ptr: (0..=4).collect(), path: (0..4).collect(), resources: 4 }
    }

    #[test]
    fn a_free_link_skips_a_transfer_whose_data_is_late() {
        // Listed: 0 -> 1 chunk 0 (link 0), 1 -> 2 chunk 0 (link 2, needs chunk 0 at 1), 1 -> 2 chunk 1
        // (link 2, rank 1's own). In list order chunk 1 waits behind chunk 0; here it goes first.
        let l = line();
        let start = list_replay(&l, &[0, 2, 2], &[0, 0, 1], &[false; 3], 3).unwrap();
        assert_eq!(start, vec![0.0, 1.0, 0.0]);
        let strict = crate::synth::replay(&l, &[0, 2, 2], &[0, 0, 1], &[false; 3], 3).unwrap();
        assert_eq!(strict.start, vec![0.0, 1.0, 2.0]);
    }

    #[test]
    fn a_reduce_waits_for_every_reduce_listed_before_it() {
        // 0 -> 1 and 2 -> 1 reduce chunk 1 into rank 1, then 1 -> 0 sends it on.
        let l = line();
        let start = list_replay(&l, &[0, 3, 1], &[1, 1, 1], &[true, true, false], 3).unwrap();
        assert_eq!(start, vec![0.0, 0.0, 1.0]);
    }
}
