//! Fair-share model: fluid max-min rates, recomputed incrementally.
//!
//! Progressive filling raises the rate of every unfrozen flow together; in round k the links
//! whose share (residual capacity / unfrozen flows) is smallest, the level m_k (links within a
//! relative `SAME_LEVEL` of it count as equal), saturate and freeze their flows at m_k. A round
//! only ever subtracts its own level from a link's residual, so its outcome does not depend on
//! the order in which flows are frozen, and a change leaves every round before the first one it
//! touches bitwise the same:
//! - a leaving flow was unfrozen before the round that froze it, so none of its links was
//!   saturated earlier (a saturated link freezes every flow on it) and none of those rounds
//!   changes when it goes (its links' shares only grow);
//! - an arriving flow changes nothing before the first round at which one of its links, with it
//!   counted, would have a share at or below that round's level (found from the link's history).
//!
//! So after flows arrive or leave, the filling resumes at that round: the rounds after it are
//! undone from per-link histories of residuals, and only the flows they had frozen, plus the new
//! ones, are filled again. A flow's rate stays put unless its new level differs; its remaining
//! bytes are settled only then, so flows whose rate did not change cost nothing. With `resume`
//! off every change refills from round 0, the reference the resumed rates are tested against.
use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::events::{Ev, EventQueue};
use crate::routing::Router;
use crate::topology::Topology;

/// Relative tolerance within which two link shares are one level, and within which a flow's
/// predicted end counts as the present instant (its last bytes, at most rate x now x 1e-12,
/// arrive at once), so that flows that end together in exact arithmetic end in one event.
const SAME_LEVEL: f64 = 1e-12;
const UNFROZEN: u32 = u32::MAX;

#[derive(Debug, Clone, Copy)]
struct Flow {
    msg: u32,
    /// Span of the flow's constraint links in `arena`.
    start: u32,
    len: u32,
    /// Propagation latency of the route, added when the last byte has been sent.
    latency_ns: f64,
    /// Filling round that froze the flow (`UNFROZEN` while being filled).
    round: u32,
    alive: bool,
    /// Bumped when the slot is reused: link member lists hold (slot, incarnation).
    incarnation: u32,
    /// Bumped at every rate change: end predictions hold (slot, version).
    version: u32,
    /// Bytes per ns (NaN until first filled).
    rate: f64,
    /// Bytes left at time `since` (updated only when the rate changes).
    remaining: f64,
    since: f64,
}

struct Round {
    level: f64,
    /// Index in `frozen` of the first flow this round froze.
    first: u32,
}

pub struct FairShare {
    /// Resume the filling at the first round a change touches (off: refill from round 0).
    resume: bool,
    flows: Vec<Flow>,
    free: Vec<u32>,
    /// Flows added since the last recomputation.
    arrivals: Vec<u32>,
    pub recompute_pending: bool,
    /// Also schedule `Ev::Drained` when a flow's last byte leaves (the engine's pair gate).
    pub drained_events: bool,
    /// Generation of the current wake-up (older `FairWake` events are stale).
    wake_gen: u32,
    /// Per route id, the span of its constraint links in `arena` (len u32::MAX: not computed).
    routes: Vec<(u32, u32)>,
    arena: Vec<u32>,
    /// Nodes every route passes straight through (two links, not an NPU): the link into such a
    /// node carries exactly the flows of the link out of it.
    pass_through: Vec<bool>,
    // Per directed link: flows crossing it, residual capacity (bytes/ns), unfrozen flows, and
    // (round, residual before) for every flow frozen on it, in round order.
    members: Vec<Vec<(u32, u32)>>,
    residual: Vec<f64>,
    unfrozen: Vec<u32>,
    history: Vec<Vec<(u32, f64)>>,
    rounds: Vec<Round>,
    /// Flows in the order the filling froze them (each round a contiguous run).
    frozen: Vec<u32>,
    /// Predicted end (time bits, slot, version), earliest first; stale entries are skipped.
    ends: BinaryHeap<Reverse<(u64, u32, u32)>>,
    // Scratch: per-link arrivals minus departures and a mark; the links being filled.
    delta: Vec<i64>,
    mark: Vec<bool>,
    live: Vec<u32>,
}

