//! A schedule's transfers as the Python side hands them to the engine: typed columns in
//! little-endian bytes (infragraph/collectives/columns.py, the `.igsched` file's layout), decoded
//! here into the arrays `schedule_program::Program` and `pair_gate::PairOrder` are built from.
//!
//! Why bytes: as Python lists a transfer cost about 100 B and 0.3 s per two million to convert;
//! as columns it crosses as 7 B (16-bit ranks and chunks, one byte for the op) with no Python
//! object per transfer, and a `.igsched` file's buffers cross without a copy.
use crate::error::{SimError, SimResult};

/// The transfers, one entry per transfer in schedule order; `way` empty when no transfer names a
/// path (else the explicit route index, `schedule_program::NO_WAY` for a routed one).
#[derive(Debug, PartialEq)]
pub struct TransferColumns {
    pub steps: usize,
    pub step: Vec<u32>,
    pub src: Vec<u32>,
    pub dst: Vec<u32>,
    pub chunk: Vec<u32>,
    pub reduce: Vec<bool>,
    pub way: Vec<u32>,
}

fn bad<T>(why: String) -> SimResult<T> {
    Err(SimError::InvalidInput(format!("schedule columns: {why}")))
}

/// Unsigned values of `width` bytes (2 or 4), little-endian.
fn uints(name: &str, b: &[u8], width: usize, count: usize) -> SimResult<Vec<u32>> {
    if b.len() != count * width {
        return bad(format!("{name} has {} B; expected {count} values of {width} B", b.len()));
    }
    Ok(match width {
        2 => b.chunks_exact(2).map(|x| u16::from_le_bytes([x[0], x[1]]) as u32).collect(),
        _ => b.chunks_exact(4).map(|x| u32::from_le_bytes([x[0], x[1], x[2], x[3]])).collect(),
    })
}

impl TransferColumns {
    /// Decodes and checks the columns: `step_ptr` (u64, steps + 1 offsets from 0 to the number of
    /// transfers, never decreasing), `src`, `dst`, `chunk` (`width` = 2 or 4 bytes each), `reduce`
    /// (one byte, 0 copy or 1 reduce), `way` (u32 per transfer, or empty). Ranges of ranks and
    /// chunks are the program's to check (they depend on the schedule's shape).
    pub fn decode(step_ptr: &[u8], src: &[u8], dst: &[u8], chunk: &[u8], width: usize, reduce: &[u8], way: &[u8]) -> SimResult<Self> {
        if width != 2 && width != 4 {
            return bad(format!("values of {width} B; expected 2 or 4"));
        }
        if !step_ptr.len().is_multiple_of(8) || step_ptr.is_empty() {
            return bad(format!("step offsets of {} B; expected steps + 1 values of 8 B", step_ptr.len()));
        }
        let ptr: Vec<u64> = step_ptr.chunks_exact(8).map(|x| u64::from_le_bytes(x.try_into().unwrap())).collect();
        let count = reduce.len();
        if ptr[0] != 0 || ptr[ptr.len() - 1] != count as u64 {
            return bad(format!("step offsets run from {} to {}; expected 0 to the {count} transfers", ptr[0], ptr[ptr.len() - 1]));
        }
        if let Some(s) = ptr.windows(2).position(|w| w[1] < w[0]) {
            return bad(format!("step {s} ends before it starts"));
        }
        if let Some(i) = reduce.iter().position(|&r| r > 1) {
            return bad(format!("transfer {i} has op {}; expected 0 (copy) or 1 (reduce)", reduce[i]));
        }
        if !way.is_empty() && way.len() != 4 * count {
            return bad(format!("paths of {} B for {count} transfers; expected 4 B each, or none", way.len()));
        }
        let steps = ptr.len() - 1;
        let mut step = Vec::with_capacity(count);
        for (s, w) in ptr.windows(2).enumerate() {
            step.extend(std::iter::repeat_n(s as u32, (w[1] - w[0]) as usize));
        }
        Ok(TransferColumns {
            steps,
            step,
            src: uints("src", src, width, count)?,
            dst: uints("dst", dst, width, count)?,
            chunk: uints("chunk", chunk, width, count)?,
            reduce: reduce.iter().map(|&r| r == 1).collect(),
            way: if way.is_empty() { Vec::new() } else { uints("path", way, 4, count)? },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn le<const N: usize>(v: &[u64]) -> Vec<u8> {
        v.iter().flat_map(|&x| x.to_le_bytes()[..N].to_vec()).collect()
    }

    #[test]
    fn columns_decode_to_one_entry_per_transfer() {
        // step 0: 0 -> 1 chunk 2 (reduce); step 1: none; step 2: 1 -> 0 chunk 300, 0 -> 1 chunk 1.
        let c = TransferColumns::decode(&le::<8>(&[0, 1, 1, 3]), &le::<2>(&[0, 1, 0]), &le::<2>(&[1, 0, 1]), &le::<2>(&[2, 300, 1]), 2, &[1, 0, 0], &[])
            .unwrap();
        assert_eq!((c.steps, c.step, c.src, c.chunk, c.reduce), (3, vec![0, 2, 2], vec![0, 1, 0], vec![2, 300, 1], vec![true, false, false]));
        let wide = TransferColumns::decode(&le::<8>(&[0, 1]), &le::<4>(&[70000]), &le::<4>(&[1]), &le::<4>(&[0]), 4, &[0], &le::<4>(&[7])).unwrap();
        assert_eq!((wide.src, wide.way), (vec![70000], vec![7]));
    }

    #[test]
    fn malformed_columns_are_errors_saying_what_is_wrong() {
        let ok_ptr = le::<8>(&[0, 1]);
        let one = le::<2>(&[1]);
        let err = |r: SimResult<TransferColumns>| r.unwrap_err().to_string();
        assert!(err(TransferColumns::decode(&ok_ptr, &one, &one, &one, 3, &[0], &[])).contains("values of 3 B"));
        assert!(err(TransferColumns::decode(&le::<8>(&[0, 2]), &one, &one, &one, 2, &[0], &[])).contains("from 0 to 2"));
        assert!(err(TransferColumns::decode(&le::<8>(&[0, 2, 1, 1]), &one, &one, &one, 2, &[0], &[])).contains("step 1 ends before"));
        assert!(err(TransferColumns::decode(&ok_ptr, &one, &one, &one, 2, &[2], &[])).contains("op 2"));
        assert!(err(TransferColumns::decode(&ok_ptr, &le::<4>(&[1]), &one, &one, 2, &[0], &[])).contains("src has 4 B"));
        assert!(err(TransferColumns::decode(&ok_ptr, &one, &one, &one, 2, &[0], &[0, 0])).contains("paths of 2 B"));
        assert!(err(TransferColumns::decode(&[], &one, &one, &one, 2, &[0], &[])).contains("step offsets of 0 B"));
    }
}
