//! The workload replay's event loop: every NPU's Chakra DAG issued as ASTRA-sim's workload layer
//! and hardware-resource model issue it (518bd51, Workload.cc / HardwareResource.cc), with the
//! time of every collective and message decided by a `Driver`: each alone by the caller's
//! `Timing` (`Alone`), or on one shared network (workload_session.rs).
//!
//! The rules (restated in infragraph/workload/replay.py, which prepares the arrays):
//! - a node is ready when all of its dependencies have finished; whenever a node finishes on an
//!   NPU (and once at time 0), the NPU's ready nodes are visited in ascending id order (the local
//!   index order here) and each is issued if its resource is free: one CPU op, one GPU compute op,
//!   one GPU communication op at a time; receives take none;
//! - a timed node (compute, memory) finishes `duration` ns after its issue; a skipped node
//!   (invalid, metadata, zero-size roofline) finishes at once, but what it frees waits for the
//!   NPU's next visit;
//! - a collective is joined by each member (`Driver::join`, with every member that issued the
//!   group's k-th collective so far); `Alone` asks `Timing::collective` once all have, with every
//!   member's issue time (members in group order), for every member's absolute finish time;
//! - a send finishes when its message arrives (`Driver::send`); its receive finishes then, or
//!   at once (as an event at the posting time) when it is posted after the arrival; messages pair
//!   by (tag, src, dst, size) in order (`p2p` keys, numbered by the caller);
//! - events at the same time run in the order they were scheduled.
//!
//! Times are f64 ns, as the caller's timing answers them.
use std::cmp::Ordering;
use std::collections::{BTreeSet, BinaryHeap, HashMap};

/// What issuing a node does.
pub const OP_TIMED: u8 = 0;
pub const OP_SKIP: u8 = 1;
pub const OP_COLLECTIVE: u8 = 2;
pub const OP_SEND: u8 = 3;
pub const OP_RECV: u8 = 4;

/// The resource a node holds while it runs (`RES_NONE`: a receive).
pub const RES_NONE: u8 = 0;
pub const RES_CPU: u8 = 1;
pub const RES_COMP: u8 = 2;
pub const RES_COMM: u8 = 3;

/// Node states after the run: never ready, ready but never issued, issued but not finished, finished.
pub const STATE_WAITING: u8 = 0;
pub const STATE_READY: u8 = 1;
pub const STATE_ONGOING: u8 = 2;
pub const STATE_DONE: u8 = 3;

/// Every NPU's DAG as flat arrays. Nodes of NPU `r` are `npu_ptr[r]..npu_ptr[r + 1]`, in
/// ascending Chakra id; `deps` hold global node indices (inside the same NPU).
pub struct Dag {
    pub npu_ptr: Vec<u32>,
    pub op: Vec<u8>,
    pub resource: Vec<u8>,
    pub duration: Vec<f64>,
    pub dep_ptr: Vec<u32>,
    pub deps: Vec<u32>,
    /// Per node: its group index (collectives) or its p2p key (sends, receives); else unused.
    pub channel: Vec<u32>,
    /// Groups' members in group order: group `g` is `members[group_ptr[g]..group_ptr[g + 1]]`.
    pub group_ptr: Vec<u32>,
    pub members: Vec<u32>,
    pub p2p_keys: usize,
}

/// The caller's answers when every collective and message is timed alone (the only timing
/// decisions the loop does not make; `Alone` asks them). `node` is a global node index.
pub trait Timing {
    type Error;
    /// Every member's absolute finish time, in group order, for the collective whose last joiner is
    /// `node`, each member having issued it at `issue_ns` (group order).
    fn collective(&mut self, node: u32, issue_ns: &[f64]) -> Result<Vec<f64>, Self::Error>;
    /// When the message of the send `node`, issued at `t`, arrives.
    fn message(&mut self, node: u32, t: f64) -> Result<f64, Self::Error>;
}

