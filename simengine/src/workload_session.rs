//! A workload replay on one shared network (`workload_replay::Driver` over `engine::Session`):
//! the replay's events and the network's share one event queue, a collective joins the network
//! as a job when its first member issues it and each member starts its part at its own issue, a
//! send is one message on the network, and whatever is in flight at once shares links. Used for
//! the contention-aware models (`fair`, `aware`, `astra-aware`), NCCL mode included (each job's
//! NCCL latency delays its members' finishes; messages add their route's latencies on a
//! latency-free network: infragraph/workload/shared.py); `--model astra` keeps timing
//! each collective alone (`workload_replay::Alone`), which is exact for a network without
//! contention (docs/workloads.md, "Contention between concurrent collectives").
use std::collections::HashMap;

use crate::engine::{Due, Session};
use crate::error::SimResult;
use crate::plan::CollectiveSpec;
use crate::workload_replay::{Driver, Event};

/// One collective as it ran: its job's first issuing node, and per member (group order) its node,
/// issue and finish time.
pub struct Ran {
    pub nodes: Vec<u32>,
    pub issue_ns: Vec<f64>,
    pub finish_ns: Vec<f64>,
}

pub struct Shared<'s, 't> {
    pub session: Session<'t>,
    /// Per collective node: its plan (operation, size, algorithms ...) in `specs`.
    spec_of: &'s [u32],
    specs: &'s [CollectiveSpec],
    /// Per node: its p2p key (sends), as the DAG's `channel`.
    channel: &'s [u32],
    /// Per p2p key: (source rank, destination rank, bytes).
    p2p: &'s [(u32, u32, f64)],
    /// Per p2p key: the spec (in `specs`) its sends run as, a point-to-point job of its two ranks
    /// (its chunks pipelined as `simulate` pipelines them), or `RAW` for one raw message; empty:
    /// every send is one raw message.
    send_spec: &'s [u32],
    /// Added to every message's network time (the models' per-message overhead beyond the links).
    send_extra_ns: f64,
    /// Per spec: added to each member's finish (NCCL mode: NCCL's modelled latency of the call,
    /// charged once as when the collective is timed alone; 0 otherwise).
    finish_extra_ns: &'s [f64],
    /// Per spec: its messages between servers go with PXN (as it would route them alone: an
    /// all-to-all's by default; `Session::add_job`).
    pxn: &'s [bool],
    /// NCCL mode: per edge, the latency (ns) a message pays on top of the network's time, summed
    /// over its route (the session's links then have none: NCCL's collectives count their latency
    /// in `finish_extra_ns`); empty otherwise. `message_extra_ns`: per p2p key, that sum (the
    /// longest of its ways where the routing sprays).
    edge_latency_ns: &'s [f64],
    message_extra_ns: Vec<f64>,
    /// The job of each collective instance still being joined, by its first issuing node.
    joining: HashMap<u32, u32>,
    /// Per session job: what it is.
    jobs: Vec<JobOf>,
    pub ran: Vec<Ran>,
}

/// `Shared::send_spec` of a send that is one raw message.
pub const RAW: u32 = u32::MAX;

/// A session job: a collective (its index in `Shared::ran`), or a send run as a point-to-point
/// job (its send node, and its members not finished yet).
enum JobOf {
    Collective(u32),
    Send { node: u32, left: u8 },
}

const ISSUE_READY: u8 = 0;
const FINISH: u8 = 1;
const ARRIVE: u8 = 2;

impl<'s, 't> Shared<'s, 't> {
    #[allow(clippy::too_many_arguments)]
    pub fn new(session: Session<'t>, spec_of: &'s [u32], specs: &'s [CollectiveSpec], finish_extra_ns: &'s [f64],
               pxn: &'s [bool], channel: &'s [u32], p2p: &'s [(u32, u32, f64)], send_spec: &'s [u32], send_extra_ns: f64,
               edge_latency_ns: &'s [f64]) -> Self {
        Shared { session, spec_of, specs, channel, p2p, send_spec, send_extra_ns, finish_extra_ns, pxn, edge_latency_ns,
                 message_extra_ns: vec![0.0; p2p.len()], joining: HashMap::new(), jobs: Vec::new(), ran: Vec::new() }
    }
}

impl Driver for Shared<'_, '_> {
    type Error = crate::error::SimError;

    fn at(&mut self, t: f64, ev: Event) {
        let (kind, node) = match ev {
            Event::IssueReady(r) => (ISSUE_READY, r),
            Event::Finish(n) => (FINISH, n),
            Event::Arrive(n) => (ARRIVE, n),
        };
        self.session.at(t, kind, node);
    }

