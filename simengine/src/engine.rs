//! The discrete-event loop that runs collectives over the network model.
//!
//! State is kept per *member-phase* (one group member, one chunk, one phase), stored densely and
//! indexed as `base(job) + (chunk * phases + phase) * members + member`. Each member has one FIFO
//! (or LIFO) queue per logical dimension admitting at most `active_chunks_per_dim` chunks at once;
//! a chunk moves to its next phase as soon as the member finishes the current one, so chunks
//! pipeline across dimensions exactly as in ASTRA-sim's system layer.
use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

use crate::algorithms::{tag, Algo, Op, Send, StepSpec};
use crate::dim_scheduling::{InterScheduling, IntraScheduling, QueueKey};
use crate::error::{SimError, SimResult};
use crate::events::{Ev, EventQueue};
use crate::fxhash::FxBuild;
use crate::monitor::{Monitor, Progress, Ticker, Unwatched, CHECK_EVERY};
use crate::network::{link_loads, Model, Msg, Network, WHOLE};
use crate::conn_fifo::{Conn, ConnFifo, Handle, ALL_CHUNKS};
use crate::custom_reductions::{self, Reductions};
use crate::direct_packets::DirectPackets;
use crate::sys_events::{SysEv, SysLists};
use crate::pair_gate::PairGate;
use crate::schedule_program::NO_WAY;
use crate::plan::{plan, CollectiveSpec, JobPlan, Scheduling};
use crate::results::{FlowRecord, SimOutput};
use crate::routing::{DorSpec, Metric, Policy, Router};
use crate::symmetry::{self, Fold, Report, SymmetryRefused};
use crate::symmetry_proof;
use crate::topology::Topology;

#[derive(Debug, Clone)]
pub struct SimConfig {
    pub model: Model,
    /// ASTRA-sim compatibility: integer bytes and ns with ASTRA-sim's truncations and chunking.
    pub astra: bool,
    pub metric: Metric,
    pub ecmp: bool,
    /// Dimension-order routing over all NPU ranks (torus dims, dimension 0 fastest).
    pub dor_dims: Option<Vec<usize>>,
    /// Dimensions that dimension-order routing crosses in one step (see `routing::DorSpec`).
    pub dor_direct_dims: Vec<usize>,
    /// Dimension-order routes stop after the first dimension where the ranks differ (see
    /// `routing::DorSpec::first_dim_only`).
    pub dor_first_dim_only: bool,
    /// Routing policy per physical edge and whether it is a scale-up link; empty: ECMP everywhere,
    /// no tiers (see `routing::Policy`).
    pub policies: Vec<(Policy, bool)>,
    /// NIC affinity per NPU rank: (NIC node, server id); empty: none (see `Router::with_affinity`).
    pub affinity: Vec<(u32, u32)>,
    /// PXN for messages between servers (see `Router::with_pxn`); needs `affinity`.
    pub pxn: bool,
    /// Record every message for a timeline.
    pub trace: bool,
    /// Stop with an error after this many events (guards against runaway runs).
    pub max_events: u64,
    /// Turn off the exact shortcuts (aware: crossing private links without an event per hop;
    /// fair: one constraint per run of pass-through links, max-min filling resumed where a change
    /// starts to matter; routing: distances composed from shared switch trees, `hubs`): the
    /// reference they are tested against.
    pub no_shortcuts: bool,
    /// Aware: steps per member, lane and phase whose routes are registered before the run.
    pub primed_steps: usize,
    /// Simulate one representative per symmetry class of members and expand, where the check
    /// in `symmetry` proves it exact; else (or when false) every member.
    pub symmetry: bool,
}

impl Default for SimConfig {
    fn default() -> Self {
        SimConfig {
            model: Model::Unaware,
            astra: false,
            metric: Metric::Hops,
            ecmp: true,
            dor_dims: None,
            dor_direct_dims: vec![],
            dor_first_dim_only: false,
            affinity: vec![],
            policies: vec![],
            pxn: false,
            trace: false,
            max_events: u64::MAX,
            no_shortcuts: false,
            primed_steps: 64,
            symmetry: false,
        }
    }
}

#[derive(Default, Clone)]
struct MemberPhase {
    started: bool,
    lanes_left: u8,
    waiting: [bool; 2],
    step: [u32; 2],
    need: [u32; 2],
    delay: [f64; 2],
    /// ASTRA-sim compatibility: the reduction that follows `delay` as its own event (see
    /// `Sim::processing`); None when `delay` already includes it.
    reduce: [Option<f64>; 2],
    /// Messages received per tag that their step has not consumed yet.
    pending: Vec<(u32, u32)>,
}

/// One NPU's queue for one logical dimension.
struct DimQueue {
    active: u32,
    waiting: VecDeque<u32>, // chunk * phases + phase, in arrival order
    /// Ordered (FIFO) mode: the (phase, chunk) this member must admit next on this dimension;
    /// `next_phase == UNSET` until first used.
    next_phase: u32,
    next_chunk: u32,
}

const UNSET: u32 = u32::MAX;

impl Default for DimQueue {
    fn default() -> Self {
        DimQueue { active: 0, waiting: VecDeque::new(), next_phase: UNSET, next_chunk: 0 }
    }
}

struct Job {
    plan: JobPlan,
    base: usize,
    queue_base: usize,
    member_nodes: Vec<u32>,
    /// Members simulated (`0..fold`); member m stands for every member congruent to it (see
    /// `symmetry`). The group's size when the run is not folded.
    fold: usize,
    /// Members per position of the outermost dimension: a message's same-instant order is keyed
    /// by its sender's index modulo this (its place inside the outer group) and its send count,
    /// which the symmetries `symmetry` folds over keep.
    inner: usize,
    /// Messages each member has sent so far.
    sent: Vec<u32>,
    chunks_left: Vec<u32>,
    finish_ns: Vec<f64>,
    /// When each member starts its part (`CollectiveSpec::starts`; zeros when not given).
    start_ns: Vec<f64>,
    /// The collective's endpoint delay (a workload session's jobs differ: `Session::add_job`).
    endpoint_delay_ns: f64,
    /// Member index by NPU rank, under the astra models (a direct all-reduce's second-round
    /// message is matched to a receive by its sender's position; `direct_packets`).
    member_of: HashMap<u32, u32, FxBuild>,
    /// Its messages between servers go with PXN (`Router::route_set_via`): `SimConfig::pxn` in
    /// one run; a workload session's jobs differ (`Session::add_job`: an all-to-all with it, the
    /// rest without, as each runs alone).
    pxn: bool,
}

struct Sim<'t> {
    topo: &'t Topology,
    npu_nodes: &'t [u32],
    router: Router<'t>,
    spec: &'t CollectiveSpec,
    cfg: &'t SimConfig,
    jobs: Vec<Job>,
    states: Vec<MemberPhase>,
    queues: Vec<DimQueue>,
    /// The member-phase index of `states[0]` and the queue index of `queues[0]`: a workload
    /// session drops the states and queues of finished collectives (`Session::retire`); 0 in a
    /// single run.
    states_off: usize,
    queues_off: usize,
    q: EventQueue,
    net: Network,
    sends: Vec<Send>,
    /// ASTRA-sim's direct all-reduce under the astra models, packet by packet.
    direct: DirectPackets,
    /// ASTRA-sim's per-NPU event lists, for the direct all-reduce's events (`sys_events`).
    sys: SysLists,
    /// Sprayed messages in flight: (parts not yet delivered, bytes of the whole message), and
    /// the free slots.
    split: Vec<(u32, f64)>,
    split_free: Vec<u32>,
    out: SimOutput,
    /// Progress: steps executed and the estimate of all steps (see `estimated_steps`).
    steps_done: u64,
    steps_total: u64,
    /// The representatives, when the run is folded (`symmetry`), and what the result reports.
    symmetry: Option<Fold>,
    symmetry_report: Report,
    /// A schedule with per-chunk dependencies under the fair model: one message at a time per
    /// link, in step order (`pair_gate`); a waiting message is (job, chunk, phase, member, send).
    gate: Option<PairGate<Gated>>,
    /// Messages the gate just released (kept to reuse its allocation).
    released: Vec<Gated>,
    /// Route set of each path a schedule's transfers name (`CollectiveSpec::routes`), and the
    /// route id of the first (they are consecutive: a message's route gives its way back).
    explicit: Vec<u32>,
    explicit_route0: u32,
    /// Schedules under the astra models, as ASTRA-sim runs an exported one (`custom_reductions`):
    /// each received message reduced on its own, concurrently, in whole microseconds; a member
    /// done once its own messages have landed too.
    reductions: Option<Reductions>,
    /// A broadcast or reduce under the fair model: a member's part of a chunk ends when its own
    /// sends have landed, so the next chunk leaves after this one. Without it a sender (the chain's
    /// root, each relay) starts every chunk at once, max-min sharing splits its link among all of
    /// them, and they all reach the next member together: no pipelining, a 1 GiB NCCL broadcast on
    /// a DGX H100 7 times slower than NCCL's own model. (The aware model's FIFO links keep the
    /// chunks in order already; a schedule orders its own transfers.) Same bookkeeping as
    /// `reductions`, without reductions.
    rooted_sends: Option<Reductions>,
    /// The fair model: a member's messages of one collective to one peer leave one after another,
    /// each when the previous one has drained (`conn_fifo`); a waiting message as for `gate`.
    fifo: Option<ConnFifo<Gated>>,
    /// A workload session (`Session`): members that finished every chunk and delivered raw
    /// messages, reported at the instant they happen; None in a single run.
    done: Option<Vec<(f64, Due)>>,
}

type Gated = (usize, usize, usize, usize, Send, u32);

