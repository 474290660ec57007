//! PyO3 glue of `workload_replay` (the workload replay's event loop): the DAG crosses as
//! little-endian arrays (numpy's `tobytes()`); alone, the engine runs behind the timing cache
//! (workload_timing) as two Python callables, called once per distinct run, so the replay's timer
//! (infragraph/workload/timing.py) stays the one place collective and message times are decided.
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use std::collections::HashMap;

use crate::le_arrays::{f64s, pybytes, u32s};
use crate::chakra_reader::{read, AttrFields, FieldKind, Fields, NodeFields, Schema, ValueKind};
use crate::algorithms::{Algo, Op};
use crate::engine::{Session, SimConfig};
use crate::error::SimError;
use crate::plan::CollectiveSpec;
use crate::topology::Topology;
use crate::workload_replay::{replay, replay_with, span_unions, Dag, Timing, OP_COLLECTIVE, OP_RECV, OP_SEND};
use crate::workload_timing::{Cached, CollectiveRun, MessageRun, Runs};
use crate::workload_session::Shared;


/// The engine runs `Cached` asks for, answered by the replay's timer (two Python callables).
struct PyRuns<'py> {
    on_collective_run: Bound<'py, PyAny>,
    on_message_run: Bound<'py, PyAny>,
}

impl Runs for PyRuns<'_> {
    type Error = PyErr;
    fn collective(&mut self, shape: u32, starts: &[f64]) -> PyResult<CollectiveRun> {
        let (finish_offset, end_offset, busbw, tier_bytes): (Vec<f64>, f64, f64, Vec<f64>) =
            self.on_collective_run.call1((shape, starts.to_vec()))?.extract()?;
        Ok(CollectiveRun { finish_offset, end_offset, busbw, tier_bytes })
    }
    fn message(&mut self, shape: u32) -> PyResult<MessageRun> {
        let (duration, tier_bytes): (f64, Vec<f64>) = self.on_message_run.call1((shape,))?.extract()?;
        Ok(MessageRun { duration, tier_bytes })
    }
}

/// `Cached` with a check that every collective run answers one finish per member of the group.
struct Checked<'a, 'py> {
    cached: Cached<'a, PyRuns<'py>>,
}

impl Timing for Checked<'_, '_> {
    type Error = PyErr;
    fn collective(&mut self, node: u32, issue_ns: &[f64]) -> PyResult<Vec<f64>> {
        let finish = self.cached.collective(node, issue_ns)?;
        if finish.len() != issue_ns.len() {
            return Err(PyValueError::new_err(format!(
                "the collective timing answered {} finish times for {} members", finish.len(), issue_ns.len())));
        }
        Ok(finish)
    }
    fn message(&mut self, node: u32, t: f64) -> PyResult<f64> {
        self.cached.message(node, t)
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

/// Replay every NPU's DAG (workload_replay::replay), each collective and message timed alone from
/// a cache of engine runs by shape (workload_timing::Cached). Arrays: npu_ptr, dep_ptr, deps,
/// channel, group_ptr, members u32; op, resource u8; duration f64 (ns); coll_shape u32 per node,
/// msg_shape u32 per point-to-point key. On a miss, `on_collective_run(shape, starts)` answers
/// (finish offset per member position, last finish offset, bus bandwidth, bytes per tier) and
/// `on_message_run(shape)` (duration, bytes per tier). Returns a dict of little-endian columns:
/// finish per NPU, start / end per node (f64, NaN where it never happened), state per node (u8);
/// the records: coll_node (u32), coll_start, coll_end, coll_last_issue, coll_busbw (f64) per
/// collective, msg_node (u32), msg_start, msg_end (f64) per message; and tier_bytes (a list).
#[pyfunction]
#[pyo3(signature = (*, npu_ptr, op, resource, duration, dep_ptr, deps, channel, group_ptr, members, p2p_keys,
                    coll_shape, msg_shape, on_collective_run, on_message_run))]
