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
//! where `inside` is the search over the region and `tree_x` the full search from hub x. Hop counts
//! are integers, so the composition is exact: a route walked over it is the route a per-source
//! tree gives (tested against that on random fabrics). The servers behind one leaf share its tree:
//! on a 131,072-GPU Clos, ~2,000 searches over the graph instead of one per GPU.
//!
//! A source whose region is large (no hubs nearby, e.g. a torus of NPUs) or has many exits gets
//! no composition (`Region::enter` says so) and the router falls back to a tree of its own.
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

/// Hub trees kept at once (oldest dropped first): each is 2 bytes per node.
const TREE_CACHE_BYTES: usize = 256 << 20;

const FAR: u16 = u16::MAX;

pub struct HubTrees {
    hub: Vec<bool>,
    /// Full hop-count trees from hubs, and the last time each was used (for eviction).
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
    /// Trees built (for tests and the profile).
    pub trees_built: usize,
}

impl HubTrees {
    /// None when the graph has no hub (nothing to share).
    pub fn new(topo: &Topology) -> Option<Self> {
        let hub: Vec<bool> =
            (0..topo.num_nodes as u32).map(|v| topo.transit[v as usize] && topo.out_links(v).len() >= HUB_DEGREE).collect();
        if !hub.contains(&true) {
            return None;
        }
        Some(HubTrees {
            hub,
            trees: Vec::new(),
            slot_of: HashMap::default(),
            capacity: (TREE_CACHE_BYTES / (2 * topo.num_nodes.max(1))).max(MAX_EXITS),
            clock: 0,
            source: u32::MAX,
            usable: false,
            inside: vec![FAR; topo.num_nodes],
            touched: Vec::new(),
            exits: Vec::new(),
            unusable: vec![false; topo.num_nodes],
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
                None => full_tree(topo, x).and_then(|t| self.store(x, t)),
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
        let built: Vec<(u32, Option<Vec<u16>>)> = missing.par_iter().map(|&x| (x, full_tree(topo, x))).collect();
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
        Some(self.touched.iter().filter(|&&v| v != a && self.hub[v as usize]).map(|&v| (v, self.inside[v as usize])).collect())
    }

    /// Hop distance from the current source to `v` (infinite if unreachable).
    #[inline]
    pub fn dist(&self, v: u32) -> f64 {
        let mut best = self.inside[v as usize] as u32;
        for &(s, d) in &self.exits {
            let t = self.trees[s].1[v as usize];
            if t != FAR {
                best = best.min(d as u32 + t as u32);
            }
        }
        if best >= FAR as u32 {
            f64::INFINITY
        } else {
            best as f64
        }
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
            if v != a && (self.hub[v as usize] || !topo.transit[v as usize]) {
                exits += self.hub[v as usize] as usize;
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

/// Hop distance from `x` to every node, expanding only transit nodes (and `x`), as the router's
/// per-source tree does; None if some distance does not fit u16.
fn full_tree(topo: &Topology, x: u32) -> Option<Vec<u16>> {
    let mut dist = vec![FAR; topo.num_nodes];
    let mut queue = Vec::with_capacity(topo.num_nodes);
    dist[x as usize] = 0;
    queue.push(x);
    let mut head = 0;
    while head < queue.len() {
        let v = queue[head];
        head += 1;
        if v != x && !topo.transit[v as usize] {
            continue;
        }
        let next = dist[v as usize] + 1;
        if next == FAR {
            return None;
        }
        for &w in topo.out_neighbors(v) {
            if dist[w as usize] == FAR {
                dist[w as usize] = next;
                queue.push(w);
            }
        }
    }
    Some(dist)
}
