//! The fold over the servers' XORs (`symmetry::find_orbits`) proved from the fabric's structure
//! instead of from every member's routes.
//!
//! `find_orbits` routes every connection of every member and compares them generator by
//! generator: on the 131,072-GPU Clos that is about 2 M routes, most of the run's cost. Here only
//! the representatives' connections (server 0's) are routed, and the rest follows from three
//! facts checked on the graph, each in time linear in its size:
//!
//! 1. **An automorphism per generator.** For each XOR of the server coordinate by `t = 2^b`, a
//!    map `s_t` of the nodes is built (GPUs to the GPUs of server `c ^ t` at the same place,
//!    NICs by affinity, the rest of a server by its copy's node-id offset, and the switch tiers
//!    level by level from the NICs up, a switch's up-ports by the d-mod-k digit their
//!    destinations differ in: position `r` to `r ^ tau`), then *checked*: a bijection of the
//!    nodes that maps every directed link onto one with the same bandwidth, latency, routing
//!    policy and tier, and keeps every node's kind, transit and cut-through; that maps member
//!    `(c, i)` to `(c ^ t, i)`, every GPU's NIC to its image's NIC, servers onto servers, and (PXN)
//!    a GPU's place in its server. Distances from `s_t(a)` are then distances from `a` mapped,
//!    so the equally short ways at `s_t(v)` are the images of those at `v`.
//! 2. **d-mod-k follows the maps.** Routing server 0's connections records every pick among
//!    several ways (`Router::record_picks`). Each must be a d-mod-k pick, and for every element
//!    of the group, reached along a Gray code by one generator at a time, the pick's image must
//!    be the way d-mod-k takes at the image: among the mapped candidates, in the order of their
//!    tail nodes, the one at the digit of the mapped destination's index. By induction along
//!    the walk and along the Gray code, the routes of member `g(m)` are the images of member
//!    `m`'s, link for link.
//! 3. **A free action on the links used.** Along the same Gray code every link server 0 uses
//!    has as many distinct images as there are servers, and two such links' image sets are
//!    equal or disjoint: the classes are the link orbits (as `find_orbits` computes them by
//!    union-find), each link's state stands for its class, and a class's load is the sum of its
//!    server-0 links' loads (`link_loads`, exact in fixed point).
//!
//! Anything else (ECMP hashing or adaptive picks, sprays, latency routing, DOR, a failed or
//! slowed link, an asymmetric shape, a map that cannot be built) is refused with the reason, and
//! the engine falls back to `find_orbits`, which may still fold, and then to the full run.
use crate::csr_runs::sort_dedup_run;
use crate::engine::SimConfig;
use crate::plan::{JobPlan, Scheduling};
use crate::routing::{dmodk_key, dmodk_way, Metric, Pick, Policy, Router, NO_NIC};
use crate::symmetry::{check_parts, orbit_premises, route_members, Fold, SymmetryRefused};
use crate::topology::Topology;
use rayon::prelude::*;
use std::collections::HashMap;

const NONE: u32 = u32::MAX;

/// The link orbits of a structurally proved fold: per class, the server-0 links in it and all
/// its links (one per element of the group).
pub struct Classes {
    pub members: Vec<Vec<u32>>,
    pub images: Vec<Vec<u32>>,
}

/// Where a node sits: inside a server (reached from the GPUs without crossing a NIC), an anchor
/// (a NIC, or a GPU where there is no NIC affinity), or the fabric above the anchors.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Unreached,
    Server,
    Anchor,
    Fabric,
}

/// The graph's shape, shared by every generator: sides, fabric levels above the anchors, and
/// every node's out-links sorted by (head, id).
struct Shape {
    side: Vec<Side>,
    level: Vec<u32>,
    /// Anchors and fabric nodes in breadth-first order from the anchors (levels ascending).
    order: Vec<u32>,
    sorted_start: Vec<u32>,
    sorted: Vec<u32>,
    /// Per node: its NPU rank (NONE: not an NPU).
    npu_rank: Vec<u32>,
    /// Per anchor or fabric node: its neighbours one level up, sorted (`ups`).
    up_start: Vec<u32>,
    up: Vec<u32>,
    /// Per NPU rank: its place among its server's NPUs (rank order).
    position: Vec<u32>,
}

