//! PyO3 glue, kept thin: converts Python lists/options to engine inputs, runs the engine without
//! the GIL, and converts results to a dict. Engine errors become `SimEngineError(kind, message,
//! src_node, dst_node, field)` so Python can name nodes and the option at fault; a Rust panic is
//! caught here and reported as an internal error instead of crossing the FFI boundary.
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::types::PyDict;

use crate::algorithms::{Algo, Op};
use crate::dim_scheduling::{InterScheduling, IntraScheduling};
use crate::engine::{simulate_watched as run, SimConfig};
use crate::error::SimError;
use crate::le_arrays::{f64s, i32s, pybytes, u32s};
use crate::monitor::{Monitor, Progress};
use crate::network::Model;
use crate::pair_gate::PairOrder;
use crate::plan::{CollectiveSpec, Optimization, Scheduling};
use crate::results::bandwidths;
use crate::routing::{Metric, Policy};
use crate::schedule_columns::TransferColumns;
use crate::schedule_program::{Program, NO_WAY};
use crate::topology::Topology;
use std::sync::Arc;

/// A schedule as the Python side passes it: (collective, ranks, chunks per rank, then its transfer
/// columns as little-endian bytes (`schedule_columns`): step offsets (u64, steps + 1), source
/// rank, destination rank and chunk (each of the next entry's width, 2 or 4 B), whether each
/// reduces (1 B), then whether its dependencies are per chunk: then each chunk's transfers run as
/// their own process group, so a transfer waits only for the sender's earlier receipts of its
/// chunk), per transfer the path it names (u32: an index into the last entry, `u32::MAX`: routed
/// by the engine; empty: none names one), and the paths: (sender position, receiver position,
/// directed links from the one's NPU to the other's, in order). Bytes, not lists: no Python
/// object per transfer, and a `.igsched` file's buffers are read in place.
type ScheduleArrays = (
    String,
    usize,
    usize,
    PyBackedBytes,
    PyBackedBytes,
    PyBackedBytes,
    PyBackedBytes,
    usize,
    PyBackedBytes,
    bool,
    PyBackedBytes,
    Vec<(u32, u32, Vec<u32>)>,
);

/// A schedule's per-transfer paths as indices into the run's routes (`routes` grows by the
/// schedule's `paths`), each checked: in range, and joining the transfer's sender and receiver.
fn global_ways(
    way: &[u32],
    paths: &[(u32, u32, Vec<u32>)],
    src: &[u32],
    dst: &[u32],
    routes: &mut Vec<(u32, u32, Vec<u32>)>,
) -> Result<Vec<u32>, SimError> {
    if way.is_empty() {
        return Ok(Vec::new());
    }
    if way.len() != src.len() {
        return Err(SimError::InvalidInput(format!("schedule: {} paths for {} transfers", way.len(), src.len())));
    }
    let base = routes.len() as u32;
    let mut out = Vec::with_capacity(way.len());
    for (i, &w) in way.iter().enumerate() {
        if w == NO_WAY {
            out.push(NO_WAY);
            continue;
        }
        match paths.get(w as usize) {
            Some(&(a, b, _)) if (a, b) == (src[i], dst[i]) => out.push(base + w),
            Some(&(a, b, _)) => {
                return Err(SimError::InvalidInput(format!(
                    "schedule: transfer {i} ({} -> {}) names path {w}, which joins {a} -> {b}",
                    src[i], dst[i]
                )))
            }
            None => return Err(SimError::InvalidInput(format!("schedule: transfer {i} names path {w} of {}", paths.len()))),
        }
    }
    routes.extend(paths.iter().cloned());
    Ok(out)
}

create_exception!(_simengine, SimEngineError, PyException, "Simulation failed: args are (kind, message, src_node, dst_node, field: the SimulationOptions field that caused it or None).");

/// An engine error as Python's `SimEngineError` (also for the workload glue).
pub(crate) fn engine_error(e: SimError) -> PyErr {
    to_py(e)
}

