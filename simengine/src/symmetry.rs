//! Symmetric collectives: simulate one representative member per symmetry class, then expand.
//!
//! A collective whose partners are a rank shift (ring, bidirectional ring) on a fabric where
//! every member's connections look alike repeats one pattern around the group. If shifting the
//! members by `period` maps every member's connections onto connections with the same links
//! (bandwidth, latency, cut-through, in the same order, with the same shares when sprayed) and no
//! directed link carries two connections, then member `m + period` does exactly what member `m`
//! does: its chunks start at the same times, its messages cross links with the same constants and
//! queue only behind messages of their own connection, which it sends at the same times. So the
//! engine simulates members `0..period`, routes each message to its real peer (over the real
//! links) but delivers it to the peer's representative (`peer % period`), and copies the
//! representatives' finish times, byte counts and link loads to the other members. Anything the
//! check cannot prove (links shared between connections, trees, several groups, the fair model's
//! coupled rates, adaptive routing, a trace) runs in full; the result says which path ran and why.
use crate::algorithms::Algo;
use crate::engine::SimConfig;
use crate::network::Model;
use crate::plan::{JobPlan, Scheduling};
use crate::routing::{Policy, Router};
use crate::topology::Topology;
use std::collections::HashMap;

/// The representatives found: members `0..period` stand for all; `sets[m * per_member + k]` is
/// member m's k-th connection (phase, lane) as a route set. `link_rep` (a fold over link orbits,
/// `find_orbits`): per directed link, the link whose state stands for it; empty for a rank-shift
/// fold, whose connections share no link.
pub struct Fold {
    pub period: usize,
    pub per_member: usize,
    pub sets: Vec<u32>,
    pub link_rep: Vec<u32>,
    /// Proved from the structure (`symmetry_proof`): `sets` holds the representatives' connections
    /// only, and these classes give every link's load (see `symmetry_proof::link_loads`).
    pub classes: Option<crate::symmetry_proof::Classes>,
}

/// Why `find` did not fold: the reason to report, or a routing error to return as is.
pub enum SymmetryRefused {
    Why(String),
    Error(crate::error::SimError),
}

impl From<String> for SymmetryRefused {
    fn from(why: String) -> Self {
        SymmetryRefused::Why(why)
    }
}

/// Which path a run took, for the result: `simulated` members out of `members`, and why a
/// run could not use symmetry.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Report {
    pub tried: bool,
    pub simulated: usize,
    pub members: usize,
    pub reason: Option<String>,
    /// How a fold over link orbits was proved: "structure" (`symmetry_proof`), or "routes"
    /// (`find_orbits`) with the reason the structure did not prove it.
    pub proof: Option<String>,
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

fn lcm(a: usize, b: usize) -> usize {
    a / gcd(a, b) * b
}

/// Why this configuration cannot be folded, whatever the collective.
fn unsupported_config(groups: usize, spec_scheduling: Scheduling, cfg: &SimConfig) -> Option<String> {
    if cfg.astra {
        return Some("the astra models keep ASTRA-sim's own event order".into());
    }
    if cfg.model == Model::Fair {
        return Some("fair model: max-min rates couple every flow in the fabric".into());
    }
    if cfg.trace {
        return Some("a trace records every message".into());
    }
    if groups != 1 {
        return Some(format!("{groups} process groups"));
    }
    if cfg.policies.iter().any(|&(p, _)| p == Policy::Adaptive) {
        return Some("adaptive routing depends on the order connections are routed in".into());
    }
    if spec_scheduling != Scheduling::Ordered {
        // Same-instant arrivals of several chunks are queued in event order, which a folded run
        // does not reproduce.
        return Some("arrival or LIFO scheduling picks chunks by the order of same-instant arrivals".into());
    }
    None
}