/// Runs one collective (on every process group concurrently) and returns its measurements.
pub fn simulate(topo: &Topology, npu_nodes: &[u32], spec: &CollectiveSpec, cfg: &SimConfig) -> SimResult<SimOutput> {
    simulate_watched(topo, npu_nodes, spec, cfg, &mut Unwatched, Duration::from_secs(3600))
}

/// `simulate`, reporting to `monitor` every `interval` of wall time; when the monitor says stop,
/// returns the partial result (`SimOutput::stopped_at_ns` set) instead of running on.
pub fn simulate_watched(
    topo: &Topology,
    npu_nodes: &[u32],
    spec: &CollectiveSpec,
    cfg: &SimConfig,
    monitor: &mut dyn Monitor,
    interval: Duration,
) -> SimResult<SimOutput> {
    let wall = Instant::now();
    for (i, &node) in npu_nodes.iter().enumerate() {
        if node as usize >= topo.num_nodes {
            return Err(SimError::InvalidInput(format!("NPU rank {i} is node {node}, outside the {}-node graph", topo.num_nodes)));
        }
    }
    if (spec.intra != IntraScheduling::Fifo || spec.inter != InterScheduling::Ascending) && spec.scheduling != Scheduling::Arrival {
        return Err(SimError::InvalidInput(
            "intra-/inter-dimension scheduling other than FIFO / ascending needs arrival scheduling (ASTRA-sim's queues, \
             the default of the astra models)".into(),
        ));
    }
    if spec.groups.is_empty() {
        return Err(SimError::InvalidInput("no process group given".into()));
    }
    check_starts(spec)?;
    let e = spec.endpoint_delay_ns;
    if !(e >= 0.0 && e.is_finite()) {
        return Err(SimError::InvalidInput(format!("endpoint delay must be >= 0 ns, got {e}")));
    }
    if let Some(bw) = spec.local_mem_bw_gb_per_s {
        if bw.is_nan() || bw <= 0.0 {
            return Err(SimError::InvalidInput(format!("local memory bandwidth must be > 0 GB/s, got {bw}")));
        }
    }
    let router = new_router(topo, npu_nodes, cfg)?;
    let mut jobs = Vec::new();
    let (mut base, mut queue_base) = (0usize, 0usize);
    let mut steps_total = 0u64;
    for (gi, group) in spec.groups.iter().enumerate() {
        let mut seen = std::collections::HashSet::new();
        for &r in group {
            if r as usize >= npu_nodes.len() {
                return Err(SimError::InvalidInput(format!("rank {r} is not an NPU rank (there are {})", npu_nodes.len())));
            }
            if !seen.insert(r) {
                return Err(SimError::InvalidInput(format!("rank {r} appears twice in one process group")));
            }
        }
        let mut p = plan(spec, group, cfg.astra)?;
        if let Some(program) = spec.chunk_programs.get(gi) {
            // A schedule with per-chunk dependencies: this group moves one chunk.
            for phase in p.phases.iter_mut().filter(|ph| ph.algo.program.is_some()) {
                phase.algo.program = Some(program.clone());
                phase.algo.validate()?;
            }
        }
        let members = group.len();
        let size = p.chunks * p.phases.len() * members;
        let qsize = members * p.dims.len();
        steps_total += estimated_steps(&p);
        jobs.push(Job {
            member_nodes: group.iter().map(|&r| npu_nodes[r as usize]).collect(),
            fold: members,
            inner: members / p.dims.last().copied().unwrap_or(1).max(1),
            sent: vec![0; members],
            chunks_left: vec![p.chunks as u32; members],
            finish_ns: vec![0.0; members],
            start_ns: spec.starts.get(gi).cloned().unwrap_or_else(|| vec![0.0; members]),
            endpoint_delay_ns: spec.endpoint_delay_ns,
            member_of: members_by_rank(group, cfg.astra),
            pxn: cfg.pxn,
            plan: p,
            base,
            queue_base,
        });
        base += size;
        queue_base += qsize;
    }
    if base > u32::MAX as usize {
        return Err(SimError::InvalidInput(format!("{base} member-phase states exceed the engine's index range; use fewer chunks")));
    }
    let has_schedule = jobs.iter().any(|j| j.plan.phases.iter().any(|ph| ph.algo.algo == Algo::Schedule));
    let shortcuts = !cfg.no_shortcuts && !cfg.astra;
    let mut sim = Sim::new(topo, npu_nodes, router, spec, cfg, jobs, base, queue_base, shortcuts, cfg.astra && has_schedule);
    sim.steps_total = steps_total;
    if let (Some(order), Model::Fair, false) = (spec.chunk_order.as_deref(), cfg.model, cfg.astra) {
        // Every group is a copy of the first: positions are its members.
        let nodes = sim.jobs[0].member_nodes.clone();
        let router = &mut sim.router;
        let routes = &spec.routes;
        sim.gate = Some(PairGate::new(order, |a, b, way| -> SimResult<Vec<u32>> {
            if way != NO_WAY {
                return Ok(routes[way as usize].2.clone());
            }
            let set = router.route_set(nodes[a as usize], nodes[b as usize])?;
            Ok(match router.parts(set) {
                &[(route, _)] => router.links(route).to_vec(),
                _ => Vec::new(), // sprayed: not ordered (pair_gate)
            })
        })?);
    }
    if sim.gate.is_some() {
        sim.net.report_drained();
    }
    if cfg.symmetry && spec.routes.is_empty() {
        sim.fold()?;
    } else if cfg.symmetry {
        // A representative's named paths are its own pair's: the copies' differ.
        let members = sim.jobs[0].plan.ranks.len();
        let why = "the schedule names paths (each a pair's own nodes)".to_string();
        sim.symmetry_report = Report { tried: true, simulated: members, members, reason: Some(why), proof: None };
    }
    sim.explicit_routes()?;
    if sim.net.collapse {
        sim.prime_routes()?;
    }
    sim.run(monitor, interval)?;
    if sim.net.conflict {
        // A route showed up late and shares a link a message crossed ahead of the clock: rerun
        // exactly, one event per hop (rare: the first steps of every phase are primed).
        sim = sim.restarted_event_by_event();
        sim.run(monitor, interval)?;
        sim.out.reran_event_by_event = true;
    }
    sim.finish(wall.elapsed().as_secs_f64())
}


/// `Msg::tag` of a workload session's raw message (a send); its `dst_mps` is the caller's key.
pub const RAW_TAG: u32 = u32::MAX;

/// What a workload session hands back (`Session::next`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Due {
    /// The caller's own event (`Session::at`).
    External { kind: u8, node: u32 },
    /// Member `member` (index in its group) of job `job` has finished every chunk.
    Member { job: u32, member: u32 },
    /// The raw message sent with `key` (`Session::send`) has arrived.
    Message { key: u32 },
}

/// A workload's shared network: collectives (jobs) added while it runs, each member starting its
/// part when it issues, and raw messages, all on one network and in one event queue with the
/// caller's own events, so collectives and messages in flight at once share links
/// (docs/workloads.md, "Contention between concurrent collectives"). Under the astra-aware model
/// that is ASTRA-sim's congestion-aware backend, whose links every message in flight shares.
pub struct Session<'t> {
    sim: Sim<'t>,
    /// What the last event produced and `next` has not handed out yet, in order.
    ready: VecDeque<(f64, Due)>,
    /// Per job, its members not finished yet; jobs before `retired` have all finished.
    left: Vec<u32>,
    retired: usize,
}

/// A session drops finished collectives' member-phase states once at least this many (and half
/// of those it holds) are dead: each drop moves the live ones to the front, so rarely.
const RETIRE_AT_LEAST: usize = if cfg!(test) { 64 } else { 1 << 16 };

impl<'t> Session<'t> {
    /// `spec`: the options every job shares (scheduling, active chunks per dimension, local memory
    /// bandwidth; the rest comes with each job); `cfg`: the network model and routing. Symmetry
    /// folding and per-chunk schedule orders do not apply, and the aware model crosses links one
    /// event per hop (a job added later may share a link that a message crossed ahead of the
    /// clock, which `simulate` would repair by rerunning).
    pub fn new(topo: &'t Topology, npu_nodes: &'t [u32], spec: &'t CollectiveSpec, cfg: &'t SimConfig) -> SimResult<Self> {
        if let Some((i, &node)) = npu_nodes.iter().enumerate().find(|(_, &n)| n as usize >= topo.num_nodes) {
            return Err(SimError::InvalidInput(format!("NPU rank {i} is node {node}, outside the {}-node graph", topo.num_nodes)));
        }
        if (spec.intra != IntraScheduling::Fifo || spec.inter != InterScheduling::Ascending) && spec.scheduling != Scheduling::Arrival {
            return Err(SimError::InvalidInput("intra-/inter-dimension scheduling other than FIFO / ascending needs arrival scheduling".into()));
        }
        let router = new_router(topo, npu_nodes, cfg)?;
        let shortcuts = !cfg.no_shortcuts && cfg.model == Model::Fair && !cfg.astra;
        let mut sim = Sim::new(topo, npu_nodes, router, spec, cfg, Vec::new(), 0, 0, shortcuts, false);
        sim.done = Some(Vec::new());
        Ok(Session { sim, ready: VecDeque::new(), left: Vec::new(), retired: 0 })
    }