#[allow(clippy::too_many_arguments)]
fn workload_replay<'py>(py: Python<'py>, npu_ptr: &[u8], op: &[u8], resource: &[u8], duration: &[u8], dep_ptr: &[u8],
                        deps: &[u8], channel: &[u8], group_ptr: &[u8], members: &[u8], p2p_keys: usize,
                        coll_shape: &[u8], msg_shape: &[u8], on_collective_run: Bound<'py, PyAny>,
                        on_message_run: Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
    let dag = Dag { npu_ptr: u32s(npu_ptr), op: op.to_vec(), resource: resource.to_vec(), duration: f64s(duration),
                    dep_ptr: u32s(dep_ptr), deps: u32s(deps), channel: u32s(channel), group_ptr: u32s(group_ptr),
                    members: u32s(members), p2p_keys };
    check(&dag).map_err(PyValueError::new_err)?;
    let (coll_shape, msg_shape) = (u32s(coll_shape), u32s(msg_shape));
    if coll_shape.len() != dag.op.len() || msg_shape.len() != dag.p2p_keys {
        return Err(PyValueError::new_err("coll_shape or msg_shape disagree with the DAG"));
    }
    let mut timing = Checked { cached: Cached::new(PyRuns { on_collective_run, on_message_run }, &coll_shape, &msg_shape,
                                                   &dag.channel) };
    let out = replay(&dag, &mut timing)?;
    let (r, tier_bytes) = (&timing.cached.records, &timing.cached.tier_bytes);
    let d = PyDict::new(py);
    d.set_item("finish", pybytes(py, &out.finish, f64::to_le_bytes)?)?;
    d.set_item("start", pybytes(py, &out.start, f64::to_le_bytes)?)?;
    d.set_item("end", pybytes(py, &out.end, f64::to_le_bytes)?)?;
    d.set_item("state", PyBytes::new(py, &out.state))?;
    for (k, v) in [("coll_node", &r.coll_node), ("msg_node", &r.msg_node)] {
        d.set_item(k, pybytes(py, v, u32::to_le_bytes)?)?;
    }
    for (k, v) in [("coll_start", &r.coll_start), ("coll_end", &r.coll_end), ("coll_last_issue", &r.coll_last_issue),
                   ("coll_busbw", &r.coll_busbw), ("msg_start", &r.msg_start), ("msg_end", &r.msg_end)] {
        d.set_item(k, pybytes(py, v, f64::to_le_bytes)?)?;
    }
    d.set_item("tier_bytes", tier_bytes.clone())?;
    Ok(d)
}

/// A collective's plan as the workload's shared network gets it: (collective, size in bytes,
/// algorithms, logical dimensions, chunks, endpoint delay ns, ASTRA-sim communicator group, root,
/// ns added to each member's finish, PXN for its messages between servers).
pub type Shape = (String, f64, Vec<String>, Vec<usize>, usize, f64, bool, usize, f64, bool);