/// What the run leaves: every NPU's finish time (NaN when it never finishes), every node's issue
/// and finish time (NaN when it never happened) and final state.
pub struct Outcome {
    pub finish: Vec<f64>,
    pub start: Vec<f64>,
    pub end: Vec<f64>,
    pub state: Vec<u8>,
}

/// The loop's own events: an NPU visits its ready nodes; a node finishes; a send's message arrives.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Event {
    IssueReady(u32),
    Finish(u32),
    Arrive(u32),
}

/// Where the loop's events wait and who times collectives and messages: `Alone` (each timed alone
/// by a `Timing`, events in the loop's own heap) or a shared network whose event queue holds the
/// loop's events too (workload_session.rs), so that what is in flight at once shares links.
pub trait Driver {
    type Error;
    /// Schedules `ev` at `t` (not before the current instant).
    fn at(&mut self, t: f64, ev: Event);
    /// The next event due, in time order (same instant: scheduling order); None when none is left.
    fn next(&mut self) -> Result<Option<(f64, Event)>, Self::Error>;
    /// The send `node` is issued at `t`: its message's arrival must come back as `Event::Arrive(node)`.
    fn send(&mut self, node: u32, t: f64) -> Result<(), Self::Error>;
    /// A member issued a collective on `group` (NPU ranks, in group order): `joined` holds every
    /// member that issued this instance so far, this one last, as (node, position in `group`, issue
    /// time). Every member's finish must come back as `Event::Finish(node)`.
    fn join(&mut self, group: &[u32], joined: &[Joiner]) -> Result<(), Self::Error>;
}

/// A member that issued a collective: (node, position in the group, issue time in ns).
pub type Joiner = (u32, usize, f64);

/// Each collective and message timed alone by `timing` once issued (exact for a network without
/// contention): a collective when its last member issues, from every member's issue time.
pub struct Alone<'a, T: Timing> {
    timing: &'a mut T,
    heap: BinaryHeap<Queued>,
    seq: u64,
}

impl<'a, T: Timing> Alone<'a, T> {
    pub fn new(timing: &'a mut T) -> Self {
        Alone { timing, heap: BinaryHeap::new(), seq: 0 }
    }
}

impl<T: Timing> Driver for Alone<'_, T> {
    type Error = T::Error;
    fn at(&mut self, t: f64, ev: Event) {
        self.heap.push(Queued { t, seq: self.seq, ev });
        self.seq += 1;
    }
    fn next(&mut self) -> Result<Option<(f64, Event)>, T::Error> {
        Ok(self.heap.pop().map(|q| (q.t, q.ev)))
    }
    fn send(&mut self, node: u32, t: f64) -> Result<(), T::Error> {
        let arrival = self.timing.message(node, t)?;
        self.at(arrival, Event::Arrive(node));
        Ok(())
    }
    fn join(&mut self, group: &[u32], joined: &[(u32, usize, f64)]) -> Result<(), T::Error> {
        if joined.len() < group.len() {
            return Ok(());
        }
        let mut issue = vec![0.0; group.len()];
        for &(_, p, t) in joined {
            issue[p] = t;
        }
        let last = joined[joined.len() - 1].0;
        let finish = self.timing.collective(last, &issue)?;
        for &(node, p, _) in joined {
            self.at(finish[p], Event::Finish(node));
        }
        Ok(())
    }
}

struct Queued {
    t: f64,
    seq: u64,
    ev: Event,
}

