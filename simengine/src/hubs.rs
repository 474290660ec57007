//! Exact hop distances from a source without a search over the whole graph per source.
//!
//! A *hub* is a transit node with at least `HUB_DEGREE` links: a switch chip. The *region* of a
//! source is what a breadth-first search from it reaches without passing through a hub (on a Clos:
//! its server's GPUs, PCIe switches and NICs, and the ports up to the leaf); the hubs it reaches
//! are its *exits*. Every path that leaves the region enters some exit first, so for every node w
//!
//! ```text
//! dist(a, w) = min( inside(a, w),  min over exits x of inside(a, x) + tree_x(w) )
//! ```
//!
//! where `inside` is the search over the region and `tree_x` the search from hub x. The trees are
//! not searches over the whole graph: they run on the *hub graph*, whose nodes are the hubs and
//! whose edges join two hubs by a direct link (1 hop) or through non-hub transit nodes only (a
//! *bridge*, e.g. leaf -> port -> port -> spine: 3 hops). Splitting a path at its last hub,
//!
//! ```text
//! tree_x(w) = hub_tree_x(w)                                  (w a hub)
//! tree_x(w) = min over entries (y, e) of w: hub_tree_x(y) + e   (otherwise)
//! ```
//!
//! where the *entries* of w are the hubs y that reach w through non-hub transit nodes only, with
//! those hops e (found by a small search from w, once per node asked about). Hop counts are
//! integers, so the composition is exact: a route walked over it is the route a per-source tree
//! gives (tested against that on random fabrics). On a 1,048,576-GPU Clos the hub graph has
//! 20,480 nodes against 6 million in the graph, so the ~8,000 leaf trees cost a search of the
//! switches each, not of every server.
//!
//! A source whose region is large (no hubs nearby, e.g. a torus of NPUs) or has many exits gets
//! no composition (`HubTrees::enter` says so) and the router falls back to a tree of its own. A
//! graph where the search for one hub's bridges visits more than `BRIDGE_BUDGET` nodes gets no
//! hub trees at all.
use crate::fxhash::FxBuild;
use crate::topology::Topology;
use rayon::prelude::*;
use std::collections::HashMap;

/// Links a transit node needs to be a hub. Scale-up switches of 8 GPUs, PCIe switches and NICs
/// stay inside regions; leaf, spine and core chips of any useful radix are hubs.
pub const HUB_DEGREE: usize = 16;

/// Nodes a region may hold before its source gets a tree of its own instead.
const REGION_BUDGET: usize = 4096;

/// Exits a region may have before its source gets a tree of its own instead (each exit costs a
/// lookup per distance, and a tree if no other region shares it).
const MAX_EXITS: usize = 8;

/// Nodes the search for one hub's bridges may visit before the graph is declared unfit for hub
/// trees (every source then gets a tree of its own).
const BRIDGE_BUDGET: usize = 1 << 16;

/// Hub trees kept at once (oldest dropped first): each is 2 bytes per hub.
const TREE_CACHE_BYTES: usize = 256 << 20;

const FAR: u16 = u16::MAX;
const NOT_HUB: u32 = u32::MAX;
const UNKNOWN: u64 = u64::MAX;

pub struct HubTrees {
    /// Per node: its index among the hubs, or `NOT_HUB`.
    hub_index: Vec<u32>,
    /// The hub graph (module note): per hub index, its neighbours as (hub index, hops), in
    /// `adj[adj_start[h]..adj_start[h + 1]]`.
    adj_start: Vec<u32>,
    adj: Vec<(u32, u16)>,
    /// Hub trees (hops from a hub to every hub, by hub index), and the last time each was used
    /// (for eviction).
    trees: Vec<(u32, Vec<u16>, u64)>,
    slot_of: HashMap<u32, usize, FxBuild>,
    capacity: usize,
    clock: u64,
    /// The region of `source`: inside distances (FAR outside it), the nodes set, its exits as
    /// (tree slot, inside distance); `usable` false when the source needs a tree of its own.
    source: u32,
    usable: bool,
    inside: Vec<u16>,
    touched: Vec<u32>,
    exits: Vec<(usize, u16)>,
    /// Sources found to need a tree of their own (not searched again).
    unusable: Vec<bool>,
    /// Per non-hub node asked about: its entries (module note) as `entries[start..start + len]`,
    /// packed `start << 32 | len`; `UNKNOWN` until first asked.
    entry_span: Vec<u64>,
    entries: Vec<(u32, u16)>,
    /// Scratch for the searches from a node to its hubs (FAR everywhere between searches).
    seen: Vec<u16>,
    /// Trees built (for tests and the profile).
    pub trees_built: usize,
}