    /// Adds a collective over `group` (NPU ranks, in member order) planned as `spec` says (its
    /// operation, size, dimensions, algorithms, chunks, endpoint delay), its messages between
    /// servers with PXN or not as `pxn` says (as the collective alone would route them: the
    /// session's own sends take `SimConfig::pxn`); no member has started (`start_member`).
    /// Returns the job's number.
    pub fn add_job(&mut self, spec: &CollectiveSpec, group: &[u32], pxn: bool) -> SimResult<u32> {
        let n = self.sim.npu_nodes.len();
        if let Some(&r) = group.iter().find(|&&r| r as usize >= n) {
            return Err(SimError::InvalidInput(format!("rank {r} is not an NPU rank (there are {n})")));
        }
        let p = plan(spec, group, self.sim.cfg.astra)?;
        if p.phases.iter().any(|ph| ph.algo.algo == Algo::Schedule) {
            return Err(SimError::Unsupported("schedules in a workload's shared network".into()));
        }
        let members = group.len();
        let (base, queue_base) = (self.sim.states_off + self.sim.states.len(), self.sim.queues_off + self.sim.queues.len());
        let size = p.chunks * p.phases.len() * members;
        if base + size > u32::MAX as usize {
            return Err(SimError::InvalidInput("the workload's collectives exceed the engine's index range; use fewer chunks".into()));
        }
        self.sim.states.resize(self.sim.states.len() + size, MemberPhase::default());
        self.sim.queues.extend((0..members * p.dims.len()).map(|_| DimQueue::default()));
        self.sim.jobs.push(Job {
            member_nodes: group.iter().map(|&r| self.sim.npu_nodes[r as usize]).collect(),
            fold: members,
            inner: members / p.dims.last().copied().unwrap_or(1).max(1),
            sent: vec![0; members],
            chunks_left: vec![p.chunks as u32; members],
            finish_ns: vec![0.0; members],
            start_ns: vec![0.0; members],
            endpoint_delay_ns: spec.endpoint_delay_ns,
            member_of: members_by_rank(group, self.sim.cfg.astra),
            pxn,
            plan: p,
            base,
            queue_base,
        });
        self.left.push(members as u32);
        Ok((self.sim.jobs.len() - 1) as u32)
    }

    /// Member `member` of job `job` starts its part at `now` (the session's current instant or
    /// later); messages that reached it earlier wait for it, as in `simulate` with member starts.
    pub fn start_member(&mut self, job: u32, member: u32, now: f64) {
        self.sim.start_member(job as usize, member as usize, now);
    }

    /// Sends `bytes` from NPU rank `src` to `dst` at `now` as one message on their route (split
    /// over several ways where the routing sprays); its arrival comes back as `Due::Message { key }`.
    pub fn send(&mut self, now: f64, src: u32, dst: u32, bytes: f64, key: u32) -> SimResult<()> {
        let sim = &mut self.sim;
        let set = sim.router.route_set(sim.npu_nodes[src as usize], sim.npu_nodes[dst as usize])?;
        let n = sim.router.parts(set).len();
        let parent = if n == 1 {
            WHOLE
        } else {
            sim.split.push((n as u32, bytes));
            (sim.split.len() - 1) as u32
        };
        sim.out.bytes_sent_per_rank[src as usize] += bytes;
        sim.out.messages += 1;
        for i in 0..n {
            let (route, share) = sim.router.parts(set)[i];
            let part = if n == 1 { bytes } else { bytes * share };
            // Same-instant order (aware model): by message slot, after every collective's message.
            let msg = Msg { dst_mps: key, tag: RAW_TAG, bytes: part, route, sent_at: now, src_rank: src, dst_rank: dst, parent,
                            key: u64::MAX };
            sim.net.send(now, msg, sim.topo, &sim.router, &mut sim.q);
        }
        Ok(())
    }

    /// The latency (ns) of the way from NPU rank `src` to `dst`, with `edge_latency_ns` per edge
    /// (directed link l is edge l / 2) in place of the session's own: the longest of the ways
    /// where the routing sprays.
    pub fn route_latency_ns(&mut self, src: u32, dst: u32, edge_latency_ns: &[f64]) -> SimResult<f64> {
        let sim = &mut self.sim;
        let set = sim.router.route_set(sim.npu_nodes[src as usize], sim.npu_nodes[dst as usize])?;
        let lat = |route: u32| sim.router.links(route).iter().map(|&l| edge_latency_ns[l as usize / 2]).sum::<f64>();
        Ok(sim.router.parts(set).iter().map(|&(route, _)| lat(route)).fold(0.0, f64::max))
    }

    /// Schedules the caller's event (`kind`, `node`) at `t` (not before the current instant):
    /// `next_due` hands it back in time order with everything else, same-instant events in the order
    /// they were scheduled.
    pub fn at(&mut self, t: f64, kind: u8, node: u32) {
        self.sim.q.push(t, Ev::External { kind, node });
    }

    /// Runs the network until something is due for the caller and returns it with its time;
    /// None when nothing is left to run.
    pub fn next_due(&mut self) -> SimResult<Option<(f64, Due)>> {
        loop {
            if let Some(d) = self.ready.pop_front() {
                return Ok(Some(d));
            }
            let Some((now, ev)) = self.sim.q.pop() else { return Ok(None) };
            if self.sim.q.processed > self.sim.cfg.max_events {
                return Err(SimError::InvalidInput(format!("stopped after {} events (max_events)", self.sim.cfg.max_events)));
            }
            if let Ev::External { kind, node } = ev {
                return Ok(Some((now, Due::External { kind, node })));
            }
            self.sim.dispatch(now, ev)?;
            let mut done = self.sim.done.take().unwrap_or_default();
            for &(_, due) in &done {
                if let Due::Member { job, .. } = due {
                    self.left[job as usize] -= 1;
                    if self.left[job as usize] == 0 && !self.sim.cfg.astra {
                        self.retire(job as usize);
                    }
                }
            }
            self.ready.extend(done.drain(..));
            self.sim.done = Some(done);
        }
    }

    /// Frees what a finished collective held (its plan, per-member lists, and with every earlier
    /// job finished too, its member-phase states and dimension queues): on a 16,384-GPU step the
    /// ~200,000 collectives' states would otherwise stay to the end. Every member has finished, so
    /// every message of the job has been delivered and no event names its states any more. Not
    /// under the astra models, whose system events (`sys_events`, `direct_packets`) may outlive
    /// the members' finishes; their sessions keep everything.
    fn retire(&mut self, job: usize) {
        let sim = &mut self.sim;
        let j = &mut sim.jobs[job];
        j.plan = JobPlan::default();
        for v in [&mut j.member_nodes, &mut j.sent, &mut j.chunks_left] {
            *v = Vec::new();
        }
        j.start_ns = Vec::new();
        j.member_of = HashMap::default();
        while self.retired < sim.jobs.len() && self.left[self.retired] == 0 {
            self.retired += 1;
        }
        let (states_to, queues_to) = match sim.jobs.get(self.retired) {
            Some(live) => (live.base, live.queue_base),
            None => (sim.states_off + sim.states.len(), sim.queues_off + sim.queues.len()),
        };
        let dead = states_to - sim.states_off;
        if dead >= RETIRE_AT_LEAST.max(sim.states.len() / 2) {
            sim.states.drain(..dead);
            sim.states_off = states_to;
            let dead_queues = queues_to - sim.queues_off;
            sim.queues.drain(..dead_queues);
            sim.queues_off = queues_to;
        }
    }

    /// Member-phase states and dimension queues the session holds (`retire` drops finished ones).
    pub fn held(&self) -> (usize, usize) {
        (self.sim.states.len(), self.sim.queues.len())
    }

    /// Job `job`'s members' finish times (ns; meaningful once each is reported done).
    pub fn job_finish(&self, job: u32) -> &[f64] {
        &self.sim.jobs[job as usize].finish_ns
    }

    /// Bytes, busy time (ns) and routes per directed link over the whole session, and the events run.
    pub fn link_loads(&self) -> (Vec<f64>, Vec<f64>, Vec<u32>, u64) {
        let (bytes, busy, routes) = link_loads(self.sim.net.route_bytes(), self.sim.topo, &self.sim.router);
        (bytes, busy, routes, self.sim.q.processed)
    }
}

/// Member starts, if given: one list per process group, one entry per member, each finite and >= 0.
fn check_starts(spec: &CollectiveSpec) -> SimResult<()> {
    if spec.starts.is_empty() {
        return Ok(());
    }
    if spec.starts.len() != spec.groups.len() {
        return Err(SimError::InvalidInput(format!(
            "member starts given for {} process groups, but there are {}; give one list per group, or none",
            spec.starts.len(),
            spec.groups.len()
        )));
    }
    for (g, (starts, group)) in spec.starts.iter().zip(&spec.groups).enumerate() {
        if starts.len() != group.len() {
            return Err(SimError::InvalidInput(format!(
                "process group {g} has {} members but {} member starts; give one start (ns) per member",
                group.len(),
                starts.len()
            )));
        }
        if let Some((m, t)) = starts.iter().enumerate().find(|(_, t)| !(**t >= 0.0 && t.is_finite())) {
            return Err(SimError::InvalidInput(format!(
                "member {m} of process group {g} starts at {t} ns; expected a finite time >= 0 ns"
            )));
        }
    }
    Ok(())
}

/// Member index by NPU rank under the astra models (`Job::member_of`); empty otherwise.
fn members_by_rank(group: &[u32], astra: bool) -> HashMap<u32, u32, FxBuild> {
    if !astra {
        return HashMap::default();
    }
    group.iter().enumerate().map(|(m, &r)| (r, m as u32)).collect()
}