    fn next(&mut self) -> SimResult<Option<(f64, Event)>> {
        loop {
            let Some((t, due)) = self.session.next_due()? else { return Ok(None) };
            return Ok(Some(match due {
                Due::External { kind: ISSUE_READY, node } => (t, Event::IssueReady(node)),
                Due::External { kind: FINISH, node } => (t, Event::Finish(node)),
                Due::External { node, .. } => (t, Event::Arrive(node)),
                Due::Member { job, .. } if matches!(self.jobs[job as usize], JobOf::Send { .. }) => {
                    let JobOf::Send { node, left } = &mut self.jobs[job as usize] else { unreachable!() };
                    *left -= 1;
                    if *left > 0 {
                        continue;
                    }
                    (t, Event::Arrive(*node)) // both ends done: its time alone is the later finish
                }
                Due::Member { job, member } => {
                    let JobOf::Collective(i) = self.jobs[job as usize] else { unreachable!() };
                    let ran = &mut self.ran[i as usize];
                    let node = ran.nodes[member as usize];
                    let extra = self.finish_extra_ns[self.spec_of[node as usize] as usize];
                    ran.finish_ns[member as usize] = t + extra;
                    if extra > 0.0 {
                        self.session.at(t + extra, FINISH, node);
                        continue;
                    }
                    (t, Event::Finish(node))
                }
                Due::Message { key } if self.send_extra_ns + self.message_extra_ns[self.channel[key as usize] as usize] > 0.0 => {
                    let extra = self.send_extra_ns + self.message_extra_ns[self.channel[key as usize] as usize];
                    self.session.at(t + extra, ARRIVE, key);
                    continue;
                }
                Due::Message { key } => (t, Event::Arrive(key)),
            }));
        }
    }

    fn send(&mut self, node: u32, t: f64) -> SimResult<()> {
        let key = self.channel[node as usize] as usize;
        let (src, dst, bytes) = self.p2p[key];
        if let Some(&spec) = self.send_spec.get(key).filter(|&&s| s != RAW) {
            let job = self.session.add_job(&self.specs[spec as usize], &[src, dst], self.pxn[spec as usize])?;
            self.jobs.push(JobOf::Send { node, left: 2 });
            self.session.start_member(job, 0, t);
            self.session.start_member(job, 1, t);
            return Ok(());
        }
        if !self.edge_latency_ns.is_empty() {
            self.message_extra_ns[key] = self.session.route_latency_ns(src, dst, self.edge_latency_ns)?;
        }
        self.session.send(t, src, dst, bytes, node)
    }

