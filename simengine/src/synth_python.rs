//! PyO3 glue of `synth` (collective synthesis), `synth_columns` (a synthesized schedule as
//! columns) and `schedule_proof` (the validator): arrays cross as little-endian bytes (numpy's
//! `tobytes()` / `frombuffer`), since a schedule has millions of transfers.
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use crate::schedule_proof::{prove, Col, Columns as ProofColumns, Goal};
use crate::synth::{all_gather, all_gather_from, replay, Links};
use crate::synth_columns::{columns, compose, Columns, Composed};
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

/// Links from a dict of matching.py's `engine_arrays` (npus, src, dst, ser, fly, path_ptr, path,
/// resources).
fn links_from(d: &Bound<'_, PyDict>) -> PyResult<Links> {
    let get = |key: &str| -> PyResult<Bound<'_, PyAny>> {
        d.get_item(key)?.ok_or_else(|| PyValueError::new_err(format!("link arrays lack '{key}'")))
    };
    let bytes = |key: &str| -> PyResult<Vec<u8>> { get(key)?.extract::<Vec<u8>>() };
    Ok(links(get("npus")?.extract()?, &bytes("src")?, &bytes("dst")?, &bytes("ser")?, &bytes("fly")?, &bytes("path_ptr")?,
             &bytes("path")?, get("resources")?.extract()?))
}

/// Columns (synth_columns::Columns) as {width, transfers, step_ptr: u64 bytes, src, dst, chunk:
/// bytes of `width`-byte values, reduce: u8 bytes, step_start: f64 bytes, time_ns, and link: u32
/// bytes when kept}; each column is freed once copied.
fn columns_dict(py: Python<'_>, c: Columns) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("width", c.width)?;
    d.set_item("transfers", c.reduce.len())?;
    d.set_item("time_ns", c.time_ns)?;
    d.set_item("step_ptr", into_pybytes(py, c.step_ptr, u64::to_le_bytes)?)?;
    d.set_item("step_start", into_pybytes(py, c.step_start, f64::to_le_bytes)?)?;
    if !c.link.is_empty() {
        d.set_item("link", PyBytes::new(py, &c.link))?;
    }
    drop(c.link);
    for (key, col) in [("src", c.src), ("dst", c.dst), ("chunk", c.chunk), ("reduce", c.reduce)] {
        d.set_item(key, PyBytes::new(py, &col))?;
        drop(col);
    }
    Ok(d)
}

/// A synthesized collective as columns (synth_columns::compose): the all-gather matched over
/// `matching` (link dict, as synth_all_gather's arguments), composed into `collective`
/// ("all-gather", "reduce-scatter", "all-reduce") and replayed over `both` (the reversed links
/// then `matching`'s). Returns columns_dict's dict (with `link`, u32 bytes, when `keep_link`).
#[pyfunction]
#[pyo3(signature = (*, matching, both, collective, chunks_per_rank, seed=0, owner=None, keep_link=false))]
#[allow(clippy::too_many_arguments)]
fn synth_schedule<'py>(py: Python<'py>, matching: &Bound<'py, PyDict>, both: &Bound<'py, PyDict>, collective: &str, chunks_per_rank: usize,
                       seed: u64, owner: Option<&[u8]>, keep_link: bool) -> PyResult<Bound<'py, PyDict>> {
    let kind = match collective {
        "all-gather" => Composed::AllGather,
        "reduce-scatter" => Composed::ReduceScatter,
        "all-reduce" => Composed::AllReduce,
        _ => return Err(PyValueError::new_err(format!("cannot compose '{collective}'"))),
    };
    let (fwd, both) = (links_from(matching)?, links_from(both)?);
    if both.src.len() != 2 * fwd.src.len() || both.npus != fwd.npus {
        return Err(PyValueError::new_err("the replay's links must be the reversed links then the matching's"));
    }
    let owner = owner.map(u32s);
    let chunks = owner.as_ref().map_or(fwd.npus * chunks_per_rank, |o| o.len());
    let out = py
        .allow_threads(|| {
            let g = match &owner {
                Some(o) => all_gather_from(&fwd, o, seed, true),
                None => all_gather(&fwd, chunks_per_rank, seed, true),
            }?;
            compose(&both, &fwd.fly, g, chunks, kind, keep_link)
        })
        .map_err(PyValueError::new_err)?;
    columns_dict(py, out)
}