impl Shape {
    /// The fabric neighbours of `u` one level further from the anchors, by node id.
    fn ups(&self, u: u32) -> &[u32] {
        &self.up[self.up_start[u as usize] as usize..self.up_start[u as usize + 1] as usize]
    }
}

/// One generator's maps: node -> image, directed link -> image.
struct Maps {
    nodes: Vec<u32>,
    links: Vec<u32>,
}

/// Proves the fold over the XORs of the outermost coordinate from the structure (module doc);
/// routes the representatives' connections with `router`, which keeps them for the run.
#[allow(clippy::too_many_arguments)]
pub fn prove(
    plan: &JobPlan,
    groups: usize,
    scheduling: Scheduling,
    member_nodes: &[u32],
    npu_nodes: &[u32],
    router: &mut Router,
    topo: &Topology,
    cfg: &SimConfig,
) -> Result<Fold, SymmetryRefused> {
    orbit_premises(plan, groups, scheduling, cfg)?;
    if cfg.metric != Metric::Hops {
        return Err("routing by latency: the structural proof covers hop-count routes".to_string().into());
    }
    if cfg.dor_dims.is_some() {
        return Err("dimension-order routing: the structural proof covers shortest paths".to_string().into());
    }
    let outer = plan.dims.len() - 1;
    let n = plan.dims[outer];
    let members = plan.ranks.len();
    let inner = members / n;
    // Server 0's connections, in the full run's priming order, with every pick recorded.
    router.record_picks();
    let conns = route_members(plan, member_nodes, router, inner);
    let (picks, sprayed) = router.take_picks();
    let conns = conns?;
    if sprayed {
        return Err("a connection is sprayed over several ways".to_string().into());
    }
    let per_member = conns.first().map_or(0, |c| c.len());
    if let Some((m, c)) = conns.iter().enumerate().find(|(_, c)| c.len() != per_member) {
        return Err(format!("member {m} has {} connections, member 0 {per_member}", c.len()).into());
    }
    let sets: Vec<u32> = conns.concat();
    check_parts(&sets, router, topo, cfg)?;
    if let Some(p) = picks.iter().find(|p| p.policy != Policy::DModK) {
        return Err(format!(
            "a route picks among {} ways into node {} by {:?}, which need not follow the servers (d-mod-k does)",
            p.cand.len(),
            p.node,
            p.policy
        )
        .into());
    }
    let shape = shape(topo, npu_nodes, cfg)?;
    let bits = n.trailing_zeros() as usize;
    // Collected as results first, then the first failure in generator order: rayon's collect into
    // a Result returns whichever failure a thread meets first, so the refusal's reason would vary.
    let maps: Vec<Maps> = (0..bits)
        .into_par_iter()
        .map(|b| generator_maps(1 << b, inner, &shape, topo, npu_nodes, member_nodes, cfg, router))
        .collect::<Vec<Result<Maps, String>>>()
        .into_iter()
        .collect::<Result<_, String>>()?;
    picks_follow(&picks, &maps, n, topo, router)?;
    let mut used: Vec<u32> = sets.iter().flat_map(|&s| router.parts(s).iter().flat_map(|&(r, _)| router.links(r).iter().copied())).collect();
    used.sort_unstable();
    used.dedup();
    let (classes, link_rep) = orbits(&used, &maps, n, topo)?;
    Ok(Fold { period: inner, per_member, sets, link_rep, classes: Some(classes) })
}