impl HubTrees {
    /// None when the graph has no hub (nothing to share) or its bridges are too long to find.
    pub fn new(topo: &Topology) -> Option<Self> {
        let mut hub_index = vec![NOT_HUB; topo.num_nodes];
        let mut hubs = Vec::new();
        for v in 0..topo.num_nodes as u32 {
            if topo.transit[v as usize] && topo.out_links(v).len() >= HUB_DEGREE {
                hub_index[v as usize] = hubs.len() as u32;
                hubs.push(v);
            }
        }
        if hubs.is_empty() {
            return None;
        }
        let (adj_start, adj) = hub_graph(topo, &hubs, &hub_index)?;
        Some(HubTrees {
            adj_start,
            adj,
            trees: Vec::new(),
            slot_of: HashMap::default(),
            capacity: (TREE_CACHE_BYTES / (2 * hubs.len())).max(MAX_EXITS),
            clock: 0,
            source: u32::MAX,
            usable: false,
            inside: vec![FAR; topo.num_nodes],
            touched: Vec::new(),
            exits: Vec::new(),
            unusable: vec![false; topo.num_nodes],
            entry_span: vec![UNKNOWN; topo.num_nodes],
            entries: Vec::new(),
            seen: vec![FAR; topo.num_nodes],
            hub_index,
            trees_built: 0,
        })
    }

    /// Keeps at most `trees` hub trees (at least `MAX_EXITS`, so one region's trees always fit).
    pub fn set_capacity(&mut self, trees: usize) {
        self.capacity = trees.max(MAX_EXITS);
        self.trees.truncate(self.capacity);
        self.slot_of.retain(|_, s| *s < self.capacity);
        self.source = u32::MAX;
    }

    /// Makes `a` the current source; false when its region is too large or has too many exits
    /// (or a tree would not fit u16 hop counts), and the caller must use a tree of its own. With
    /// `build` false, also false (and nothing built) unless every tree it needs is cached; a tree
    /// that must be built is built together with those of `upcoming` sources (see `prefetch`).
    pub fn enter(&mut self, topo: &Topology, a: u32, build: bool, upcoming: &[u32]) -> bool {
        if self.source == a {
            return self.usable;
        }
        self.exits.clear();
        let Some(mut hubs) = self.region_exits(topo, a) else {
            return false;
        };
        if hubs.iter().any(|(x, _)| !self.slot_of.contains_key(x)) {
            if !build {
                self.source = u32::MAX; // undecided: a later call may build
                return false;
            }
            if !upcoming.is_empty() {
                self.prefetch(topo, upcoming);
                hubs = self.region_exits(topo, a).expect("the region was searched just before");
            }
        }
        self.clock += 1;
        for &(x, _) in &hubs {
            if let Some(&s) = self.slot_of.get(&x) {
                self.trees[s].2 = self.clock; // keep this region's trees while loading the rest
            }
        }
        for (x, d) in hubs {
            let slot = match self.slot_of.get(&x) {
                Some(&s) => Some(s),
                None => hub_tree(&self.adj_start, &self.adj, self.hub_index[x as usize]).and_then(|t| self.store(x, t)),
            };
            match slot {
                Some(s) => self.exits.push((s, d)),
                None => {
                    self.unusable[a as usize] = true;
                    self.exits.clear();
                    return false;
                }
            }
        }
        self.usable = true;
        true
    }

