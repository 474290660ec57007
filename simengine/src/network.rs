//! Network models: how long a message takes from NPU to NPU along its static route.
//!
//! - `Unaware` (α-β): `latency(route) + bytes / bottleneck_bandwidth`; concurrent messages never
//!   slow each other down.
//! - `Aware`: every directed link is a FIFO server. A message is not packetised: it occupies each
//!   link for `bytes / bw` and reaches the next node `latency + bytes / bw` after it started on the
//!   link (store-and-forward per hop), queueing behind earlier messages (design note).
//! - `Fair`: fluid max-min fair sharing. Active flows get rates by progressive filling over their
//!   links; rates are recomputed whenever a flow starts or drains; a drained flow is delivered
//!   after the route's propagation latency.
//!
//! In ASTRA-sim mode (`integer`) every delay is truncated to whole ns where ASTRA-sim truncates.
use crate::events::{Ev, EventQueue};
use crate::routing::Router;
use crate::topology::Topology;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Model {
    Unaware,
    Aware,
    Fair,
}

#[derive(Debug, Clone, Copy)]
pub struct Msg {
    pub dst_mps: u32,
    pub tag: u32,
    pub bytes: f64,
    pub route: u32,
    pub sent_at: f64,
    pub src_rank: u32,
    pub dst_rank: u32,
}

#[derive(Debug, Clone, Copy)]
struct FairFlow {
    msg: u32,
    remaining: f64,
    rate: f64,
}

pub struct Network {
    pub model: Model,
    pub integer: bool,
    /// Bytes sent per route; spread over links by `link_loads` once at the end, which is cheaper
    /// than touching every link of every message.
    route_bytes: Vec<f64>,
    link_free_at: Vec<f64>,
    msgs: Vec<Msg>,
    free: Vec<u32>,
    flows: Vec<FairFlow>,
    fair_last: f64,
    fair_gen: u32,
    fair_recompute_pending: bool,
    // Scratch for max-min: per link unfrozen-flow count and remaining capacity.
    scratch_count: Vec<u32>,
    scratch_cap: Vec<f64>,
    scratch_idx: Vec<u32>,
}

/// ASTRA-sim truncation to whole ns, tolerant of division round-off just below an integer.
pub fn trunc_ns(x: f64) -> f64 {
    (x * (1.0 + 1e-12)).floor()
}

impl Network {
    pub fn new(model: Model, integer: bool, topo: &Topology) -> Self {
        let l = topo.num_links();
        Network {
            model,
            integer,
            route_bytes: Vec::new(),
            link_free_at: vec![0.0; l],
            msgs: Vec::new(),
            free: Vec::new(),
            flows: Vec::new(),
            fair_last: 0.0,
            fair_gen: 0,
            fair_recompute_pending: false,
            scratch_count: vec![0; l],
            scratch_cap: vec![0.0; l],
            scratch_idx: vec![0; l],
        }
    }

    fn t(&self, x: f64) -> f64 {
        if self.integer {
            trunc_ns(x)
        } else {
            x
        }
    }

    pub fn msg(&self, id: u32) -> &Msg {
        &self.msgs[id as usize]
    }

    /// Frees a delivered message's slot and returns it.
    pub fn take(&mut self, id: u32) -> Msg {
        self.free.push(id);
        self.msgs[id as usize]
    }