/// Sides, levels and sorted adjacency (see `Shape`).
fn shape(topo: &Topology, npu_nodes: &[u32], cfg: &SimConfig) -> Result<Shape, String> {
    let nodes = topo.num_nodes;
    let mut side = vec![Side::Unreached; nodes];
    let anchors: Vec<u32> = if cfg.affinity.is_empty() {
        npu_nodes.to_vec()
    } else {
        if cfg.affinity.iter().any(|&(nic, _)| nic == NO_NIC) {
            return Err("an NPU without a NIC among NPUs with NICs".into());
        }
        cfg.affinity.iter().map(|&(nic, _)| nic).collect()
    };
    for &a in &anchors {
        side[a as usize] = Side::Anchor;
    }
    // Inside the servers: from the NPUs, never past an anchor.
    let inside: Vec<u32> = npu_nodes.iter().copied().filter(|&x| side[x as usize] != Side::Anchor).collect();
    for &x in &inside {
        side[x as usize] = Side::Server;
    }
    breadth_first(topo, &mut side, inside, Side::Server, |_, _| {});
    // The fabric, level by level from the anchors.
    let mut level = vec![NONE; nodes];
    let mut start: Vec<u32> = anchors.clone();
    start.sort_unstable();
    start.dedup();
    for &a in &start {
        level[a as usize] = 0;
    }
    let order = breadth_first(topo, &mut side, start, Side::Fabric, |u, w| level[w as usize] = level[u as usize] + 1);
    let (mut up_start, mut up) = (Vec::with_capacity(nodes + 1), Vec::new());
    up_start.push(0u32);
    for u in 0..nodes {
        if matches!(side[u], Side::Anchor | Side::Fabric) {
            let from = up.len();
            let next = level[u] + 1;
            up.extend(topo.out_neighbors(u as u32).iter().copied().filter(|&w| side[w as usize] == Side::Fabric && level[w as usize] == next));
            let to = up.len();
            let end = sort_dedup_run(&mut up, from, to, from);
            up.truncate(end);
        }
        up_start.push(up.len() as u32);
    }
    let mut sorted_start = Vec::with_capacity(nodes + 1);
    let mut sorted = Vec::with_capacity(topo.num_links());
    sorted_start.push(0u32);
    for u in 0..nodes as u32 {
        let from = sorted.len();
        sorted.extend_from_slice(topo.out_links(u));
        sorted[from..].sort_unstable_by_key(|&l| (topo.link_to[l as usize], l));
        sorted_start.push(sorted.len() as u32);
    }
    let mut npu_rank = vec![NONE; nodes];
    for (r, &x) in npu_nodes.iter().enumerate() {
        npu_rank[x as usize] = r as u32;
    }
    let mut count: HashMap<u32, u32> = HashMap::new();
    let position = (0..npu_nodes.len())
        .map(|r| {
            let server = cfg.affinity.get(r).map_or(r as u32, |&(_, s)| s);
            let k = count.entry(server).or_insert(0);
            *k += 1;
            *k - 1
        })
        .collect();
    Ok(Shape { side, level, order, sorted_start, sorted, npu_rank, up_start, up, position })
}

/// Breadth-first from `queue` (already marked) over the nodes still `Unreached`: each is marked `mark`
/// and handed to `visit(u, w)` (w reached from u) for what the walk records; returns every node
/// walked, the start first, in visit order. `shape`'s two walks (inside the servers, then across
/// the fabric from the anchors) differ only in the mark and the record.
fn breadth_first(topo: &Topology, side: &mut [Side], mut queue: Vec<u32>, mark: Side, mut visit: impl FnMut(u32, u32)) -> Vec<u32> {
    let mut head = 0;
    while head < queue.len() {
        let u = queue[head];
        head += 1;
        for &w in topo.out_neighbors(u) {
            if side[w as usize] == Side::Unreached {
                side[w as usize] = mark;
                visit(u, w);
                queue.push(w);
            }
        }
    }
    queue
}

