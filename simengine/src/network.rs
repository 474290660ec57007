//! Network models: how long a message takes from NPU to NPU along its static route.
//!
//! - `Unaware` (α-β): `latency(route) + bytes / bottleneck_bandwidth`; concurrent messages never
//!   slow each other down.
//! - `Aware`: every directed link is a FIFO server. A message is not packetised: it occupies each
//!   link for `bytes / bw` and reaches the next node `latency + bytes / bw` after it started on the
//!   link (store-and-forward per hop), queueing behind earlier messages (design note).
//! - `Fair`: fluid max-min fair sharing. Active flows get rates by progressive filling over their
//!   links; rates are recomputed whenever flows start or drain (incrementally, see `fair`); a
//!   drained flow is delivered after the route's propagation latency.
//!
//! In ASTRA-sim mode (`integer`) every delay is truncated to whole ns where ASTRA-sim truncates.
use crate::events::{Ev, EventQueue};
use crate::fair::FairShare;
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
    /// The message this one is a part of when sprayed over several ways (index into the
    /// engine's split messages), or `WHOLE`.
    pub parent: u32,
    /// Same-instant order of its events in the aware model (`EventQueue::set_key`).
    pub key: u64,
}

/// `Msg::parent` of a message sent whole, on one route.
pub const WHOLE: u32 = u32::MAX;

pub struct Network {
    pub model: Model,
    pub integer: bool,
    /// Bytes sent per route; spread over links by `link_loads` once at the end, which is cheaper
    /// than touching every link of every message.
    route_bytes: Vec<f64>,
    /// What `hop` reads and writes per directed link, one record per link (see `LinkState`).
    links: Vec<LinkState>,
    msgs: Vec<Msg>,
    free: Vec<u32>,
    /// Fair model state (see `fair`); None for the other models.
    fair: Option<FairShare>,
    route_known: Vec<bool>,
    /// Cross private runs in one event (off after a conflict, see `register`).
    pub collapse: bool,
    /// A route appeared that shares a link some message already crossed ahead of the clock: the
    /// run is no longer exact and must be repeated with `collapse` off.
    pub conflict: bool,
    /// ASTRA-sim compatibility, aware model: each hop's link as ASTRA-sim's analytical backend
    /// keeps it (see `AstraLink`), indexed by the hop's first link; empty otherwise.
    astra_links: Vec<AstraLink>,
    /// A run folded over link orbits (`symmetry::find_orbits`): the link whose state stands for
    /// each link (its orbit's representative); empty: every link is its own.
    link_rep: Vec<u32>,
}

/// A link of ASTRA-sim's congestion-aware backend (extern/network_backend/analytical,
/// congestion_aware/network/Link.cpp): busy while it serializes a message, the messages that reach
/// it meanwhile wait in a FIFO list, and the next one starts when the link-free event (scheduled
/// when the transmission started, `serialization` later) runs. Same times as `LinkState::free_at`,
/// but each next-hop arrival is scheduled when its transmission starts, so events that fall on
/// one instant keep ASTRA-sim's order.
#[derive(Clone, Default)]
struct AstraLink {
    busy: bool,
    /// (message, route-arena position, links left after it), in arrival order.
    pending: std::collections::VecDeque<(u32, u32, u32)>,
}

/// One directed link as the aware model's `hop` sees it. The topology's constants are copied in
/// beside the link's state so that a hop touches one cache line per link: on an 8,192-host Clos
/// (a quarter of a million links) separate arrays cost a cache miss each, and `hop` was half of
/// the run time.
#[derive(Clone, Copy)]
struct LinkState {
    /// When the link has finished serializing the messages queued on it so far (ns).
    free_at: f64,
    /// Latest arrival time at which a message crossed this link ahead of the event loop's clock.
    ahead_until: f64,
    latency_ns: f64,
    bw_bytes_per_ns: f64,
    /// Private runs: used by one route only (1) or by more (2); a message crosses a run of
    /// private links in one event (see `hop`).
    routes: u8,
    /// The link ends at a cut-through node (a port): the hop goes on over the next link.
    into_cut_through: bool,
}

/// ASTRA-sim truncation to whole ns, tolerant of division round-off just below an integer.
pub fn trunc_ns(x: f64) -> f64 {
    (x * (1.0 + 1e-12)).floor()
}

impl Network {
    /// `shortcuts`: cross private links at once (aware); merge pass-through links and resume the
    /// max-min filling (fair); all give the answer of the plain walk, which `false` runs instead.
    pub fn new(model: Model, integer: bool, topo: &Topology, npu_nodes: &[u32], shortcuts: bool) -> Self {
        let links = (0..topo.num_links())
            .map(|l| LinkState {
                free_at: 0.0,
                ahead_until: f64::NEG_INFINITY,
                latency_ns: topo.link_latency_ns[l],
                bw_bytes_per_ns: topo.link_bw_bytes_per_ns[l],
                routes: 0,
                into_cut_through: topo.cut_through[topo.link_to[l] as usize],
            })
            .collect();
        Network {
            model,
            integer,
            route_bytes: Vec::new(),
            links,
            msgs: Vec::new(),
            free: Vec::new(),
            fair: (model == Model::Fair).then(|| FairShare::new(topo, npu_nodes, shortcuts)),
            route_known: Vec::new(),
            collapse: shortcuts && model == Model::Aware,
            conflict: false,
            astra_links: if integer && model == Model::Aware { vec![AstraLink::default(); topo.num_links()] } else { Vec::new() },
            link_rep: Vec::new(),
        }
    }