/// The router the configuration asks for, with no route made yet.
fn new_router<'t>(topo: &'t Topology, npu_nodes: &[u32], cfg: &SimConfig) -> SimResult<Router<'t>> {
    let dor = cfg.dor_dims.as_ref().map(|dims| DorSpec {
        npu_nodes: npu_nodes.to_vec(),
        dims: dims.clone(),
        direct: (0..dims.len()).map(|d| cfg.dor_direct_dims.contains(&d)).collect(),
        first_dim_only: cfg.dor_first_dim_only,
    });
    let mut router = Router::new(topo, cfg.metric, cfg.ecmp, dor)?;
    if cfg.no_shortcuts {
        router = router.without_hub_trees();
    }
    if !cfg.policies.is_empty() {
        router = router.with_policies(&cfg.policies)?;
    }
    let nic: Vec<u32> = cfg.affinity.iter().map(|&(nic, _)| nic).collect();
    if !cfg.affinity.is_empty() {
        let server: Vec<u32> = cfg.affinity.iter().map(|&(_, server)| server).collect();
        router = router.with_affinity(npu_nodes, &nic, &server)?;
        if cfg.pxn {
            router = router.with_pxn();
        }
    }
    Ok(router.with_terminals(npu_nodes, &nic))
}

/// Steps the whole run will take, estimated from one member per phase (members of a ring or
/// direct phase take the same number of steps; trees and rooted ops differ a little, which only
/// makes the progress estimate rougher). Counts the step that finds a lane finished.
fn estimated_steps(p: &JobPlan) -> u64 {
    let members = p.ranks.len();
    let mut sends = Vec::new();
    let mut total = 0u64;
    for (pi, ph) in p.phases.iter().enumerate() {
        let taking_part = (0..members).filter(|&m| p.participates(pi, m)).count() as u64;
        let mut per_member = 0u64;
        for lane in 0..ph.algo.lanes() {
            let mut s = 0;
            while ph.algo.step(0, lane, s, 0, &mut sends).is_some() {
                s += 1;
            }
            per_member += s as u64 + 1;
        }
        total += taking_part * per_member * p.chunks as u64;
    }
    total
}

/// Members whose routes' switch trees are built together (in parallel) while priming.
const PREFETCH_SOURCES: usize = 256;

impl<'t> Sim<'t> {
    /// A run over `jobs` (`states` member-phase states, `queues` dimension queues); `shortcuts`
    /// as `Network::new`; `reductions` for schedules under the astra models.
    #[allow(clippy::too_many_arguments)]
    fn new(topo: &'t Topology, npu_nodes: &'t [u32], router: Router<'t>, spec: &'t CollectiveSpec, cfg: &'t SimConfig,
           jobs: Vec<Job>, states: usize, queues: usize, shortcuts: bool, reductions: bool) -> Self {
        let fifo = (cfg.model == Model::Fair && !cfg.astra).then(ConnFifo::default);
        let mut net = Network::new(cfg.model, cfg.astra, topo, npu_nodes, shortcuts);
        if fifo.is_some() {
            net.report_drained();
        }
        Sim {
            topo,
            npu_nodes,
            router,
            spec,
            cfg,
            states: vec![MemberPhase::default(); states],
            queues: (0..queues).map(|_| DimQueue::default()).collect(),
            states_off: 0,
            queues_off: 0,
            jobs,
            q: EventQueue::new(cfg.model == Model::Aware && !cfg.astra),
            net,
            sends: Vec::new(),
            direct: DirectPackets::default(),
            sys: SysLists::default(),
            split: Vec::new(),
            split_free: Vec::new(),
            out: SimOutput::new(topo.num_links(), npu_nodes.len()),
            steps_done: 0,
            steps_total: 0,
            symmetry: None,
            symmetry_report: Report::default(),
            gate: None,
            released: Vec::new(),
            explicit: Vec::new(),
            explicit_route0: 0,
            reductions: reductions.then(Reductions::default),
            rooted_sends: (cfg.model == Model::Fair && !cfg.astra && matches!(spec.op, Op::Broadcast | Op::Reduce))
                .then(Reductions::default),
            fifo,
            done: None,
        }
    }

    /// Tries to fold the run onto representative members (`symmetry::find`); records which path
    /// the run takes and why.
    fn fold(&mut self) -> SimResult<()> {
        let job = &self.jobs[0];
        let members = job.plan.ranks.len();
        if self.jobs.iter().any(|j| j.start_ns.iter().any(|&t| t != 0.0)) {
            let why = "members start at different times".to_string();
            self.symmetry_report = Report { tried: true, simulated: members, members, reason: Some(why), proof: None };
            return Ok(());
        }
        let found =
            symmetry::find(&job.plan, self.jobs.len(), self.spec.scheduling, &job.member_nodes, &mut self.router, self.topo, self.cfg);
        self.symmetry_report = Report { tried: true, simulated: members, members, reason: None, proof: None };
        let found = match found {
            Err(SymmetryRefused::Why(why)) if symmetry::orbit_fold_applies(&job.plan) => {
                // Halving-doubling across the outermost dimension: try the orbits of its XORs,
                // proved from the fabric's structure, else from every member's routes (each
                // from a router that made no route yet).
                if self.router.num_routes() > 0 {
                    self.router = new_router(self.topo, self.npu_nodes, self.cfg)?;
                }
                let job = &self.jobs[0];
                let proved = symmetry_proof::prove(
                    &job.plan,
                    self.jobs.len(),
                    self.spec.scheduling,
                    &job.member_nodes,
                    self.npu_nodes,
                    &mut self.router,
                    self.topo,
                    self.cfg,
                );
                let structure_why = match proved {
                    Ok(fold) => {
                        self.symmetry_report.proof = Some("structure".into());
                        return self.take_fold(fold);
                    }
                    Err(SymmetryRefused::Error(e)) => return Err(e),
                    Err(SymmetryRefused::Why(w)) => w,
                };
                self.router = new_router(self.topo, self.npu_nodes, self.cfg)?;
                let job = &self.jobs[0];
                let orbits = symmetry::find_orbits(
                    &job.plan,
                    self.jobs.len(),
                    self.spec.scheduling,
                    &job.member_nodes,
                    &mut self.router,
                    self.topo,
                    self.cfg,
                );
                if orbits.is_ok() {
                    self.symmetry_report.proof = Some(format!("routes (the structure did not prove it: {structure_why})"));
                }
                match orbits {
                    Err(SymmetryRefused::Why(orbit_why)) => Err(SymmetryRefused::Why(format!("{why}; {orbit_why}"))),
                    other => other,
                }
            }
            other => other,
        };
        match found {
            Ok(fold) => return self.take_fold(fold),
            Err(SymmetryRefused::Why(why)) => {
                self.symmetry_report.reason = Some(why);
                // The check made routes in its own order; the full run makes them in its own
                // (route ids order the sums of link loads), so it starts from a fresh router.
                self.router = new_router(self.topo, self.npu_nodes, self.cfg)?;
            }
            Err(SymmetryRefused::Error(e)) => return Err(e),
        }
        Ok(())
    }

    /// Runs folded: members `0..fold.period` stand for all.
    fn take_fold(&mut self, fold: Fold) -> SimResult<()> {
        let members = self.jobs[0].plan.ranks.len();
        self.symmetry_report.simulated = fold.period;
        self.steps_total = self.steps_total * fold.period as u64 / members as u64;
        self.jobs[0].fold = fold.period;
        if !fold.link_rep.is_empty() {
            self.net.set_link_reps(fold.link_rep.clone());
        }
        self.symmetry = Some(fold);
        Ok(())
    }

    /// Folded run: every member takes its representative's finish time, chunk count and bytes,
    /// and the message counts grow by the number of copies (link loads: `finish`).
    fn unfold(&mut self, out: &mut SimOutput) {
        let Some(fold) = &self.symmetry else { return };
        let job = &mut self.jobs[0];
        let members = job.plan.ranks.len();
        for m in fold.period..members {
            let r = m % fold.period;
            job.finish_ns[m] = job.finish_ns[r];
            job.chunks_left[m] = job.chunks_left[r];
            let (rank, rep) = (job.plan.ranks[m] as usize, job.plan.ranks[r] as usize);
            out.bytes_sent_per_rank[rank] = out.bytes_sent_per_rank[rep];
            out.bytes_received_per_rank[rank] = out.bytes_received_per_rank[rep];
            out.fct_sum_per_rank[rank] = out.fct_sum_per_rank[rep];
        }
        let copies = (members / fold.period) as u64;
        out.messages *= copies;
        out.delivered *= copies;
    }

    /// Aware model: registers the routes of the first `primed_steps` steps of every member, lane
    /// and phase before the run, so the network knows which links only one route uses.
    /// Registers the paths a schedule's transfers name as route sets of their own (after `fold`,
    /// which may start a fresh router): way w is route `explicit_route0 + w`.
    fn explicit_routes(&mut self) -> SimResult<()> {
        self.explicit_route0 = self.router.num_routes();
        let nodes = &self.jobs[0].member_nodes;
        for (a, b, links) in &self.spec.routes {
            let (Some(&src), Some(&dst)) = (nodes.get(*a as usize), nodes.get(*b as usize)) else {
                return Err(SimError::InvalidInput(format!("a schedule's path joins positions {a} -> {b} of a group of {}", nodes.len())));
            };
            let set = self.router.explicit(src, dst, links)?;
            if self.net.collapse {
                let route = self.router.parts(set)[0].0;
                self.net.register(route, f64::NEG_INFINITY, &self.router);
            }
            self.explicit.push(set);
        }
        Ok(())
    }

    /// The way (`schedule_program`) of the `i`-th message of member `member`'s step `s`.
    fn way_of(&self, j: usize, chunk: usize, p: usize, member: usize, s: usize, i: usize) -> u32 {
        let plan = &self.jobs[j].plan;
        match plan.phase(chunk, p).algo.program.as_ref() {
            Some(program) if !self.explicit.is_empty() => program.way(plan.position(chunk, p, member), s, i),
            _ => NO_WAY,
        }
    }