impl FairShare {
    /// `shortcuts`: merge pass-through runs and resume the filling (both exact, see the module
    /// note); off, every link constrains and every change refills from scratch.
    pub fn new(topo: &Topology, npu_nodes: &[u32], shortcuts: bool) -> Self {
        let l = topo.num_links();
        let mut pass_through: Vec<bool> =
            (0..topo.num_nodes as u32).map(|n| shortcuts && topo.out_links(n).len() == 2).collect();
        for &n in npu_nodes {
            pass_through[n as usize] = false;
        }
        FairShare {
            resume: shortcuts,
            flows: Vec::new(),
            free: Vec::new(),
            arrivals: Vec::new(),
            recompute_pending: false,
            drained_events: false,
            wake_gen: 0,
            routes: Vec::new(),
            arena: Vec::new(),
            pass_through,
            members: vec![Vec::new(); l],
            residual: topo.link_bw_bytes_per_ns.clone(),
            unfrozen: vec![0; l],
            history: vec![Vec::new(); l],
            rounds: Vec::new(),
            frozen: Vec::new(),
            ends: BinaryHeap::new(),
            delta: vec![0; l],
            mark: vec![false; l],
            live: Vec::new(),
        }
    }

    /// Adds message `msg` as a flow at `now`; true if a recomputation must be scheduled.
    pub fn add(&mut self, now: f64, msg: u32, bytes: f64, route: u32, topo: &Topology, router: &Router) -> bool {
        let (start, len) = self.constraint_links(route, topo, router);
        let mut flow = Flow {
            msg,
            start,
            len,
            latency_ns: router.info(route).latency_ns,
            round: UNFROZEN,
            alive: true,
            incarnation: 0,
            version: 0,
            rate: f64::NAN, // none yet
            remaining: bytes,
            since: now,
        };
        let slot = match self.free.pop() {
            Some(s) => {
                let old = &self.flows[s as usize];
                (flow.incarnation, flow.version) = (old.incarnation.wrapping_add(1), old.version.wrapping_add(1));
                self.flows[s as usize] = flow;
                s
            }
            None => {
                self.flows.push(flow);
                (self.flows.len() - 1) as u32
            }
        };
        self.arrivals.push(slot);
        !std::mem::replace(&mut self.recompute_pending, true)
    }

    /// The links of a route that can limit a fair-share rate, computed once per route: links of
    /// unspecified (infinite) bandwidth never do, and of a run of links joined by pass-through
    /// nodes (port -- port cables) only the slowest can, since they carry the same flows.
    fn constraint_links(&mut self, route: u32, topo: &Topology, router: &Router) -> (u32, u32) {
        let r = route as usize;
        if r >= self.routes.len() {
            self.routes.resize(r + 1, (0, u32::MAX));
        }
        if self.routes[r].1 != u32::MAX {
            return self.routes[r];
        }
        let bw = &topo.link_bw_bytes_per_ns;
        let start = self.arena.len();
        for (i, &l) in router.links(route).iter().enumerate() {
            if i > 0 && self.pass_through[topo.link_from[l as usize] as usize] {
                let last = self.arena.last_mut().expect("a previous link");
                if bw[l as usize] < bw[*last as usize] {
                    *last = l;
                }
            } else {
                self.arena.push(l);
            }
        }
        let mut keep = start;
        for k in start..self.arena.len() {
            let l = self.arena[k];
            if bw[l as usize].is_finite() {
                self.arena[keep] = l;
                keep += 1;
            }
        }
        self.arena.truncate(keep);
        self.routes[r] = (start as u32, (keep - start) as u32);
        self.routes[r]
    }

    fn links(&self, slot: u32) -> &[u32] {
        let f = &self.flows[slot as usize];
        &self.arena[f.start as usize..(f.start + f.len) as usize]
    }

    /// A flow's earliest predicted end has come (stale unless `gen` is current).
    pub fn wake(&mut self, now: f64, gen: u32, q: &mut EventQueue) {
        if gen == self.wake_gen {
            self.recompute(now, q);
        }
    }