    /// Folded over link orbits: the state of link `rep[l]` stands for link l's (aware model).
    pub fn set_link_reps(&mut self, rep: Vec<u32>) {
        self.link_rep = rep;
    }

    /// The index of the state that link `l` uses (its orbit's representative when folded).
    #[inline]
    fn state(&self, l: u32) -> usize {
        if self.link_rep.is_empty() {
            l as usize
        } else {
            self.link_rep[l as usize] as usize
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
    /// Puts `msg` on the network at `now`; returns its id (`Ev::Deliver`, `Ev::Drained`).
    pub fn send(&mut self, now: f64, msg: Msg, topo: &Topology, router: &Router, q: &mut EventQueue) -> u32 {
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
        q.set_key(id, msg.key);
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
                self.hop(now, id, start, len - 1, router, q)
            }
            Model::Fair => {
                let fair = self.fair.as_mut().expect("fair model state");
                if fair.add(now, id, msg.bytes, msg.route, topo, router) {
                    q.push(now, Ev::FairRecompute);
                }
            }
        }
        id
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
            let s = self.state(l);
            let link = &mut self.links[s];
            if link.routes == 1 && link.ahead_until > f64::NEG_INFINITY && link.ahead_until >= now {
                self.conflict = true;
            }
            link.routes = link.routes.saturating_add(1).min(2);
        }
    }

    /// Congestion-aware: message `id` reaches the link at arena position `pos` at `now`, with
    /// `left` more links after it. A hop runs up to the next node that stores and forwards
    /// (links through cut-through nodes such as ports form one pipelined hop: bottleneck
    /// bandwidth, summed latency). FIFO: on each link of the hop it starts when the link has
    /// finished earlier messages, and holds it for its serialization time.
    ///
    /// Hops over links no other route uses are crossed at once, without an event each: only this
    /// route's messages queue there, and they arrive in the order they were sent (FIFO links keep
    /// them in order), so the times are the ones the event-by-event walk gives.
    pub fn hop(&mut self, mut now: f64, id: u32, mut pos: u32, mut left: u32, router: &Router, q: &mut EventQueue) {
        if !self.astra_links.is_empty() {
            let first = router.link_at(pos) as usize;
            if self.astra_links[first].busy {
                self.astra_links[first].pending.push_back((id, pos, left));
            } else {
                self.astra_transmit(now, id, pos, left, router, q);
            }
            return;
        }
        let bytes = self.msgs[id as usize].bytes;
        let mut first = true;
        loop {
            let n = self.hop_len(pos, left, router);
            if !first {
                let private = (0..n).all(|i| self.links[self.state(router.link_at(pos + i))].routes == 1);
                if !self.collapse || !private {
                    q.push(now, Ev::Hop { msg: id, pos, left });
                    return;
                }
                for i in 0..n {
                    let s = self.state(router.link_at(pos + i));
                    let link = &mut self.links[s];
                    link.ahead_until = link.ahead_until.max(now);
                }
            }
            first = false;
            // Through the hop's cut-through nodes the message is pipelined link by link: each link
            // serializes it once the earlier messages queued on it are through (FIFO) and its first
            // byte has come over the link before, and cannot finish before its last byte has come.
            // Alone on the hop that is the bottleneck bandwidth plus the summed latency; a link
            // waits only for what queues on it, not for another link of the hop (holding every
            // link of the hop until the slowest is free idles them: a direct all-to-all through
            // an NVSwitch took 2.4 times its time in NCCL mode, where switches pipeline).
            let (mut head, mut tail) = (now, f64::NEG_INFINITY);
            for i in 0..n {
                let s = self.state(router.link_at(pos + i));
                let serialize = self.t(bytes / self.links[s].bw_bytes_per_ns);
                let link = &mut self.links[s];
                let start = head.max(link.free_at);
                let done = (start + serialize).max(tail);
                link.free_at = done;
                head = start + link.latency_ns;
                tail = done + link.latency_ns;
            }
            let arrive = tail;
            if n == left + 1 {
                q.push(arrive, Ev::Deliver { msg: id });
                return;
            }
            (now, pos, left) = (arrive, pos + n, left - n);
        }
    }

    /// Fair model: also report each message's last byte leaving (`Ev::Drained`).
    pub fn report_drained(&mut self) {
        if let Some(fair) = self.fair.as_mut() {
            fair.drained_events = true;
        }
    }

    /// The links of the hop that starts at arena position `pos`: up to the next node that stores
    /// and forwards (see `hop`).
    fn hop_len(&self, pos: u32, left: u32, router: &Router) -> u32 {
        let mut n = 1;
        while n <= left && self.links[self.state(router.link_at(pos + n - 1))].into_cut_through {
            n += 1;
        }
        n
    }

    /// ASTRA-sim's `Link::schedule_chunk_transmission`: the link turns busy, the message's
    /// arrival at the next node (`latency + bytes / bw`, truncated) is scheduled, then the link's
    /// free event (`bytes / bw`, truncated).
    fn astra_transmit(&mut self, now: f64, id: u32, pos: u32, left: u32, router: &Router, q: &mut EventQueue) {
        let bytes = self.msgs[id as usize].bytes;
        let n = self.hop_len(pos, left, router);
        let (mut latency, mut bw) = (0.0, f64::INFINITY);
        for i in 0..n {
            let link = &self.links[router.link_at(pos + i) as usize];
            latency += link.latency_ns;
            bw = bw.min(link.bw_bytes_per_ns);
        }
        let first = router.link_at(pos);
        self.astra_links[first as usize].busy = true;
        let arrive = now + self.t(latency + bytes / bw);
        if n == left + 1 {
            q.push(arrive, Ev::Deliver { msg: id });
        } else {
            q.push(arrive, Ev::Hop { msg: id, pos: pos + n, left: left - n });
        }
        q.push(now + self.t(bytes / bw), Ev::LinkFree { link: first });
    }

    /// ASTRA-sim's `Link::link_become_free`: the next waiting message, if any, starts.
    pub fn link_free(&mut self, now: f64, link: u32, router: &Router, q: &mut EventQueue) {
        let l = &mut self.astra_links[link as usize];
        l.busy = false;
        if let Some((id, pos, left)) = l.pending.pop_front() {
            self.astra_transmit(now, id, pos, left, router, q);
        }
    }

    /// Fair model: flows were added at `now` (`Ev::FairRecompute`).
    pub fn fair_recompute(&mut self, now: f64, q: &mut EventQueue) {
        self.fair.as_mut().expect("fair model state").recompute(now, q);
    }

    /// Fair model: the earliest predicted end may have come (`Ev::FairWake`).
    pub fn fair_wake(&mut self, now: f64, gen: u32, q: &mut EventQueue) {
        self.fair.as_mut().expect("fair model state").wake(now, gen, q);
    }

    /// Bytes sent per route so far (route id order; routes never used may be missing at the end).
    pub fn route_bytes(&self) -> &[f64] {
        &self.route_bytes
    }
}

