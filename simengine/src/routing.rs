//! Static routing on the physical graph.
//!
//! Routes are shortest paths by hop count or by summed latency. Where several hops are equally
//! short, the fastest links are preferred, and among those deterministic ECMP picks one by
//! hashing the flow (source, destination) with the current node, like a switch hashing a
//! connection's header: every message of one connection takes the same path, different
//! connections spread out, and a run is reproducible. Where the links' policy is d-mod-k, the
//! pick is instead a digit of the destination's index (`Policy::DModK`), so routes are a
//! function of the destination's place in the fabric and repeat with it. Optional
//! dimension-order routing (DOR) for tori walks the logical NPU coordinates one dimension at a
//! time, each hop being a shortest path between coordinate neighbours.
use std::collections::HashMap;

use crate::error::{SimError, SimResult};
use crate::fxhash::FxBuild;
use crate::hubs::HubTrees;
use crate::topology::Topology;

/// How a link's traffic is spread where several equally short ways continue (set per link, read
/// off the links entering a node).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    /// Per-connection hashing: every message of a (source, destination) takes one way.
    Ecmp,
    /// Equal split over every equally short way (parallel links, switch planes): a message is
    /// sent as one part per way, each with its share of the bytes.
    Spray,
    /// The way fewest connections used so far when the connection is first routed.
    Adaptive,
    /// Destination-mod-k: the way is a digit of the destination's index (see `with_terminals`),
    /// as InfiniBand's fat-tree routing (OpenSM `ftree`) and D-mod-k assign up-ports, so every
    /// source's route to one destination climbs to the same top switch and the destinations
    /// below a leaf spread evenly over its up-links. Walking back from the destination, the
    /// i-th node with several ways in takes way `(q_i mod n_i)` of its `n_i`, in the order of
    /// the nodes they come from, where `q_0` is the destination's index and `q_{i+1} = q_i / n_i`:
    /// on a fat tree the first such node is the destination's leaf, whose pick fixes the
    /// up-port taken at the source's leaf (the same index of the pod's middle switches), the
    /// next fixes the up-port one level higher, and so on.
    DModK,
}

/// A pick among several equally short ways, recorded while routing when asked
/// (`record_picks`): walking back from `dest` (the end of a route's segment), at `node` the
/// candidates `cand` (links into `node`, after the preferred ones are kept), the way taken, and
/// the divisor of `dest`'s d-mod-k index at this pick (the product of the way counts of the
/// d-mod-k picks before it on the segment). `symmetry_proof` reads them.
#[derive(Debug, Clone)]
pub struct Pick {
    pub dest: u32,
    pub node: u32,
    pub cand: Vec<u32>,
    pub chosen: u32,
    pub divisor: u64,
    pub policy: Policy,
}

/// Link `l`'s place in d-mod-k order: the node it comes from, then (parallel links) its id.
/// `dmodk_way` sorts by it and `symmetry_proof` ranks the mapped candidates by it, so the proof
/// follows routing's order rather than restating it.
pub(crate) fn dmodk_key(topo: &Topology, l: u32) -> u64 {
    ((topo.link_from[l as usize] as u64) << 32) | l as u64
}

/// The d-mod-k way among `cand` for a destination whose index, divided so far, is `digits`:
/// way `digits mod n` in the order of the nodes the ways come from (parallel links: by link id),
/// so the k-th way is the k-th switch above, whatever order the links were made in.
pub fn dmodk_way(topo: &Topology, cand: &[u32], digits: u64) -> u32 {
    let mut ways = cand.to_vec();
    ways.sort_unstable_by_key(|&l| dmodk_key(topo, l));
    ways[(digits % ways.len() as u64) as usize]
}

/// Ways a sprayed connection may take before routing it is refused (each is a flow of its own).
pub const MAX_SPRAY_PATHS: usize = 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metric {
    Hops,
    Latency,
}

/// Dimension-order routing over NPU ranks arranged as a torus (dimension 0 varies fastest).
/// A ring dimension is walked NPU by NPU the short way round (clockwise, towards higher
/// coordinates, on a tie, as ASTRA-sim's ring does); a `direct` dimension (fully connected or
/// switched) is crossed in one shortest path to the target coordinate.
#[derive(Debug, Clone)]
pub struct DorSpec {
    pub npu_nodes: Vec<u32>,
    pub dims: Vec<usize>,
    pub direct: Vec<bool>,
    /// Route only through the first dimension where the two ranks differ, ending at the rank with
    /// the destination's coordinate there: ASTRA-sim's congestion-unaware MultiDimTopology::send
    /// times a message on that dimension alone (a sub-group's members may differ in several).
    pub first_dim_only: bool,
}

/// Summary of one route, what the congestion-unaware model needs without walking the links.
#[derive(Debug, Clone, Copy)]
pub struct RouteInfo {
    start: u32,
    len: u32,
    pub latency_ns: f64,
    /// Bottleneck bandwidth in bytes/ns (infinite if every link is unspecified).
    pub min_bw: f64,
}

const LAT_TOL: f64 = 1e-6;

/// An NPU without a NIC in `Router::with_affinity` (its routes are plain shortest paths).
pub const NO_NIC: u32 = u32::MAX;

pub struct Router<'t> {
    topo: &'t Topology,
    metric: Metric,
    ecmp: bool,
    dor: Option<(DorSpec, HashMap<u32, usize, FxBuild>)>,
    /// NIC affinity: per NPU node, (its NIC node, its server id). A route between NPUs of two
    /// servers leaves through the source's NIC and enters through the destination's (see
    /// `with_affinity`).
    affinity: HashMap<u32, (u32, u32), FxBuild>,
    /// (server, position of the NPU among its server's NPUs) -> NPU node (PXN proxies).
    at_position: HashMap<(u32, u32), u32, FxBuild>,
    /// PXN on (see `with_pxn`).
    pxn: bool,
    /// Per NPU node with a NIC: its position among its server's NPUs (rank order).
    position: HashMap<u32, u32, FxBuild>,
    /// The index d-mod-k routes a destination node by (`with_terminals`); a node not listed is
    /// indexed by its node id.
    terminal: HashMap<u32, u64, FxBuild>,
    /// Distance from a source to every node, computed once per source on demand.
    dist: HashMap<u32, Vec<f64>, FxBuild>,
    /// Hops metric: distances from a source composed from its region and shared switch trees
    /// (see `hubs`), used instead of `dist` where the source's region allows.
    hubs: Option<HubTrees>,
    /// Sources expected next (`expect_sources`).
    upcoming: Vec<u32>,
    /// (source, destination) -> route set (see `parts`).
    cache: HashMap<(u32, u32), u32, FxBuild>,
    /// The same for routes asked with PXN the other way than `pxn` (`route_set_via`): a workload's
    /// all-to-all runs with PXN on a network whose other traffic runs without it.
    cache_other_pxn: HashMap<(u32, u32), u32, FxBuild>,
    arena: Vec<u32>,
    routes: Vec<RouteInfo>,
    /// Per route set, its span in `parts`; per part, a route and its share of the bytes.
    sets: Vec<(u32, u32)>,
    parts: Vec<(u32, f64)>,
    /// Policy per directed link (default ECMP everywhere), and whether it is a scale-up link
    /// (preferred among equally short ways, see `keep_preferred`).
    policy: Vec<Policy>,
    scale_up: Vec<bool>,
    /// Routes made so far over each directed link (adaptive picks the least used).
    link_routes: Vec<u32>,
    /// Set by `walk_back` when it met a node where a sprayed flow splits: the caller enumerates
    /// every way instead (`all_shortest`).
    branched: bool,
    // Scratch for the bounded search from a source (reset after each use via `touched`).
    level: Vec<u32>,
    touched: Vec<u32>,
    /// Bounded searches made from each node as a source; after `LOCAL_SEARCHES_PER_SOURCE` the
    /// source gets a full tree instead (an all-to-all asks one source for every destination).
    local_searches: Vec<u8>,
    /// The last two (destination, route) a source asked for: a ring member sends to the same one or
    /// two peers every step, and this spares the hash lookup on every message.
    recent: Vec<[(u32, u32); 2]>,
    trees_built: usize,
    /// Multi-way picks made since `record_picks` (None: not recording); `unrecorded` is set when
    /// a connection was enumerated way by way (sprayed), whose picks are not recorded.
    picks: Option<Vec<Pick>>,
    unrecorded: bool,
}