    /// Ends the flows whose last byte is out by `now`, adds the arrivals, refills the rates from
    /// the first round the change touches and schedules the next end.
    pub fn recompute(&mut self, now: f64, q: &mut EventQueue) {
        self.recompute_pending = false;
        let ended = self.take_ended(now, q);
        let mut arrivals = std::mem::take(&mut self.arrivals);
        // A flow with no constraining link has infinite rate: it is done at once.
        arrivals.retain(|&s| {
            let f = self.flows[s as usize];
            if f.len == 0 {
                if self.drained_events {
                    q.push(now, Ev::Drained { msg: f.msg });
                }
                q.push(now + f.latency_ns, Ev::Deliver { msg: f.msg });
                self.release(s);
            }
            f.len > 0
        });
        let mut from = if self.resume { self.rounds.len() } else { 0 };
        for &s in &ended {
            from = from.min(self.flows[s as usize].round as usize);
        }
        if self.resume && !arrivals.is_empty() {
            from = from.min(self.first_round_arrivals_change(&ended, &arrivals, from));
        }
        let first_refrozen = self.undo_from(from);
        for &s in &ended {
            for k in 0..self.flows[s as usize].len {
                let l = self.arena[(self.flows[s as usize].start + k) as usize] as usize;
                self.unfrozen[l] -= 1;
            }
            self.release(s);
        }
        for &s in &arrivals {
            let inc = self.flows[s as usize].incarnation;
            for k in 0..self.flows[s as usize].len {
                let l = self.arena[(self.flows[s as usize].start + k) as usize] as usize;
                self.unfrozen[l] += 1;
                let list = &mut self.members[l];
                if list.len() == list.capacity() && list.len() >= 32 {
                    let flows = &self.flows;
                    list.retain(|&(m, i)| flows[m as usize].alive && flows[m as usize].incarnation == i);
                }
                list.push((s, inc));
            }
        }
        self.live.clear();
        for i in first_refrozen..self.frozen.len() + arrivals.len() {
            let s = if i < self.frozen.len() { self.frozen[i] } else { arrivals[i - self.frozen.len()] };
            if !self.flows[s as usize].alive {
                continue;
            }
            let f = self.flows[s as usize];
            for &l in &self.arena[f.start as usize..(f.start + f.len) as usize] {
                if !self.mark[l as usize] {
                    self.mark[l as usize] = true;
                    self.live.push(l);
                }
            }
        }
        // `frozen` past `first_refrozen` held the undone flows; it is rebuilt by the filling.
        self.frozen.truncate(first_refrozen);
        for &l in &self.live {
            self.mark[l as usize] = false;
        }
        self.fill();
        self.commit(first_refrozen, now);
        self.schedule(now, q);
    }

    fn release(&mut self, slot: u32) {
        self.flows[slot as usize].alive = false;
        self.free.push(slot);
    }

    /// Pops the flows predicted to end by `now` (within `SAME_LEVEL`) and delivers each after
    /// its route's propagation latency.
    fn take_ended(&mut self, now: f64, q: &mut EventQueue) -> Vec<u32> {
        let horizon = now + now.abs() * SAME_LEVEL;
        let mut ended = Vec::new();
        while let Some(&Reverse((t, s, v))) = self.ends.peek() {
            let f = &self.flows[s as usize];
            if !f.alive || f.version != v {
                self.ends.pop();
                continue;
            }
            if f64::from_bits(t) > horizon {
                break;
            }
            self.ends.pop();
            if self.drained_events {
                q.push(now, Ev::Drained { msg: f.msg });
            }
            q.push(now + f.latency_ns, Ev::Deliver { msg: f.msg });
            ended.push(s);
        }
        ended
    }

    /// The first round (before `limit`) at which a link of an arriving flow, counted with the
    /// arrivals and without the departures, would have a share at or below the round's level.
    fn first_round_arrivals_change(&mut self, ended: &[u32], arrivals: &[u32], limit: usize) -> usize {
        for (&s, d) in arrivals.iter().map(|s| (s, 1)).chain(ended.iter().map(|s| (s, -1))) {
            for k in 0..self.flows[s as usize].len {
                self.delta[self.arena[(self.flows[s as usize].start + k) as usize] as usize] += d;
            }
        }
        let mut first = limit;
        for &s in arrivals {
            for &l in self.links(s) {
                let l = l as usize;
                if self.delta[l] <= 0 {
                    continue;
                }
                let h = &self.history[l];
                let mut i = 0;
                for k in 0..first {
                    while i < h.len() && (h[i].0 as usize) < k {
                        i += 1;
                    }
                    // Residual and unfrozen flows at the start of round k.
                    let (cap, count) = match h.get(i) {
                        Some(&(_, cap)) => (cap, self.unfrozen[l] as usize + h.len() - i),
                        None => (self.residual[l], self.unfrozen[l] as usize),
                    };
                    let count = count as i64 + self.delta[l];
                    if cap.max(0.0) / count as f64 <= self.rounds[k].level * (1.0 + SAME_LEVEL) {
                        first = k;
                        break;
                    }
                }
            }
        }
        for &s in arrivals.iter().chain(ended) {
            for k in 0..self.flows[s as usize].len {
                self.delta[self.arena[(self.flows[s as usize].start + k) as usize] as usize] = 0;
            }
        }
        first
    }

