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
    /// Span of the flow's constraint links in `fair_arena` (see `constraint_links`).
    start: u32,
    len: u32,
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
    /// Fair model: per route id, the span of its constraint links in `fair_arena` (len u32::MAX:
    /// not computed yet).
    fair_routes: Vec<(u32, u32)>,
    fair_arena: Vec<u32>,
    /// Nodes every route passes straight through: two links, and not an NPU (so no route starts or
    /// ends there). The link into such a node carries exactly the flows of the link out of it.
    pass_through: Vec<bool>,
    /// Aware model, private runs: a link used by one route only (1) or by more (2), per directed
    /// link; a message crosses a run of private links in one event (see `hop`).
    link_routes: Vec<u8>,
    route_known: Vec<bool>,
    /// Latest arrival time at which a message crossed this link ahead of the event loop's clock.
    ahead_until: Vec<f64>,
    /// Cross private runs in one event (off after a conflict, see `register`).
    pub collapse: bool,
    /// A route appeared that shares a link some message already crossed ahead of the clock: the
    /// run is no longer exact and must be repeated with `collapse` off.
    pub conflict: bool,
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
    /// `shortcuts`: cross private links at once (aware) and merge pass-through links (fair); both
    /// give the answer of the plain event-by-event walk, which `false` runs instead.
    pub fn new(model: Model, integer: bool, topo: &Topology, npu_nodes: &[u32], shortcuts: bool) -> Self {
        let l = topo.num_links();
        let mut pass_through: Vec<bool> =
            (0..topo.num_nodes as u32).map(|n| shortcuts && topo.out_links(n).len() == 2).collect();
        for &n in npu_nodes {
            pass_through[n as usize] = false;
        }
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
            fair_routes: Vec::new(),
            fair_arena: Vec::new(),
            pass_through,
            link_routes: vec![0; l],
            route_known: Vec::new(),
            ahead_until: vec![f64::NEG_INFINITY; l],
            collapse: shortcuts && model == Model::Aware,
            conflict: false,
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
                self.register(msg.route, now, router);
                let (start, len) = router.span(msg.route);
                self.hop(now, id, start, len - 1, topo, router, q)
            }
            Model::Fair => {
                self.fair_advance(now);
                let (start, len) = self.constraint_links(msg.route, topo, router);
                self.flows.push(FairFlow { msg: id, remaining: msg.bytes, rate: 0.0, start, len });
                if !self.fair_recompute_pending {
                    self.fair_recompute_pending = true;
                    q.push(now, Ev::FairRecompute);
                }
            }
        }
    }

    /// Aware model: counts the links of a route the first time it is used (before the run for the
    /// routes the collective's first steps use, see `engine::Sim::prime_routes`). A link that
    /// becomes shared after a message crossed it ahead of the clock (arriving at or after `now`)
    /// sets `conflict`: an earlier arrival over the new route could have overtaken that message.
    pub fn register(&mut self, route: u32, now: f64, router: &Router) {
        let r = route as usize;
        if r >= self.route_known.len() {
            self.route_known.resize(r + 1, false);
        }
        if self.route_known[r] {
            return;
        }
        self.route_known[r] = true;
        for &l in router.links(route) {
            let l = l as usize;
            if self.link_routes[l] == 1 && self.ahead_until[l] > f64::NEG_INFINITY && self.ahead_until[l] >= now {
                self.conflict = true;
            }
            self.link_routes[l] = self.link_routes[l].saturating_add(1).min(2);
        }
    }

    /// Congestion-aware: message `id` reaches the link at arena position `pos` at `now`, with
    /// `left` more links after it. A hop runs up to the next node that stores and forwards
    /// (links through cut-through nodes such as ports form one pipelined hop: bottleneck
    /// bandwidth, summed latency). FIFO: it starts when all its links have finished earlier
    /// messages, and holds them for its serialization time.
    ///
    /// Hops over links no other route uses are crossed at once, without an event each: only this
    /// route's messages queue there, and they arrive in the order they were sent (FIFO links keep
    /// them in order), so the times are the ones the event-by-event walk gives.
    #[allow(clippy::too_many_arguments)] // the event's fields plus the shared read-only context
    pub fn hop(&mut self, mut now: f64, id: u32, mut pos: u32, mut left: u32, topo: &Topology, router: &Router, q: &mut EventQueue) {
        let bytes = self.msgs[id as usize].bytes;
        let mut first = true;
        loop {
            let mut n = 1;
            while n <= left && topo.cut_through[topo.link_to[router.link_at(pos + n - 1) as usize] as usize] {
                n += 1;
            }
            if !first {
                let private = (0..n).all(|i| self.link_routes[router.link_at(pos + i) as usize] == 1);
                if !self.collapse || !private {
                    q.push(now, Ev::Hop { msg: id, pos, left });
                    return;
                }
                for i in 0..n {
                    let l = router.link_at(pos + i) as usize;
                    self.ahead_until[l] = self.ahead_until[l].max(now);
                }
            }
            first = false;
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
                return;
            }
            (now, pos, left) = (arrive, pos + n, left - n);
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

    /// The links of a route that can limit a fair-share rate, computed once per route: links of
    /// unspecified (infinite) bandwidth never do, and of a run of links joined by pass-through
    /// nodes (port -- port cables) only the slowest can, since they carry the same flows. Max-min
    /// rates over these equal the rates over every link, at a third of the work on a Clos.
    fn constraint_links(&mut self, route: u32, topo: &Topology, router: &Router) -> (u32, u32) {
        let r = route as usize;
        if r >= self.fair_routes.len() {
            self.fair_routes.resize(r + 1, (0, u32::MAX));
        }
        if self.fair_routes[r].1 != u32::MAX {
            return self.fair_routes[r];
        }
        let bw = &topo.link_bw_bytes_per_ns;
        let start = self.fair_arena.len();
        for (i, &l) in router.links(route).iter().enumerate() {
            if i > 0 && self.pass_through[topo.link_from[l as usize] as usize] {
                let last = self.fair_arena.last_mut().expect("a previous link");
                if bw[l as usize] < bw[*last as usize] {
                    *last = l;
                }
            } else {
                self.fair_arena.push(l);
            }
        }
        let mut keep = start;
        for k in start..self.fair_arena.len() {
            let l = self.fair_arena[k];
            if bw[l as usize].is_finite() {
                self.fair_arena[keep] = l;
                keep += 1;
            }
        }
        self.fair_arena.truncate(keep);
        self.fair_routes[r] = (start as u32, (keep - start) as u32);
        self.fair_routes[r]
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
        self.max_min_rates(topo);
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
    fn max_min_rates(&mut self, topo: &Topology) {
        let arena = &self.fair_arena;
        let links = |f: &FairFlow| &arena[f.start as usize..(f.start + f.len) as usize];
        let mut touched: Vec<usize> = Vec::new();
        for f in self.flows.iter_mut() {
            f.rate = f64::INFINITY;
            for &l in links(f) {
                let l = l as usize;
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
            for &l in links(f) {
                let k = self.scratch_idx[l as usize] as usize;
                members[fill[k] as usize] = i as u32;
                fill[k] += 1;
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
                    for &l2 in links(&self.flows[fi]) {
                        let l2 = l2 as usize;
                        self.scratch_count[l2] -= 1;
                        self.scratch_cap[l2] -= m;
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