/// Builds the node map of the generator XOR `t` and checks it (module doc, 1): the maps, or why not.
#[allow(clippy::too_many_arguments)]
fn generator_maps(
    t: usize,
    inner: usize,
    shape: &Shape,
    topo: &Topology,
    npu_nodes: &[u32],
    member_nodes: &[u32],
    cfg: &SimConfig,
    router: &Router,
) -> Result<Maps, String> {
    let nodes = topo.num_nodes;
    let mut s = vec![NONE; nodes];
    let mut queue: Vec<u32> = Vec::new();
    let set = |s: &mut Vec<u32>, queue: &mut Vec<u32>, x: u32, y: u32| -> Result<(), String> {
        match s[x as usize] {
            NONE => {
                s[x as usize] = y;
                queue.push(x);
                Ok(())
            }
            z if z == y => Ok(()),
            z => Err(format!("under the XOR of the servers by {t}, node {x} would map to both node {z} and node {y}")),
        }
    };
    for (m, &x) in member_nodes.iter().enumerate() {
        let image = ((m / inner) ^ t) * inner + m % inner;
        set(&mut s, &mut queue, x, member_nodes[image])?;
    }
    if !cfg.affinity.is_empty() {
        for (r, &x) in npu_nodes.iter().enumerate() {
            let y = s[x as usize];
            if y != NONE && shape.npu_rank[y as usize] != NONE {
                set(&mut s, &mut queue, cfg.affinity[r].0, cfg.affinity[shape.npu_rank[y as usize] as usize].0)?;
            }
        }
    }
    // Inside the servers: a copy's nodes sit at its own offset.
    let mut head = 0;
    while head < queue.len() {
        let u = queue[head];
        head += 1;
        if !matches!(shape.side[u as usize], Side::Server | Side::Anchor) {
            continue;
        }
        let u2 = s[u as usize];
        let delta = u2 as i64 - u as i64;
        for &w in topo.out_neighbors(u) {
            if shape.side[w as usize] != Side::Server {
                continue;
            }
            let w2 = w as i64 + delta;
            if w2 < 0 || w2 >= nodes as i64 || !topo.out_neighbors(u2).contains(&(w2 as u32)) {
                return Err(format!("node {w} has no image at the offset of its server's copy under the XOR by {t}"));
            }
            set(&mut s, &mut queue, w, w2 as u32)?;
        }
    }
    // The fabric, level by level: a node's up-neighbours by the d-mod-k digit its destinations
    // differ in (witness: an anchor below it; divisor: the way counts below it).
    let mut witness = vec![NONE; nodes];
    let mut divisor = vec![0u64; nodes];
    for &u in &shape.order {
        if shape.side[u as usize] == Side::Anchor {
            witness[u as usize] = u;
            divisor[u as usize] = 1;
        }
        let u2 = s[u as usize];
        if u2 == NONE {
            return Err(format!("node {u} has no image under the XOR by {t}"));
        }
        if shape.side[u2 as usize] != shape.side[u as usize] || shape.level[u2 as usize] != shape.level[u as usize] {
            return Err(format!("node {u} and its image {u2} lie at different places above the NICs (XOR by {t})"));
        }
        let up = shape.ups(u);
        if up.is_empty() {
            continue;
        }
        let up2 = shape.ups(u2);
        if up.len() != up2.len() {
            return Err(format!("nodes {u} and {u2} have {} and {} links up", up.len(), up2.len()));
        }
        let k = up.len();
        let (wit, div) = (witness[u as usize], divisor[u as usize]);
        let tau = if k == 1 {
            0
        } else {
            if !k.is_power_of_two() {
                return Err(format!("node {u} has {k} ways up, not a power of two"));
            }
            let digit = |x: u32| router.destination_index(x) / div.max(1);
            ((digit(wit) ^ digit(s[wit as usize])) % k as u64) as usize
        };
        for r in 0..k {
            set(&mut s, &mut queue, up[r], up2[r ^ tau])?;
            let w = up[r] as usize;
            if witness[w] == NONE {
                witness[w] = wit;
                divisor[w] = if k == 1 { div } else { div.saturating_mul(k as u64) };
            }
        }
    }
    // Unlinked nodes stay where they are; every other node must have been reached.
    for (u, image) in s.iter_mut().enumerate() {
        if *image == NONE {
            if !topo.out_links(u as u32).is_empty() {
                return Err(format!("node {u} is neither inside a server nor above its NICs"));
            }
            *image = u as u32;
        }
    }
    let mut hit = vec![false; nodes];
    for &y in &s {
        if std::mem::replace(&mut hit[y as usize], true) {
            return Err(format!("two nodes map onto node {y} under the XOR by {t}"));
        }
    }
    drop(hit);
    let links = automorphism(&s, t, shape, topo, cfg)?;
    members_follow(&s, t, shape, npu_nodes, cfg)?;
    Ok(Maps { nodes: s, links })
}