    fn join(&mut self, group: &[u32], joined: &[(u32, usize, f64)]) -> SimResult<()> {
        let (node, pos, t) = joined[joined.len() - 1];
        let first = joined[0].0;
        let job = match self.joining.get(&first) {
            Some(&j) => j,
            None => {
                let spec = self.spec_of[node as usize] as usize;
                let j = self.session.add_job(&self.specs[spec], group, self.pxn[spec])?;
                let n = group.len();
                self.jobs.push(JobOf::Collective(self.ran.len() as u32));
                self.ran.push(Ran { nodes: vec![u32::MAX; n], issue_ns: vec![f64::NAN; n], finish_ns: vec![f64::NAN; n] });
                self.joining.insert(first, j);
                j
            }
        };
        let JobOf::Collective(i) = self.jobs[job as usize] else { unreachable!() };
        let ran = &mut self.ran[i as usize];
        ran.nodes[pos] = node;
        ran.issue_ns[pos] = t;
        if joined.len() == group.len() {
            self.joining.remove(&first);
        }
        self.session.start_member(job, pos as u32, t);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::algorithms::{Algo, Op};
    use crate::dim_scheduling::{InterScheduling, IntraScheduling};
    use crate::engine::{Due, Session, SimConfig};
    use crate::network::Model;
    use crate::plan::{CollectiveSpec, Optimization, Scheduling};
    use crate::topology::Topology;

    /// NPUs 0, 1, 2 on one switch (node 3): 8 Gbit/s = 1 byte/ns and 100 ns per link.
    fn star() -> Topology {
        Topology::new(4, &[0, 1, 2], &[3, 3, 3], &[8.0; 3], &[100.0; 3], None, &[]).unwrap()
    }

    /// A 1,000-byte all-gather shard per member, one chunk, no endpoint delay, free reductions.
    fn spec() -> CollectiveSpec {
        CollectiveSpec {
            op: Op::AllGather, size_bytes: 1000.0, groups: vec![], dims: vec![], algorithms: vec![Algo::Ring],
            programs: vec![], chunk_programs: vec![], chunk_order: None, root: 0, chunks: 1, active_chunks_per_dim: 1,
            endpoint_delay_ns: 0.0, local_mem_bw_gb_per_s: None, optimization: Optimization::LocalBwAware,
            scheduling: Scheduling::Ordered, intra: IntraScheduling::Fifo, inter: InterScheduling::Ascending,
            dim_bandwidth: vec![], starts: vec![], local_ring: false, rail_chains: false, routes: vec![],
        }
    }

    fn drain(s: &mut Session) -> Vec<(f64, Due)> {
        std::iter::from_fn(|| s.next_due().unwrap()).collect()
    }

    /// Aware (FIFO store-and-forward links): two 1,000-byte messages into NPU 2 at 0 reach the
    /// switch together (1,100 ns), then leave it one after the other on link switch->2.
    #[test]
    fn two_messages_into_one_npu_queue_on_its_link() {
        let (topo, npus, spec) = (star(), [0u32, 1, 2], spec());
        let cfg = SimConfig { model: Model::Aware, ..SimConfig::default() };
        let mut s = Session::new(&topo, &npus, &spec, &cfg).unwrap();
        s.send(0.0, 0, 2, 1000.0, 7).unwrap();
        s.send(0.0, 1, 2, 1000.0, 8).unwrap();
        assert_eq!(drain(&mut s), vec![(2200.0, Due::Message { key: 7 }), (3200.0, Due::Message { key: 8 })]);
    }

    /// A finished collective's states are dropped (fair): 1,000 all-gathers on {0, 2} one after
    /// the other (2 member-phase states each) leave a bounded number held, and each takes the
    /// time of the first (1,200 ns: 100 + 1,000 + 100 on the two links).
    #[test]
    fn finished_collectives_are_dropped() {
        let (topo, npus, spec) = (star(), [0u32, 1, 2], spec());
        let cfg = SimConfig { model: Model::Fair, ..SimConfig::default() };
        let mut s = Session::new(&topo, &npus, &spec, &cfg).unwrap();
        let mut t = 0.0;
        for k in 0..1000u32 {
            let job = s.add_job(&spec, &[0, 2], false).unwrap();
            s.start_member(job, 0, t);
            s.start_member(job, 1, t);
            let mut due = drain(&mut s);
            due.sort_by_key(|d| match d.1 { Due::Member { member, .. } => member, _ => u32::MAX });
            assert_eq!(due, vec![(t + 1200.0, Due::Member { job: k, member: 0 }), (t + 1200.0, Due::Member { job: k, member: 1 })]);
            t += 1200.0;
        }
        let (states, queues) = s.held();
        assert!(states <= 2 * 64 + 2 && queues <= 2 * 64 + 2, "{states} states, {queues} queues held of 2,000");
    }

    /// Fair: an all-gather on {0, 2} alone, then with a message 1 -> 2 of the same size sent when it
    /// starts: the two flows share link switch->2 at half its bandwidth each, so member 2 gets its
    /// shard 1,000 ns later (member 0 receives over its own link: unchanged). The caller's events
    /// come back in time order with the network's.
    #[test]
    fn a_message_slows_the_collective_that_shares_its_link() {
        let (topo, npus, spec) = (star(), [0u32, 1, 2], spec());
        let cfg = SimConfig { model: Model::Fair, ..SimConfig::default() };
        let run = |with_message: bool| {
            let mut s = Session::new(&topo, &npus, &spec, &cfg).unwrap();
            let job = s.add_job(&spec, &[0, 2], false).unwrap();
            s.start_member(job, 0, 0.0);
            s.start_member(job, 1, 0.0);
            if with_message {
                s.send(0.0, 1, 2, 1000.0, 9).unwrap();
            }
            s.at(1500.0, 0, 42);
            let due = drain(&mut s);
            (due, s.job_finish(job).to_vec())
        };
        let (due, alone) = run(false);
        assert_eq!(alone, vec![1200.0, 1200.0]);
        assert!(due.contains(&(1200.0, Due::Member { job: 0, member: 0 })) && due.contains(&(1200.0, Due::Member { job: 0, member: 1 })));
        assert_eq!(due.last(), Some(&(1500.0, Due::External { kind: 0, node: 42 })));
        let (due, together) = run(true);
        assert_eq!(together, vec![1200.0, 2200.0]);
        assert!(due.contains(&(2200.0, Due::Message { key: 9 })));
        assert!(due.contains(&(1500.0, Due::External { kind: 0, node: 42 })));
    }
}