/// The workload replay on one shared network (workload_session), called by `simulate` with its
/// fabric, common options (`base`) and network configuration. `w` holds the DAG arrays of
/// `workload_replay` plus `shapes` (see `Shape`), `spec_of` (u32 per node: its collective's
/// shape), `p2p` (per message key: source rank, destination rank, bytes), `send_spec` (u32 per
/// message key: the shape its sends run as, or `workload_session::RAW`; empty: all raw), `send_extra_ns` and
/// `edge_latency_ns` (per edge; empty, or the latencies messages add on a latency-free network:
/// `Shared`).
/// Returns finish / start / end / state as `workload_replay` does, and per collective as it ran
/// (`collectives`: member nodes, issue and finish times) and the links' loads.
pub fn replay_shared<'py>(py: Python<'py>, topo: &Topology, npu_nodes: &[u32], base: &CollectiveSpec, cfg: &SimConfig,
                          w: &Bound<'py, PyDict>) -> PyResult<Bound<'py, PyDict>> {
    let get = |k: &str| -> PyResult<Bound<'py, PyAny>> {
        w.get_item(k)?.ok_or_else(|| PyValueError::new_err(format!("workload: no '{k}'")))
    };
    let bytes = |k: &str| -> PyResult<Vec<u8>> { get(k)?.extract::<Vec<u8>>() };
    let dag = Dag { npu_ptr: u32s(&bytes("npu_ptr")?), op: bytes("op")?, resource: bytes("resource")?,
                    duration: f64s(&bytes("duration")?), dep_ptr: u32s(&bytes("dep_ptr")?), deps: u32s(&bytes("deps")?),
                    channel: u32s(&bytes("channel")?), group_ptr: u32s(&bytes("group_ptr")?),
                    members: u32s(&bytes("members")?), p2p_keys: get("p2p_keys")?.extract()? };
    check(&dag).map_err(PyValueError::new_err)?;
    let shapes: Vec<Shape> = get("shapes")?.extract()?;
    let spec_of = u32s(&bytes("spec_of")?);
    let p2p: Vec<(u32, u32, f64)> = get("p2p")?.extract()?;
    let send_extra_ns: f64 = get("send_extra_ns")?.extract()?;
    let edge_latency_ns: Vec<f64> = get("edge_latency_ns")?.extract()?;
    let send_spec = u32s(&bytes("send_spec")?);
    let n = npu_nodes.len() as u32;
    if spec_of.len() != dag.op.len() || p2p.len() != dag.p2p_keys || p2p.iter().any(|&(a, b, _)| a >= n || b >= n || a == b)
        || !(edge_latency_ns.is_empty() || 2 * edge_latency_ns.len() == topo.num_links())
        || !(send_spec.is_empty() || send_spec.len() == p2p.len())
        || send_spec.iter().any(|&s| s != crate::workload_session::RAW && s as usize >= shapes.len())
        || edge_latency_ns.iter().chain(shapes.iter().map(|s| &s.8)).any(|x| !(x.is_finite() && *x >= 0.0))
        || dag.op.iter().zip(&spec_of).any(|(&o, &s)| o == OP_COLLECTIVE && s as usize >= shapes.len())
    {
        return Err(PyValueError::new_err("workload: spec_of, p2p or shapes disagree with the DAG"));
    }
    let finish_extra_ns: Vec<f64> = shapes.iter().map(|s| s.8).collect();
    let pxn: Vec<bool> = shapes.iter().map(|s| s.9).collect();
    let specs = shapes.iter().map(|(coll, size, algos, dims, chunks, delay, local_ring, root, _, _)| -> Result<CollectiveSpec, SimError> {
        Ok(CollectiveSpec { op: Op::parse(coll)?, size_bytes: *size, groups: vec![], dims: dims.clone(),
            algorithms: algos.iter().map(|a| Algo::parse(a)).collect::<Result<Vec<_>, _>>()?, programs: vec![],
            chunk_programs: vec![], chunk_order: None, root: *root, chunks: *chunks, endpoint_delay_ns: *delay,
            starts: vec![], local_ring: *local_ring, ..base.clone() })
    }).collect::<Result<Vec<_>, _>>().map_err(crate::python::engine_error)?;
    let run = || -> Result<_, SimError> {
        let session = Session::new(topo, npu_nodes, base, cfg)?;
        let mut shared = Shared::new(session, &spec_of, &specs, &finish_extra_ns, &pxn, &dag.channel, &p2p, &send_spec,
                                     send_extra_ns, &edge_latency_ns);
        let out = replay_with(&dag, &mut shared)?;
        Ok((out, shared))
    };
    let (out, shared) = py.allow_threads(run).map_err(crate::python::engine_error)?;
    let (link_bytes, link_busy, _, events) = shared.session.link_loads();
    let d = PyDict::new(py);
    d.set_item("finish", pybytes(py, &out.finish, f64::to_le_bytes)?)?;
    d.set_item("start", pybytes(py, &out.start, f64::to_le_bytes)?)?;
    d.set_item("end", pybytes(py, &out.end, f64::to_le_bytes)?)?;
    d.set_item("state", PyBytes::new(py, &out.state))?;
    let ran: Vec<(Vec<u32>, Vec<f64>, Vec<f64>)> =
        shared.ran.iter().map(|r| (r.nodes.clone(), r.issue_ns.clone(), r.finish_ns.clone())).collect();
    d.set_item("collectives", ran)?;
    d.set_item("link_bytes", link_bytes)?;
    d.set_item("link_busy_ns", link_busy)?;
    d.set_item("events", events)?;
    Ok(d)
}