/// Checks that the node map `s` is an automorphism of the graph as the engine sees it; the map
/// of directed links (the k-th of parallel links onto the k-th).
fn automorphism(s: &[u32], t: usize, shape: &Shape, topo: &Topology, cfg: &SimConfig) -> Result<Vec<u32>, String> {
    let mut links = vec![NONE; topo.num_links()];
    let edge = |l: u32| cfg.policies.get(l as usize / 2).copied();
    for u in 0..topo.num_nodes {
        let u2 = s[u] as usize;
        if topo.node_kind[u] != topo.node_kind[u2] || topo.transit[u] != topo.transit[u2] || topo.cut_through[u] != topo.cut_through[u2] {
            return Err(format!("nodes {u} and {u2} (XOR by {t}) differ in kind, transit or cut-through"));
        }
        let a = &shape.sorted[shape.sorted_start[u] as usize..shape.sorted_start[u + 1] as usize];
        let b = &shape.sorted[shape.sorted_start[u2] as usize..shape.sorted_start[u2 + 1] as usize];
        if a.len() != b.len() {
            return Err(format!("nodes {u} and {u2} (XOR by {t}) have {} and {} links", a.len(), b.len()));
        }
        let mut i = 0;
        while i < a.len() {
            let v = topo.link_to[a[i] as usize];
            let run = a[i..].iter().take_while(|&&l| topo.link_to[l as usize] == v).count();
            let v2 = s[v as usize];
            let at = b.partition_point(|&l| topo.link_to[l as usize] < v2);
            let run2 = b[at..].iter().take_while(|&&l| topo.link_to[l as usize] == v2).count();
            if run != run2 {
                return Err(format!("link {u} -> {v} has no image {u2} -> {v2} under the XOR by {t}"));
            }
            for k in 0..run {
                let (l, l2) = (a[i + k], b[at + k]);
                let (x, y) = (l as usize, l2 as usize);
                if topo.link_bw_bytes_per_ns[x].to_bits() != topo.link_bw_bytes_per_ns[y].to_bits()
                    || topo.link_latency_ns[x].to_bits() != topo.link_latency_ns[y].to_bits()
                    || edge(l) != edge(l2)
                {
                    return Err(format!(
                        "directed links {l} ({u} -> {v}) and {l2} ({u2} -> {v2}) differ in speed, latency or routing policy (XOR by {t})"
                    ));
                }
                links[x] = l2;
            }
            i += run;
        }
    }
    Ok(links)
}

/// Checks that the map keeps what routing reads off the NPUs: every NPU maps onto an NPU, its
/// NIC onto the image's NIC, servers onto servers, and (PXN) its place in its server.
fn members_follow(s: &[u32], t: usize, shape: &Shape, npu_nodes: &[u32], cfg: &SimConfig) -> Result<(), String> {
    // Server ids as the Python layer numbers them: below the NPU count.
    let servers = cfg.affinity.iter().map(|&(_, s)| s as usize + 1).max().unwrap_or(0);
    if servers > npu_nodes.len() {
        return Err(format!("server id {} is not below the NPU count", servers - 1));
    }
    let (mut server_image, mut server_source) = (vec![NONE; servers], vec![NONE; servers]);
    for (r, &x) in npu_nodes.iter().enumerate() {
        let r2 = shape.npu_rank[s[x as usize] as usize];
        if r2 == NONE {
            return Err(format!("NPU node {x} maps onto node {}, not an NPU (XOR by {t})", s[x as usize]));
        }
        let Some(&(nic, server)) = cfg.affinity.get(r) else { continue };
        let (nic2, server2) = cfg.affinity[r2 as usize];
        let nic_image = if nic == NO_NIC { NO_NIC } else { s[nic as usize] };
        if nic_image != nic2 {
            return Err(format!("NPU node {x}'s NIC does not map onto its image's NIC (XOR by {t})"));
        }
        let (image, source) = (&mut server_image[server as usize], &mut server_source[server2 as usize]);
        if *image == NONE {
            *image = server2;
        }
        if *source == NONE {
            *source = server;
        }
        if *image != server2 || *source != server {
            return Err(format!("the XOR by {t} does not map servers onto servers"));
        }
        if cfg.pxn && shape.position[r] != shape.position[r2 as usize] {
            return Err(format!("NPU node {x} and its image have different places in their servers (PXN)"));
        }
    }
    Ok(())
}