impl PartialEq for Queued {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}
impl Eq for Queued {}
impl PartialOrd for Queued {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Queued {
    /// Reversed: the heap pops the earliest time, then the first scheduled.
    fn cmp(&self, o: &Self) -> Ordering {
        o.t.total_cmp(&self.t).then(o.seq.cmp(&self.seq))
    }
}

/// A message's state between its send and its receive (ASTRA-sim's analytical matching).
#[derive(Default)]
struct Pending {
    arrived: bool,
    recv: Option<u32>,
}

struct Loop<'a, D: Driver> {
    dag: &'a Dag,
    driver: &'a mut D,
    npu_of: Vec<u32>,
    waiting: Vec<u32>,
    child_ptr: Vec<u32>,
    children: Vec<u32>,
    ready: Vec<BTreeSet<u32>>,
    ongoing: Vec<u32>,
    done: Vec<u32>,
    busy: Vec<[bool; 4]>,
    out: Outcome,
    // collectives: (group, k-th issue on it) -> joiners (node, position, issue time); per (group, rank) issue counts
    issued_on: HashMap<(u32, u32), u32>,
    joined: HashMap<(u32, u32), Vec<Joiner>>,
    position: Vec<Option<HashMap<u32, u32>>>,
    // point-to-point
    sent: Vec<u32>,
    posted: Vec<u32>,
    pending: HashMap<(u32, u32), Pending>,
    chunk_of: HashMap<u32, u32>,
}

impl<'a, D: Driver> Loop<'a, D> {
    fn at(&mut self, t: f64, ev: Event) {
        self.driver.at(t, ev);
    }

    fn issue_ready(&mut self, t: f64, npu: u32) -> Result<(), D::Error> {
        let r = npu as usize;
        let snapshot: Vec<u32> = self.ready[r].iter().copied().collect();
        for n in snapshot {
            let res = self.dag.resource[n as usize] as usize;
            if self.ready[r].contains(&n) && (res == RES_NONE as usize || !self.busy[r][res]) {
                self.issue(t, npu, n)?;
            }
        }
        if self.out.finish[r].is_nan() && self.ready[r].is_empty() && self.ongoing[r] == 0
            && self.done[r] == self.dag.npu_ptr[r + 1] - self.dag.npu_ptr[r]
        {
            self.out.finish[r] = t;
        }
        Ok(())
    }

    fn issue(&mut self, t: f64, npu: u32, n: u32) -> Result<(), D::Error> {
        let (r, i) = (npu as usize, n as usize);
        self.ready[r].remove(&n);
        self.ongoing[r] += 1;
        self.out.state[i] = STATE_ONGOING;
        let res = self.dag.resource[i] as usize;
        if res != RES_NONE as usize {
            self.busy[r][res] = true;
        }
        self.out.start[i] = t;
        self.out.end[i] = t;
        match self.dag.op[i] {
            OP_TIMED => self.at(t + self.dag.duration[i], Event::Finish(n)),
            OP_COLLECTIVE => self.join(t, npu, n)?,
            OP_SEND => {
                let key = self.dag.channel[i];
                let chunk = self.sent[key as usize];
                self.sent[key as usize] += 1;
                self.chunk_of.insert(n, chunk);
                self.driver.send(n, t)?;
            }
            OP_RECV => {
                let key = self.dag.channel[i];
                let chunk = self.posted[key as usize];
                self.posted[key as usize] += 1;
                let entry = self.pending.entry((key, chunk)).or_default();
                if entry.arrived {
                    self.pending.remove(&(key, chunk));
                    self.at(t, Event::Finish(n));
                } else {
                    entry.recv = Some(n);
                }
            }
            _ => self.release(t, npu, n), // skipped: what it frees waits for the next visit
        }
        Ok(())
    }

    fn release(&mut self, t: f64, npu: u32, n: u32) {
        let (r, i) = (npu as usize, n as usize);
        let res = self.dag.resource[i] as usize;
        if res != RES_NONE as usize {
            self.busy[r][res] = false;
        }
        self.ongoing[r] -= 1;
        self.out.end[i] = t;
        self.out.state[i] = STATE_DONE;
        self.done[r] += 1;
        for k in self.child_ptr[i]..self.child_ptr[i + 1] {
            let c = self.children[k as usize];
            self.waiting[c as usize] -= 1;
            if self.waiting[c as usize] == 0 {
                self.ready[r].insert(c);
                self.out.state[c as usize] = STATE_READY;
            }
        }
    }