    fn prime_routes(&mut self) -> SimResult<()> {
        let mut sends = Vec::new();
        for job in &self.jobs {
            let plan = &job.plan;
            for (p, phase) in plan.phases.iter().enumerate() {
                for member in (0..job.fold).filter(|&m| plan.participates(p, m)) {
                    if member % PREFETCH_SOURCES == 0 {
                        let batch = member..(member + PREFETCH_SOURCES).min(plan.ranks.len());
                        self.router.expect_sources(&job.member_nodes[batch]);
                    }
                    let pos = plan.position(0, p, member);
                    for lane in 0..phase.algo.lanes() {
                        for s in 0..self.cfg.primed_steps {
                            if phase.algo.step(pos, lane, s, 0, &mut sends).is_none() {
                                break;
                            }
                            for snd in &sends {
                                let peer = member + snd.to * phase.stride - pos * phase.stride;
                                let set = self.router.route_set(job.member_nodes[member], job.member_nodes[peer])?;
                                for i in 0..self.router.parts(set).len() {
                                    let route = self.router.parts(set)[i].0;
                                    self.net.register(route, f64::NEG_INFINITY, &self.router);
                                }
                            }
                        }
                    }
                }
            }
        }
        self.router.expect_sources(&[]);
        Ok(())
    }