/// Nodes a bounded search from the source may discover before it gives up and falls back to a
/// full (cached) search from the destination. Nearby destinations (torus neighbours through
/// ports) cost a few dozen nodes; far ones share the per-destination tree.
const LOCAL_SEARCH_BUDGET: usize = 2048;

/// Routes from one source found by bounded searches before the source gets a full tree: rings
/// and trees ask a source for one to three peers, all-to-all and direct for every NPU.
const LOCAL_SEARCHES_PER_SOURCE: u8 = 4;

/// Cached tree entries (sources x nodes) before the cache is dropped: 32M f64 = 256 MB.
const TREE_CACHE_ENTRIES: usize = 32 << 20;

fn mix(mut x: u64) -> u64 {
    // splitmix64 finalizer: cheap, well-distributed, stable across platforms.
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

impl<'t> Router<'t> {
    pub fn new(topo: &'t Topology, metric: Metric, ecmp: bool, dor: Option<DorSpec>) -> SimResult<Self> {
        let dor = match dor {
            None => None,
            Some(spec) => {
                let total: usize = spec.dims.iter().product();
                if total != spec.npu_nodes.len() || spec.dims.is_empty() {
                    return Err(SimError::InvalidInput(format!(
                        "routing dims {:?} multiply to {total} but there are {} NPUs",
                        spec.dims,
                        spec.npu_nodes.len()
                    )));
                }
                let rank_of = spec.npu_nodes.iter().enumerate().map(|(r, &n)| (n, r)).collect();
                Some((spec, rank_of))
            }
        };
        Ok(Router {
            topo,
            metric,
            ecmp,
            dor,
            affinity: HashMap::default(),
            at_position: HashMap::default(),
            pxn: false,
            position: HashMap::default(),
            terminal: HashMap::default(),
            dist: HashMap::default(),
            hubs: if metric == Metric::Hops { HubTrees::new(topo) } else { None },
            upcoming: Vec::new(),
            cache: HashMap::default(),
            cache_other_pxn: HashMap::default(),
            arena: Vec::new(),
            routes: Vec::new(),
            sets: Vec::new(),
            parts: Vec::new(),
            policy: vec![Policy::Ecmp; topo.num_links()],
            scale_up: vec![false; topo.num_links()],
            link_routes: vec![0; topo.num_links()],
            branched: false,
            level: vec![u32::MAX; topo.num_nodes],
            touched: Vec::new(),
            local_searches: vec![0; topo.num_nodes],
            recent: vec![[(u32::MAX, 0); 2]; topo.num_nodes],
            trees_built: 0,
            picks: None,
            unrecorded: false,
        })
    }

    /// NIC affinity: NPU node `npu[i]` sends to and receives from other servers through NIC node
    /// `nic[i]` (as NCCL binds each GPU to its nearest NIC); `server[i]` says which NPUs share a
    /// server (their traffic never leaves it through a NIC). Routes between servers are three
    /// shortest paths: NPU to its NIC, NIC to NIC, NIC to NPU. `NO_NIC`: an NPU without one.
    pub fn with_affinity(mut self, npu: &[u32], nic: &[u32], server: &[u32]) -> SimResult<Self> {
        if nic.len() != npu.len() || server.len() != npu.len() {
            return Err(SimError::InvalidInput(format!(
                "NIC affinity: {} NPUs, {} NICs, {} server ids; one of each per NPU",
                npu.len(),
                nic.len(),
                server.len()
            )));
        }
        let mut count: HashMap<u32, u32, FxBuild> = HashMap::default();
        for ((&n, &c), &s) in npu.iter().zip(nic).zip(server) {
            if c == NO_NIC {
                continue;
            }
            let k = count.entry(s).or_insert(0);
            self.position.insert(n, *k);
            self.at_position.insert((s, *k), n);
            *k += 1;
            if c as usize >= self.topo.num_nodes {
                return Err(SimError::InvalidInput(format!("NIC node {c} is outside the {}-node graph", self.topo.num_nodes)));
            }
            self.affinity.insert(n, (c, s));
        }
        Ok(self)
    }

    /// The destinations d-mod-k indexes (`Policy::DModK`): the NICs of `npu`'s NPUs in rank order
    /// of their first NPU (NIC affinity, where traffic between servers is routed NIC to NIC, as
    /// InfiniBand routes to a NIC port's LID), and the NPUs in rank order (routes that end at an
    /// NPU). On a fabric whose servers hang below the leaves in rank order, the NICs below one
    /// leaf are consecutive, as OpenSM's ftree numbers compute nodes leaf by leaf. `nic[i]` is
    /// `NO_NIC` for an NPU without one (or `nic` is empty).
    pub fn with_terminals(mut self, npu: &[u32], nic: &[u32]) -> Self {
        let mut next = 0u64;
        for &c in nic.iter().filter(|&&c| c != NO_NIC) {
            self.terminal.entry(c).or_insert_with(|| {
                next += 1;
                next - 1
            });
        }
        for (rank, &n) in npu.iter().enumerate() {
            self.terminal.entry(n).or_insert(rank as u64);
        }
        self
    }

    /// Routing policy per physical edge and whether it is a scale-up link (both directions of
    /// edge e take `per_edge[e]`).
    pub fn with_policies(mut self, per_edge: &[(Policy, bool)]) -> SimResult<Self> {
        if 2 * per_edge.len() != self.topo.num_links() {
            return Err(SimError::InvalidInput(format!(
                "{} routing policies for {} edges",
                per_edge.len(),
                self.topo.num_links() / 2
            )));
        }
        self.policy = per_edge.iter().flat_map(|&(p, _)| [p, p]).collect();
        self.scale_up = per_edge.iter().flat_map(|&(_, u)| [u, u]).collect();
        Ok(self)
    }

    /// PXN (NCCL's PCI x NVLink): a message to an NPU of another server first goes to the NPU of
    /// its own server at the destination's position (GPU j of a DGX: rail j), which sends it out
    /// through its NIC, so it stays on the destination's rail. Needs `with_affinity` first.
    pub fn with_pxn(mut self) -> Self {
        self.pxn = true;
        self
    }

    /// Every source gets a search over the whole graph of its own (the reference the shared
    /// switch trees are tested against).
    pub fn without_hub_trees(mut self) -> Self {
        self.hubs = None;
        self
    }

    /// Keeps at most `trees` shared switch trees at once (default: 256 MB of them).
    pub fn with_hub_tree_cache(mut self, trees: usize) -> Self {
        if let Some(h) = self.hubs.as_mut() {
            h.set_capacity(trees);
        }
        self
    }

    /// Searches over the whole graph made so far: (per-source trees, shared switch trees).
    pub fn trees_built(&self) -> (usize, usize) {
        (self.trees_built, self.hubs.as_ref().map_or(0, |h| h.trees_built))
    }

    /// A hint that routes from `sources` come next (empty: no hint): when one of them needs
    /// shared switch trees built, those of all of them are built together, in parallel. Changes
    /// no route.
    pub fn expect_sources(&mut self, sources: &[u32]) {
        self.upcoming.clear();
        self.upcoming.extend_from_slice(sources);
    }

    /// Starts recording every pick among several ways made by routes computed from now on (a
    /// cached route is not recomputed, so its picks are recorded once, when first routed).
    pub fn record_picks(&mut self) {
        self.picks = Some(Vec::new());
        self.unrecorded = false;
    }

    /// The picks recorded since `record_picks`, and whether some connection was sprayed (its
    /// picks are not among them); stops recording.
    pub fn take_picks(&mut self) -> (Vec<Pick>, bool) {
        (self.picks.take().unwrap_or_default(), self.unrecorded)
    }

    fn record(&mut self, dest: u32, node: u32, cand: &[u32], chosen: u32, divisor: u64) {
        if let Some(p) = self.picks.as_mut() {
            let policy = self.policy[cand[0] as usize];
            p.push(Pick { dest, node, cand: cand.to_vec(), chosen, divisor, policy });
        }
    }

    pub fn links(&self, route: u32) -> &[u32] {
        let r = &self.routes[route as usize];
        &self.arena[r.start as usize..(r.start + r.len) as usize]
    }

    /// (arena position of the first link, number of links) of a route.
    pub fn span(&self, route: u32) -> (u32, u32) {
        let r = &self.routes[route as usize];
        (r.start, r.len)
    }

    /// The link at an arena position (see `span`).
    pub fn link_at(&self, pos: u32) -> u32 {
        self.arena[pos as usize]
    }

    pub fn info(&self, route: u32) -> &RouteInfo {
        &self.routes[route as usize]
    }

    /// The parts of a route set: (route, share of the bytes), shares summing to 1.
    pub fn parts(&self, set: u32) -> &[(u32, f64)] {
        let (start, len) = self.sets[set as usize];
        &self.parts[start as usize..(start + len) as usize]
    }

    /// Routes made so far (route ids are below this).
    pub fn num_routes(&self) -> u32 {
        self.routes.len() as u32
    }

    /// A route set of one route over `links`, a path a schedule names (not cached per pair: two
    /// paths may join the same two nodes). The links must follow each other, from `src` to `dst`.
    pub fn explicit(&mut self, src: u32, dst: u32, links: &[u32]) -> SimResult<u32> {
        let bad = |why: String| Err(SimError::InvalidInput(format!("a schedule's path from node {src} to node {dst}: {why}")));
        let n = self.topo.num_links() as u32;
        if links.is_empty() || links.iter().any(|&l| l >= n) {
            return bad(format!("expected links below {n}, found {links:?}"));
        }
        if self.topo.link_from[links[0] as usize] != src || self.topo.link_to[*links.last().unwrap() as usize] != dst {
            return bad("it does not start at the sender's NPU and end at the receiver's".into());
        }
        if let Some(w) = links.windows(2).find(|w| self.topo.link_to[w[0] as usize] != self.topo.link_from[w[1] as usize]) {
            return bad(format!("link {} does not continue link {}", w[1], w[0]));
        }
        let start = self.arena.len();
        self.arena.extend_from_slice(links);
        let route = self.push_route(start);
        let set_start = self.parts.len() as u32;
        self.parts.push((route, 1.0));
        self.sets.push((set_start, 1));
        Ok(self.sets.len() as u32 - 1)
    }

    /// The single route of a connection (its first part when sprayed): tests and tools.
    pub fn route(&mut self, src: u32, dst: u32) -> SimResult<u32> {
        let set = self.route_set(src, dst)?;
        Ok(self.parts(set)[0].0)
    }

    /// Route set id for traffic from node `src` to node `dst` (cached per pair).
    pub fn route_set(&mut self, src: u32, dst: u32) -> SimResult<u32> {
        let recent = &mut self.recent[src as usize];
        if recent[0].0 == dst {
            return Ok(recent[0].1);
        }
        if recent[1].0 == dst {
            recent.swap(0, 1);
            return Ok(recent[0].1);
        }
        let r = self.lookup(src, dst)?;
        let recent = &mut self.recent[src as usize];
        recent[1] = recent[0];
        recent[0] = (dst, r);
        Ok(r)
    }

    /// Route set id for traffic from node `src` to node `dst` with PXN on or off as `pxn` says,
    /// whatever `with_pxn` set for the rest (cached per pair and setting). Between NPUs of two
    /// servers with NICs only; otherwise, and for `pxn` as set, `route_set`.
    pub fn route_set_via(&mut self, src: u32, dst: u32, pxn: bool) -> SimResult<u32> {
        if pxn == self.pxn || self.exit_nics(src, dst).is_none() {
            return self.route_set(src, dst);
        }
        if let Some(&r) = self.cache_other_pxn.get(&(src, dst)) {
            return Ok(r);
        }
        let r = self.make(src, dst, pxn)?;
        self.cache_other_pxn.insert((src, dst), r);
        Ok(r)
    }

    fn lookup(&mut self, src: u32, dst: u32) -> SimResult<u32> {
        if let Some(&r) = self.cache.get(&(src, dst)) {
            return Ok(r);
        }
        let r = self.make(src, dst, self.pxn)?;
        self.cache.insert((src, dst), r);
        Ok(r)
    }

    /// A new route set from `src` to `dst` (PXN as `pxn` says), not cached.
    fn make(&mut self, src: u32, dst: u32, pxn: bool) -> SimResult<u32> {
        let dor_ranks = self.dor.as_ref().and_then(|(_, rank_of)| Some((*rank_of.get(&src)?, *rank_of.get(&dst)?)));
        let proxy = self.exit_nics(src, dst).and_then(|(_, nic_d)| Some((self.proxy(src, dst)?, nic_d)));
        let via_proxy = |(p, nic_d): (u32, u32), nic_p: u32| vec![src, p, nic_p, nic_d, dst];
        let mut waypoints = match (dor_ranks, self.exit_nics(src, dst)) {
            (Some((rs, rd)), _) => self.dor_waypoints(rs, rd),
            (None, Some(_)) if pxn && proxy.is_some() => {
                let p = proxy.expect("checked");
                via_proxy(p, self.affinity[&p.0].0)
            }
            (None, Some((nic_s, nic_d))) => vec![src, nic_s, nic_d, dst],
            (None, None) => vec![src, dst],
        };
        let start = self.arena.len();
        let mut walked = self.walk_waypoints(&waypoints, src, dst);
        if let (Err(SimError::Unreachable { .. }), Some(p), 4) = (&walked, proxy, waypoints.len()) {
            // The two NICs share no network (disjoint planes): go as PXN does, through the GPU
            // whose NIC is on the destination's rail.
            self.arena.truncate(start);
            waypoints = via_proxy(p, self.affinity[&p.0].0);
            walked = self.walk_waypoints(&waypoints, src, dst);
        }
        walked?;
        let set_start = self.parts.len() as u32;
        if self.branched {
            self.arena.truncate(start);
            let mut ways = self.all_ways(&waypoints, src, dst);
            if let (Err(SimError::Unreachable { .. }), Some(p), 4) = (&ways, proxy, waypoints.len()) {
                ways = self.all_ways(&via_proxy(p, self.affinity[&p.0].0), src, dst);
            }
            let ways = ways?;
            for (links, share) in ways {
                let start = self.arena.len();
                self.arena.extend_from_slice(&links);
                let id = self.push_route(start);
                self.parts.push((id, share));
            }
        } else {
            let id = self.push_route(start);
            self.parts.push((id, 1.0));
        }
        let set = self.sets.len() as u32;
        self.sets.push((set_start, self.parts.len() as u32 - set_start));
        Ok(set)
    }

    /// Appends the shortest paths between consecutive waypoints, stopping early (arena truncated,
    /// `branched` set) where a sprayed flow splits.
    fn walk_waypoints(&mut self, waypoints: &[u32], src: u32, dst: u32) -> SimResult<()> {
        self.branched = false;
        for w in waypoints.windows(2) {
            self.append_shortest(w[0], w[1], src, dst)?;
            if self.branched {
                break;
            }
        }
        Ok(())
    }

    /// Every way of a sprayed connection over the waypoints, with its share of the bytes.
    fn all_ways(&mut self, waypoints: &[u32], src: u32, dst: u32) -> SimResult<Vec<(Vec<u32>, f64)>> {
        let mut ways: Vec<(Vec<u32>, f64)> = vec![(Vec::new(), 1.0)];
        for w in waypoints.windows(2) {
            let segment = self.all_shortest(w[0], w[1], src, dst)?;
            if ways.len() * segment.len() > MAX_SPRAY_PATHS {
                return Err(SimError::Unsupported(format!(
                    "spraying from node {src} to node {dst} takes more than {MAX_SPRAY_PATHS} ways; use the \
                     ecmp or adaptive routing policy on that tier"
                ))
                .about("routing_policy"));
            }
            ways = ways
                .iter()
                .flat_map(|(links, share)| {
                    segment.iter().map(move |(more, s)| ([links.as_slice(), more.as_slice()].concat(), share * s))
                })
                .collect();
        }
        Ok(ways)
    }

    /// Records the links appended to the arena since `start` as a route; its id.
    fn push_route(&mut self, start: usize) -> u32 {
        let links = &self.arena[start..];
        let mut info = RouteInfo { start: start as u32, len: links.len() as u32, latency_ns: 0.0, min_bw: f64::INFINITY };
        for &l in links {
            info.latency_ns += self.topo.link_latency_ns[l as usize];
            info.min_bw = info.min_bw.min(self.topo.link_bw_bytes_per_ns[l as usize]);
            self.link_routes[l as usize] += 1;
        }
        self.routes.push(info);
        (self.routes.len() - 1) as u32
    }

    /// (source NIC, destination NIC) when `src` and `dst` are NPUs of different servers that both
    /// have a NIC (see `with_affinity`).
    fn exit_nics(&self, src: u32, dst: u32) -> Option<(u32, u32)> {
        let (&(nic_s, server_s), &(nic_d, server_d)) = (self.affinity.get(&src)?, self.affinity.get(&dst)?);
        (server_s != server_d).then_some((nic_s, nic_d))
    }

    /// The NPU of `src`'s server at `dst`'s position (PXN's proxy), when that is not `src`.
    fn proxy(&self, src: u32, dst: u32) -> Option<u32> {
        let proxy = *self.at_position.get(&(self.affinity.get(&src)?.1, *self.position.get(&dst)?))?;
        (proxy != src).then_some(proxy)
    }

    /// NPU nodes visited by dimension-order routing from rank `rs` to rank `rd`.
    fn dor_waypoints(&self, rs: usize, rd: usize) -> Vec<u32> {
        let (spec, _) = self.dor.as_ref().expect("dor configured");
        let mut coord = coords(rs, &spec.dims);
        let target = coords(rd, &spec.dims);
        let mut out = vec![spec.npu_nodes[rs]];
        for d in 0..spec.dims.len() {
            if spec.direct.get(d).copied().unwrap_or(false) {
                if coord[d] != target[d] {
                    coord[d] = target[d];
                    out.push(spec.npu_nodes[rank_of(&coord, &spec.dims)]);
                    if spec.first_dim_only {
                        break;
                    }
                }
                continue;
            }
            let k = spec.dims[d] as i64;
            let fwd = (target[d] as i64 - coord[d] as i64).rem_euclid(k);
            let step = if fwd <= k - fwd { 1 } else { -1 };
            if fwd == 0 {
                continue;
            }
            while coord[d] != target[d] {
                coord[d] = (coord[d] as i64 + step).rem_euclid(k) as usize;
                out.push(spec.npu_nodes[rank_of(&coord, &spec.dims)]);
            }
            if spec.first_dim_only {
                break;
            }
        }
        out
    }


    /// Appends the links of one shortest path `a -> b` to the arena; `flow` endpoints seed ECMP.
    ///
    /// Paths are chosen walking back from `b` over a shortest-distance tree rooted at `a`: at each
    /// node the flow hash picks one of the equally short predecessors. Messages leave one source
    /// for many destinations at once (all-to-all, direct), so walking the *source's* tree keeps it
    /// hot in cache; a nearby `b` is found by a small bounded search instead of a full tree.
    fn append_shortest(&mut self, a: u32, b: u32, fs: u32, fd: u32) -> SimResult<()> {
        let flow_hash = mix(((fs as u64) << 32) | fd as u64);
        // Fast path: a direct link is always a shortest path by hops.
        if self.metric == Metric::Hops {
            let direct: Vec<u32> =
                self.topo.out_links(a).iter().copied().filter(|&l| self.topo.link_to[l as usize] == b).collect();
            if direct.len() > 1 && self.policy[direct[0] as usize] == Policy::Spray {
                self.branched = true; // a bundle of parallel links
                return Ok(());
            }
            if !direct.is_empty() {
                let pick = self.pick(&direct, flow_hash, a, &mut self.destination_index(b));
                if direct.len() > 1 {
                    self.record(b, b, &direct, pick, 1);
                }
                self.arena.push(pick);
                return Ok(());
            }
        }
        if !self.dist.contains_key(&a) {
            // Shared switch trees when they are built already (they serve every source behind the
            // switch), else a bounded search for a nearby destination, else build them.
            if let Some(r) = self.walk_over_hub_trees(a, b, flow_hash, false) {
                return r;
            }
            if self.metric == Metric::Hops && self.local_searches[a as usize] < LOCAL_SEARCHES_PER_SOURCE {
                self.local_searches[a as usize] += 1;
                if self.local_hops_path(a, b, flow_hash) {
                    return Ok(());
                }
            }
            if let Some(r) = self.walk_over_hub_trees(a, b, flow_hash, true) {
                return r;
            }
        }
        if !self.dist.contains_key(&a) {
            self.trees_built += 1;
            if self.dist.len() * self.topo.num_nodes > TREE_CACHE_ENTRIES {
                self.dist.clear(); // bound memory on huge graphs; trees are recomputed on demand
            }
            let d = self.distances_from(a);
            self.dist.insert(a, d);
        }
        let dist = self.dist.remove(&a).expect("tree just ensured");
        let (topo, metric) = (self.topo, self.metric);
        let cost = move |l: u32| link_cost(topo, metric, l);
        let r = self.walk_back(a, b, flow_hash, |v| dist[v as usize], cost);
        self.dist.insert(a, dist);
        r
    }

    /// Appends the path `a -> b` walked over distances composed from shared switch trees, or
    /// returns None (nothing appended) when `a`'s region does not allow it or, unless `build`,
    /// its trees are not built yet.
    fn walk_over_hub_trees(&mut self, a: u32, b: u32, flow_hash: u64, build: bool) -> Option<SimResult<()>> {
        let mut hubs = self.hubs.take()?;
        let topo = self.topo;
        let r = hubs
            .enter(topo, a, build, &self.upcoming)
            .then(|| self.walk_back(a, b, flow_hash, |v| hubs.dist(topo, v), |_| 1.0));
        self.hubs = Some(hubs);
        r
    }

    /// Walks from `b` back to `a` over nodes one step closer to `a` (per `dist`), appending the
    /// forward links in order.
    fn walk_back(
        &mut self,
        a: u32,
        b: u32,
        flow_hash: u64,
        mut dist: impl FnMut(u32) -> f64,
        cost: impl Fn(u32) -> f64,
    ) -> SimResult<()> {
        if !dist(b).is_finite() {
            return Err(SimError::Unreachable { src: a, dst: b });
        }
        let topo = self.topo;
        let start = self.arena.len();
        let mut v = b;
        let mut cand = Vec::new();
        let mut digits = self.destination_index(b);
        let mut divisor = 1u64; // what `digits` has been divided by (d-mod-k picks so far)
        while v != a {
            cand.clear();
            let dv = dist(v);
            for &l in topo.out_links(v) {
                let w = topo.link_to[l as usize];
                // The forward link w -> v is l's pair (l ^ 1).
                if (w == a || topo.transit[w as usize]) && (dist(w) + cost(l ^ 1) - dv).abs() <= LAT_TOL {
                    cand.push(l ^ 1);
                }
            }
            // Non-empty: v has a finite distance, so some transit neighbour (or a) precedes it.
            // Among equally short ways in, only the fastest links compete (NVLink before PCIe
            // inside a server); ECMP spreads flows over those.
            self.keep_preferred(&mut cand);
            if cand.len() > 1 && self.policy[cand[0] as usize] == Policy::Spray {
                self.arena.truncate(start);
                self.branched = true;
                return Ok(());
            }
            let l = self.pick(&cand, flow_hash, v, &mut digits);
            if cand.len() > 1 {
                self.record(b, v, &cand, l, divisor);
                if self.policy[cand[0] as usize] == Policy::DModK {
                    divisor = divisor.saturating_mul(cand.len() as u64);
                }
            }
            self.arena.push(l);
            v = topo.link_from[l as usize];
        }
        self.arena[start..].reverse();
        Ok(())
    }

    /// Shortest-by-hops path `a -> b` by a BFS from `a` bounded by `LOCAL_SEARCH_BUDGET`; appends
    /// it and returns true, or returns false (nothing appended) when `b` is too far. Picks among
    /// the same predecessors as the full tree would, so the route does not depend on the search.
    fn local_hops_path(&mut self, a: u32, b: u32, flow_hash: u64) -> bool {
        let topo = self.topo;
        self.level[a as usize] = 0;
        self.touched.push(a);
        let mut head = 0;
        let mut found = false;
        while head < self.touched.len() && !found && self.touched.len() <= LOCAL_SEARCH_BUDGET {
            let v = self.touched[head];
            head += 1;
            if v != a && !topo.transit[v as usize] {
                continue;
            }
            let next = self.level[v as usize] + 1;
            for &w in topo.out_neighbors(v) {
                if self.level[w as usize] == u32::MAX {
                    self.level[w as usize] = next;
                    self.touched.push(w);
                    found |= w == b;
                }
            }
        }
        if found {
            // Every node at a lower level was discovered before b, so the walk sees all of b's
            // shortest predecessors.
            let level = std::mem::take(&mut self.level);
            let lv = |v: u32| match level[v as usize] {
                u32::MAX => f64::INFINITY,
                x => x as f64,
            };
            self.walk_back(a, b, flow_hash, lv, |_| 1.0).expect("b was reached");
            self.level = level;
        }
        for &v in &self.touched {
            self.level[v as usize] = u32::MAX;
        }
        self.touched.clear();
        found
    }

    /// Among equally short ways in, only the preferred compete: scale-up links (NVLink) if any,
    /// then the fastest links (NVLink before PCIe inside a server where no tier is known).
    fn keep_preferred(&self, cand: &mut Vec<u32>) {
        if cand.iter().any(|&l| self.scale_up[l as usize]) {
            cand.retain(|&l| self.scale_up[l as usize]);
        }
        let bw = &self.topo.link_bw_bytes_per_ns;
        let fastest = cand.iter().map(|&l| bw[l as usize]).fold(0.0, f64::max);
        cand.retain(|&l| bw[l as usize] == fastest);
    }

    /// The index d-mod-k routes towards `dst` by (see `with_terminals`).
    pub fn destination_index(&self, dst: u32) -> u64 {
        self.terminal.get(&dst).copied().unwrap_or(dst as u64)
    }

    /// One way among the candidates: hashed (ecmp), least used (adaptive), or the next digit of
    /// `digits`, which it then divides by the number of ways (d-mod-k).
    fn pick(&self, cand: &[u32], flow_hash: u64, node: u32, digits: &mut u64) -> u32 {
        if cand.len() == 1 {
            return cand[0];
        }
        if self.policy[cand[0] as usize] == Policy::DModK {
            let way = dmodk_way(self.topo, cand, *digits);
            *digits /= cand.len() as u64;
            return way;
        }
        if !self.ecmp {
            return cand[0];
        }
        let h = mix(flow_hash ^ (node as u64).wrapping_mul(0x9E37_79B9));
        if self.policy[cand[0] as usize] == Policy::Adaptive {
            // The least used way; among equally used ones, the hash decides.
            let least = cand.iter().map(|&l| self.link_routes[l as usize]).min().expect("candidates");
            let tied: Vec<u32> = cand.iter().copied().filter(|&l| self.link_routes[l as usize] == least).collect();
            return tied[(h % tied.len() as u64) as usize];
        }
        cand[(h % cand.len() as u64) as usize]
    }

    /// Every shortest path `a -> b` a sprayed flow takes, with its share of the bytes: walking back
    /// from `b`, a node's ways in split its share equally where their links spray (the fastest
    /// only, as in `walk_back`), and one is picked where they do not.
    fn all_shortest(&mut self, a: u32, b: u32, fs: u32, fd: u32) -> SimResult<Vec<(Vec<u32>, f64)>> {
        self.unrecorded |= self.picks.is_some();
        let flow_hash = mix(((fs as u64) << 32) | fd as u64);
        if self.metric == Metric::Hops {
            if let Some(mut hubs) = self.hubs.take() {
                let topo = self.topo;
                let r = hubs
                    .enter(topo, a, true, &self.upcoming)
                    .then(|| self.enumerate_back(a, b, flow_hash, |v| hubs.dist(topo, v)));
                self.hubs = Some(hubs);
                if let Some(r) = r {
                    return r;
                }
            }
        }
        if !self.dist.contains_key(&a) {
            self.trees_built += 1;
            let d = self.distances_from(a);
            self.dist.insert(a, d);
        }
        let dist = self.dist.remove(&a).expect("tree just ensured");
        let r = self.enumerate_back(a, b, flow_hash, |v| dist[v as usize]);
        self.dist.insert(a, dist);
        r
    }

    /// The ways of `all_shortest` over the distances `dist` from `a`.
    fn enumerate_back(&self, a: u32, b: u32, flow_hash: u64, mut dist: impl FnMut(u32) -> f64) -> SimResult<Vec<(Vec<u32>, f64)>> {
        let topo = self.topo;
        if !dist(b).is_finite() {
            return Err(SimError::Unreachable { src: a, dst: b });
        }
        let metric = self.metric;
        let mut done = Vec::new();
        // (node reached walking back, links from it to b in reverse order, share, d-mod-k digits)
        let mut stack: Vec<(u32, Vec<u32>, f64, u64)> = vec![(b, Vec::new(), 1.0, self.destination_index(b))];
        let mut cand = Vec::new();
        while let Some((v, links, share, mut digits)) = stack.pop() {
            if v == a {
                let mut forward = links;
                forward.reverse();
                done.push((forward, share));
                if done.len() + stack.len() > MAX_SPRAY_PATHS {
                    break; // the caller refuses the connection
                }
                continue;
            }
            cand.clear();
            let dv = dist(v);
            for &l in topo.out_links(v) {
                let w = topo.link_to[l as usize];
                if (w == a || topo.transit[w as usize])
                    && (dist(w) + link_cost(topo, metric, l ^ 1) - dv).abs() <= LAT_TOL
                {
                    cand.push(l ^ 1);
                }
            }
            self.keep_preferred(&mut cand);
            let ways: Vec<u32> = if cand.len() > 1 && self.policy[cand[0] as usize] == Policy::Spray {
                cand.clone()
            } else {
                vec![self.pick(&cand, flow_hash, v, &mut digits)]
            };
            let each = share / ways.len() as f64;
            for &l in ways.iter().rev() {
                let mut more = links.clone();
                more.push(l);
                stack.push((topo.link_from[l as usize], more, each, digits));
            }
        }
        done.reverse();
        Ok(done)
    }

    /// Shortest distance from `b` to every node (BFS for hops, Dijkstra for latency). Only
    /// transit-allowed nodes are expanded, so routes never pass through e.g. memory nodes.
    fn distances_from(&self, b: u32) -> Vec<f64> {
        let n = self.topo.num_nodes;
        let mut dist = vec![f64::INFINITY; n];
        dist[b as usize] = 0.0;
        match self.metric {
            Metric::Hops => {
                let mut queue = std::collections::VecDeque::from([b]);
                while let Some(v) = queue.pop_front() {
                    if v != b && !self.topo.transit[v as usize] {
                        continue;
                    }
                    let dv = dist[v as usize];
                    for &w in self.topo.out_neighbors(v) {
                        let w = w as usize;
                        if dist[w].is_infinite() {
                            dist[w] = dv + 1.0;
                            queue.push_back(w as u32);
                        }
                    }
                }
            }
            Metric::Latency => {
                use std::cmp::Reverse;
                let mut heap = std::collections::BinaryHeap::from([Reverse((0u64, b))]);
                while let Some(Reverse((dbits, v))) = heap.pop() {
                    let dv = f64::from_bits(dbits);
                    if dv > dist[v as usize] || (v != b && !self.topo.transit[v as usize]) {
                        continue;
                    }
                    for &l in self.topo.out_links(v) {
                        let w = self.topo.link_to[l as usize] as usize;
                        let nd = dv + self.topo.link_latency_ns[l as usize];
                        if nd < dist[w] {
                            dist[w] = nd;
                            heap.push(Reverse((nd.to_bits(), w as u32)));
                        }
                    }
                }
            }
        }
        dist
    }
}

fn link_cost(topo: &Topology, metric: Metric, link: u32) -> f64 {
    match metric {
        Metric::Hops => 1.0,
        Metric::Latency => topo.link_latency_ns[link as usize],
    }
}

/// Coordinates of `index` in a mixed-radix shape (dimension 0 fastest).
pub fn coords(mut index: usize, dims: &[usize]) -> Vec<usize> {
    dims.iter()
        .map(|&k| {
            let c = index % k;
            index /= k;
            c
        })
        .collect()
}

pub fn rank_of(coord: &[usize], dims: &[usize]) -> usize {
    let mut r = 0;
    for d in (0..dims.len()).rev() {
        r = r * dims[d] + coord[d];
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ring(n: u32) -> Topology {
        let e: Vec<(u32, u32)> = (0..n).map(|i| (i, (i + 1) % n)).collect();
        Topology::uniform(n as usize, &e, 100.0, 10.0).unwrap()
    }

    #[test]
    fn shortest_path_on_ring_takes_short_way() {
        let t = ring(8);
        let mut r = Router::new(&t, Metric::Hops, true, None).unwrap();
        let id = r.route(0, 6).unwrap();
        assert_eq!(r.links(id).len(), 2);
        assert_eq!(r.info(id).latency_ns, 20.0);
        // Path goes 0 -> 7 -> 6.
        assert_eq!(t.link_to[r.links(id)[0] as usize], 7);
    }

    #[test]
    fn ecmp_spreads_flows_over_equal_paths() {
        // Two hosts per side of a 4-spine "diamond": leaves 0,1 connected through spines 2..5.
        let mut e = vec![];
        for s in 2..6 {
            e.push((0, s));
            e.push((1, s));
        }
        // hosts 6.. on leaf 0, 20.. on leaf 1
        for h in 0..12 {
            e.push((6 + h, 0));
            e.push((20 + h, 1));
        }
        let t = Topology::uniform(32, &e, 100.0, 1.0).unwrap();
        let mut r = Router::new(&t, Metric::Hops, true, None).unwrap();
        let mut spines = std::collections::HashSet::new();
        for h in 0..12 {
            let id = r.route(6 + h, 20 + h).unwrap();
            assert_eq!(r.links(id).len(), 4);
            spines.insert(t.link_to[r.links(id)[1] as usize]);
        }
        assert!(spines.len() >= 3, "ECMP used only {spines:?}");
        // Deterministic: same answer from a fresh router.
        let mut r2 = Router::new(&t, Metric::Hops, true, None).unwrap();
        let a = r2.route(6, 20).unwrap();
        let b = r.route(6, 20).unwrap();
        assert_eq!(r2.links(a), r.links(b));
    }

    #[test]
    fn local_search_and_destination_tree_pick_the_same_paths() {
        // 2-D torus through port nodes: NPU r (node r) -- port nodes -- NPU neighbour.
        let dims = [6usize, 6];
        let n = 36u32;
        let mut e = vec![];
        let mut next = n;
        for r in 0..36usize {
            let c = coords(r, &dims);
            for d in 0..2 {
                let mut m = c.clone();
                m[d] = (m[d] + 1) % 6;
                let (p1, p2) = (next, next + 1);
                next += 2;
                e.extend([(r as u32, p1), (p1, p2), (p2, rank_of(&m, &dims) as u32)]);
            }
        }
        let t = Topology::uniform(next as usize, &e, 8.0, 1.0).unwrap();
        let mut local = Router::new(&t, Metric::Hops, true, None).unwrap();
        let mut tree = Router::new(&t, Metric::Hops, true, None).unwrap();
        for (a, b) in [(0u32, 1u32), (0, 7), (5, 30), (14, 21)] {
            let la = local.route(a, b).unwrap();
            // With a's tree cached, the router walks the tree instead of searching locally.
            tree.dist.insert(a, tree.distances_from(a));
            let start = tree.arena.len();
            tree.append_shortest(a, b, a, b).unwrap();
            let via_tree = &tree.arena[start..];
            assert!(via_tree.len() >= 3);
            assert_eq!(local.links(la), via_tree, "{a}->{b}");
        }
    }

    #[test]
    fn equal_hop_paths_prefer_the_faster_links() {
        // GPUs 0 and 1 share a PCIe switch (2, 64 Gbit/s) and an NVSwitch (3, 900 Gbit/s).
        let t = Topology::new(4, &[0, 1, 0, 1], &[2, 2, 3, 3], &[64.0, 64.0, 900.0, 900.0], &[1.0; 4], None, &[])
            .unwrap();
        let mut r = Router::new(&t, Metric::Hops, true, None).unwrap();
        for (a, b) in [(0, 1), (1, 0)] {
            let id = r.route(a, b).unwrap();
            assert_eq!(t.link_to[r.links(id)[0] as usize], 3);
        }
    }

    #[test]
    fn spray_splits_over_parallel_links_and_switch_planes() {
        // GPUs 0 and 1, NVSwitch chips 2 and 3; GPU 0 has 2 links to chip 2 and 1 to chip 3.
        let e = [(0, 2), (0, 2), (0, 3), (1, 2), (1, 3)];
        let t = Topology::uniform(4, &e, 100.0, 1.0).unwrap();
        let mut r = Router::new(&t, Metric::Hops, true, None).unwrap().with_policies(&[(Policy::Spray, true); 5]).unwrap();
        let set = r.route_set(0, 1).unwrap();
        let parts = r.parts(set).to_vec();
        assert_eq!(parts.len(), 3);
        assert!((parts.iter().map(|p| p.1).sum::<f64>() - 1.0).abs() < 1e-12);
        // Walking back from GPU 1: half via each chip; via chip 2, a quarter on each parallel link.
        let mut shares: Vec<f64> = parts.iter().map(|p| p.1).collect();
        shares.sort_by(f64::total_cmp);
        assert_eq!(shares, vec![0.25, 0.25, 0.5]);
        for &(route, _) in &parts {
            assert_eq!(r.links(route).len(), 2);
        }
        // The same fabric hashed: one way.
        let mut h = Router::new(&t, Metric::Hops, true, None).unwrap().with_policies(&[(Policy::Ecmp, true); 5]).unwrap();
        let set = h.route_set(0, 1).unwrap();
        assert_eq!(h.parts(set).len(), 1);
    }

    /// A 4-ary 3-tier fat tree: hosts 0..16 (two per leaf), leaves 16..24 and aggregation
    /// switches 24..32 (two of each per pod), cores 32..36; core 32 + 2i + j joins aggregation
    /// switch i of every pod.
    fn fat_tree_k4() -> (Topology, Vec<(u32, u32)>) {
        let mut e = vec![];
        for h in 0..16u32 {
            e.push((h, 16 + h / 2));
        }
        for pod in 0..4u32 {
            for leaf in 0..2u32 {
                for agg in 0..2u32 {
                    e.push((16 + 2 * pod + leaf, 24 + 2 * pod + agg));
                }
            }
            for agg in 0..2u32 {
                for j in 0..2u32 {
                    e.push((24 + 2 * pod + agg, 32 + 2 * agg + j));
                }
            }
        }
        (Topology::uniform(36, &e, 100.0, 1.0).unwrap(), e)
    }

    #[test]
    fn d_mod_k_routes_by_the_destination_digits() {
        let (t, e) = fat_tree_k4();
        let hosts: Vec<u32> = (0..16).collect();
        let router = || {
            Router::new(&t, Metric::Hops, true, None)
                .unwrap()
                .with_policies(&vec![(Policy::DModK, false); e.len()])
                .unwrap()
                .with_terminals(&hosts, &[])
        };
        let mut r = router();
        let nodes = |r: &mut Router, a: u32, b: u32| -> Vec<u32> {
            let id = r.route(a, b).unwrap();
            r.links(id).iter().map(|&l| t.link_to[l as usize]).collect()
        };
        // By hand: destination 5 = 1 + 2 x (0 + 2 x 1): leaf up-port 1 (aggregation switch 1 of
        // the pod, node 25 in pod 0), then that switch's up-port 0 (core 32 + 2 + 0).
        assert_eq!(nodes(&mut r, 0, 5), vec![16, 25, 34, 27, 18, 5]);
        // Destination 12 = 0 + 2 x (0 + 2 x 3): up-port 0, then 0: core 32.
        assert_eq!(nodes(&mut r, 3, 12), vec![17, 24, 32, 30, 22, 12]);
        // Same pod: only the leaf's up-port is chosen (destination 3: port 1).
        assert_eq!(nodes(&mut r, 0, 3), vec![16, 25, 17, 3]);
        // Every route is a shortest path, and every up-link carries as many destinations as any
        // other of its tier: 7 per leaf up-link (the 14 hosts outside the leaf, by d mod 2), 3 per
        // aggregation up-link (the 12 outside the pod, by d mod 2, then (d / 2) mod 2).
        let mut dests: HashMap<u32, std::collections::BTreeSet<u32>> = HashMap::new();
        let mut tops: HashMap<u32, std::collections::BTreeSet<u32>> = HashMap::new();
        let mut fresh = Router::new(&t, Metric::Hops, true, None).unwrap();
        for a in 0..16u32 {
            for b in (0..16u32).filter(|&b| b != a) {
                let id = r.route(a, b).unwrap();
                let shortest = fresh.route(a, b).unwrap();
                assert_eq!(r.links(id).len(), fresh.links(shortest).len(), "{a} -> {b}");
                for &l in r.links(id) {
                    let (u, v) = (t.link_from[l as usize], t.link_to[l as usize]);
                    if (16..32).contains(&u) && v > u {
                        dests.entry(l).or_default().insert(b);
                    }
                    if v >= 32 {
                        tops.entry(b).or_default().insert(v);
                    }
                }
            }
        }
        let up: Vec<(u32, u32, usize)> =
            dests.iter().map(|(&l, d)| (t.link_from[l as usize], t.link_to[l as usize], d.len())).collect();
        assert_eq!(up.len(), 16 + 16, "every up-link used");
        for (u, v, n) in up {
            assert_eq!(n, if u < 24 { 7 } else { 3 }, "up-link {u} -> {v}");
        }
        // Every source reaches a destination through the same core.
        assert!(tops.values().all(|c| c.len() == 1), "{tops:?}");
        // Deterministic, and independent of the order the routes are asked for.
        let mut again = router();
        for (a, b) in [(15u32, 0u32), (0, 5), (7, 9)] {
            assert_eq!(nodes(&mut again, a, b), nodes(&mut r, a, b));
        }
    }

    #[test]
    fn adaptive_takes_the_least_used_way() {
        // Hosts 4..8 on leaf 0, 8..12 on leaf 1, two spines 2 and 3.
        let mut e = vec![(0, 2), (0, 3), (1, 2), (1, 3)];
        for h in 0..4 {
            e.push((4 + h, 0));
            e.push((8 + h, 1));
        }
        let t = Topology::uniform(12, &e, 100.0, 1.0).unwrap();
        let n = e.len();
        let mut r = Router::new(&t, Metric::Hops, true, None).unwrap().with_policies(&vec![(Policy::Adaptive, false); n]).unwrap();
        let mut spines = vec![];
        for h in 0..4 {
            let id = r.route(4 + h, 8 + h).unwrap();
            spines.push(t.link_to[r.links(id)[1] as usize]);
        }
        spines.sort();
        assert_eq!(spines, vec![2, 2, 3, 3]);
    }

    #[test]
    fn pxn_crosses_nvlink_to_the_destination_rail_first() {
        // Two servers of 2 GPUs (0, 1 | 4, 5) on a scale-up switch each (2 | 6), NICs 3 (GPU 0),
        // 8 (GPU 1), 7 (GPU 4), 9 (GPU 5); rail leaves 10 (NICs 3, 7) and 11 (8, 9), spine 12.
        let e = [(0, 2), (1, 2), (0, 3), (1, 8), (4, 6), (5, 6), (4, 7), (5, 9), (3, 10), (7, 10), (8, 11), (9, 11), (10, 12), (11, 12)];
        let t = Topology::uniform(13, &e, 100.0, 1.0).unwrap();
        let npus = [0, 1, 4, 5];
        let r = Router::new(&t, Metric::Hops, true, None).unwrap();
        let mut r = r.with_affinity(&npus, &[3, 8, 7, 9], &[0, 0, 1, 1]).unwrap();
        let t = &t;
        // Without PXN, GPU 0 -> GPU 5 crosses the spine (rail 0 leaf to rail 1 leaf).
        let nodes = |r: &mut Router, a, b| -> Vec<u32> {
            let id = r.route(a, b).unwrap();
            r.links(id).iter().map(|&l| t.link_to[l as usize]).collect()
        };
        assert!(nodes(&mut r, 0, 5).contains(&12));
        let mut p = Router::new(t, Metric::Hops, true, None).unwrap().with_affinity(&npus, &[3, 8, 7, 9], &[0, 0, 1, 1]).unwrap().with_pxn();
        assert_eq!(nodes(&mut p, 0, 5), vec![2, 1, 8, 11, 9, 5]);
        assert_eq!(nodes(&mut p, 0, 4), vec![3, 10, 7, 4]); // same rail: no detour
        // Asked per route: with PXN on a router without it, without on one with it; each way
        // cached apart, the default's routes unchanged.
        let via = |r: &mut Router, a, b, pxn| -> Vec<u32> {
            let set = r.route_set_via(a, b, pxn).unwrap();
            r.links(r.parts(set)[0].0).iter().map(|&l| t.link_to[l as usize]).collect()
        };
        assert_eq!(via(&mut r, 0, 5, true), vec![2, 1, 8, 11, 9, 5]);
        assert!(nodes(&mut r, 0, 5).contains(&12));
        assert!(via(&mut p, 0, 5, false).contains(&12));
        assert_eq!(via(&mut p, 0, 5, true), nodes(&mut p, 0, 5));
        assert_eq!(via(&mut r, 0, 1, true), vec![2, 1]); // one server: PXN has nothing to do
    }

    #[test]
    fn unreachable_pair_is_an_error_naming_both() {
        let t = Topology::uniform(4, &[(0, 1), (2, 3)], 1.0, 1.0).unwrap();
        let mut r = Router::new(&t, Metric::Hops, true, None).unwrap();
        assert_eq!(r.route(0, 3).unwrap_err(), SimError::Unreachable { src: 0, dst: 3 });
    }

    #[test]
    fn latency_metric_prefers_fast_detour() {
        // 0-1 direct with 100 ns, 0-2-1 with 10+10 ns.
        let t = Topology::new(3, &[0, 0, 2], &[1, 2, 1], &[8.0; 3], &[100.0, 10.0, 10.0], None, &[]).unwrap();
        let mut r = Router::new(&t, Metric::Latency, true, None).unwrap();
        let id = r.route(0, 1).unwrap();
        assert_eq!(r.links(id).len(), 2);
        assert_eq!(r.info(id).latency_ns, 20.0);
    }

    #[test]
    fn no_transit_nodes_are_avoided() {
        // 0-1-2 short path through node 1 (kind 7, no transit), long path 0-3-4-2.
        let t = Topology::new(5, &[0, 1, 0, 3, 4], &[1, 2, 3, 4, 2], &[8.0; 5], &[1.0; 5], Some(&[0, 7, 0, 0, 0]), &[7])
            .unwrap();
        let mut r = Router::new(&t, Metric::Hops, true, None).unwrap();
        let id = r.route(0, 2).unwrap();
        assert_eq!(r.links(id).len(), 3);
    }

    #[test]
    fn dimension_order_routes_x_then_y() {
        // 4x4 torus of NPUs, node id = rank.
        let dims = [4usize, 4];
        let mut e = vec![];
        for r in 0..16usize {
            let c = coords(r, &dims);
            for d in 0..2 {
                let mut n = c.clone();
                n[d] = (n[d] + 1) % 4;
                e.push((r as u32, rank_of(&n, &dims) as u32));
            }
        }
        let t = Topology::uniform(16, &e, 8.0, 1.0).unwrap();
        let spec = DorSpec { npu_nodes: (0..16).collect(), dims: dims.to_vec(), direct: vec![], first_dim_only: false };
        let mut r = Router::new(&t, Metric::Hops, true, Some(spec.clone())).unwrap();
        let id = r.route(0, 5).unwrap(); // (0,0) -> (1,1): x first to node 1, then y to 5
        let nodes: Vec<u32> = r.links(id).iter().map(|&l| t.link_to[l as usize]).collect();
        assert_eq!(nodes, vec![1, 5]);
        // ASTRA-sim's congestion-unaware send: only the first dimension that differs.
        let mut r = Router::new(&t, Metric::Hops, true, Some(DorSpec { first_dim_only: true, ..spec })).unwrap();
        for (dst, want) in [(5, vec![1]), (4, vec![4]), (14, vec![1, 2])] {
            let id = r.route(0, dst).unwrap();
            let nodes: Vec<u32> = r.links(id).iter().map(|&l| t.link_to[l as usize]).collect();
            assert_eq!(nodes, want, "0 -> {dst}");
        }
    }
}