    /// Injects a message at `now`; schedules its delivery (or first network event).
    pub fn send(&mut self, now: f64, msg: Msg, topo: &Topology, router: &Router, q: &mut EventQueue) {
        let id = match self.free.pop() {
            Some(i) => {
                self.msgs[i as usize] = msg;
                i
            }
            None => {
                self.msgs.push(msg);
                (self.msgs.len() - 1) as u32
            }
        };
        let r = msg.route as usize;
        if r >= self.route_bytes.len() {
            self.route_bytes.resize(r + 1, 0.0);
        }
        self.route_bytes[r] += msg.bytes;
        match self.model {
            Model::Unaware => {
                let info = router.info(msg.route);
                q.push(now + self.t(info.latency_ns + msg.bytes / info.min_bw), Ev::Deliver { msg: id });
            }
            Model::Aware => {
                let (start, len) = router.span(msg.route);
                self.hop(now, id, start, len - 1, topo, router, q)
            }
            Model::Fair => {
                self.fair_advance(now);
                self.flows.push(FairFlow { msg: id, remaining: msg.bytes, rate: 0.0 });
                if !self.fair_recompute_pending {
                    self.fair_recompute_pending = true;
                    q.push(now, Ev::FairRecompute);
                }
            }
        }
    }

    /// Congestion-aware: message `id` reaches the link at arena position `pos` at `now`, with
    /// `left` more links after it. The hop runs up to the next node that stores and forwards
    /// (links through cut-through nodes such as ports form one pipelined hop: bottleneck
    /// bandwidth, summed latency). FIFO: it starts when all its links have finished earlier
    /// messages, and holds them for its serialization time.
    #[allow(clippy::too_many_arguments)] // the event's fields plus the shared read-only context
    pub fn hop(&mut self, now: f64, id: u32, pos: u32, left: u32, topo: &Topology, router: &Router, q: &mut EventQueue) {
        let bytes = self.msgs[id as usize].bytes;
        let mut n = 1;
        while n <= left && topo.cut_through[topo.link_to[router.link_at(pos + n - 1) as usize] as usize] {
            n += 1;
        }
        let (mut start, mut latency, mut bw) = (now, 0.0, f64::INFINITY);
        for i in 0..n {
            let l = router.link_at(pos + i) as usize;
            start = start.max(self.link_free_at[l]);
            latency += topo.link_latency_ns[l];
            bw = bw.min(topo.link_bw_bytes_per_ns[l]);
        }
        let done = start + self.t(bytes / bw);
        for i in 0..n {
            self.link_free_at[router.link_at(pos + i) as usize] = done;
        }
        let arrive = start + self.t(latency + bytes / bw);
        if n == left + 1 {
            q.push(arrive, Ev::Deliver { msg: id });
        } else {
            q.push(arrive, Ev::Hop { msg: id, pos: pos + n, left: left - n });
        }
    }

    /// Per directed link: bytes carried, and time spent serializing them (ns).
    pub fn link_loads(&self, topo: &Topology, router: &Router) -> (Vec<f64>, Vec<f64>) {
        let mut bytes = vec![0.0; topo.num_links()];
        for (r, &b) in self.route_bytes.iter().enumerate() {
            if b > 0.0 {
                for &l in router.links(r as u32) {
                    bytes[l as usize] += b;
                }
            }
        }
        let busy = bytes.iter().zip(&topo.link_bw_bytes_per_ns).map(|(b, bw)| b / bw).collect();
        (bytes, busy)
    }

    fn fair_advance(&mut self, now: f64) {
        let dt = now - self.fair_last;
        if dt > 0.0 {
            for f in &mut self.flows {
                f.remaining -= f.rate * dt;
            }
        }
        self.fair_last = now;
    }

    /// Fair model: recompute max-min rates and schedule the next drain.
    pub fn fair_recompute(&mut self, now: f64, topo: &Topology, router: &Router, q: &mut EventQueue) {
        self.fair_recompute_pending = false;
        self.fair_advance(now);
        self.fair_drain(now, router, q);
        self.max_min_rates(topo, router);
        self.fair_schedule(now, q);
    }

    pub fn fair_wake(&mut self, now: f64, gen: u32, topo: &Topology, router: &Router, q: &mut EventQueue) {
        if gen != self.fair_gen {
            return; // superseded by a later recompute
        }
        self.fair_recompute(now, topo, router, q);
    }

