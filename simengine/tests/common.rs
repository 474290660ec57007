//! Graph builders and defaults shared by the integration tests.
#![allow(dead_code)]
use _simengine::algorithms::{Algo, Op};
use _simengine::dim_scheduling::{InterScheduling, IntraScheduling};
use _simengine::plan::{CollectiveSpec, Optimization, Scheduling};
use _simengine::topology::Topology;

/// 50 GB/s in ASTRA-sim units (GB = 2^30 B) as the graph's Gbit/s.
pub const ASTRA_50GB: f64 = 50.0 * 1073741824.0 * 8.0 / 1e9;

pub fn ring(n: u32, gbps: f64, lat: f64) -> Topology {
    let e: Vec<(u32, u32)> = (0..n).map(|i| (i, (i + 1) % n)).collect();
    Topology::uniform(n as usize, &e, gbps, lat).unwrap()
}

pub fn fully_connected(n: u32, gbps: f64, lat: f64) -> Topology {
    let mut e = vec![];
    for a in 0..n {
        for b in a + 1..n {
            e.push((a, b));
        }
    }
    Topology::uniform(n as usize, &e, gbps, lat).unwrap()
}

/// n NPUs (nodes 0..n) on one switch (node n).
pub fn switch(n: u32, gbps: f64, lat: f64) -> Topology {
    let e: Vec<(u32, u32)> = (0..n).map(|i| (i, n)).collect();
    Topology::uniform(n as usize + 1, &e, gbps, lat).unwrap()
}

/// k-ary torus with the given dims, node id = rank (dimension 0 fastest); size-2 dims get one link.
pub fn torus(dims: &[usize], gbps: f64, lat: f64) -> Topology {
    let n: usize = dims.iter().product();
    let mut e = vec![];
    for r in 0..n {
        let mut stride = 1;
        for &k in dims {
            let c = (r / stride) % k;
            let next = r - c * stride + ((c + 1) % k) * stride;
            if k > 2 || (k == 2 && c == 0) {
                e.push((r as u32, next as u32));
            }
            stride *= k;
        }
    }
    Topology::uniform(n, &e, gbps, lat).unwrap()
}

pub fn spec(op: Op, algo: Algo, n: u32, size: f64) -> CollectiveSpec {
    CollectiveSpec {
        op,
        size_bytes: size,
        groups: vec![(0..n).collect()],
        dims: vec![],
        algorithms: vec![algo],
        programs: vec![],
        chunk_programs: vec![],
        chunk_order: None,
        routes: vec![],
        root: 0,
        chunks: 1,
        active_chunks_per_dim: 1,
        endpoint_delay_ns: 0.0,
        local_mem_bw_gb_per_s: None,
        optimization: Optimization::LocalBwAware,
        scheduling: Scheduling::Arrival,
        intra: IntraScheduling::Fifo,
        inter: InterScheduling::Ascending,
        dim_bandwidth: vec![],
        starts: vec![],
        local_ring: false,
        rail_chains: false,
    }
}

pub fn ranks(n: u32) -> Vec<u32> {
    (0..n).collect()
}

/// An RI/FC/SW stack (ASTRA-sim notation, dimension 0 first): NPU id = x0 + k0*x1 + ...; ring and
/// fully-connected dimensions link NPUs directly, a switch dimension adds one switch node per line.
pub fn stack(dims: &[(&str, usize)], gbps: f64, lat: f64) -> (Topology, u32) {
    let n: usize = dims.iter().map(|d| d.1).product();
    let mut e = vec![];
    let mut next_switch = n as u32;
    let mut stride = 1;
    for &(kind, k) in dims {
        for r in 0..n {
            let c = (r / stride) % k;
            let line_base = r - c * stride;
            match kind {
                "RI" if k > 2 || c == 0 => e.push((r as u32, (line_base + ((c + 1) % k) * stride) as u32)),
                "FC" => e.extend((c + 1..k).map(|o| (r as u32, (line_base + o * stride) as u32))),
                "SW" if c == 0 => {
                    e.extend((0..k).map(|o| ((line_base + o * stride) as u32, next_switch)));
                    next_switch += 1;
                }
                _ => {}
            }
        }
        stride *= k;
    }
    (Topology::uniform(next_switch as usize, &e, gbps, lat).unwrap(), n as u32)
}