    /// Builds, in parallel (rayon), the trees the regions of `sources` will need and the cache
    /// lacks (up to half the cache). It changes no distance, only when trees are built.
    pub fn prefetch(&mut self, topo: &Topology, sources: &[u32]) {
        let mut missing: Vec<u32> = Vec::new();
        for &a in sources {
            for (x, _) in self.region_exits(topo, a).unwrap_or_default() {
                if !self.slot_of.contains_key(&x) && !missing.contains(&x) && missing.len() < self.capacity / 2 {
                    missing.push(x);
                }
            }
        }
        self.source = u32::MAX; // the scratch region is no current source's any more
        let (adj_start, adj, hub_index) = (&self.adj_start, &self.adj, &self.hub_index);
        let built: Vec<(u32, Option<Vec<u16>>)> =
            missing.par_iter().map(|&x| (x, hub_tree(adj_start, adj, hub_index[x as usize]))).collect();
        self.clock += 1;
        for (x, tree) in built {
            if let Some(t) = tree {
                self.store(x, t);
            }
        }
    }

    /// Searches the region of `a` (into the scratch arrays, `a` becoming the source they hold)
    /// and returns its exits with their inside distances; None if `a` needs a tree of its own.
    fn region_exits(&mut self, topo: &Topology, a: u32) -> Option<Vec<(u32, u16)>> {
        self.source = a;
        self.usable = false;
        if self.unusable[a as usize] {
            return None;
        }
        for &v in &self.touched {
            self.inside[v as usize] = FAR;
        }
        self.touched.clear();
        if !self.search_region(topo, a) {
            self.unusable[a as usize] = true;
            return None;
        }
        let hub = |v: u32| self.hub_index[v as usize] != NOT_HUB;
        Some(self.touched.iter().filter(|&&v| v != a && hub(v)).map(|&v| (v, self.inside[v as usize])).collect())
    }

    /// Hop distance from the current source to `v` (infinite if unreachable).
    #[inline]
    pub fn dist(&mut self, topo: &Topology, v: u32) -> f64 {
        let mut best = self.inside[v as usize] as u32;
        let h = self.hub_index[v as usize];
        if h != NOT_HUB {
            for &(s, d) in &self.exits {
                let t = self.trees[s].1[h as usize];
                if t != FAR {
                    best = best.min(d as u32 + t as u32);
                }
            }
        } else if !self.exits.is_empty() {
            let span = self.entry_span(topo, v);
            let (start, len) = ((span >> 32) as usize, (span & 0xFFFF_FFFF) as usize);
            for &(y, e) in &self.entries[start..start + len] {
                for &(s, d) in &self.exits {
                    let t = self.trees[s].1[y as usize];
                    if t != FAR {
                        best = best.min(d as u32 + t as u32 + e as u32);
                    }
                }
            }
        }
        if best >= FAR as u32 {
            f64::INFINITY
        } else {
            best as f64
        }
    }

    /// The entries of non-hub node `v`, searched for the first time it is asked about.
    fn entry_span(&mut self, topo: &Topology, v: u32) -> u64 {
        if self.entry_span[v as usize] == UNKNOWN {
            let start = self.entries.len() as u64;
            let found = hubs_reached(topo, v, &self.hub_index, &mut self.seen, usize::MAX).expect("no budget");
            self.entries.extend(found);
            self.entry_span[v as usize] = start << 32 | (self.entries.len() as u64 - start);
        }
        self.entry_span[v as usize]
    }

    /// BFS from `a` that does not expand hubs or non-transit nodes (the source always expands).
    fn search_region(&mut self, topo: &Topology, a: u32) -> bool {
        self.inside[a as usize] = 0;
        self.touched.push(a);
        let mut head = 0;
        let mut exits = 0;
        while head < self.touched.len() {
            let v = self.touched[head];
            head += 1;
            let hub = self.hub_index[v as usize] != NOT_HUB;
            if v != a && (hub || !topo.transit[v as usize]) {
                exits += hub as usize;
                if exits > MAX_EXITS {
                    return false;
                }
                continue;
            }
            let next = self.inside[v as usize] + 1;
            for &w in topo.out_neighbors(v) {
                if self.inside[w as usize] == FAR {
                    self.inside[w as usize] = next;
                    self.touched.push(w);
                }
            }
            if self.touched.len() > REGION_BUDGET {
                return false;
            }
        }
        true
    }

