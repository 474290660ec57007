//! PyO3 glue of `synth` (collective synthesis): arrays cross as little-endian bytes (numpy's
//! `tobytes()` / `frombuffer`), since a schedule has millions of transfers.
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use crate::synth::{all_gather, all_gather_from, replay, Links};

fn u32s(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4).map(|x| u32::from_le_bytes([x[0], x[1], x[2], x[3]])).collect()
}

fn f64s(b: &[u8]) -> Vec<f64> {
    b.chunks_exact(8).map(|x| f64::from_le_bytes(x.try_into().unwrap())).collect()
}

fn bytes_of<T: Copy, const N: usize>(v: &[T], f: impl Fn(T) -> [u8; N]) -> Vec<u8> {
    v.iter().flat_map(|&x| f(x)).collect()
}

#[allow(clippy::too_many_arguments)]
fn links(npus: usize, src: &[u8], dst: &[u8], ser: &[u8], fly: &[u8], path_ptr: &[u8], path: &[u8], resources: usize) -> Links {
    Links { npus, src: u32s(src), dst: u32s(dst), ser: f64s(ser), fly: f64s(fly), path_ptr: u32s(path_ptr), path: u32s(path), resources }
}

/// Greedy all-gather (synth::all_gather). Link arrays: src/dst/path_ptr/path u32, ser/fly f64 (ns).
/// `owner` (u32 bytes, one rank per chunk) replaces rank r's chunks_per_rank chunks r*k .. r*k+k-1.
/// Returns {link: u32 bytes, chunk: u32 bytes, start: f64 bytes, transfers, time_ns}.
#[pyfunction]
#[pyo3(signature = (*, npus, src, dst, ser, fly, path_ptr, path, resources, chunks_per_rank, seed=0, record=true, owner=None))]
#[allow(clippy::too_many_arguments)]
fn synth_all_gather<'py>(py: Python<'py>, npus: usize, src: &[u8], dst: &[u8], ser: &[u8], fly: &[u8], path_ptr: &[u8], path: &[u8],
                         resources: usize, chunks_per_rank: usize, seed: u64, record: bool, owner: Option<&[u8]>) -> PyResult<Bound<'py, PyDict>> {
    let l = links(npus, src, dst, ser, fly, path_ptr, path, resources);
    let owner = owner.map(u32s);
    let out = py
        .allow_threads(|| match &owner {
            Some(o) => all_gather_from(&l, o, seed, record),
            None => all_gather(&l, chunks_per_rank, seed, record),
        })
        .map_err(PyValueError::new_err)?;
    let d = PyDict::new(py);
    d.set_item("link", PyBytes::new(py, &bytes_of(&out.link, u32::to_le_bytes)))?;
    d.set_item("chunk", PyBytes::new(py, &bytes_of(&out.chunk, u32::to_le_bytes)))?;
    d.set_item("start", PyBytes::new(py, &bytes_of(&out.start, f64::to_le_bytes)))?;
    d.set_item("transfers", out.transfers)?;
    d.set_item("time_ns", out.time_ns)?;
    Ok(d)
}

/// Replay a transfer list (synth::replay): link/chunk u32 bytes, reduce u8 bytes (0/1).
/// Returns (start f64 bytes, land f64 bytes, round u32 bytes).
#[pyfunction]
#[pyo3(signature = (*, npus, src, dst, ser, fly, path_ptr, path, resources, link, chunk, reduce, chunks))]
#[allow(clippy::too_many_arguments)]
fn synth_replay<'py>(py: Python<'py>, npus: usize, src: &[u8], dst: &[u8], ser: &[u8], fly: &[u8], path_ptr: &[u8], path: &[u8],
                     resources: usize, link: &[u8], chunk: &[u8], reduce: &[u8], chunks: usize) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
    let l = links(npus, src, dst, ser, fly, path_ptr, path, resources);
    let (link, chunk) = (u32s(link), u32s(chunk));
    let reduce: Vec<bool> = reduce.iter().map(|&b| b != 0).collect();
    let r = py.allow_threads(|| replay(&l, &link, &chunk, &reduce, chunks)).map_err(PyValueError::new_err)?;
    Ok((PyBytes::new(py, &bytes_of(&r.start, f64::to_le_bytes)), PyBytes::new(py, &bytes_of(&r.land, f64::to_le_bytes)),
        PyBytes::new(py, &bytes_of(&r.round, u32::to_le_bytes))))
}

/// Adds the synthesis functions to the extension module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(synth_all_gather, m)?)?;
    m.add_function(wrap_pyfunction!(synth_replay, m)?)?;
    Ok(())
}