fn to_py(e: SimError) -> PyErr {
    let (cause, field) = match &e {
        SimError::About { field, error } => (error.as_ref(), Some(*field)),
        error => (error, None),
    };
    let (kind, src, dst) = match cause {
        SimError::InvalidInput(_) | SimError::About { .. } => ("invalid-input", None, None),
        SimError::Unreachable { src, dst } => ("unreachable", Some(*src), Some(*dst)),
        SimError::Unsupported(_) => ("unsupported", None, None),
        SimError::Deadlock(_) => ("deadlock", None, None),
    };
    SimEngineError::new_err((kind, e.to_string(), src, dst, field))
}

fn parse<T>(what: &str, value: &str, options: &[(&str, T)]) -> Result<T, SimError>
where
    T: Copy,
{
    options.iter().find(|o| o.0 == value).map(|o| o.1).ok_or_else(|| {
        let names: Vec<&str> = options.iter().map(|o| o.0).collect();
        SimError::InvalidInput(format!("unknown {what} '{value}'; expected one of {}", names.join(", ")))
    })
}

/// Watches a run from Python: checks for Ctrl-C (Python's signal handlers only run when the
/// interpreter gets control, and the engine runs without the GIL) and calls the optional
/// `progress(dict)` callback. A KeyboardInterrupt stops the run with a partial result; any other
/// exception (from the callback or a signal handler) stops it and is raised afterwards.
struct PyMonitor {
    callback: Option<PyObject>,
    interrupted: bool,
    error: Option<PyErr>,
}

impl Monitor for PyMonitor {
    fn report(&mut self, p: &Progress) -> bool {
        Python::with_gil(|py| {
            let outcome = py.check_signals().and_then(|()| match &self.callback {
                None => Ok(()),
                Some(cb) => {
                    let d = PyDict::new(py);
                    d.set_item("sim_time_ns", p.sim_time_ns)?;
                    d.set_item("events", p.events)?;
                    d.set_item("wall_s", p.wall_s)?;
                    d.set_item("fraction", p.fraction())?;
                    cb.call1(py, (d,)).map(|_| ())
                }
            });
            match outcome {
                Ok(()) => true,
                Err(e) if e.is_instance_of::<pyo3::exceptions::PyKeyboardInterrupt>(py) => {
                    self.interrupted = true;
                    false
                }
                Err(e) => {
                    self.error = Some(e);
                    false
                }
            }
        })
    }
}

/// Simulates one collective on every process group concurrently.
///
/// The per-node, per-edge and per-NPU arrays (`edge_*`, `npu_*`, `node_kind`, `no_transit_nodes`,
/// `edge_policy`) come as little-endian bytes (numpy's `tobytes()`: u32 ids, f64 values, i32 kinds,
/// u8 policies), and the per-rank and per-link results go back the same way, so a million-GPU
/// fabric crosses without a Python object per value.
///
/// Units: bandwidth Gbit/s (1e9 bit/s), latency and delays ns, sizes bytes, local memory
/// bandwidth GB/s (1e9 B/s). NaN bandwidth/latency marks an edge with no value (free wiring).
/// `no_transit_nodes`: nodes routes may not pass through (besides `no_transit_kinds`);
/// `npu_nic`, `npu_server`: per NPU rank, the NIC node its traffic to other servers uses and its
/// server id (both empty: no NIC affinity); `edge_policy`: per edge 0 (ecmp), 1 (spray) or
/// 2 (adaptive), plus 4 for a scale-up link (empty: ecmp everywhere, no tiers); `pxn`: messages
/// between servers first cross to the NPU at the destination's position (needs `npu_nic`);
/// `schedules`: per entry of `algorithms`, the schedules of a `schedule` entry, one per collective
/// its phases may run (see `ScheduleArrays` and `schedule_program`), an empty list for the others;
/// empty: no schedules. `starts`: per process group, when each member starts its part (ns >= 0,
/// a workload's members issue a collective at different times); empty: every member at 0.
/// `workload`: replay a workload on this fabric's shared network instead (see
/// `workload_python::replay_shared`), the collective options common to all its collectives.
#[pyfunction]
#[pyo3(signature = (*, num_nodes, edge_src, edge_dst, edge_bandwidth_gbps, edge_latency_ns, npu_nodes,
    collective, size_bytes, groups, algorithms, dims=vec![], root=0, chunks=1, active_chunks=1,
    endpoint_delay_ns=10.0, local_mem_bw_gb_per_s=None, optimization="localBWAware", scheduling="fifo",
    intra_dimension_scheduling="FIFO", inter_dimension_scheduling="ascending", dim_bandwidth=vec![],
    model="unaware", astra=false, routing="hops", ecmp=true, dor_dims=None, dor_direct_dims=vec![], dor_first_dim_only=false, trace=false,
    node_kind=None, no_transit_kinds=vec![], no_transit_nodes=None, npu_nic=None, npu_server=None, edge_policy=None, pxn=false, cut_through_kinds=vec![], max_events=u64::MAX, symmetry=false, progress=None, progress_interval_s=0.2, schedules=vec![], starts=vec![], local_ring=false, rail_chains=false, workload=None))]