    /// Caches hub `x`'s tree, evicting the least recently used tree not stamped with the current
    /// clock (the current region's); its slot, or None if every slot is in use.
    fn store(&mut self, x: u32, tree: Vec<u16>) -> Option<usize> {
        self.trees_built += 1;
        let s = if self.trees.len() < self.capacity {
            self.trees.push((x, tree, self.clock));
            self.trees.len() - 1
        } else {
            let s = (0..self.trees.len()).filter(|&s| self.trees[s].2 < self.clock).min_by_key(|&s| self.trees[s].2)?;
            self.slot_of.remove(&self.trees[s].0);
            self.trees[s] = (x, tree, self.clock);
            s
        };
        self.slot_of.insert(x, s);
        Some(s)
    }
}

/// The hubs that reach `v` over a direct link or through non-hub transit nodes only, with the
/// hops, by hub index (a BFS from `v` that expands `v` and non-hub transit nodes); None when it
/// visits more than `budget` nodes. `seen` is FAR everywhere before and after.
fn hubs_reached(topo: &Topology, v: u32, hub_index: &[u32], seen: &mut [u16], budget: usize) -> Option<Vec<(u32, u16)>> {
    let mut queue = vec![v];
    seen[v as usize] = 0;
    let mut found = Vec::new();
    let mut head = 0;
    let mut fits = true;
    while head < queue.len() {
        let u = queue[head];
        head += 1;
        if u != v {
            let h = hub_index[u as usize];
            if h != NOT_HUB {
                found.push((h, seen[u as usize]));
                continue;
            }
            if !topo.transit[u as usize] {
                continue;
            }
        }
        let next = seen[u as usize] + 1;
        if next == FAR || queue.len() > budget {
            fits = false;
            break;
        }
        for &w in topo.out_neighbors(u) {
            if seen[w as usize] == FAR {
                seen[w as usize] = next;
                queue.push(w);
            }
        }
    }
    for &u in &queue {
        seen[u as usize] = FAR;
    }
    fits.then_some(found)
}

/// A graph in CSR form: per node, the start of its list in the second vector, whose entries are
/// (neighbour, hops).
type Csr = (Vec<u32>, Vec<(u32, u16)>);

/// The hub graph of the module note as CSR (per hub index, its neighbours with the hops), the
/// bridges of each hub found by `hubs_reached` in parallel; None when a search exceeds
/// `BRIDGE_BUDGET`.
fn hub_graph(topo: &Topology, hubs: &[u32], hub_index: &[u32]) -> Option<Csr> {
    let lists: Vec<Option<Vec<(u32, u16)>>> = hubs
        .par_iter()
        .map_init(
            || vec![FAR; topo.num_nodes],
            |seen, &x| {
                let mut found = hubs_reached(topo, x, hub_index, seen, BRIDGE_BUDGET)?;
                // Several ways to one hub: the shortest counts.
                found.sort_unstable();
                found.dedup_by_key(|e| e.0);
                Some(found)
            },
        )
        .collect();
    let mut adj_start = Vec::with_capacity(hubs.len() + 1);
    let mut adj = Vec::new();
    adj_start.push(0);
    for list in lists {
        adj.extend(list?);
        adj_start.push(adj.len() as u32);
    }
    Some((adj_start, adj))
}