/// Why this collective and configuration cannot be folded by a rank shift, before looking at routes.
fn unsupported(plan: &JobPlan, groups: usize, spec_scheduling: Scheduling, cfg: &SimConfig) -> Option<String> {
    use crate::algorithms::Op;
    if let Some(why) = unsupported_config(groups, spec_scheduling, cfg) {
        return Some(why);
    }
    if !plan.chunk_phases.is_empty() {
        return Some("offlineGreedy gives every chunk its own phases".into());
    }
    for ph in &plan.phases {
        if matches!(ph.algo.op, Op::Broadcast | Op::Reduce | Op::PointToPoint) || !ph.match_root_dims.is_empty() {
            return Some(format!("{} has a root", ph.algo.op.name()));
        }
        if !matches!(ph.algo.algo, Algo::Ring | Algo::RingBidirectional) {
            return Some(format!("{}: a member's partners are not one rank shift", ph.algo.algo.name()));
        }
    }
    None
}

/// The smallest shift of member indices that maps every phase's partners onto partners: a ring
/// on the outermost dimension (stride x size = all members) is shifted by whole strides, one on
/// an inner dimension only by whole dimension groups.
fn block(plan: &JobPlan) -> usize {
    let members = plan.ranks.len();
    plan.phases.iter().fold(1, |b, ph| {
        let extent = ph.stride * plan.dims[ph.dim];
        lcm(b, if extent == members { ph.stride } else { extent })
    })
}

/// Looks for a period; `Err` says why the run must be simulated in full. Routes every
/// connection in the order the aware model's priming does (phase, member, lane), so the router
/// ends in the state the full run would have.
pub fn find(
    plan: &JobPlan,
    groups: usize,
    scheduling: Scheduling,
    member_nodes: &[u32],
    router: &mut Router,
    topo: &Topology,
    cfg: &SimConfig,
) -> Result<Fold, SymmetryRefused> {
    if let Some(why) = unsupported(plan, groups, scheduling, cfg) {
        return Err(why.into());
    }
    let members = plan.ranks.len();
    let per_member: usize = plan.phases.iter().map(|ph| ph.algo.lanes()).sum();
    let mut sets = vec![u32::MAX; members * per_member];
    let mut sends = Vec::new();
    let mut k0 = 0;
    for (p, phase) in plan.phases.iter().enumerate() {
        for member in 0..members {
            if member % 256 == 0 {
                router.expect_sources(&member_nodes[member..(member + 256).min(members)]);
            }
            let pos = plan.position(0, p, member);
            for lane in 0..phase.algo.lanes() {
                if phase.algo.step(pos, lane, 0, 0, &mut sends).is_none() || sends.len() != 1 {
                    let why = format!("{} {}: a step without exactly one send", phase.algo.algo.name(), phase.algo.op.name());
                    return Err(why.into());
                }
                let peer = member + sends[0].to * phase.stride - pos * phase.stride;
                let set = router.route_set(member_nodes[member], member_nodes[peer]).map_err(SymmetryRefused::Error)?;
                sets[member * per_member + k0 + lane] = set;
            }
        }
        k0 += phase.algo.lanes();
    }
    router.expect_sources(&[]);
    // Every directed link carries at most one connection: then no message ever queues behind
    // another connection's, and a member's timing depends on its own connections only. Within a
    // connection, messages must never tie at a link or at delivery: the engine orders
    // same-instant events by message slot, which depends on the run's history. Messages of one
    // route leave in order and are serialized one after another, so only sprayed parts (several
    // routes sharing links, aware model) and links of unstated bandwidth (no serialization) can tie.
    let mut owner = vec![u32::MAX; topo.num_links()];
    for &set in &sets {
        if cfg.model == Model::Aware && router.parts(set).len() > 1 {
            let why = "aware model: the parts of a sprayed message queue at their shared links in message-slot order";
            return Err(why.to_string().into());
        }
        for &(route, _) in router.parts(set) {
            for &l in router.links(route) {
                if !topo.link_bw_bytes_per_ns[l as usize].is_finite() {
                    return Err(format!("directed link {l} has no bandwidth (free wiring): messages can tie").into());
                }
                let o = &mut owner[l as usize];
                if *o != u32::MAX && *o != set {
                    let (a, b) = (topo.link_from[l as usize], topo.link_to[l as usize]);
                    return Err(format!("directed link {l} (node {a} -> {b}) carries two connections").into());
                }
                *o = set;
            }
        }
    }
    let step = block(plan);
    let alike = |a: usize, b: usize| same_connections(&sets[a * per_member..(a + 1) * per_member], &sets[b * per_member..(b + 1) * per_member], router, topo);
    for period in (step..members).step_by(step).filter(|p| members.is_multiple_of(*p)) {
        if (0..members - period).all(|m| alike(m, m + period)) {
            return Ok(Fold { period, per_member, sets, link_rep: Vec::new(), classes: None });
        }
    }
    Err("no shift of the members maps every connection onto one with the same links".to_string().into())
}