/// Read Chakra ET files into columns (chakra_reader::read). `fields`: (message, field number,
/// kind: 0 scalar / 1 string / 2 message, nested message) for every field of every message type
/// (0 Node, 1 AttributeProto, 2 GlobalMetadata); `node`: the Node fields by name (id, name, type,
/// ctrl_deps, data_deps, duration_micros, attr); `attr_name`; `attr_values`: AttributeProto's
/// oneof value fields -> their proto type name (bool, int64, ..., string; others read as "other").
/// Returns a dict of little-endian column bytes and `bad`, the ranks left to the Python reader.
#[pyfunction]
#[pyo3(signature = (*, paths, fields, node, attr_name, attr_values))]
fn read_chakra_et<'py>(py: Python<'py>, paths: Vec<String>, fields: Vec<(usize, u32, u8, usize)>, node: HashMap<String, u32>,
                       attr_name: u32, attr_values: HashMap<u32, String>) -> PyResult<Bound<'py, PyDict>> {
    let types = fields.iter().map(|f| f.0.max(if f.2 == 2 { f.3 } else { 0 })).max().unwrap_or(0) + 1;
    let mut messages = vec![Fields::default(); types.max(3)];
    for &(m, f, k, sub) in &fields {
        messages[m].insert(f, match k { 1 => FieldKind::String, 2 => FieldKind::Message(sub), _ => FieldKind::Scalar });
    }
    let get = |k: &str| node.get(k).copied().ok_or_else(|| PyValueError::new_err(format!("no Node field '{k}'")));
    let nf = NodeFields { id: get("id")?, name: get("name")?, kind: get("type")?, ctrl_deps: get("ctrl_deps")?,
                          data_deps: get("data_deps")?, duration_micros: get("duration_micros")?, attr: get("attr")? };
    let mut values = vec![None; attr_values.keys().max().map_or(0, |&f| f as usize + 1)];
    for (f, t) in attr_values {
        values[f as usize] = Some(match t.as_str() {
            "bool" => ValueKind::Bool, "int32" => ValueKind::Int32, "int64" => ValueKind::Int64, "uint32" => ValueKind::Uint32,
            "uint64" => ValueKind::Uint64, "sint32" => ValueKind::Sint32, "sint64" => ValueKind::Sint64,
            "fixed32" => ValueKind::Fixed32, "fixed64" => ValueKind::Fixed64, "sfixed32" => ValueKind::Sfixed32,
            "sfixed64" => ValueKind::Sfixed64, "string" => ValueKind::Str, _ => ValueKind::Other });
    }
    let schema = Schema { messages, node: nf, attr: AttrFields { name: attr_name, values } };
    let c = py.allow_threads(|| read(&schema, &paths));
    let d = PyDict::new(py);
    d.set_item("bad", c.bad.clone())?;
    d.set_item("npu_ptr", pybytes(py, &c.npu_ptr, u32::to_le_bytes)?)?;
    d.set_item("id", pybytes(py, &c.id, u64::to_le_bytes)?)?;
    d.set_item("kind", PyBytes::new(py, &c.kind))?;
    d.set_item("is_cpu", PyBytes::new(py, &c.is_cpu))?;
    d.set_item("duration_ns", pybytes(py, &c.duration_ns, f64::to_le_bytes)?)?;
    d.set_item("num_ops", pybytes(py, &c.num_ops, u64::to_le_bytes)?)?;
    d.set_item("tensor_size", pybytes(py, &c.tensor_size, u64::to_le_bytes)?)?;
    d.set_item("comm_size", pybytes(py, &c.comm_size, u64::to_le_bytes)?)?;
    d.set_item("comm_type", pybytes(py, &c.comm_type, u32::to_le_bytes)?)?;
    d.set_item("tag", pybytes(py, &c.tag, u32::to_le_bytes)?)?;
    d.set_item("src", pybytes(py, &c.src, u32::to_le_bytes)?)?;
    d.set_item("dst", pybytes(py, &c.dst, u32::to_le_bytes)?)?;
    d.set_item("group", pybytes(py, &c.group, u64::to_le_bytes)?)?;
    d.set_item("dep_ptr", pybytes(py, &c.dep_ptr, u32::to_le_bytes)?)?;
    d.set_item("deps", pybytes(py, &c.deps, u32::to_le_bytes)?)?;
    d.set_item("name_ptr", pybytes(py, &c.name_ptr, u64::to_le_bytes)?)?;
    d.set_item("names", PyBytes::new(py, &c.names))?;
    Ok(d)
}

/// Per NPU, the union lengths of its spans (workload_replay::span_unions): npu_ptr u32, class u8,
/// start/end f64 bytes; returns f64 bytes, 5 per NPU.
#[pyfunction]
#[pyo3(signature = (*, npu_ptr, class_, start, end))]
fn workload_span_unions<'py>(py: Python<'py>, npu_ptr: &[u8], class_: &[u8], start: &[u8], end: &[u8]) -> PyResult<Bound<'py, PyBytes>> {
    let (ptr, start, end) = (u32s(npu_ptr), f64s(start), f64s(end));
    if ptr.is_empty() || *ptr.last().unwrap() as usize != class_.len() || start.len() != class_.len() || end.len() != class_.len()
        || ptr.windows(2).any(|w| w[0] > w[1])
    {
        return Err(PyValueError::new_err("span arrays disagree on the node count"));
    }
    let u = span_unions(&ptr, class_, &start, &end);
    pybytes(py, &u.concat(), f64::to_le_bytes)
}

/// Adds the workload replay and the ET reader to the extension module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(workload_replay, m)?)?;
    m.add_function(wrap_pyfunction!(workload_span_unions, m)?)?;
    m.add_function(wrap_pyfunction!(read_chakra_et, m)?)
}