/// Hops from hub index `x` to every hub over the hub graph (Dial's buckets: bridge lengths are
/// small integers); None if some distance does not fit u16.
fn hub_tree(adj_start: &[u32], adj: &[(u32, u16)], x: u32) -> Option<Vec<u16>> {
    let mut dist = vec![FAR; adj_start.len() - 1];
    dist[x as usize] = 0;
    let mut buckets: Vec<Vec<u32>> = vec![vec![x]];
    let mut d = 0;
    while d < buckets.len() {
        let now = std::mem::take(&mut buckets[d]);
        for &v in &now {
            if dist[v as usize] as usize != d {
                continue; // reached again at a shorter distance
            }
            for &(w, hops) in &adj[adj_start[v as usize] as usize..adj_start[v as usize + 1] as usize] {
                let nd = d + hops as usize;
                if nd >= FAR as usize {
                    return None;
                }
                if nd < dist[w as usize] as usize {
                    dist[w as usize] = nd as u16;
                    if buckets.len() <= nd {
                        buckets.resize(nd + 1, Vec::new());
                    }
                    buckets[nd].push(w);
                }
            }
        }
        d += 1;
    }
    Some(dist)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hop distance from `a` to every node expanding `a` and transit nodes: the per-source tree.
    fn bfs(topo: &Topology, a: u32) -> Vec<f64> {
        let mut dist = vec![f64::INFINITY; topo.num_nodes];
        dist[a as usize] = 0.0;
        let mut queue = std::collections::VecDeque::from([a]);
        while let Some(v) = queue.pop_front() {
            if v != a && !topo.transit[v as usize] {
                continue;
            }
            for &w in topo.out_neighbors(v) {
                if dist[w as usize].is_infinite() {
                    dist[w as usize] = dist[v as usize] + 1.0;
                    queue.push_back(w);
                }
            }
        }
        dist
    }

    /// Random switches (hubs) joined by direct links and by chains of 1-3 non-hub transit nodes
    /// (bridges), with endpoints (non-transit, kind 1) on short chains below them; some chains
    /// join two switches through an endpoint, which no path may cross. Every node's composed
    /// distance from every endpoint equals the search over the whole graph.
    #[test]
    fn composed_distances_equal_whole_graph_searches() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut rnd = |n: usize| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % n as u64) as usize
        };
        for round in 0..6 {
            let switches = 4 + rnd(6);
            let mut kind = vec![0; switches];
            let (mut src, mut dst) = (Vec::new(), Vec::new());
            let link = |a: usize, b: usize, src: &mut Vec<u32>, dst: &mut Vec<u32>| {
                src.push(a as u32);
                dst.push(b as u32);
            };
            let chain = |from: usize, len: usize, end_kind: Option<i32>, kind: &mut Vec<i32>, src: &mut Vec<u32>, dst: &mut Vec<u32>| {
                let mut prev = from;
                for _ in 0..len {
                    kind.push(0);
                    link(prev, kind.len() - 1, src, dst);
                    prev = kind.len() - 1;
                }
                if let Some(k) = end_kind {
                    kind.push(k);
                    link(prev, kind.len() - 1, src, dst);
                    prev = kind.len() - 1;
                }
                prev
            };
            let mut endpoints = Vec::new();
            for s in 0..switches {
                // Enough links to be a hub: endpoints below it.
                for _ in 0..HUB_DEGREE {
                    let len = rnd(3);
                    endpoints.push(chain(s, len, Some(1), &mut kind, &mut src, &mut dst) as u32);
                }
            }
            for _ in 0..switches * 2 {
                let (a, b) = (rnd(switches), rnd(switches));
                if a == b {
                    continue;
                }
                match rnd(3) {
                    0 => link(a, b, &mut src, &mut dst),
                    1 => {
                        let end = chain(a, 1 + rnd(3), None, &mut kind, &mut src, &mut dst);
                        link(end, b, &mut src, &mut dst);
                    }
                    _ => {
                        let e = endpoints[rnd(endpoints.len())] as usize;
                        link(e, b, &mut src, &mut dst); // through an endpoint: no transit
                    }
                }
            }
            let n = kind.len();
            let ones = vec![100.0; src.len()];
            let topo = Topology::new(n, &src, &dst, &ones, &ones, Some(&kind), &[1]).unwrap();
            let mut hubs = HubTrees::new(&topo).expect("switches are hubs");
            if round % 2 == 1 {
                hubs.set_capacity(0); // trees evicted and rebuilt
            }
            for &a in endpoints.iter().step_by(3) {
                assert!(hubs.enter(&topo, a, true, &[]), "round {round}: endpoint {a} has a small region");
                let want = bfs(&topo, a);
                for v in 0..n as u32 {
                    assert_eq!(hubs.dist(&topo, v), want[v as usize], "round {round}: {a} -> {v}");
                }
            }
            assert!(hubs.adj.iter().any(|&(_, hops)| hops > 1), "round {round}: some bridge");
        }
    }
}