/// Whether two members' connections (route sets, one per phase and lane) have the same parts,
/// shares and link constants in the same order, and reuse links the same way.
fn same_connections(a: &[u32], b: &[u32], router: &Router, topo: &Topology) -> bool {
    for i in 0..a.len() {
        for j in 0..i {
            if (a[i] == a[j]) != (b[i] == b[j]) {
                return false;
            }
        }
        let (pa, pb) = (router.parts(a[i]), router.parts(b[i]));
        if pa.len() != pb.len() {
            return false;
        }
        // Links shared by the parts of one sprayed connection: label each by first use.
        let (mut la, mut lb) = (HashMap::new(), HashMap::new());
        for (&(ra, sa), &(rb, sb)) in pa.iter().zip(pb) {
            let (xa, xb) = (router.links(ra), router.links(rb));
            if sa.to_bits() != sb.to_bits() || xa.len() != xb.len() {
                return false;
            }
            for (&u, &v) in xa.iter().zip(xb) {
                let (u, v) = (u as usize, v as usize);
                if topo.link_bw_bytes_per_ns[u].to_bits() != topo.link_bw_bytes_per_ns[v].to_bits()
                    || topo.link_latency_ns[u].to_bits() != topo.link_latency_ns[v].to_bits()
                    || topo.cut_through[topo.link_to[u] as usize] != topo.cut_through[topo.link_to[v] as usize]
                {
                    return false;
                }
                if pa.len() > 1 {
                    let n = la.len();
                    if *la.entry(u).or_insert(n) != *lb.entry(v).or_insert(n) {
                        return false;
                    }
                }
            }
        }
    }
    true
}

/// Copies the representatives' link loads to the links of the members they stand for: member m's
/// connection k crosses, part by part and hop by hop, the links of member `m % period`'s.
pub fn expand_links<T: Copy>(fold: &Fold, router: &Router, values: &mut [T]) {
    let members = fold.sets.len() / fold.per_member;
    for m in fold.period..members {
        let r = m % fold.period;
        for k in 0..fold.per_member {
            let (sm, sr) = (fold.sets[m * fold.per_member + k], fold.sets[r * fold.per_member + k]);
            for (&(rm, _), &(rr, _)) in router.parts(sm).iter().zip(router.parts(sr)) {
                for (&lm, &lr) in router.links(rm).iter().zip(router.links(rr)) {
                    values[lm as usize] = values[lr as usize];
                }
            }
        }
    }
}

/// Whether `find_orbits` applies: the outermost dimension (servers, in a hierarchical
/// all-reduce) runs halving-doubling, whose partners (position XOR 2^i) no rank shift maps onto
/// partners, but every XOR of positions does.
pub fn orbit_fold_applies(plan: &JobPlan) -> bool {
    let outer = plan.dims.len() - 1;
    plan.dims[outer] > 1 && plan.phases.iter().any(|ph| ph.dim == outer && ph.algo.algo == Algo::HalvingDoubling)
}