    /// The same run from the start, with every hop its own event (keeps the routes found).
    fn restarted_event_by_event(self) -> Sim<'t> {
        let mut jobs = self.jobs;
        for job in &mut jobs {
            job.chunks_left.fill(job.plan.chunks as u32);
            job.finish_ns.fill(0.0);
            job.sent.fill(0);
        }
        let mut net = Network::new(self.cfg.model, self.cfg.astra, self.topo, self.npu_nodes, !self.cfg.no_shortcuts);
        if let Some(fold) = self.symmetry.as_ref().filter(|f| !f.link_rep.is_empty()) {
            net.set_link_reps(fold.link_rep.clone());
        }
        net.collapse = false;
        if self.gate.is_some() || self.fifo.is_some() {
            net.report_drained();
        }
        Sim {
            states: vec![MemberPhase::default(); self.states.len()],
            queues: (0..self.queues.len()).map(|_| DimQueue::default()).collect(),
            jobs,
            q: EventQueue::new(self.q.ordered),
            net,
            sends: Vec::new(),
            split: Vec::new(),
            split_free: Vec::new(),
            out: SimOutput::new(self.topo.num_links(), self.npu_nodes.len()),
            steps_done: 0,
            gate: self.gate.map(|mut g| {
                g.reset();
                g
            }),
            reductions: self.reductions.as_ref().map(|_| Reductions::default()),
            rooted_sends: self.rooted_sends.as_ref().map(|_| Reductions::default()),
            fifo: self.fifo.as_ref().map(|_| ConnFifo::default()),
            ..self
        }
    }

    fn run(&mut self, monitor: &mut dyn Monitor, interval: Duration) -> SimResult<()> {
        let mut ticker = Ticker::new(interval);
        for j in 0..self.jobs.len() {
            for m in 0..self.jobs[j].fold {
                let at = self.jobs[j].start_ns[m];
                if at == 0.0 {
                    self.start_member(j, m, 0.0);
                } else {
                    self.q.push(at, Ev::Start { mps: self.mps(j, 0, 0, m) as u32 });
                }
            }
        }
        while let Some((now, ev)) = self.q.pop() {
            if self.q.processed > self.cfg.max_events {
                return Err(SimError::InvalidInput(format!("stopped after {} events (max_events)", self.cfg.max_events)));
            }
            if self.q.processed.is_multiple_of(CHECK_EVERY) {
                if let Some(wall_s) = ticker.due() {
                    let progress = Progress {
                        sim_time_ns: now,
                        events: self.q.processed,
                        wall_s,
                        steps_done: self.steps_done,
                        steps_total: self.steps_total,
                    };
                    if !monitor.report(&progress) {
                        self.out.stopped_at_ns = Some(now);
                        return Ok(());
                    }
                }
            }
            self.dispatch(now, ev)?;
            if self.net.conflict {
                return Ok(()); // the caller reruns event by event
            }
        }
        for job in &self.jobs {
            if let Some(m) = job.chunks_left[..job.fold].iter().position(|&c| c > 0) {
                return Err(SimError::Deadlock(format!(
                    "rank {} still has {} unfinished chunk(s) when no event is left: with arrival or \
                     LIFO scheduling the members of a dimension picked different chunks and wait on \
                     each other; FIFO scheduling cannot deadlock",
                    job.plan.ranks[m], job.chunks_left[m]
                ))
                .about("scheduling"));
            }
        }
        Ok(())
    }

    /// Runs one event (`Ev::External` belongs to a workload session, which takes it first).
    fn dispatch(&mut self, now: f64, ev: Ev) -> SimResult<()> {
        match ev {
            Ev::Step { mps, lane, step } => self.step(now, mps, lane as usize, step as usize)?,
            Ev::Reduce { mps, lane, step } => {
                let r = self.state_ref(mps as usize).reduce[lane as usize].unwrap_or(0.0);
                self.q.push(now + r, Ev::Step { mps, lane, step });
            }
            Ev::PacketReceived { mps, round } => self.packet_received(now, mps, round),
            Ev::SysEvents { rank } => self.sys_events(now, rank)?,
            Ev::Start { mps } => {
                let (j, _, _, member) = self.decode(mps);
                self.start_member(j, member, now);
            }
            Ev::Deliver { msg } => self.deliver(now, msg)?,
            Ev::Drained { msg } => {
                let m = *self.net.msg(msg);
                if m.parent == WHOLE {
                    self.next_in_turn(now, &m)?;
                    self.next_on_connection(now, Handle::Whole(msg))?;
                } else {
                    self.next_on_connection(now, Handle::Sprayed(m.parent))?;
                }
            }
            Ev::Hop { msg, pos, left } => self.net.hop(now, msg, pos, left, &self.router, &mut self.q),
            Ev::LinkFree { link } => self.net.link_free(now, link, &self.router, &mut self.q),
            Ev::FairRecompute => self.net.fair_recompute(now, &mut self.q),
            Ev::FairWake { gen } => self.net.fair_wake(now, gen, &mut self.q),
            Ev::External { .. } => {}
        }
        Ok(())
    }

    /// (job, chunk, phase, member) of a member-phase index.
    /// Member-phase state `mps` (a global index: a session's `retire` drops the states before
    /// `states_off`).
    fn state(&mut self, mps: usize) -> &mut MemberPhase {
        &mut self.states[mps - self.states_off]
    }

    fn state_ref(&self, mps: usize) -> &MemberPhase {
        &self.states[mps - self.states_off]
    }

    /// Dimension queue `qi` (a global index: a session's `retire` drops the queues before
    /// `queues_off`).
    fn queue(&mut self, qi: usize) -> &mut DimQueue {
        &mut self.queues[qi - self.queues_off]
    }

    fn queue_ref(&self, qi: usize) -> &DimQueue {
        &self.queues[qi - self.queues_off]
    }

    /// Job `j` and dimension queue `qi` at once: the plan read while the queue changes.
    fn job_and_queue(&mut self, j: usize, qi: usize) -> (&Job, &mut DimQueue) {
        (&self.jobs[j], &mut self.queues[qi - self.queues_off])
    }

    fn decode(&self, mps: u32) -> (usize, usize, usize, usize) {
        let mps = mps as usize;
        let j = self.jobs.partition_point(|job| job.base <= mps) - 1;
        let job = &self.jobs[j];
        let local = mps - job.base;
        let members = job.plan.ranks.len();
        let phases = job.plan.phases.len();
        let (cp, member) = (local / members, local % members);
        (j, cp / phases, cp % phases, member)
    }

    fn mps(&self, j: usize, chunk: usize, phase: usize, member: usize) -> usize {
        let job = &self.jobs[j];
        job.base + (chunk * job.plan.phases.len() + phase) * job.plan.ranks.len() + member
    }

    /// A member starts its part: every chunk enters its first phase, chunk 0 first. Messages that
    /// reached it earlier wait in its member-phase states (`MemberPhase::pending`), as ASTRA-sim's
    /// analytical network keeps a message whose receive is not posted yet and hands it over the
    /// moment the receive is posted (CommonNetworkApi::sim_recv).
    fn start_member(&mut self, j: usize, member: usize, now: f64) {
        for c in 0..self.jobs[j].plan.chunks {
            self.enter_phase(j, member, c, 0, now);
        }
    }

    /// A member's chunk becomes ready for phase `p` at `now`.
    fn enter_phase(&mut self, j: usize, member: usize, chunk: usize, p: usize, now: f64) {
        if let Some(qi) = self.queue_for_phase(j, member, chunk, p, now) {
            self.admit(j, member, qi, now);
        }
    }

    /// Puts a member's chunk in the queue of phase `p` (the next phase it takes part in) without
    /// starting anything, and returns that queue; None when the chunk has no phase left (its
    /// finish time is recorded).
    fn queue_for_phase(&mut self, j: usize, member: usize, chunk: usize, mut p: usize, now: f64) -> Option<usize> {
        let phases = self.jobs[j].plan.phases.len();
        while p < phases && !self.jobs[j].plan.participates(p, member) {
            p += 1; // not this member's part of a rooted hierarchical op
        }
        if p == phases {
            let job = &mut self.jobs[j];
            job.chunks_left[member] -= 1;
            job.finish_ns[member] = job.finish_ns[member].max(now);
            if let (0, Some(done)) = (job.chunks_left[member], self.done.as_mut()) {
                done.push((now, Due::Member { job: j as u32, member: member as u32 }));
            }
            return None;
        }
        let qi = self.queue_index(j, member, chunk, p);
        let cp = (chunk * phases + p) as u32;
        let at = match self.spec.intra {
            IntraScheduling::Fifo => self.queue_ref(qi).waiting.len(),
            intra => {
                let keys: Vec<QueueKey> = self.queue_ref(qi).waiting.iter().map(|&w| self.queue_key(j, w)).collect();
                intra.insert_at(&keys, self.queue_key(j, cp))
            }
        };
        self.queue(qi).waiting.insert(at, cp);
        Some(qi)
    }

    fn queue_index(&self, j: usize, member: usize, chunk: usize, p: usize) -> usize {
        let job = &self.jobs[j];
        job.queue_base + member * job.plan.dims.len() + job.plan.phase(chunk, p).dim
    }

    /// What intra-dimension scheduling compares for a waiting (chunk * phases + phase).
    fn queue_key(&self, j: usize, cp: u32) -> QueueKey {
        let plan = &self.jobs[j].plan;
        let phases = plan.phases.len();
        let (chunk, p) = (cp as usize / phases, cp as usize % phases);
        let algo = &plan.phase(chunk, p).algo;
        let bytes = if algo.op == Op::AllGather { algo.bytes_in * algo.n as f64 } else { algo.bytes_in };
        QueueKey { bytes, phases_to_go: phases - p - 1, fifo_only: matches!(algo.op, Op::AllReduce | Op::AllToAll) }
    }

    /// Starts waiting chunks on a member's dimension queue while it has free slots.
    ///
    /// Arrival order is ASTRA-sim's (all chunks of one collective share one priority, and
    /// `Sys::insert_stream` queues a chunk behind every waiting chunk of equal priority); Newest
    /// takes the most recent arrival. With either, on asymmetric fabrics the members of a
    /// dimension can pick different chunks and wait on each other forever (reported as a
    /// deadlock). Ordered admits chunks in the fixed order (phase, chunk) on every member and can
    /// never deadlock: the smallest unfinished (phase, chunk) is always next on every member.
    fn admit(&mut self, j: usize, member: usize, qi: usize, now: f64) {
        let limit = self.spec.active_chunks_per_dim as u32;
        let phases = self.jobs[j].plan.phases.len();
        while self.queue_ref(qi).active < limit {
            let next = match self.spec.scheduling {
                Scheduling::Arrival => self.queue(qi).waiting.pop_front(),
                Scheduling::Newest => self.queue(qi).waiting.pop_back(),
                Scheduling::Ordered => self.next_in_order(j, member, qi),
            };
            let Some(cp) = next else { break };
            self.queue(qi).active += 1;
            let (chunk, p) = (cp as usize / phases, cp as usize % phases);
            let mps = self.mps(j, chunk, p, member);
            let algo = &self.jobs[j].plan.phase(chunk, p).algo;
            let (lanes, packetwise) = (algo.lanes(), algo.packetwise());
            let turn = self.jobs[j].plan.turn(chunk, p);
            let delayed = algo.astra_start_delay(self.jobs[j].plan.position(chunk, p, member), turn);
            let st = self.state(mps);
            st.started = true;
            st.lanes_left = lanes as u8;
            let start = now + if delayed { self.jobs[j].endpoint_delay_ns } else { 0.0 };
            if packetwise {
                let rank = self.jobs[j].plan.ranks[member];
                self.register(rank, start, SysEv::Start { mps: mps as u32 });
                continue;
            }
            for lane in 0..lanes {
                self.q.push(start, Ev::Step { mps: mps as u32, lane: lane as u8, step: 0 });
            }
        }
    }

    /// Ordered mode: takes the member's next (phase, chunk) for this dimension out of the
    /// waiting list if it has arrived, and advances the order.
    fn next_in_order(&mut self, j: usize, member: usize, qi: usize) -> Option<u32> {
        let dim = self.queue_dim(j, qi);
        let (job, qu) = self.job_and_queue(j, qi);
        let plan = &job.plan;
        let phases = plan.phases.len();
        let first_from = |from: usize| {
            (from..phases).find(|&q| plan.phases[q].dim == dim && plan.participates(q, member)).unwrap_or(phases) as u32
        };
        if qu.next_phase == UNSET {
            qu.next_phase = first_from(0);
        }
        if qu.next_phase as usize >= phases {
            return None;
        }
        let want = qu.next_chunk * phases as u32 + qu.next_phase;
        let at = qu.waiting.iter().position(|&cp| cp == want)?;
        qu.waiting.remove(at);
        qu.next_chunk += 1;
        if qu.next_chunk as usize == plan.chunks {
            qu.next_chunk = 0;
            qu.next_phase = first_from(qu.next_phase as usize + 1);
        }
        Some(want)
    }

    fn queue_dim(&self, j: usize, qi: usize) -> usize {
        let job = &self.jobs[j];
        (qi - job.queue_base) % job.plan.dims.len()
    }

    fn reduce_ns(&self, bytes: f64) -> f64 {
        match self.spec.local_mem_bw_gb_per_s {
            None => 0.0,
            Some(_) if bytes <= 0.0 => 0.0,
            // Two reads and a write, each truncated separately in ASTRA-sim, which computes
            // bytes / (GB/s * 1e9 B/s) * 1e9 ns.
            Some(bw) if self.cfg.astra => 3.0 * (bytes / (bw * 1e9) * 1e9).floor(),
            Some(bw) => 3.0 * bytes / bw,
        }
    }

    /// Whether a step's reduction runs as its own event after the endpoint delay, as in
    /// ASTRA-sim: a received message that needs processing pays the MemBus delay (an event
    /// `endpoint delay` later), then `PacketBundle::call` registers the reduction
    /// (`CommProcessingFinished`) from that instant, astra-sim/system/PacketBundle.cc. Its
    /// completion is thus scheduled after everything already due at that time, even when the
    /// reduction takes 0 ns (Sys::try_register_event appends to the instant's list).
    fn processing(&self, spec: &StepSpec) -> bool {
        self.cfg.astra && spec.recv > 0 && spec.reduce_bytes > 0.0 && self.spec.local_mem_bw_gb_per_s.is_some()
    }

    /// Under `reductions`: message `i` of a schedule step is on its way, with the reduction its
    /// receiver owes it (none without --local-mem-bw).
    #[allow(clippy::too_many_arguments)]
    fn note_reduction(&mut self, j: usize, chunk: usize, p: usize, member: usize, s: usize, i: usize, snd: &Send) {
        let plan = &self.jobs[j].plan;
        let phase = plan.phase(chunk, p);
        let Some(program) = phase.algo.program.as_ref() else {
            return;
        };
        let pos = plan.position(chunk, p, member);
        let ns = self.spec.local_mem_bw_gb_per_s
            .map_or(0.0, |bw| custom_reductions::reduction_ns(snd.bytes * program.reduced_share(pos, s, i), bw));
        let peer = member + snd.to * phase.stride - pos * phase.stride;
        let dst_mps = self.mps(j, chunk, p, peer % self.jobs[j].fold) as u32;
        let src_rank = self.jobs[j].plan.ranks[member];
        let src_mps = self.mps(j, chunk, p, member) as u32;
        if let Some(r) = self.reductions.as_mut() {
            r.sent(dst_mps, snd.tag, src_rank, ns, src_mps);
        }
    }

    fn step(&mut self, now: f64, mps: u32, lane: usize, s: usize) -> SimResult<()> {
        self.steps_done += 1;
        let (j, chunk, p, member) = self.decode(mps);
        let plan = &self.jobs[j].plan;
        let phase = plan.phase(chunk, p);
        let pos = plan.position(chunk, p, member);
        let mut sends = std::mem::take(&mut self.sends);
        let custom = self.reductions.is_some() && phase.algo.algo == Algo::Schedule;
        let Some(spec) = phase.algo.step(pos, lane, s, plan.turn(chunk, p), &mut sends) else {
            self.sends = sends;
            let st = self.state(mps as usize);
            st.lanes_left -= 1;
            if st.lanes_left == 0 {
                st.pending = Vec::new();
                let waits = custom && self.reductions.as_mut().is_some_and(|r| r.wait_for_sends(mps));
                if !waits && !self.rooted_sends.as_mut().is_some_and(|r| r.wait_for_sends(mps)) {
                    self.finish_phase(j, chunk, p, member, now);
                }
            }
            return Ok(());
        };
        for (i, snd) in sends.iter().enumerate() {
            if custom {
                self.note_reduction(j, chunk, p, member, s, i, snd);
            }
            let way = self.way_of(j, chunk, p, member, s, i);
            self.send_in_turn(now, j, chunk, p, member, snd, way)?;
        }
        self.sends = sends;
        let t = tag(lane, s);
        let reduce = if custom { 0.0 } else { self.reduce_ns(spec.reduce_bytes) };
        let endpoint = if spec.recv > 0 { self.jobs[j].endpoint_delay_ns } else { 0.0 };
        let delay = endpoint + reduce;
        let processing = !custom && self.processing(&spec);
        if let (true, Some(r)) = (custom && spec.recv > 0, self.reductions.as_mut()) {
            r.started(mps, t, now);
        }
        let st = self.state(mps as usize);
        let have = st.pending.iter().position(|e| e.0 == t);
        let got = have.map_or(0, |i| st.pending[i].1);
        if got >= spec.recv {
            if let Some(i) = have {
                st.pending.swap_remove(i);
            }
            if processing {
                st.reduce[lane] = Some(reduce);
                self.q.push(now + endpoint, Ev::Reduce { mps, lane: lane as u8, step: s as u32 + 1 });
            } else {
                let ready = if custom { self.reductions.as_mut().map_or(now, |r| r.done(mps, t, now)) } else { now };
                self.q.push(ready + delay, Ev::Step { mps, lane: lane as u8, step: s as u32 + 1 });
            }
        } else {
            st.waiting[lane] = true;
            st.step[lane] = s as u32;
            st.need[lane] = spec.recv;
            st.delay[lane] = if processing { endpoint } else { delay };
            st.reduce[lane] = processing.then_some(reduce);
        }
        Ok(())
    }

    /// Sends one message now, or when its turn on its links (`gate`) or its connection (`fifo`)
    /// comes.
    #[allow(clippy::too_many_arguments)]
    fn send_in_turn(&mut self, now: f64, j: usize, chunk: usize, p: usize, member: usize, snd: &Send, way: u32) -> SimResult<()> {
        if let (Some(gate), Some(order)) = (self.gate.as_mut(), self.spec.chunk_order.as_deref()) {
            let pos = self.jobs[j].plan.position(chunk, p, member);
            let go = gate.send(order, chunk as u32, j as u32, pos as u32, snd.to as u32, way, (j, chunk, p, member, *snd, way));
            return match go {
                Some(_) => self.send_one(now, j, chunk, p, member, snd, way).map(|_| ()),
                None => Ok(()),
            };
        }
        let phase = self.jobs[j].plan.phase(chunk, p);
        if self.fifo.is_some() && phase.algo.algo != Algo::Schedule {
            // A schedule orders its own transfers (`gate`, or its steps' dependencies).
            let pos = self.jobs[j].plan.position(chunk, p, member);
            let peer = member + snd.to * phase.stride - pos * phase.stride;
            let conn = Conn {
                job: j as u32,
                chunk: if self.spec.active_chunks_per_dim > 1 { chunk as u32 } else { ALL_CHUNKS },
                lane: (snd.tag >> 24) as u8,
                src: member as u32,
                dst: peer as u32,
            };
            if self.fifo.as_mut().unwrap().send(conn, (j, chunk, p, member, *snd, way)).is_some() {
                let (handle, parts) = self.send_one(now, j, chunk, p, member, snd, way)?;
                self.fifo.as_mut().unwrap().on_wire(conn, handle, parts);
            }
            return Ok(());
        }
        self.send_one(now, j, chunk, p, member, snd, way).map(|_| ())
    }

    /// Under `fifo`: a message (or the last part of a sprayed one) has drained; its connection's
    /// next message goes.
    fn next_on_connection(&mut self, now: f64, handle: Handle) -> SimResult<()> {
        let Some((conn, (j, chunk, p, member, snd, way))) = self.fifo.as_mut().and_then(|f| f.drained(handle)) else {
            return Ok(());
        };
        let (handle, parts) = self.send_one(now, j, chunk, p, member, &snd, way)?;
        self.fifo.as_mut().unwrap().on_wire(conn, handle, parts);
        Ok(())
    }

    /// A gated message's last byte has left (`Ev::Drained`; sprayed ones are not gated): the next
    /// messages on its links go, if they wait already and are first in line everywhere.
    fn next_in_turn(&mut self, now: f64, m: &Msg) -> SimResult<()> {
        if self.gate.is_none() {
            return Ok(());
        }
        let (j, chunk, p, dst_member) = self.decode(m.dst_mps);
        let plan = &self.jobs[j].plan;
        let src_member = plan.ranks.iter().position(|&r| r == m.src_rank).expect("a message from outside its group");
        let (a, b) = (plan.position(chunk, p, src_member) as u32, plan.position(chunk, p, dst_member) as u32);
        let (Some(gate), Some(order)) = (self.gate.as_mut(), self.spec.chunk_order.as_deref()) else {
            return Ok(());
        };
        let way = match m.route.checked_sub(self.explicit_route0) {
            Some(w) if (w as usize) < self.explicit.len() => w,
            _ => NO_WAY,
        };
        let mut go = std::mem::take(&mut self.released);
        gate.done(order, chunk as u32, a, b, way, &mut go);
        for &(j, chunk, p, member, snd, way) in &go {
            self.send_one(now, j, chunk, p, member, &snd, way)?;
        }
        go.clear();
        self.released = go;
        Ok(())
    }

    /// Sends one message of a step of member `member` in phase `p` of `chunk`, over the path
    /// `way` names (`NO_WAY`: the engine's route). Returns its handle on the wire
    /// and the number of its parts.
    #[allow(clippy::too_many_arguments)]
    fn send_one(&mut self, now: f64, j: usize, chunk: usize, p: usize, member: usize, snd: &Send, way: u32) -> SimResult<(Handle, u32)> {
        let plan = &self.jobs[j].plan;
        let stride = plan.phase(chunk, p).stride;
        let pos = plan.position(chunk, p, member);
        let peer = member + snd.to * stride - pos * stride;
        let (src, dst) = (self.jobs[j].member_nodes[member], self.jobs[j].member_nodes[peer]);
        let set = if way == NO_WAY { self.router.route_set_via(src, dst, self.jobs[j].pxn)? } else { self.explicit[way as usize] };
        let n = self.router.parts(set).len();
        let parent = if n == 1 {
            WHOLE
        } else {
            let entry = (n as u32, snd.bytes);
            match self.split_free.pop() {
                Some(i) => {
                    self.split[i as usize] = entry;
                    i
                }
                None => {
                    self.split.push(entry);
                    (self.split.len() - 1) as u32
                }
            }
        };
        let src_rank = self.jobs[j].plan.ranks[member];
        let job = &mut self.jobs[j];
        let key = (((member % job.inner) as u64) << 32) | job.sent[member] as u64;
        job.sent[member] += 1;
        self.out.bytes_sent_per_rank[src_rank as usize] += snd.bytes;
        self.out.messages += 1;
        // Folded run: the message crosses the links to its real peer and is delivered to the
        // peer's representative (the same member when the run is not folded).
        let dst_member = peer % self.jobs[j].fold;
        let dst_rank = self.jobs[j].plan.ranks[dst_member];
        let dst_mps = self.mps(j, chunk, p, dst_member) as u32;
        let src_mps = self.mps(j, chunk, p, member) as u32;
        let scheduled = self.jobs[j].plan.phase(chunk, p).algo.algo == Algo::Schedule; // a schedule orders itself
        if let (Some(w), false) = (self.rooted_sends.as_mut(), scheduled) {
            w.sent(dst_mps, snd.tag, src_rank, 0.0, src_mps);
        }
        let mut handle = Handle::Sprayed(parent);
        for i in 0..n {
            let (route, share) = self.router.parts(set)[i];
            let bytes = if n == 1 { snd.bytes } else { snd.bytes * share };
            let msg = Msg { dst_mps, tag: snd.tag, bytes, route, sent_at: now, src_rank, dst_rank, parent, key };
            let id = self.net.send(now, msg, self.topo, &self.router, &mut self.q);
            if n == 1 {
                handle = Handle::Whole(id);
            }
        }
        Ok((handle, n as u32))
    }

    /// A message of ASTRA-sim's direct all-reduce (`direct_packets`) arrives: handed over now if
    /// its receive is posted, else when it is.
    fn direct_arrival(&mut self, now: f64, m: &Msg) {
        let (j, chunk, p, member) = self.decode(m.dst_mps);
        let plan = &self.jobs[j].plan;
        let n = plan.phase(chunk, p).algo.n;
        let round = (m.tag & 0xFF_FFFF) as usize;
        let index = if round == 0 {
            0
        } else {
            let from = self.jobs[j].member_of[&m.src_rank] as usize;
            DirectPackets::receive_index(plan.position(chunk, p, from), plan.position(chunk, p, member), n)
        };
        if self.direct.arrived(m.dst_mps, round, index, n) {
            self.packet_received(now, m.dst_mps, round as u8);
        }
    }

    /// A direct all-reduce message is handed over: it reaches the collective after the endpoint
    /// delay (MemBus).
    fn packet_received(&mut self, now: f64, mps: u32, round: u8) {
        self.direct.received(mps);
        let (j, _, _, member) = self.decode(mps);
        let rank = self.jobs[j].plan.ranks[member];
        self.register(rank, now + self.jobs[j].endpoint_delay_ns, SysEv::MemBus { mps, round });
    }

    /// Registers a system-layer event of NPU `rank` for time `at` (`sys_events`).
    fn register(&mut self, rank: u32, at: f64, ev: SysEv) {
        if self.sys.register(rank, at, ev) {
            self.q.push(at, Ev::SysEvents { rank });
        }
    }

    /// Runs NPU `rank`'s system events of this instant, those registered meanwhile included.
    fn sys_events(&mut self, now: f64, rank: u32) -> SimResult<()> {
        let mut i = 0;
        while let Some(ev) = self.sys.next(rank, now, i) {
            i += 1;
            match ev {
                SysEv::Start { mps } => {
                    let (j, chunk, p, member) = self.decode(mps);
                    self.direct_start(now, j, chunk, p, member, mps)?;
                }
                SysEv::MemBus { mps, round } => self.mem_bus(now, mps, round)?,
                SysEv::General { mps } => self.general(now, mps)?,
            }
        }
        Ok(())
    }

    /// The first round of a direct all-reduce goes out; the messages that came before it are
    /// handed over, each by its own event now (CommonNetworkApi::sim_recv).
    fn direct_start(&mut self, now: f64, j: usize, chunk: usize, p: usize, member: usize, mps: u32) -> SimResult<()> {
        self.steps_done += 1;
        let plan = &self.jobs[j].plan;
        let mut sends = std::mem::take(&mut self.sends);
        plan.phase(chunk, p).algo.step(plan.position(chunk, p, member), 0, 0, plan.turn(chunk, p), &mut sends);
        for snd in &sends {
            self.send_one(now, j, chunk, p, member, snd, NO_WAY)?; // a built-in algorithm names no paths
        }
        self.sends = sends;
        for _ in 0..self.direct.start(mps) {
            self.q.push(now, Ev::PacketReceived { mps, round: 0 });
        }
        Ok(())
    }

    /// A direct all-reduce message is past the MemBus: its reduction, if it needs one, is an
    /// event of its own (PacketBundle::call), then it frees a packet.
    fn mem_bus(&mut self, now: f64, mps: u32, round: u8) -> SimResult<()> {
        let (j, chunk, p, member) = self.decode(mps);
        let algo = &self.jobs[j].plan.phase(chunk, p).algo;
        if algo.direct_processes(round as usize) {
            let bytes = algo.div(algo.bytes_in, algo.n as f64);
            let rank = self.jobs[j].plan.ranks[member];
            self.register(rank, now + self.reduce_ns(bytes), SysEv::General { mps });
            return Ok(());
        }
        self.general(now, mps)
    }

    /// A direct all-reduce message frees a packet: second-round sends go while free packets
    /// last, once the whole first round is in; the member leaves the phase after the last one.
    fn general(&mut self, now: f64, mps: u32) -> SimResult<()> {
        let (j, chunk, p, member) = self.decode(mps);
        let plan = &self.jobs[j].plan;
        let algo = &plan.phase(chunk, p).algo;
        let released = self.direct.general(mps, algo.n);
        if !released.sends.is_empty() {
            let mut sends = std::mem::take(&mut self.sends);
            algo.step(plan.position(chunk, p, member), 0, 1, plan.turn(chunk, p), &mut sends);
            for k in released.sends {
                self.send_one(now, j, chunk, p, member, &sends[k], NO_WAY)?;
                if self.direct.posted(mps, k) {
                    self.q.push(now, Ev::PacketReceived { mps, round: 1 });
                }
            }
            self.sends = sends;
        }
        if released.done {
            self.finish_phase(j, chunk, p, member, now);
        }
        Ok(())
    }

    /// Whether member-phase `mps` runs ASTRA-sim's direct all-reduce packet by packet.
    fn packetwise(&self, mps: u32) -> bool {
        let (j, chunk, p, _) = self.decode(mps);
        self.jobs[j].plan.phase(chunk, p).algo.packetwise()
    }

    fn deliver(&mut self, now: f64, id: u32) -> SimResult<()> {
        let mut m = self.net.take(id);
        if m.parent != WHOLE {
            // A part of a sprayed message: the message arrives with its last part.
            let entry = &mut self.split[m.parent as usize];
            entry.0 -= 1;
            if entry.0 > 0 {
                return Ok(());
            }
            m.bytes = entry.1;
            self.split_free.push(m.parent);
        }
        self.out.record_delivery(&m, now);
        if m.tag == RAW_TAG {
            if let Some(done) = self.done.as_mut() {
                done.push((now, Due::Message { key: m.dst_mps }));
            }
            return Ok(());
        }
        if self.cfg.trace {
            let links = self.router.links(m.route);
            self.out.trace.push(FlowRecord {
                src_node: self.topo.link_from[links[0] as usize],
                dst_node: self.topo.link_to[*links.last().unwrap() as usize],
                src_rank: m.src_rank,
                dst_rank: m.dst_rank,
                bytes: m.bytes,
                start_ns: m.sent_at,
                end_ns: now,
            });
        }
        if self.cfg.astra && self.packetwise(m.dst_mps) {
            self.direct_arrival(now, &m);
            return Ok(());
        }
        if let Some(sender) = self.reductions.as_mut().and_then(|r| r.arrived(m.dst_mps, m.tag, m.src_rank, now)) {
            // The sender had walked all its steps; this was its last message in flight.
            let (j, chunk, p, member) = self.decode(sender);
            self.finish_phase(j, chunk, p, member, now);
        }
        if let Some(sender) = self.rooted_sends.as_mut().and_then(|w| w.arrived(m.dst_mps, m.tag, m.src_rank, now)) {
            let (j, chunk, p, member) = self.decode(sender);
            self.finish_phase(j, chunk, p, member, now);
        }
        let st = self.state(m.dst_mps as usize);
        let count = match st.pending.iter_mut().find(|e| e.0 == m.tag) {
            Some(e) => {
                e.1 += 1;
                e.1
            }
            None => {
                st.pending.push((m.tag, 1));
                1
            }
        };
        let lane = (m.tag >> 24) as usize;
        let s = m.tag & 0xFF_FFFF;
        if st.started && st.waiting[lane] && st.step[lane] == s && count >= st.need[lane] {
            st.waiting[lane] = false;
            if let Some(i) = st.pending.iter().position(|e| e.0 == m.tag) {
                st.pending.swap_remove(i);
            }
            let delay = st.delay[lane];
            let processing = st.reduce[lane].is_some();
            let ready = self.reductions.as_mut().map_or(now, |r| r.done(m.dst_mps, m.tag, now));
            let at = ready + delay;
            if processing {
                self.q.push(at, Ev::Reduce { mps: m.dst_mps, lane: lane as u8, step: s + 1 });
            } else {
                self.q.push(at, Ev::Step { mps: m.dst_mps, lane: lane as u8, step: s + 1 });
            }
        }
        Ok(())
    }

    /// ASTRA-sim's order (`Sys::proceed_to_next_vnet_baseline`): the chunk leaves its queue and
    /// joins the next phase's queue first, then the old queue starts its next waiting chunk, then
    /// the new one. When both phases use one dimension, the chunk itself may be that next chunk
    /// (SCF or lessRemainingPhaseFirst can queue it in front of chunks that waited longer).
    fn finish_phase(&mut self, j: usize, chunk: usize, p: usize, member: usize, now: f64) {
        let qi = self.queue_index(j, member, chunk, p);
        self.queue(qi).active -= 1;
        let next = self.queue_for_phase(j, member, chunk, p + 1, now);
        self.admit(j, member, qi, now);
        if let Some(nq) = next {
            self.admit(j, member, nq, now);
        }
    }

    fn finish(mut self, wall_s: f64) -> SimResult<SimOutput> {
        let mut out = std::mem::replace(&mut self.out, SimOutput::new(0, 0));
        self.unfold(&mut out);
        out.finish_fct_sum();
        for job in &self.jobs {
            for (m, &r) in job.plan.ranks.iter().enumerate() {
                let f = &mut out.rank_finish_ns[r as usize];
                *f = Some(f.unwrap_or(0.0).max(job.finish_ns[m]));
            }
        }
        if out.stopped_at_ns.is_some() {
            // A rank that has not finished every chunk of every group it is in has no finish time.
            for job in &self.jobs {
                for (m, &r) in job.plan.ranks.iter().enumerate() {
                    if job.chunks_left[m] > 0 {
                        out.rank_finish_ns[r as usize] = None;
                    }
                }
            }
        }
        out.collective_time_ns = out.rank_finish_ns.iter().flatten().fold(0.0, |a: f64, &b| a.max(b));
        if let Some(t) = out.stopped_at_ns {
            out.collective_time_ns = out.collective_time_ns.max(t); // a lower bound of the full run
        }
        match &self.symmetry {
            Some(fold) if !fold.link_rep.is_empty() => {
                let rep_bytes = self.net.route_bytes();
                let by_class = fold.classes.as_ref().and_then(|c| symmetry_proof::link_loads(fold, c, rep_bytes, self.topo, &self.router));
                if let Some(loads) = by_class {
                    (out.link_bytes, out.link_busy_ns, out.link_routes) = loads;
                } else {
                    // Every member's routes carry what its representative's corresponding routes
                    // did, summed in the order of the routes of every member (a structurally
                    // proved fold routes them now: its sums are not exact in fixed point).
                    let mut every = None;
                    if fold.classes.is_some() {
                        let job = &self.jobs[0];
                        let mut router = new_router(self.topo, self.npu_nodes, self.cfg)?;
                        let conns = match symmetry::route_members(&job.plan, &job.member_nodes, &mut router, job.plan.ranks.len()) {
                            Ok(c) => c,
                            Err(SymmetryRefused::Error(e)) => return Err(e),
                            Err(SymmetryRefused::Why(why)) => return Err(SimError::Unsupported(why)),
                        };
                        every = Some((conns.concat(), router));
                    }
                    let (sets, router) = match &every {
                        Some((sets, router)) => (sets, router),
                        None => (&fold.sets, &self.router),
                    };
                    let mut route_bytes = vec![0.0; router.num_routes() as usize];
                    for m in 0..sets.len() / fold.per_member {
                        let r = m % fold.period;
                        for k in 0..fold.per_member {
                            let (sm, sr) = (sets[m * fold.per_member + k], fold.sets[r * fold.per_member + k]);
                            for (&(rm, _), &(rr, _)) in router.parts(sm).iter().zip(self.router.parts(sr)) {
                                route_bytes[rm as usize] = rep_bytes.get(rr as usize).copied().unwrap_or(0.0);
                            }
                        }
                    }
                    (out.link_bytes, out.link_busy_ns, out.link_routes) = link_loads(&route_bytes, self.topo, router);
                }
            }
            _ => {
                (out.link_bytes, out.link_busy_ns, out.link_routes) = link_loads(self.net.route_bytes(), self.topo, &self.router);
                if let Some(fold) = &self.symmetry {
                    symmetry::expand_links(fold, &self.router, &mut out.link_bytes);
                    symmetry::expand_links(fold, &self.router, &mut out.link_busy_ns);
                    symmetry::expand_links(fold, &self.router, &mut out.link_routes);
                }
            }
        }
        out.symmetry = self.symmetry_report.clone();
        out.events = self.q.processed;
        out.chunks = self.jobs[0].plan.chunks;
        out.chunk_bytes = self.jobs[0].plan.chunk_bytes;
        out.wall_time_s = wall_s;
        Ok(out)
    }
}
