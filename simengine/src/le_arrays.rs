//! Arrays across the Python boundary as little-endian bytes (numpy's `tobytes()` / `frombuffer`):
//! one copy each way, shared by the PyO3 glue modules (synth_python, workload_python).
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// u32 little-endian bytes -> values (a trailing partial element is ignored).
pub fn u32s(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4).map(|x| u32::from_le_bytes([x[0], x[1], x[2], x[3]])).collect()
}

/// i32 little-endian bytes -> values (a trailing partial element is ignored).
pub fn i32s(b: &[u8]) -> Vec<i32> {
    b.chunks_exact(4).map(|x| i32::from_le_bytes([x[0], x[1], x[2], x[3]])).collect()
}

/// f64 little-endian bytes -> values (a trailing partial element is ignored).
pub fn f64s(b: &[u8]) -> Vec<f64> {
    b.chunks_exact(8).map(|x| f64::from_le_bytes(x.try_into().unwrap())).collect()
}

/// `v` as a Python bytes object, each element written in place by `f` (e.g. `u32::to_le_bytes`):
/// no intermediate Vec, so a column of a large schedule exists twice at most while it crosses.
pub fn pybytes<'py, T: Copy, const N: usize>(py: Python<'py>, v: &[T], f: impl Fn(T) -> [u8; N]) -> PyResult<Bound<'py, PyBytes>> {
    PyBytes::new_with(py, v.len() * N, |buf| {
        for (dst, &x) in buf.chunks_exact_mut(N).zip(v) {
            dst.copy_from_slice(&f(x));
        }
        Ok(())
    })
}