/// The Gray code's generators: element i of the group is element i - 1 XOR the bit flipped.
fn gray_bit(i: usize) -> usize {
    i.trailing_zeros() as usize
}

/// Checks that every recorded d-mod-k pick's image, under every element of the group, is the
/// pick d-mod-k makes at the image (module doc, 2).
fn picks_follow(picks: &[Pick], maps: &[Maps], n: usize, topo: &Topology, router: &Router) -> Result<(), String> {
    // Picks at one node among one candidate set share the mapped candidates.
    let mut group_of: HashMap<(u32, Vec<u32>), usize> = HashMap::new();
    let mut cands: Vec<Vec<u32>> = Vec::new();
    let mut recs: Vec<(usize, u32, u32, u64)> = Vec::new(); // (group, destination, chosen, divisor)
    for p in picks {
        let mut key = p.cand.clone();
        key.sort_unstable();
        let next = cands.len();
        let g = *group_of.entry((p.node, key)).or_insert(next);
        if g == next {
            cands.push(p.cand.clone());
        }
        recs.push((g, p.dest, p.chosen, p.divisor));
    }
    // The candidates' d-mod-k order keys (routing's own), per group.
    let key = |l: u32| dmodk_key(topo, l);
    let mut keys: Vec<Vec<u64>> = cands.iter().map(|c| c.iter().map(|&l| key(l)).collect()).collect();
    for i in 1..n {
        let m = &maps[gray_bit(i)];
        for (c, k) in cands.iter_mut().zip(&mut keys) {
            for (l, x) in c.iter_mut().zip(k.iter_mut()) {
                *l = m.links[*l as usize];
                *x = key(*l);
            }
        }
        for (g, dest, chosen, div) in &mut recs {
            *dest = m.nodes[*dest as usize];
            *chosen = m.links[*chosen as usize];
            // d-mod-k takes the way at the digit's place in key order (`dmodk_way`): the image
            // must sit there among the mapped candidates.
            let k = &keys[*g];
            let digit = (router.destination_index(*dest) / (*div).max(1)) % k.len() as u64;
            let mine = key(*chosen);
            let rank = k.iter().filter(|&&x| x < mine).count() as u64;
            if rank != digit {
                let want = dmodk_way(topo, &cands[*g], digit);
                return Err(format!(
                    "d-mod-k does not follow the XOR of the servers by {}: towards node {dest} it takes link {want}, not the image {chosen}",
                    i ^ (i >> 1)
                ));
            }
        }
    }
    Ok(())
}

