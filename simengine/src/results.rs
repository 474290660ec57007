//! What a simulation measures, in engine units (bytes, ns). Derived figures that need the
//! collective's conventions (algorithm / bus bandwidth) are computed here too, so Rust tests and
//! the Python result agree by construction.
use crate::algorithms::Op;
use crate::network::Msg;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FlowRecord {
    pub src_node: u32,
    pub dst_node: u32,
    pub src_rank: u32,
    pub dst_rank: u32,
    pub bytes: f64,
    pub start_ns: f64,
    pub end_ns: f64,
}

#[derive(Debug, Clone, Default)]
pub struct SimOutput {
    /// Time the last rank finishes its last chunk (max over ranks), ns.
    pub collective_time_ns: f64,
    /// Per NPU rank: finish time in ns, None for ranks in no process group.
    pub rank_finish_ns: Vec<Option<f64>>,
    pub bytes_sent_per_rank: Vec<f64>,
    pub bytes_received_per_rank: Vec<f64>,
    /// Per directed link (2e: edge e forward, 2e+1: backward).
    pub link_bytes: Vec<f64>,
    pub link_busy_ns: Vec<f64>,
    /// Per directed link: routes that carried bytes over it (see `Network::link_loads`).
    pub link_routes: Vec<u32>,
    pub messages: u64,
    pub delivered: u64,
    pub fct_min_ns: f64,
    pub fct_max_ns: f64,
    /// Sum of flow completion times, added up per receiving rank and then over ranks in rank
    /// order (`finish_fct_sum`), so that a run folded onto representative members (`symmetry`)
    /// gives the full run's sum bit for bit.
    pub fct_sum_ns: f64,
    pub fct_sum_per_rank: Vec<f64>,
    pub events: u64,
    pub wall_time_s: f64,
    pub chunks: usize,
    pub chunk_bytes: f64,
    pub trace: Vec<FlowRecord>,
    /// Set when the run was stopped early (by its monitor) at this simulated time: the output is
    /// partial, `collective_time_ns` is a lower bound and unfinished ranks have no finish time.
    pub stopped_at_ns: Option<f64>,
    /// The aware model's private-link shortcut met a late route and the run was repeated with one
    /// event per hop (same answer, more time).
    pub reran_event_by_event: bool,
    /// Whether the run simulated representative members only (see `symmetry`).
    pub symmetry: crate::symmetry::Report,
}

impl SimOutput {
    pub fn new(links: usize, ranks: usize) -> Self {
        SimOutput {
            rank_finish_ns: vec![None; ranks],
            bytes_sent_per_rank: vec![0.0; ranks],
            bytes_received_per_rank: vec![0.0; ranks],
            fct_sum_per_rank: vec![0.0; ranks],
            link_bytes: vec![0.0; links],
            link_busy_ns: vec![0.0; links],
            fct_min_ns: f64::INFINITY,
            ..Default::default()
        }
    }

    pub fn record_delivery(&mut self, m: &Msg, now: f64) {
        let fct = now - m.sent_at;
        self.delivered += 1;
        self.fct_min_ns = self.fct_min_ns.min(fct);
        self.fct_max_ns = self.fct_max_ns.max(fct);
        self.fct_sum_per_rank[m.dst_rank as usize] += fct;
        self.bytes_received_per_rank[m.dst_rank as usize] += m.bytes;
    }

    /// Adds the per-rank sums of flow completion times up, in rank order.
    pub fn finish_fct_sum(&mut self) {
        self.fct_sum_ns = self.fct_sum_per_rank.iter().sum();
    }

    pub fn fct_avg_ns(&self) -> f64 {
        if self.delivered == 0 {
            0.0
        } else {
            self.fct_sum_ns / self.delivered as f64
        }
    }

    /// Link utilization: busy time over the collective's duration.
    pub fn link_utilization(&self, link: usize) -> f64 {
        if self.collective_time_ns > 0.0 {
            self.link_busy_ns[link] / self.collective_time_ns
        } else {
            0.0
        }
    }
}

/// NCCL conventions: algorithm bandwidth = S / t, bus bandwidth = algbw × factor, where S is the
/// data each rank ends up with (All-Gather: n × shard) and the factor makes busbw comparable to
/// link speed. Returns (algbw, busbw) in bytes/ns (= GB/s with GB = 1e9 B).
pub fn bandwidths(op: Op, size_bytes: f64, n: usize, time_ns: f64) -> (f64, f64) {
    if time_ns <= 0.0 {
        return (0.0, 0.0);
    }
    let nf = n as f64;
    let s = if op == Op::AllGather { size_bytes * nf } else { size_bytes };
    let algbw = s / time_ns;
    let factor = match op {
        Op::AllReduce => 2.0 * (nf - 1.0) / nf,
        Op::ReduceScatter | Op::AllGather | Op::AllToAll => (nf - 1.0) / nf,
        Op::Broadcast | Op::Reduce | Op::PointToPoint => 1.0,
    };
    (algbw, algbw * factor)
}