    fn finish(&mut self, t: f64, n: u32) -> Result<(), D::Error> {
        let npu = self.npu_of[n as usize];
        self.release(t, npu, n);
        self.issue_ready(t, npu)
    }

    fn join(&mut self, t: f64, npu: u32, n: u32) -> Result<(), D::Error> {
        let g = self.dag.channel[n as usize];
        let counter = self.issued_on.entry((g, npu)).or_insert(0);
        let key = (g, *counter);
        *counter += 1;
        let (lo, hi) = (self.dag.group_ptr[g as usize] as usize, self.dag.group_ptr[g as usize + 1] as usize);
        if self.position[g as usize].is_none() {
            let members = &self.dag.members[lo..hi];
            self.position[g as usize] = Some(members.iter().enumerate().map(|(p, &m)| (m, p as u32)).collect());
        }
        let place = self.position[g as usize].as_ref().unwrap()[&npu] as usize;
        let list = self.joined.entry(key).or_default();
        list.push((n, place, t));
        let group = &self.dag.members[lo..hi];
        let result = self.driver.join(group, list);
        if list.len() == hi - lo {
            self.joined.remove(&key);
        }
        result
    }

    fn arrive(&mut self, t: f64, n: u32) -> Result<(), D::Error> {
        let key = self.dag.channel[n as usize];
        let chunk = self.chunk_of.remove(&n).unwrap_or(0);
        self.pending.entry((key, chunk)).or_default();
        self.finish(t, n)?;
        let entry = self.pending.entry((key, chunk)).or_default();
        if let Some(recv) = entry.recv {
            self.pending.remove(&(key, chunk));
            self.finish(t, recv)
        } else {
            entry.arrived = true;
            Ok(())
        }
    }
}

/// Replay `dag`, each collective and message timed alone by `timing`.
pub fn replay<T: Timing>(dag: &Dag, timing: &mut T) -> Result<Outcome, T::Error> {
    replay_with(dag, &mut Alone::new(timing))
}

/// Replay `dag` with `driver` keeping the clock and timing collectives and messages.
pub fn replay_with<D: Driver>(dag: &Dag, driver: &mut D) -> Result<Outcome, D::Error> {
    let nodes = dag.op.len();
    let npus = dag.npu_ptr.len() - 1;
    let mut npu_of = vec![0u32; nodes];
    for r in 0..npus {
        for i in dag.npu_ptr[r]..dag.npu_ptr[r + 1] {
            npu_of[i as usize] = r as u32;
        }
    }
    // children in CSR, each list in ascending child index (the order the dependencies are released)
    let mut count = vec![0u32; nodes + 1];
    for &d in &dag.deps {
        count[d as usize + 1] += 1;
    }
    for i in 0..nodes {
        count[i + 1] += count[i];
    }
    let child_ptr = count.clone();
    let mut fill = count;
    let mut children = vec![0u32; dag.deps.len()];
    for c in 0..nodes {
        for k in dag.dep_ptr[c]..dag.dep_ptr[c + 1] {
            let d = dag.deps[k as usize] as usize;
            children[fill[d] as usize] = c as u32;
            fill[d] += 1;
        }
    }
    let waiting: Vec<u32> = (0..nodes).map(|i| dag.dep_ptr[i + 1] - dag.dep_ptr[i]).collect();
    let mut state = vec![STATE_WAITING; nodes];
    let mut ready = vec![BTreeSet::new(); npus];
    for i in 0..nodes {
        if waiting[i] == 0 {
            ready[npu_of[i] as usize].insert(i as u32);
            state[i] = STATE_READY;
        }
    }
    let groups = dag.group_ptr.len().saturating_sub(1);
    let mut lp = Loop {
        dag,
        driver,
        npu_of,
        waiting,
        child_ptr,
        children,
        ready,
        ongoing: vec![0; npus],
        done: vec![0; npus],
        busy: vec![[false; 4]; npus],
        out: Outcome {
            finish: (0..npus).map(|r| if dag.npu_ptr[r] == dag.npu_ptr[r + 1] { 0.0 } else { f64::NAN }).collect(),
            start: vec![f64::NAN; nodes],
            end: vec![f64::NAN; nodes],
            state,
        },
        issued_on: HashMap::new(),
        joined: HashMap::new(),
        position: vec![None; groups],
        sent: vec![0; dag.p2p_keys],
        posted: vec![0; dag.p2p_keys],
        pending: HashMap::new(),
        chunk_of: HashMap::new(),
    };
    for r in 0..npus {
        lp.at(0.0, Event::IssueReady(r as u32));
    }
    while let Some((t, ev)) = lp.driver.next()? {
        match ev {
            Event::IssueReady(r) => lp.issue_ready(t, r)?,
            Event::Finish(n) => lp.finish(t, n)?,
            Event::Arrive(n) => lp.arrive(t, n)?,
        }
    }
    Ok(lp.out)
}

