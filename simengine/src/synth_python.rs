//! PyO3 glue of `synth` (collective synthesis): arrays cross as little-endian bytes (numpy's
//! `tobytes()` / `frombuffer`), since a schedule has millions of transfers.
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use crate::synth::{all_gather, all_gather_from, replay, Links};
use crate::le_arrays::{f64s, pybytes, u32s};
use crate::synth_list::list_replay;

/// `v` as a Python bytes object written in place, `v` freed after: a column of a large schedule
/// (268 M transfers at 16,384 NPUs) then exists twice at most while it crosses, not three times.
fn into_pybytes<'py, T: Copy, const N: usize>(py: Python<'py>, v: Vec<T>, f: impl Fn(T) -> [u8; N]) -> PyResult<Bound<'py, PyBytes>> {
    pybytes(py, &v, f)
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
    d.set_item("link", into_pybytes(py, out.link, u32::to_le_bytes)?)?;
    d.set_item("chunk", into_pybytes(py, out.chunk, u32::to_le_bytes)?)?;
    d.set_item("start", into_pybytes(py, out.start, f64::to_le_bytes)?)?;
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
    drop((link, chunk, reduce));
    Ok((into_pybytes(py, r.start, f64::to_le_bytes)?, into_pybytes(py, r.land, f64::to_le_bytes)?, into_pybytes(py, r.round, u32::to_le_bytes)?))
}

/// Work-conserving replay (synth_list::list_replay), arguments as synth_replay's; returns the
/// start times (f64 bytes).
#[pyfunction]
#[pyo3(signature = (*, npus, src, dst, ser, fly, path_ptr, path, resources, link, chunk, reduce, chunks))]
#[allow(clippy::too_many_arguments)]
fn synth_list_replay<'py>(py: Python<'py>, npus: usize, src: &[u8], dst: &[u8], ser: &[u8], fly: &[u8], path_ptr: &[u8], path: &[u8],
                          resources: usize, link: &[u8], chunk: &[u8], reduce: &[u8], chunks: usize) -> PyResult<Bound<'py, PyBytes>> {
    let l = links(npus, src, dst, ser, fly, path_ptr, path, resources);
    let (link, chunk) = (u32s(link), u32s(chunk));
    let reduce: Vec<bool> = reduce.iter().map(|&b| b != 0).collect();
    let start = py.allow_threads(|| list_replay(&l, &link, &chunk, &reduce, chunks)).map_err(PyValueError::new_err)?;
    into_pybytes(py, start, f64::to_le_bytes)
}

/// Adds the synthesis functions to the extension module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(synth_all_gather, m)?)?;
    m.add_function(wrap_pyfunction!(synth_replay, m)?)?;
    m.add_function(wrap_pyfunction!(synth_list_replay, m)?)?;
    Ok(())
}