    /// Undoes rounds `from..`: restores their links' residuals and unfrozen counts from the
    /// histories and unfreezes their flows. Returns where those flows start in `frozen`.
    fn undo_from(&mut self, from: usize) -> usize {
        let Some(round) = self.rounds.get(from) else { return self.frozen.len() };
        let first = round.first as usize;
        for i in first..self.frozen.len() {
            let s = self.frozen[i];
            let f = self.flows[s as usize];
            for &l in &self.arena[f.start as usize..(f.start + f.len) as usize] {
                let l = l as usize;
                let (_, cap) = self.history[l].pop().expect("a history entry per frozen flow and link");
                self.residual[l] = cap;
                self.unfrozen[l] += 1;
            }
            self.flows[s as usize].round = UNFROZEN;
        }
        self.rounds.truncate(from);
        first
    }

    /// Progressive filling of the unfrozen flows over the links in `live`.
    fn fill(&mut self) {
        let share = |cap: f64, count: u32| cap.max(0.0) / count as f64;
        let mut saturated = Vec::new();
        self.live.retain(|&l| self.unfrozen[l as usize] > 0);
        while !self.live.is_empty() {
            let m = self
                .live
                .iter()
                .map(|&l| share(self.residual[l as usize], self.unfrozen[l as usize]))
                .fold(f64::INFINITY, f64::min);
            let limit = m * (1.0 + SAME_LEVEL);
            saturated.clear();
            saturated.extend(
                self.live.iter().copied().filter(|&l| share(self.residual[l as usize], self.unfrozen[l as usize]) <= limit),
            );
            let round = self.rounds.len() as u32;
            self.rounds.push(Round { level: m, first: self.frozen.len() as u32 });
            for &l in &saturated {
                let mut list = std::mem::take(&mut self.members[l as usize]);
                let flows = &self.flows;
                list.retain(|&(s, i)| flows[s as usize].alive && flows[s as usize].incarnation == i);
                for &(s, _) in &list {
                    if self.flows[s as usize].round == UNFROZEN {
                        self.freeze(s, round, m);
                    }
                }
                self.members[l as usize] = list;
            }
            self.live.retain(|&l| self.unfrozen[l as usize] > 0);
        }
    }

    fn freeze(&mut self, s: u32, round: u32, level: f64) {
        let f = &mut self.flows[s as usize];
        f.round = round;
        self.frozen.push(s);
        for &l in &self.arena[f.start as usize..(f.start + f.len) as usize] {
            let l = l as usize;
            self.history[l].push((round, self.residual[l]));
            self.unfrozen[l] -= 1;
            self.residual[l] -= level;
        }
    }

    /// Gives the refilled flows their new rates; a flow whose rate changed settles its bytes
    /// sent so far and gets a new predicted end.
    fn commit(&mut self, first_refrozen: usize, now: f64) {
        for &s in &self.frozen[first_refrozen..] {
            let f = &mut self.flows[s as usize];
            let rate = self.rounds[f.round as usize].level;
            if rate.to_bits() == f.rate.to_bits() {
                continue;
            }
            if !f.rate.is_nan() {
                f.remaining -= f.rate * (now - f.since);
            }
            f.since = now;
            f.rate = rate;
            f.version = f.version.wrapping_add(1);
            if rate > 0.0 {
                let end = now + f.remaining / rate;
                self.ends.push(Reverse((end.max(now).to_bits(), s, f.version)));
            }
        }
    }

    fn schedule(&mut self, now: f64, q: &mut EventQueue) {
        self.wake_gen = self.wake_gen.wrapping_add(1);
        while let Some(&Reverse((t, s, v))) = self.ends.peek() {
            let f = &self.flows[s as usize];
            if f.alive && f.version == v {
                q.push(f64::from_bits(t).max(now), Ev::FairWake { gen: self.wake_gen });
                return;
            }
            self.ends.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::routing::Metric;

    /// A seeded xorshift* generator, so every run sees the same flows.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n as u64) as usize
        }
    }

    /// `hosts` hosts on `leaves` leaves, each leaf to every one of `spines` spines, with random
    /// link speeds (all the same speed when `symmetric`).
    fn fabric(rng: &mut Rng, hosts: usize, leaves: usize, spines: usize, symmetric: bool) -> Topology {
        let mut edges = vec![];
        for h in 0..hosts {
            edges.push((h as u32, (hosts + h % leaves) as u32));
        }
        for l in 0..leaves {
            for s in 0..spines {
                edges.push(((hosts + l) as u32, (hosts + leaves + s) as u32));
            }
        }
        let speeds = [100.0, 200.0, 400.0];
        let gbps: Vec<f64> = edges.iter().map(|_| if symmetric { 400.0 } else { speeds[rng.below(3)] }).collect();
        let (src, dst): (Vec<u32>, Vec<u32>) = edges.iter().copied().unzip();
        Topology::new(hosts + leaves + spines, &src, &dst, &gbps, &vec![10.0; edges.len()], None, &[]).unwrap()
    }

