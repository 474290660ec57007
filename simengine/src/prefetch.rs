//! Cache prefetch hints for the loops that read large state in no useful order: the synthesis
//! replay (synth) and the schedule proof (schedule_proof) each read two (rank, chunk) states per
//! transfer, ~10 ns of work against ~100 ns to fetch a state from memory once the states outgrow
//! the cache. A hint never changes a result; off x86_64 it does nothing.

/// How many transfers ahead the loops ask for the states they will read.
pub const AHEAD: usize = 16;

/// Ask the CPU to start loading `x`'s cache line.
#[inline(always)]
pub fn prefetch<T>(x: &T) {
    prefetch_ptr(x as *const T);
}

/// `prefetch` of an address that need not hold a value (a list's next free slot).
#[inline(always)]
pub fn prefetch_ptr<T>(x: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults, whatever the address.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(x as *const i8)
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

/// Ask the CPU to load both cache lines a packed entry may straddle.
#[inline(always)]
pub fn prefetch_entry<T>(x: &T) {
    prefetch(x);
    prefetch_ptr((x as *const T as *const u8).wrapping_add(std::mem::size_of::<T>() - 1));
}