/// The link orbits of the links server 0 uses (module doc, 3): the classes and every directed
/// link's representative (its class's smallest link; itself when unused). A class is the images
/// of its first link along the Gray code (element g: `images[g]`), which must be n distinct
/// links, disjoint from the other classes. A server-0 link found among them, as element h, must
/// have `images[h ^ g]` as its element-g image, for every g: then its image set is the class's,
/// one per element (the same orbit, and no symmetry fixes it).
fn orbits(used: &[u32], maps: &[Maps], n: usize, topo: &Topology) -> Result<(Classes, Vec<u32>), String> {
    let links = topo.num_links();
    let mut owner = vec![NONE; links];
    let mut element = vec![NONE; links];
    let mut classes = Classes { members: Vec::new(), images: Vec::new() };
    // Links found in a class already: (link, class, its element), checked below all at once.
    let mut found: Vec<(u32, u32, usize)> = Vec::new();
    for &l0 in used {
        let known = owner[l0 as usize];
        let mut cur = l0;
        if known != NONE {
            found.push((l0, known, element[l0 as usize] as usize));
            classes.members[known as usize].push(l0);
            continue;
        }
        let class = classes.images.len() as u32;
        let mut images = vec![NONE; n];
        for i in 0..n {
            if i > 0 {
                cur = maps[gray_bit(i)].links[cur as usize];
            }
            match std::mem::replace(&mut owner[cur as usize], class) {
                NONE => {
                    images[i ^ (i >> 1)] = cur;
                    element[cur as usize] = (i ^ (i >> 1)) as u32;
                }
                c if c == class => {
                    let (a, b) = (topo.link_from[l0 as usize], topo.link_to[l0 as usize]);
                    return Err(format!(
                        "directed link {l0} (node {a} -> {b}) has fewer than {n} images under the XORs of the servers: a symmetry fixes it"
                    ));
                }
                _ => return Err(format!("the images of directed link {l0} meet another orbit")),
            }
        }
        classes.members.push(vec![l0]);
        classes.images.push(images);
    }
    // The found links walk the Gray code in step (independent lookups, not one chain each).
    let mut cur: Vec<u32> = found.iter().map(|f| f.0).collect();
    for i in 1..n {
        let (m, g) = (&maps[gray_bit(i)].links, i ^ (i >> 1));
        for (c, &(l0, class, h)) in cur.iter_mut().zip(&found) {
            *c = m[*c as usize];
            let images = &classes.images[class as usize];
            if *c != images[h ^ g] {
                return Err(format!("the images of directed links {l0} and {} differ under the XOR by {g}", images[0]));
            }
        }
    }
    let mut link_rep: Vec<u32> = (0..links as u32).collect();
    for (members, images) in classes.members.iter().zip(&classes.images) {
        let rep = *images.iter().min().expect("n images");
        for &l in members {
            link_rep[l as usize] = rep;
        }
    }
    Ok((classes, link_rep))
}

/// Every link's bytes, busy time and route count in the full run, from the representatives'
/// route bytes (`rep_bytes`, by route id of `router`): a class's links each carry the sum over
/// its server-0 links. None when some route's bytes are not exact in fixed point (the full run
/// then sums floats in route order, which only routing every member reproduces).
pub fn link_loads(fold: &Fold, classes: &Classes, rep_bytes: &[f64], topo: &Topology, router: &Router) -> Option<(Vec<f64>, Vec<f64>, Vec<u32>)> {
    const SCALE: f64 = 18_446_744_073_709_551_616.0; // 2^64, as network::link_loads
    let mut routes: Vec<u32> = fold.sets.iter().flat_map(|&s| router.parts(s).iter().map(|&(r, _)| r)).collect();
    routes.sort_unstable();
    routes.dedup();
    let mut exact0: HashMap<u32, (i128, u32)> = HashMap::new();
    for r in routes {
        let b = rep_bytes.get(r as usize).copied().unwrap_or(0.0);
        if b > 0.0 {
            let scaled = b * SCALE;
            let fixed = scaled as i128;
            if fixed as f64 != scaled || b >= 4.0e18 {
                return None;
            }
            for &l in router.links(r) {
                let e = exact0.entry(l).or_insert((0, 0));
                e.0 += fixed;
                e.1 += 1;
            }
        }
    }
    let links = topo.num_links();
    let (mut bytes, mut count) = (vec![0.0; links], vec![0u32; links]);
    for (members, images) in classes.members.iter().zip(&classes.images) {
        let (mut sum, mut k) = (0i128, 0u32);
        for l in members {
            if let Some(&(x, c)) = exact0.get(l) {
                sum += x;
                k += c;
            }
        }
        let b = sum as f64 / SCALE;
        for &l in images {
            bytes[l as usize] = b;
            count[l as usize] = k;
        }
    }
    let busy = bytes.iter().zip(&topo.link_bw_bytes_per_ns).map(|(b, bw)| b / bw).collect();
    Some((bytes, busy, count))
}