    /// Removes drained flows and schedules their delivery after the route's propagation latency.
    fn fair_drain(&mut self, now: f64, router: &Router, q: &mut EventQueue) {
        let msgs = &self.msgs;
        self.flows.retain(|f| {
            let done = f.rate.is_infinite() || f.remaining <= 1e-9 * msgs[f.msg as usize].bytes.max(1.0);
            if done {
                let m = &msgs[f.msg as usize];
                q.push(now + router.info(m.route).latency_ns, Ev::Deliver { msg: f.msg });
            }
            !done
        });
    }

    fn fair_schedule(&mut self, now: f64, q: &mut EventQueue) {
        self.fair_gen = self.fair_gen.wrapping_add(1);
        let next = self.flows.iter().map(|f| f.remaining / f.rate).fold(f64::INFINITY, f64::min);
        if next.is_finite() {
            q.push(now + next.max(0.0), Ev::FairWake { gen: self.fair_gen });
        }
    }

    /// Progressive filling: repeatedly saturate the link with the smallest fair share and freeze
    /// the flows crossing it at that share. Link -> flows lists are flat arrays rebuilt per call.
    fn max_min_rates(&mut self, topo: &Topology, router: &Router) {
        let finite = |l: usize| topo.link_bw_bytes_per_ns[l].is_finite();
        let mut touched: Vec<usize> = Vec::new();
        for f in self.flows.iter_mut() {
            f.rate = f64::INFINITY;
            for &l in router.links(self.msgs[f.msg as usize].route) {
                let l = l as usize;
                if !finite(l) {
                    continue;
                }
                if self.scratch_count[l] == 0 {
                    self.scratch_idx[l] = touched.len() as u32;
                    touched.push(l);
                    self.scratch_cap[l] = topo.link_bw_bytes_per_ns[l];
                }
                self.scratch_count[l] += 1;
            }
        }
        // Flat link -> flows lists.
        let mut off = vec![0u32; touched.len() + 1];
        for (k, &l) in touched.iter().enumerate() {
            off[k + 1] = off[k] + self.scratch_count[l];
        }
        let mut fill = off.clone();
        let mut members = vec![0u32; off[touched.len()] as usize];
        for (i, f) in self.flows.iter().enumerate() {
            for &l in router.links(self.msgs[f.msg as usize].route) {
                let l = l as usize;
                if finite(l) {
                    let k = self.scratch_idx[l] as usize;
                    members[fill[k] as usize] = i as u32;
                    fill[k] += 1;
                }
            }
        }
        let share = |cap: f64, count: u32| cap.max(0.0) / count as f64;
        let mut frozen = vec![false; self.flows.len()];
        let mut live: Vec<usize> = (0..touched.len()).collect();
        // Rounds: find the smallest fair share, then saturate every link at that share at once
        // (freezing a link at share s leaves the share of another link at s unchanged, so this
        // equals freezing them one by one). Symmetric traffic needs a handful of rounds.
        while !live.is_empty() {
            let m = live
                .iter()
                .map(|&k| share(self.scratch_cap[touched[k]], self.scratch_count[touched[k]]))
                .fold(f64::INFINITY, f64::min);
            let limit = m * (1.0 + 1e-12);
            let saturated: Vec<usize> = live
                .iter()
                .copied()
                .filter(|&k| share(self.scratch_cap[touched[k]], self.scratch_count[touched[k]]) <= limit)
                .collect();
            for k in saturated {
                for &fi in &members[off[k] as usize..off[k + 1] as usize] {
                    let fi = fi as usize;
                    if frozen[fi] {
                        continue;
                    }
                    frozen[fi] = true;
                    self.flows[fi].rate = m;
                    for &l2 in router.links(self.msgs[self.flows[fi].msg as usize].route) {
                        let l2 = l2 as usize;
                        if finite(l2) {
                            self.scratch_count[l2] -= 1;
                            self.scratch_cap[l2] -= m;
                        }
                    }
                }
            }
            live.retain(|&k| self.scratch_count[touched[k]] > 0);
        }
        for &l in &touched {
            self.scratch_count[l] = 0;
        }
    }
}
