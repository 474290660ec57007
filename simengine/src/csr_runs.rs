//! Compacting the runs of a CSR (compressed sparse row) array in place. `symmetry_proof` (a
//! node's up links) and `schedule_program` (a position's steps) each build a run with repeats
//! and keep it as a sorted set; this is the one place that does it.

/// Sorts `v[from..to]` and writes its distinct values, ascending, to `v[out..]`, returning the end
/// of what was written. `out <= from`, so a run is compacted towards the runs kept before it; the
/// caller truncates `v` (or keeps compacting) at the returned end.
pub(crate) fn sort_dedup_run<T: Ord + Copy>(v: &mut [T], from: usize, to: usize, mut out: usize) -> usize {
    debug_assert!(out <= from && from <= to);
    v[from..to].sort_unstable();
    let mut last = None;
    for k in from..to {
        if last != Some(v[k]) {
            last = Some(v[k]);
            v[out] = v[k];
            out += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::sort_dedup_run;

    #[test]
    fn compacts_a_run_towards_the_kept_ones() {
        let mut v = vec![1u32, 2, 9, 3, 9, 0, 3];
        let end = sort_dedup_run(&mut v, 3, 7, 2);
        assert_eq!(end, 5);
        assert_eq!(&v[..end], &[1, 2, 0, 3, 9]);
        assert_eq!(sort_dedup_run(&mut v, 5, 5, 5), 5);
    }
}