/// Per directed link: bytes carried, time spent serializing them (ns), and routes that carried
/// bytes over it (connections, or the ways of sprayed ones: ECMP collisions show as 2+), from the
/// bytes sent per route. A link's bytes are the exact sum of its routes' bytes, rounded once (in
/// fixed point, units of 2^-64 byte), so they do not depend on the order routes were made in: a
/// run folded by symmetry (`symmetry`) makes them in another order than the full run. Bytes that
/// fixed point cannot hold exactly (below 2^-12 byte, or a link's total beyond 2^62 bytes) are
/// summed in route order instead.
///
/// The sums are kept only for the links some route crosses (`slot`: a link's place among them, 0
/// for none yet): a folded run on a million-GPU fabric touches a few thousand of its 16 M links,
/// and a sum per link would be 16 bytes each.
pub fn link_loads(route_bytes: &[f64], topo: &Topology, router: &Router) -> (Vec<f64>, Vec<f64>, Vec<u32>) {
    const SCALE: f64 = 18_446_744_073_709_551_616.0; // 2^64
    let n = topo.num_links();
    let mut slot: Vec<u32> = crate::huge_pages::filled(n, 0);
    let (mut used, mut exact, mut float) = (Vec::<u32>::new(), Vec::<i128>::new(), Vec::<f64>::new());
    let mut inexact = false;
    let mut routes: Vec<u32> = crate::huge_pages::filled(n, 0);
    for (r, &b) in route_bytes.iter().enumerate() {
        if b > 0.0 {
            let scaled = b * SCALE;
            let fixed = scaled as i128;
            inexact |= fixed as f64 != scaled || b >= 4.0e18;
            for &l in router.links(r as u32) {
                let s = &mut slot[l as usize];
                if *s == 0 {
                    used.push(l);
                    exact.push(0);
                    float.push(0.0);
                    *s = used.len() as u32;
                }
                let i = *s as usize - 1;
                exact[i] += fixed;
                float[i] += b;
                routes[l as usize] += 1;
            }
        }
    }
    let mut bytes: Vec<f64> = crate::huge_pages::filled(n, 0.0);
    for (i, &l) in used.iter().enumerate() {
        bytes[l as usize] = if inexact { float[i] } else { exact[i] as f64 / SCALE };
    }
    let busy = bytes.iter().zip(&topo.link_bw_bytes_per_ns).map(|(b, bw)| b / bw).collect();
    (bytes, busy, routes)
}
