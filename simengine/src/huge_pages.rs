//! Large arrays read and written in no useful order, on 2 MB pages (Linux transparent huge pages,
//! asked for with madvise: the machine's setting is `madvise`, so nothing is on them unless asked).
//!
//! Why: a synthesized 16,384-NPU all-reduce keeps 12 B per (rank, chunk) in the replay and in the
//! proof (3.2 GB each) and touches an entry per transfer at random. On 4 KB pages every such touch
//! also misses the TLB (it covers a few MB), and the page walk's own reads miss the cache: two
//! memory round trips per touch instead of one. On 2 MB pages the page tables of 3.2 GB fit in
//! the cache. Only a hint: where it is refused or unsupported, the arrays work as before.

/// `len` copies of `value`, the allocation advised onto huge pages before it is first touched.
pub fn filled<T: Clone>(len: usize, value: T) -> Vec<T> {
    let mut v = with_capacity(len);
    v.resize(len, value);
    v
}

/// An empty vector with room for `len` values, advised onto huge pages (fill it with push/extend).
pub fn with_capacity<T>(len: usize) -> Vec<T> {
    let v: Vec<T> = Vec::with_capacity(len);
    advise(v.as_ptr() as *const u8, len * std::mem::size_of::<T>());
    v
}

/// Smaller allocations gain nothing (and a 2 MB page would round them up).
const MIN_BYTES: usize = 8 << 20;

#[cfg(target_os = "linux")]
fn advise(at: *const u8, bytes: usize) {
    const PAGE: usize = 2 << 20;
    const MADV_HUGEPAGE: i32 = 14;
    extern "C" {
        fn madvise(addr: *mut u8, len: usize, advice: i32) -> i32;
    }
    if bytes < MIN_BYTES {
        return;
    }
    // The whole 2 MB pages inside the allocation.
    let start = (at as usize).next_multiple_of(PAGE);
    let end = (at as usize + bytes) / PAGE * PAGE;
    if end > start {
        // SAFETY: the range lies inside an allocation this process owns; MADV_HUGEPAGE changes
        // how it is backed, never its contents. The result is ignored: it is a hint.
        unsafe { madvise(start as *mut u8, end - start, MADV_HUGEPAGE) };
    }
}

#[cfg(not(target_os = "linux"))]
fn advise(_at: *const u8, _bytes: usize) {}

#[cfg(test)]
mod tests {
    #[test]
    fn filled_vectors_hold_their_values() {
        let v = super::filled(3 << 20, 7u32); // 12 MB: advised
        assert_eq!(v.len(), 3 << 20);
        assert!(v.iter().all(|&x| x == 7));
        let w: Vec<u8> = super::filled(5, 1u8); // too small to advise
        assert_eq!(w, vec![1; 5]);
    }
}