/// Per NPU (rows `npu_ptr[r]..npu_ptr[r + 1]`), the total length of the union of its nodes'
/// spans [start, end) of class 0 (compute), 1 (communication), 2 (memory), of classes 0 or 1 (busy)
/// and of classes 0, 1 or 2; empty and never-run spans (NaN) count nothing; class 3 is ignored.
/// Overlaps follow: compute and communication overlap by len0 + len1 - len3.
pub fn span_unions(npu_ptr: &[u32], class: &[u8], start: &[f64], end: &[f64]) -> Vec<[f64; 5]> {
    /// The union's length of `spans`, sorted by (start, end): touching or overlapping spans merge.
    fn union(spans: impl Iterator<Item = (f64, f64)>) -> f64 {
        let (mut total, mut cur): (f64, Option<(f64, f64)>) = (0.0, None);
        for (a, b) in spans {
            match cur {
                Some((s, e)) if a <= e => cur = Some((s, e.max(b))),
                _ => {
                    if let Some((s, e)) = cur {
                        total += e - s;
                    }
                    cur = Some((a, b));
                }
            }
        }
        if let Some((s, e)) = cur {
            total += e - s;
        }
        total
    }
    let mut spans: Vec<(f64, f64, u8)> = Vec::new();
    (0..npu_ptr.len() - 1)
        .map(|r| {
            // the NPU's spans sorted once; each union filters them in that order
            spans.clear();
            spans.extend((npu_ptr[r] as usize..npu_ptr[r + 1] as usize)
                .filter(|&i| class[i] <= 2 && end[i] > start[i])
                .map(|i| (start[i], end[i], class[i])));
            spans.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
            let of = |keep: &dyn Fn(u8) -> bool| union(spans.iter().filter(|x| keep(x.2)).map(|x| (x.0, x.1)));
            [of(&|c| c == 0), of(&|c| c == 1), of(&|c| c == 2), of(&|c| c <= 1), of(&|c| c <= 2)]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Collectives take 100 ns after the last issue; messages 50 ns.
    struct Fixed;
    impl Timing for Fixed {
        type Error = ();
        fn collective(&mut self, _: u32, issue: &[f64]) -> Result<Vec<f64>, ()> {
            let s = issue.iter().cloned().fold(f64::MIN, f64::max);
            Ok(vec![s + 100.0; issue.len()])
        }
        fn message(&mut self, _: u32, t: f64) -> Result<f64, ()> {
            Ok(t + 50.0)
        }
    }

    fn dag(npu_ptr: Vec<u32>, op: Vec<u8>, resource: Vec<u8>, duration: Vec<f64>, deps: Vec<Vec<u32>>, channel: Vec<u32>,
           groups: Vec<Vec<u32>>, p2p_keys: usize) -> Dag {
        let mut dep_ptr = vec![0u32];
        let mut flat = vec![];
        for d in deps {
            flat.extend(d);
            dep_ptr.push(flat.len() as u32);
        }
        let mut group_ptr = vec![0u32];
        let mut members = vec![];
        for g in groups {
            members.extend(g);
            group_ptr.push(members.len() as u32);
        }
        Dag { npu_ptr, op, resource, duration, dep_ptr, deps: flat, channel, group_ptr, members, p2p_keys }
    }

    #[test]
    fn compute_on_one_resource_runs_one_at_a_time_and_overlaps_communication() {
        // NPU 0: compute 10, compute 5 (both GPU compute), collective; NPU 1: collective after compute 30.
        let d = dag(vec![0, 3, 5], vec![OP_TIMED, OP_TIMED, OP_COLLECTIVE, OP_TIMED, OP_COLLECTIVE],
                    vec![RES_COMP, RES_COMP, RES_COMM, RES_COMP, RES_COMM], vec![10.0, 5.0, 0.0, 30.0, 0.0],
                    vec![vec![], vec![], vec![], vec![], vec![3]], vec![0, 0, 0, 0, 0], vec![vec![0, 1]], 0);
        let out = replay(&d, &mut Fixed).unwrap();
        assert_eq!(out.start, vec![0.0, 10.0, 0.0, 0.0, 30.0]);
        assert_eq!(out.end, vec![10.0, 15.0, 130.0, 30.0, 130.0]);
        assert_eq!(out.finish, vec![130.0, 130.0]);
    }

    #[test]
    fn a_receive_posted_after_the_arrival_finishes_at_once_and_a_skip_frees_at_the_next_visit() {
        // NPU 0 sends at 0 (arrives 50); NPU 1 computes 80, then receives: done at 80.
        // NPU 1 also has a skipped node whose child waits for the next visit (at 80).
        let d = dag(vec![0, 1, 5], vec![OP_SEND, OP_TIMED, OP_RECV, OP_SKIP, OP_TIMED],
                    vec![RES_COMM, RES_COMP, RES_NONE, RES_COMM, RES_CPU], vec![0.0, 80.0, 0.0, 0.0, 7.0],
                    vec![vec![], vec![], vec![1], vec![], vec![3]], vec![0, 0, 0, 0, 0], vec![], 1);
        let out = replay(&d, &mut Fixed).unwrap();
        assert_eq!(out.end[0], 50.0);
        assert_eq!((out.start[2], out.end[2]), (80.0, 80.0));
        assert_eq!((out.start[4], out.end[4]), (80.0, 87.0));
        assert_eq!(out.finish, vec![50.0, 87.0]);
    }

    #[test]
    fn span_unions_merge_touching_spans_and_skip_empty_ones() {
        // compute [0,10) [5,20) [20,25); communication [15,30); memory [40,50); an empty and a NaN span
        let u = span_unions(&[0, 7], &[0, 0, 0, 1, 2, 0, 1], &[0.0, 5.0, 20.0, 15.0, 40.0, 7.0, f64::NAN],
                            &[10.0, 20.0, 25.0, 30.0, 50.0, 7.0, f64::NAN]);
        assert_eq!(u, vec![[25.0, 15.0, 10.0, 30.0, 40.0]]);
    }

    #[test]
    fn a_node_freed_only_by_a_skip_never_runs() {
        let d = dag(vec![0, 2], vec![OP_SKIP, OP_TIMED], vec![RES_COMM, RES_COMP], vec![0.0, 5.0],
                    vec![vec![], vec![0]], vec![0, 0], vec![], 0);
        let out = replay(&d, &mut Fixed).unwrap();
        assert!(out.finish[0].is_nan());
        assert_eq!(out.state, vec![STATE_DONE, STATE_READY]);
    }
}