    /// Max-min: no link is over capacity, and every flow crosses a saturated link on which no
    /// flow is faster (its bottleneck).
    fn assert_max_min(fs: &FairShare, topo: &Topology) {
        let alive: Vec<u32> = (0..fs.flows.len() as u32).filter(|&s| fs.flows[s as usize].alive).collect();
        let mut load = vec![0.0; topo.num_links()];
        let mut fastest = vec![0.0f64; topo.num_links()];
        for &s in &alive {
            for &l in fs.links(s) {
                load[l as usize] += fs.flows[s as usize].rate;
                fastest[l as usize] = fastest[l as usize].max(fs.flows[s as usize].rate);
            }
        }
        let bw = &topo.link_bw_bytes_per_ns;
        for (l, &x) in load.iter().enumerate() {
            assert!(x <= bw[l] * (1.0 + 1e-9), "link {l} carries {x} > {}", bw[l]);
        }
        for &s in &alive {
            let rate = fs.flows[s as usize].rate;
            let bottleneck = fs.links(s).iter().any(|&l| {
                let l = l as usize;
                load[l] >= bw[l] * (1.0 - 1e-9) && rate >= fastest[l] * (1.0 - 1e-9)
            });
            assert!(bottleneck, "flow in slot {s} at {rate} B/ns has no bottleneck link");
        }
    }

    /// Runs the queue's fair events up to `until`; returns the deliveries (msg, time bits).
    fn run_until(fs: &mut FairShare, q: &mut EventQueue, until: f64) -> Vec<(u32, u64)> {
        let mut delivered = vec![];
        while let Some((t, ev)) = q.peek_time().filter(|&t| t <= until).and_then(|_| q.pop()) {
            match ev {
                Ev::FairRecompute => fs.recompute(t, q),
                Ev::FairWake { gen } => fs.wake(t, gen, q),
                Ev::Deliver { msg } => delivered.push((msg, t.to_bits())),
                other => panic!("unexpected event {other:?}"),
            }
        }
        delivered
    }

    #[test]
    fn resumed_filling_equals_refilling_and_is_max_min() {
        let mut rng = Rng(0x5EED_FA1E_0000_0001);
        for case in 0..12 {
            let symmetric = case % 3 == 0;
            let (hosts, leaves, spines) = (8 + 4 * (case % 4), 2 + case % 3, 1 + case % 3);
            let topo = fabric(&mut rng, hosts, leaves, spines, symmetric);
            let npus: Vec<u32> = (0..hosts as u32).collect();
            let mut router = Router::new(&topo, Metric::Hops, true, None).unwrap();
            let mut fast = (FairShare::new(&topo, &npus, true), EventQueue::new(false));
            let mut full = (FairShare::new(&topo, &npus, false), EventQueue::new(false));
            let (mut now, mut msg) = (0.0, 0u32);
            let (mut got_fast, mut got_full) = (vec![], vec![]);
            for _ in 0..40 {
                // A burst of flows of a few sizes between random hosts, then time moves on.
                for _ in 0..1 + rng.below(12) {
                    let (a, b) = (rng.below(hosts) as u32, rng.below(hosts) as u32);
                    if a == b {
                        continue;
                    }
                    let route = router.route(a, b).unwrap();
                    let bytes = [1000.0, 4096.0, 65536.0][rng.below(3)];
                    for (fs, q) in [&mut fast, &mut full] {
                        if fs.add(now, msg, bytes, route, &topo, &router) {
                            q.push(now, Ev::FairRecompute);
                        }
                    }
                    msg += 1;
                }
                got_fast.extend(run_until(&mut fast.0, &mut fast.1, now));
                got_full.extend(run_until(&mut full.0, &mut full.1, now));
                assert_max_min(&fast.0, &topo);
                let rates = |fs: &FairShare| fs.flows.iter().map(|f| (f.alive, f.alive.then_some(f.rate.to_bits()))).collect::<Vec<_>>();
                assert_eq!(rates(&fast.0), rates(&full.0), "case {case}: rates at {now} ns");
                now += [0.0, 3.0, 50.0, 400.0][rng.below(4)];
            }
            got_fast.extend(run_until(&mut fast.0, &mut fast.1, f64::INFINITY));
            got_full.extend(run_until(&mut full.0, &mut full.1, f64::INFINITY));
            assert_eq!(got_fast.len(), msg as usize, "case {case}: every flow delivered");
            assert_eq!(got_fast, got_full, "case {case}: deliveries");
        }
    }
}