/// A fold over link orbits for collectives whose outermost dimension runs halving-doubling (the
/// hierarchical all-reduce: rings inside servers, halving-doubling across), on fabrics whose
/// routes repeat with the servers (d-mod-k routing on a symmetric Clos).
///
/// The group: XOR of the outermost coordinate by any mask (member m = inner x c + i goes to
/// inner x (c ^ t) + i). Halving-doubling's partners are equivariant under it, and so is every
/// phase on an inner dimension (it never changes the outer coordinate). The check routes every
/// member's connections (every step), then, for each generator 2^b, maps the links of member m's
/// k-th connection, hop by hop, onto those of member g(m)'s k-th connection: the map must be
/// well defined (a link always maps to the same link) and keep every link constant, so g is a
/// symmetry of the whole run, queues included. The orbits of the used links under all
/// generators must have as many links as the group has elements (no link is fixed by a
/// non-trivial element: two copies of one message never meet on a link, where their order would
/// break the symmetry). Then the members with outer coordinate 0 stand for all: their messages
/// cross the real links but queue in the state of each link's orbit representative, which sees
/// exactly the messages the full run puts on it, in the same order (the aware model orders
/// same-instant messages by the sender's inner position and send count, which g keeps).
pub fn find_orbits(
    plan: &JobPlan,
    groups: usize,
    scheduling: Scheduling,
    member_nodes: &[u32],
    router: &mut Router,
    topo: &Topology,
    cfg: &SimConfig,
) -> Result<Fold, SymmetryRefused> {
    orbit_premises(plan, groups, scheduling, cfg)?;
    let outer = plan.dims.len() - 1;
    let n = plan.dims[outer];
    let members = plan.ranks.len();
    let inner = members / n;
    // Every connection of every member, step by step, routed in the full run's priming order.
    let mut sets: Vec<u32> = Vec::new();
    let mut per_member = None;
    let conns = route_members(plan, member_nodes, router, members)?;
    for (m, c) in conns.iter().enumerate() {
        if *per_member.get_or_insert(c.len()) != c.len() {
            return Err(format!("member {m} has {} connections, member 0 {}", c.len(), conns[0].len()).into());
        }
        sets.extend_from_slice(c);
    }
    drop(conns);
    let per_member = per_member.unwrap_or(0);
    check_parts(&sets, router, topo, cfg)?;
    find_orbits_of(plan, n, inner, per_member, sets, router, topo)
}

/// What a fold over the servers' XORs needs before any route: a configuration the fold keeps
/// exact, halving-doubling on the outermost dimension over a power-of-two number of servers,
/// phases that never change the outer coordinate otherwise, and halving-doubling steps that
/// follow the XORs (`find_orbits`).
pub fn orbit_premises(plan: &JobPlan, groups: usize, scheduling: Scheduling, cfg: &SimConfig) -> Result<(), SymmetryRefused> {
    use crate::algorithms::Op;
    if let Some(why) = unsupported_config(groups, scheduling, cfg) {
        return Err(why.into());
    }
    if !plan.chunk_phases.is_empty() {
        return Err("offlineGreedy gives every chunk its own phases".to_string().into());
    }
    if cfg.ecmp && (cfg.policies.is_empty() || cfg.policies.iter().any(|&(p, _)| p == Policy::Ecmp)) {
        // Refused before routing every member (which costs as much as the full run's routing):
        // the hash picks each connection's way on its own, so routes do not follow the servers.
        return Err("ECMP hashes each connection onto a way of its own, so routes do not repeat with the servers \
                    (d-mod-k routing does: --routing-policy scale-out=d-mod-k)"
            .to_string()
            .into());
    }
    let outer = plan.dims.len() - 1;
    let n = plan.dims[outer];
    if !n.is_power_of_two() {
        return Err(format!("{n} members in the outermost dimension: not a power of two").into());
    }
    for ph in &plan.phases {
        if !matches!(ph.algo.op, Op::AllReduce | Op::ReduceScatter | Op::AllGather) || !ph.match_root_dims.is_empty() {
            return Err(format!("{} across halving-doubling", ph.algo.op.name()).into());
        }
        let ok = if ph.dim == outer {
            ph.algo.algo == Algo::HalvingDoubling
        } else {
            matches!(ph.algo.algo, Algo::Ring | Algo::RingBidirectional | Algo::HalvingDoubling | Algo::Direct)
        };
        if !ok {
            return Err(format!("{} on dimension {} of a halving-doubling fold", ph.algo.algo.name(), ph.dim).into());
        }
    }
    // Halving-doubling's steps at position c and c ^ t must be the same with partners XOR t.
    let mut a = Vec::new();
    let mut b = Vec::new();
    for ph in plan.phases.iter().filter(|ph| ph.dim == outer) {
        for lane in 0..ph.algo.lanes() {
            for c in 0..n {
                for bit in 0..n.trailing_zeros() {
                    let d = c ^ (1 << bit);
                    for s in 0.. {
                        let (x, y) = (ph.algo.step(c, lane, s, 0, &mut a), ph.algo.step(d, lane, s, 0, &mut b));
                        let same = x == y
                            && a.len() == b.len()
                            && a.iter().zip(&b).all(|(u, v)| u.to ^ (1 << bit) == v.to && u.bytes.to_bits() == v.bytes.to_bits() && u.tag == v.tag);
                        if !same {
                            return Err(format!("halving-doubling: positions {c} and {d} differ in step {s}").into());
                        }
                        if x.is_none() {
                            break;
                        }
                    }
                }
            }
        }
    }
    Ok(())
}

