//! PyO3 glue of `workload_replay` (the workload replay's event loop): the DAG crosses as
//! little-endian arrays (numpy's `tobytes()`), the timing as two Python callables, so the
//! replay's timer (infragraph/workload/timing.py) stays the one place collective and message times
//! are decided.
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::workload_replay::{replay, Dag, Timing, OP_COLLECTIVE, OP_RECV, OP_SEND};

fn u32s(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4).map(|x| u32::from_le_bytes([x[0], x[1], x[2], x[3]])).collect()
}

fn f64s(b: &[u8]) -> Vec<f64> {
    b.chunks_exact(8).map(|x| f64::from_le_bytes(x.try_into().unwrap())).collect()
}

fn le_bytes(v: &[f64]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

struct PyTiming<'py> {
    on_collective: Bound<'py, PyAny>,
    on_send: Bound<'py, PyAny>,
}

impl Timing for PyTiming<'_> {
    type Error = PyErr;
    fn collective(&mut self, node: u32, issue_ns: &[f64]) -> PyResult<Vec<f64>> {
        let finish: Vec<f64> = self.on_collective.call1((node, issue_ns.to_vec()))?.extract()?;
        if finish.len() != issue_ns.len() {
            return Err(PyValueError::new_err(format!(
                "the collective timing answered {} finish times for {} members", finish.len(), issue_ns.len())));
        }
        Ok(finish)
    }
    fn message(&mut self, node: u32, t: f64) -> PyResult<f64> {
        self.on_send.call1((node, t))?.extract()
    }
}

/// Check the arrays against each other, so a malformed DAG is an error, not a panic.
fn check(d: &Dag) -> Result<(), String> {
    let n = d.op.len();
    if d.npu_ptr.is_empty() || d.npu_ptr[0] != 0 || *d.npu_ptr.last().unwrap() as usize != n
        || d.npu_ptr.windows(2).any(|w| w[0] > w[1])
    {
        return Err("npu_ptr must rise from 0 to the node count".into());
    }
    if d.resource.len() != n || d.duration.len() != n || d.channel.len() != n || d.dep_ptr.len() != n + 1 {
        return Err(format!("per-node arrays disagree on the node count {n}"));
    }
    if d.dep_ptr[0] != 0 || d.dep_ptr.windows(2).any(|w| w[0] > w[1]) || *d.dep_ptr.last().unwrap() as usize != d.deps.len() {
        return Err("dep_ptr must rise from 0 to the dependency count".into());
    }
    if d.group_ptr.is_empty() || d.group_ptr[0] != 0 || d.group_ptr.windows(2).any(|w| w[0] > w[1])
        || *d.group_ptr.last().unwrap() as usize != d.members.len()
    {
        return Err("group_ptr must rise from 0 to the member count".into());
    }
    let npus = d.npu_ptr.len() - 1;
    if d.members.iter().any(|&m| m as usize >= npus) || d.resource.iter().any(|&r| r > 3) {
        return Err("a group member or a resource is out of range".into());
    }
    for r in 0..npus {
        let (lo, hi) = (d.npu_ptr[r], d.npu_ptr[r + 1]);
        for i in lo..hi {
            let deps = &d.deps[d.dep_ptr[i as usize] as usize..d.dep_ptr[i as usize + 1] as usize];
            if deps.iter().any(|&x| x < lo || x >= hi) {
                return Err(format!("node {i}: a dependency outside its NPU"));
            }
            let ch = d.channel[i as usize] as usize;
            match d.op[i as usize] {
                OP_COLLECTIVE if ch + 1 >= d.group_ptr.len() => return Err(format!("node {i}: group {ch} out of range")),
                OP_SEND | OP_RECV if ch >= d.p2p_keys => return Err(format!("node {i}: message key {ch} out of range")),
                x if x > OP_RECV => return Err(format!("node {i}: op {x} unknown")),
                _ => {}
            }
        }
    }
    Ok(())
}

/// Replay every NPU's DAG (workload_replay::replay). Arrays: npu_ptr, dep_ptr, deps, channel,
/// group_ptr, members u32; op, resource u8; duration f64 (ns). `on_collective(node, issue_ns)`
/// returns the members' finish times, `on_send(node, t)` the arrival. Returns (finish per NPU,
/// start per node, end per node: f64 bytes, NaN where it never happened; state per node: u8 bytes).
#[pyfunction]
#[pyo3(signature = (*, npu_ptr, op, resource, duration, dep_ptr, deps, channel, group_ptr, members, p2p_keys,
                    on_collective, on_send))]
#[allow(clippy::too_many_arguments)]
fn workload_replay<'py>(py: Python<'py>, npu_ptr: &[u8], op: &[u8], resource: &[u8], duration: &[u8], dep_ptr: &[u8],
                        deps: &[u8], channel: &[u8], group_ptr: &[u8], members: &[u8], p2p_keys: usize,
                        on_collective: Bound<'py, PyAny>, on_send: Bound<'py, PyAny>)
                        -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>, Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
    let dag = Dag { npu_ptr: u32s(npu_ptr), op: op.to_vec(), resource: resource.to_vec(), duration: f64s(duration),
                    dep_ptr: u32s(dep_ptr), deps: u32s(deps), channel: u32s(channel), group_ptr: u32s(group_ptr),
                    members: u32s(members), p2p_keys };
    check(&dag).map_err(PyValueError::new_err)?;
    let out = replay(&dag, &mut PyTiming { on_collective, on_send })?;
    Ok((PyBytes::new(py, &le_bytes(&out.finish)), PyBytes::new(py, &le_bytes(&out.start)),
        PyBytes::new(py, &le_bytes(&out.end)), PyBytes::new(py, &out.state)))
}

/// Adds the workload replay to the extension module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(workload_replay, m)?)
}