#[allow(clippy::too_many_arguments)]
fn simulate<'py>(
    py: Python<'py>,
    num_nodes: usize,
    edge_src: &[u8],
    edge_dst: &[u8],
    edge_bandwidth_gbps: &[u8],
    edge_latency_ns: &[u8],
    npu_nodes: &[u8],
    collective: &str,
    size_bytes: f64,
    groups: Vec<Vec<u32>>,
    algorithms: Vec<String>,
    dims: Vec<usize>,
    root: usize,
    chunks: usize,
    active_chunks: usize,
    endpoint_delay_ns: f64,
    local_mem_bw_gb_per_s: Option<f64>,
    optimization: &str,
    scheduling: &str,
    intra_dimension_scheduling: &str,
    inter_dimension_scheduling: &str,
    dim_bandwidth: Vec<f64>,
    model: &str,
    astra: bool,
    routing: &str,
    ecmp: bool,
    dor_dims: Option<Vec<usize>>,
    dor_direct_dims: Vec<usize>,
    dor_first_dim_only: bool,
    trace: bool,
    node_kind: Option<&[u8]>,
    no_transit_kinds: Vec<i32>,
    no_transit_nodes: Option<&[u8]>,
    npu_nic: Option<&[u8]>,
    npu_server: Option<&[u8]>,
    edge_policy: Option<&[u8]>,
    pxn: bool,
    cut_through_kinds: Vec<i32>,
    max_events: u64,
    symmetry: bool,
    progress: Option<PyObject>,
    progress_interval_s: f64,
    schedules: Vec<Vec<ScheduleArrays>>,
    starts: Vec<Vec<f64>>,
    local_ring: bool,
    rail_chains: bool,
    workload: Option<Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let npu_nodes = u32s(npu_nodes);
    let (npu_nic, npu_server) = (u32s(npu_nic.unwrap_or_default()), u32s(npu_server.unwrap_or_default()));
    let edge_policy = edge_policy.unwrap_or_default();
    let build = || -> Result<(Topology, CollectiveSpec, SimConfig), SimError> {
        let mut topo = Topology::new(
            num_nodes,
            &u32s(edge_src),
            &u32s(edge_dst),
            &f64s(edge_bandwidth_gbps),
            &f64s(edge_latency_ns),
            node_kind.map(i32s).as_deref(),
            &no_transit_kinds,
        )?;
        topo.set_cut_through_kinds(&cut_through_kinds);
        topo.forbid_transit(&u32s(no_transit_nodes.unwrap_or_default()))?;
        if npu_nic.len() != npu_server.len() || (!npu_nic.is_empty() && npu_nic.len() != npu_nodes.len()) {
            return Err(SimError::InvalidInput(format!(
                "NIC affinity: {} NICs and {} server ids for {} NPUs; give one of each per NPU, or none",
                npu_nic.len(),
                npu_server.len(),
                npu_nodes.len()
            )));
        }
        let op = Op::parse(collective)?;
        let algorithms = algorithms.iter().map(|a| Algo::parse(a)).collect::<Result<Vec<_>, _>>()?;
        if algorithms.is_empty() {
            return Err(SimError::InvalidInput("no algorithm given".into()));
        }
        if !schedules.is_empty() && schedules.len() != algorithms.len() {
            return Err(SimError::InvalidInput(format!(
                "{} schedules for {} algorithms; give one entry (or None) per algorithm",
                schedules.len(),
                algorithms.len()
            )));
        }
        let mut groups = groups.clone();
        let mut starts = starts.clone();
        let mut chunk_programs = Vec::new();
        let mut chunk_order = None;
        let mut programs = Vec::new();
        let mut routes: Vec<(u32, u32, Vec<u32>)> = Vec::new();
        let flat = algorithms.len() == 1 && groups.len() == 1 && dims.iter().filter(|&&d| d > 1).count() <= 1;
        for entry in &schedules {
            let mut list = Vec::new();
            for (collective, n, per, step_ptr, src, dst, chunk, width, reduce, by_chunk, way, paths) in entry {
                let op = Op::parse(collective)?;
                let cols = TransferColumns::decode(step_ptr, src, dst, chunk, *width, reduce, way)?;
                let TransferColumns { steps, step, src, dst, chunk, reduce, way } = &cols;
                let way = global_ways(way, paths, src, dst, &mut routes)?;
                if !way.is_empty() && !flat {
                    return Err(SimError::InvalidInput(
                        "a schedule whose transfers name paths runs alone over one process group, not per dimension".into(),
                    ));
                }
                list.push(Arc::new(Program::new(op, *n, *per, *steps, step, src, dst, reduce, &way)?));
                if !*by_chunk || !chunk_programs.is_empty() {
                    continue;
                }
                if algorithms.len() != 1 || groups.len() != 1 {
                    return Err(SimError::InvalidInput(
                        "a schedule with per-chunk dependencies runs alone over one process group, not per dimension".into(),
                    ));
                }
                // One process group per chunk, each running that chunk's transfers (ascending):
                // the transfer indices grouped by chunk with a counting pass, 4 B per transfer in
                // one buffer (a Vec<usize> per chunk took 8 B and a header per chunk).
                let chunks = n * per;
                let mut start = vec![0usize; chunks + 1];
                for (i, &c) in chunk.iter().enumerate() {
                    if c as usize >= chunks {
                        return Err(SimError::InvalidInput(format!("schedule: transfer {i} moves chunk {c} of {chunks}")));
                    }
                    start[c as usize + 1] += 1;
                }
                for c in 0..chunks {
                    start[c + 1] += start[c];
                }
                let mut fill = start.clone();
                let mut by_chunk_index = vec![0u32; chunk.len()];
                for (i, &c) in chunk.iter().enumerate() {
                    by_chunk_index[fill[c as usize]] = i as u32;
                    fill[c as usize] += 1;
                }
                drop(fill);
                for c in 0..chunks {
                    let idx = &by_chunk_index[start[c]..start[c + 1]];
                    let pick = |v: &Vec<u32>| idx.iter().map(|&i| v[i as usize]).collect::<Vec<u32>>();
                    let red: Vec<bool> = idx.iter().map(|&i| reduce[i as usize]).collect();
                    let ways = if way.is_empty() { Vec::new() } else { pick(&way) };
                    chunk_programs.push(Arc::new(Program::new(op, *n, *per, *steps, &pick(step), &pick(src), &pick(dst), &red, &ways)?));
                }
                chunk_order = Some(Arc::new(PairOrder::new(step, src, dst, chunk, &way)));
                groups = vec![groups[0].clone(); chunks];
                if let Some(first) = starts.first().cloned() {
                    starts = vec![first; chunks]; // every copy of the group starts as the group
                }
            }
            programs.push(list);
        }
        let spec = CollectiveSpec {
            op,
            size_bytes,
            groups,
            dims: dims.clone(),
            algorithms,
            programs,
            chunk_programs,
            chunk_order,
            routes,
            root,
            chunks,
            active_chunks_per_dim: active_chunks,
            endpoint_delay_ns,
            local_mem_bw_gb_per_s,
            optimization: parse("collective optimization", optimization, &[("baseline", Optimization::Baseline), ("localBWAware", Optimization::LocalBwAware)])?,
            scheduling: parse("scheduling policy", scheduling, &[("fifo", Scheduling::Ordered), ("arrival", Scheduling::Arrival), ("lifo", Scheduling::Newest)])?,
            intra: parse("intra-dimension scheduling", intra_dimension_scheduling, &[("FIFO", IntraScheduling::Fifo), ("SCF", IntraScheduling::SmallestFirst), ("lessRemainingPhaseFirst", IntraScheduling::LessRemainingPhaseFirst)])?,
            inter: parse("inter-dimension scheduling", inter_dimension_scheduling, &[("ascending", InterScheduling::Ascending), ("offlineGreedy", InterScheduling::OfflineGreedy), ("offlineGreedyFlex", InterScheduling::OfflineGreedyFlex)])?,
            dim_bandwidth: dim_bandwidth.clone(),
            starts,
            local_ring,
            rail_chains,
        };
        let cfg = SimConfig {
            model: parse("network model", model, &[("unaware", Model::Unaware), ("aware", Model::Aware), ("fair", Model::Fair)])?,
            astra,
            metric: parse("routing metric", routing, &[("hops", Metric::Hops), ("latency", Metric::Latency)])?,
            ecmp,
            dor_dims: dor_dims.clone(),
            dor_direct_dims: dor_direct_dims.clone(),
            dor_first_dim_only,
            policies: edge_policy
                .iter()
                .map(|&p| match p & 3 {
                    0 if p < 8 => Ok((Policy::Ecmp, p & 4 != 0)),
                    1 if p < 8 => Ok((Policy::Spray, p & 4 != 0)),
                    2 if p < 8 => Ok((Policy::Adaptive, p & 4 != 0)),
                    3 if p < 8 => Ok((Policy::DModK, p & 4 != 0)),
                    _ => Err(SimError::InvalidInput(format!(
                        "routing policy code {p}; expected 0 (ecmp), 1 (spray), 2 (adaptive) or 3 (d-mod-k), plus 4 for a scale-up link"
                    ))),
                })
                .collect::<Result<Vec<_>, _>>()?,
            pxn,
            affinity: npu_nic.iter().copied().zip(npu_server.iter().copied()).collect(),
            trace,
            max_events,
            symmetry,
            ..SimConfig::default()
        };
        Ok((topo, spec, cfg))
    };
    let (topo, spec, cfg) = build().map_err(to_py)?;
    if let Some(w) = workload {
        // A workload replay on this fabric and network, the collectives' common options from `spec`.
        return crate::workload_python::replay_shared(py, &topo, &npu_nodes, &spec, &cfg, &w);
    }
    let mut monitor = PyMonitor { callback: progress, interrupted: false, error: None };
    // Seconds between two progress reports, which are also the Ctrl-C checks.
    let interval = std::time::Duration::try_from_secs_f64(progress_interval_s).map_err(|_| {
        to_py(SimError::InvalidInput(format!("progress interval must be >= 0 s, got {progress_interval_s}")))
    })?;
    let result = py.allow_threads(|| {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(&topo, &npu_nodes, &spec, &cfg, &mut monitor, interval)))
    });
    if let Some(e) = monitor.error {
        return Err(e);
    }
    let out = match result {
        Ok(r) => r.map_err(to_py)?,
        Err(panic) => {
            let what = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            return Err(SimEngineError::new_err(("internal", format!("internal engine error (please report): {what}"), None::<u32>, None::<u32>)));
        }
    };
    let (algbw, busbw) = bandwidths(spec.op, spec.size_bytes, spec.groups[0].len(), out.collective_time_ns);
    let d = PyDict::new(py);
    d.set_item("collective_time_ns", out.collective_time_ns)?;
    // Per rank and per directed link: little-endian columns (numpy.frombuffer), not a Python
    // object per value (a million ranks, sixteen million links). A rank that never finished: NaN.
    let finish: Vec<f64> = out.rank_finish_ns.iter().map(|f| f.unwrap_or(f64::NAN)).collect();
    d.set_item("rank_finish_ns", pybytes(py, &finish, f64::to_le_bytes)?)?;
    d.set_item("bytes_sent_per_rank", pybytes(py, &out.bytes_sent_per_rank, f64::to_le_bytes)?)?;
    d.set_item("bytes_received_per_rank", pybytes(py, &out.bytes_received_per_rank, f64::to_le_bytes)?)?;
    d.set_item("algorithm_bandwidth_gb_per_s", algbw)?;
    d.set_item("bus_bandwidth_gb_per_s", busbw)?;
    d.set_item("link_bytes", pybytes(py, &out.link_bytes, f64::to_le_bytes)?)?;
    d.set_item("link_busy_ns", pybytes(py, &out.link_busy_ns, f64::to_le_bytes)?)?;
    d.set_item("link_routes", pybytes(py, &out.link_routes, u32::to_le_bytes)?)?;
    d.set_item("messages", out.messages)?;
    d.set_item("delivered", out.delivered)?;
    d.set_item("fct_min_ns", if out.delivered > 0 { out.fct_min_ns } else { 0.0 })?;
    d.set_item("fct_avg_ns", out.fct_avg_ns())?;
    d.set_item("fct_max_ns", out.fct_max_ns)?;
    d.set_item("events", out.events)?;
    d.set_item("wall_time_s", out.wall_time_s)?;
    d.set_item("chunks", out.chunks)?;
    d.set_item("chunk_bytes", out.chunk_bytes)?;
    d.set_item("stopped_at_ns", out.stopped_at_ns)?;
    d.set_item("interrupted", monitor.interrupted)?;
    let sym = PyDict::new(py);
    sym.set_item("tried", out.symmetry.tried)?;
    sym.set_item("simulated", out.symmetry.simulated)?;
    sym.set_item("members", out.symmetry.members)?;
    sym.set_item("reason", out.symmetry.reason.as_deref())?;
    sym.set_item("proof", out.symmetry.proof.as_deref())?;
    d.set_item("symmetry", sym)?;
    if trace {
        let flows: Vec<(u32, u32, u32, u32, f64, f64, f64)> = out
            .trace
            .iter()
            .map(|f| (f.src_node, f.dst_node, f.src_rank, f.dst_rank, f.bytes, f.start_ns, f.end_ns))
            .collect();
        d.set_item("trace", flows)?;
    }
    Ok(d)
}

/// The `infragraph._simengine` extension module.
/// The `duration_micros` of the COMP node that reduces `bytes` at `local_mem_bw_gb_per_s` in an
/// exported custom collective: the engine's astra models charge exactly this (`custom_reductions`).
#[pyfunction]
fn custom_reduction_micros(bytes: f64, local_mem_bw_gb_per_s: f64) -> PyResult<u64> {
    if !(bytes >= 0.0 && bytes.is_finite() && local_mem_bw_gb_per_s > 0.0 && local_mem_bw_gb_per_s.is_finite()) {
        return Err(SimEngineError::new_err(format!(
            "reduction of {bytes} B at {local_mem_bw_gb_per_s} GB/s: expected bytes >= 0 and a bandwidth > 0"
        )));
    }
    Ok(crate::custom_reductions::micros(bytes, local_mem_bw_gb_per_s))
}

#[pymodule]
fn _simengine(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("SimEngineError", m.py().get_type::<SimEngineError>())?;
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_function(wrap_pyfunction!(custom_reduction_micros, m)?)?;
    crate::synth_python::register(m)?;
    crate::workload_python::register(m)?;
    Ok(())
}