/// The route sets of members `0..count`, every connection of every step, routed in the full
/// run's priming order (phase, member, lane, step, send): per member, in that order.
pub fn route_members(plan: &JobPlan, member_nodes: &[u32], router: &mut Router, count: usize) -> Result<Vec<Vec<u32>>, SymmetryRefused> {
    let mut sends = Vec::new();
    let mut conns: Vec<Vec<u32>> = vec![Vec::new(); count];
    for (p, phase) in plan.phases.iter().enumerate() {
        for member in 0..count {
            if member % 256 == 0 {
                router.expect_sources(&member_nodes[member..(member + 256).min(count)]);
            }
            let pos = plan.position(0, p, member);
            for lane in 0..phase.algo.lanes() {
                for s in 0.. {
                    if phase.algo.step(pos, lane, s, 0, &mut sends).is_none() {
                        break;
                    }
                    for snd in &sends {
                        let peer = member + snd.to * phase.stride - pos * phase.stride;
                        let set = router.route_set(member_nodes[member], member_nodes[peer]).map_err(SymmetryRefused::Error)?;
                        conns[member].push(set);
                    }
                }
            }
        }
    }
    router.expect_sources(&[]);
    Ok(conns)
}

/// Connections a fold over link orbits can take: one part each under the aware model, and only
/// over links of stated bandwidth (messages cannot tie).
pub fn check_parts(sets: &[u32], router: &Router, topo: &Topology, cfg: &SimConfig) -> Result<(), SymmetryRefused> {
    for &set in sets {
        if cfg.model == Model::Aware && router.parts(set).len() > 1 {
            return Err("aware model: the parts of a sprayed message queue at their shared links in message-slot order".to_string().into());
        }
        for &(route, _) in router.parts(set) {
            for &l in router.links(route) {
                if !topo.link_bw_bytes_per_ns[l as usize].is_finite() {
                    return Err(format!("directed link {l} has no bandwidth (free wiring): messages can tie").into());
                }
            }
        }
    }
    Ok(())
}