/// A transfer list (link of `links`, chunk, reduce: u32, u32, u8 bytes) replayed and written as
/// columns grouped by round (synth_columns::columns). Returns columns_dict's dict.
#[pyfunction]
#[pyo3(signature = (*, links, link, chunk, reduce, chunks, keep_link=false))]
fn synth_replay_columns<'py>(py: Python<'py>, links: &Bound<'py, PyDict>, link: &[u8], chunk: &[u8], reduce: &[u8],
                             chunks: usize, keep_link: bool) -> PyResult<Bound<'py, PyDict>> {
    let l = links_from(links)?;
    let (link, chunk) = (u32s(link), u32s(chunk));
    if link.len() != chunk.len() || chunk.len() != reduce.len() {
        return Err(PyValueError::new_err("transfer arrays differ in length"));
    }
    let out = py
        .allow_threads(|| columns(&l, chunks, link.len(), |i| (link[i], chunk[i], reduce[i] != 0), keep_link))
        .map_err(PyValueError::new_err)?;
    columns_dict(py, out)
}

/// Prove a schedule given as columns (schedule_proof::prove): step_ptr u64 bytes; src, dst, chunk
/// bytes of `width`-byte (2 or 4) values; reduce u8 bytes; `seed` draws the fingerprint weights.
/// Raises ValueError with the located reason when the schedule does not implement `collective`.
#[pyfunction]
#[pyo3(signature = (*, collective, ranks, chunks_per_rank, step_ptr, src, dst, chunk, width, reduce, seed))]
#[allow(clippy::too_many_arguments)]
fn prove_schedule(py: Python<'_>, collective: &str, ranks: usize, chunks_per_rank: usize, step_ptr: &[u8], src: &[u8], dst: &[u8],
                  chunk: &[u8], width: usize, reduce: &[u8], seed: u64) -> PyResult<()> {
    let goal = match collective {
        "all-gather" => Goal::AllGather,
        "reduce-scatter" => Goal::ReduceScatter,
        "all-reduce" => Goal::AllReduce,
        _ => return Err(PyValueError::new_err(format!("no such collective '{collective}'"))),
    };
    if width != 2 && width != 4 {
        return Err(PyValueError::new_err(format!("columns of {width}-byte values; expected 2 or 4")));
    }
    let ptr: Vec<u64> = step_ptr.chunks_exact(8).map(|x| u64::from_le_bytes(x.try_into().unwrap())).collect();
    if ptr.is_empty() {
        return Err(PyValueError::new_err("step offsets are empty; expected steps + 1 of them"));
    }
    let cols = ProofColumns { goal, ranks, chunks_per_rank, step_ptr: &ptr, src: Col { bytes: src, width }, dst: Col { bytes: dst, width },
                              chunk: Col { bytes: chunk, width }, reduce };
    py.allow_threads(|| prove(&cols, seed)).map_err(PyValueError::new_err)
}

/// Adds the synthesis functions to the extension module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(synth_schedule, m)?)?;
    m.add_function(wrap_pyfunction!(synth_replay_columns, m)?)?;
    m.add_function(wrap_pyfunction!(prove_schedule, m)?)?;
    m.add_function(wrap_pyfunction!(synth_all_gather, m)?)?;
    m.add_function(wrap_pyfunction!(synth_replay, m)?)?;
    m.add_function(wrap_pyfunction!(synth_list_replay, m)?)?;
    Ok(())
}