/// The rest of `find_orbits`: every member's connections (`sets`, `per_member` per member)
/// mapped generator by generator, joined into orbits.
fn find_orbits_of(
    plan: &JobPlan,
    n: usize,
    inner: usize,
    per_member: usize,
    sets: Vec<u32>,
    router: &Router,
    topo: &Topology,
) -> Result<Fold, SymmetryRefused> {
    let members = plan.ranks.len();
    // Connections repeat (a ring's steps, halving-doubling's two halves to one partner): compare
    // the first of each repeat only, once every member repeats where member 0 does.
    let first: Vec<usize> = (0..per_member).map(|k| (0..=k).find(|&j| sets[j] == sets[k]).expect("k itself")).collect();
    for m in 0..members {
        let own = &sets[m * per_member..(m + 1) * per_member];
        if let Some(k) = (0..per_member).find(|&k| own[k] != own[first[k]]) {
            return Err(format!("member {m}'s connection {k} differs from its connection {}, member 0's does not", first[k]).into());
        }
    }
    let distinct: Vec<usize> = (0..per_member).filter(|&k| first[k] == k).collect();
    // Link maps of the generators, merged into orbits.
    let links = topo.num_links();
    let mut phi = vec![u32::MAX; links];
    let mut orbit = UnionFind::new(links);
    for bit in 0..n.trailing_zeros() {
        let t = 1usize << bit;
        phi.fill(u32::MAX);
        for m in (0..members).filter(|m| (m / inner) & t == 0) {
            let g = m + t * inner;
            for &k in &distinct {
                let (sa, sb) = (sets[m * per_member + k], sets[g * per_member + k]);
                let (pa, pb) = (router.parts(sa), router.parts(sb));
                if pa.len() != pb.len() {
                    return Err(format!("members {m} and {g}: connection {k} is sprayed over different numbers of ways").into());
                }
                for (&(ra, xa), &(rb, xb)) in pa.iter().zip(pb) {
                    let (la, lb) = (router.links(ra), router.links(rb));
                    if xa.to_bits() != xb.to_bits() || la.len() != lb.len() {
                        return Err(format!("members {m} and {g}: connection {k} takes routes of different lengths").into());
                    }
                    for (&u, &v) in la.iter().zip(lb) {
                        let (ui, vi) = (u as usize, v as usize);
                        if topo.link_bw_bytes_per_ns[ui].to_bits() != topo.link_bw_bytes_per_ns[vi].to_bits()
                            || topo.link_latency_ns[ui].to_bits() != topo.link_latency_ns[vi].to_bits()
                            || topo.cut_through[topo.link_to[ui] as usize] != topo.cut_through[topo.link_to[vi] as usize]
                        {
                            return Err(format!("directed links {u} and {v} (members {m} and {g}, connection {k}) differ in speed or latency").into());
                        }
                        if u == v {
                            return Err(format!("directed link {u} carries connection {k} of both members {m} and {g}").into());
                        }
                        for (x, y) in [(u, v), (v, u)] {
                            match phi[x as usize] {
                                u32::MAX => phi[x as usize] = y,
                                z if z == y => {}
                                _ => {
                                    let (from, to) = (topo.link_from[x as usize], topo.link_to[x as usize]);
                                    return Err(format!(
                                        "directed link {x} (node {from} -> {to}) maps onto two links when the members' outer positions are XORed with {t}"
                                    )
                                    .into());
                                }
                            }
                        }
                        orbit.union(u, v);
                    }
                }
            }
        }
    }
    drop(phi);
    // Free action: every used link's orbit has n links.
    let mut size = vec![0u32; links];
    let mut used = vec![false; links];
    for m in 0..members {
        for &k in &distinct {
            for &(route, _) in router.parts(sets[m * per_member + k]) {
                for &l in router.links(route) {
                    used[l as usize] = true;
                }
            }
        }
    }
    for l in (0..links).filter(|&l| used[l]) {
        size[orbit.find(l as u32) as usize] += 1;
    }
    let mut link_rep: Vec<u32> = (0..links as u32).collect();
    for l in (0..links).filter(|&l| used[l]) {
        let r = orbit.find(l as u32);
        if size[r as usize] as usize != n {
            let (a, b) = (topo.link_from[l], topo.link_to[l]);
            return Err(format!(
                "directed link {l} (node {a} -> {b}) has {} images under the {n} XORs of the servers: a symmetry fixes it",
                size[r as usize]
            )
            .into());
        }
        link_rep[l] = r;
    }
    Ok(Fold { period: inner, per_member, sets, link_rep, classes: None })
}

/// Disjoint sets of links (path halving, union by index): the orbits of `find_orbits`.
struct UnionFind {
    parent: Vec<u32>,
}

impl UnionFind {
    fn new(n: usize) -> Self {
        UnionFind { parent: (0..n as u32).collect() }
    }

    fn find(&mut self, mut x: u32) -> u32 {
        while self.parent[x as usize] != x {
            let up = self.parent[self.parent[x as usize] as usize];
            self.parent[x as usize] = up;
            x = up;
        }
        x
    }

    /// Joins the sets of a and b; the smaller root stays the root.
    fn union(&mut self, a: u32, b: u32) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            let (lo, hi) = (ra.min(rb), ra.max(rb));
            self.parent[hi as usize] = lo;
        }
    }
}
