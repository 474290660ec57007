//! The physical graph as the engine sees it: nodes and directed links.
//!
//! Every undirected graph edge (one physical link) becomes two unidirectional links, because a
//! full-duplex link carries traffic in each direction independently: link `2e` goes
//! `src[e] -> dst[e]`, link `2e + 1` goes back. Bandwidth is converted once, here, from the graph's
//! Gbit/s (1e9 bit/s) to the engine's bytes per ns; latency stays in ns.
use crate::error::{invalid, SimResult};

/// Bandwidth used for a link whose bandwidth the graph leaves unspecified (NaN): such edges are a
/// component's internal wiring, modelled as free (no serialization time).
pub const UNSPECIFIED_BW: f64 = f64::INFINITY;

#[derive(Debug, Clone)]
pub struct Topology {
    pub num_nodes: usize,
    /// Per directed link: tail node, head node, bandwidth in bytes/ns, latency in ns.
    pub link_from: Vec<u32>,
    pub link_to: Vec<u32>,
    pub link_bw_bytes_per_ns: Vec<f64>,
    pub link_latency_ns: Vec<f64>,
    /// Node kind code per node (opaque to the engine, used to forbid transit through some kinds).
    pub node_kind: Vec<i32>,
    /// Whether a route may pass *through* the node (endpoints are always allowed).
    pub transit: Vec<bool>,
    /// Nodes that only pass bits on (ports): the congestion-aware model does not store and
    /// forward there, so a message crosses NPU -> port -> port -> NPU as one hop.
    pub cut_through: Vec<bool>,
    adj_start: Vec<u32>,
    adj_links: Vec<u32>,
    /// Head node of each link in `adj_links` (searches read neighbours without a lookup per link).
    adj_nodes: Vec<u32>,
}

/// Gbit/s (1e9 bit/s) to bytes per ns.
pub fn gbps_to_bytes_per_ns(gbps: f64) -> f64 {
    gbps / 8.0
}

impl Topology {
    /// Builds the directed-link view from per-edge arrays (`edge_*` have one entry per physical
    /// link). NaN bandwidth = unspecified (free); NaN latency = 0 ns.
    pub fn new(
        num_nodes: usize,
        edge_src: &[u32],
        edge_dst: &[u32],
        edge_bw_gbps: &[f64],
        edge_latency_ns: &[f64],
        node_kind: Option<&[i32]>,
        no_transit_kinds: &[i32],
    ) -> SimResult<Self> {
        let m = edge_src.len();
        if edge_dst.len() != m || edge_bw_gbps.len() != m || edge_latency_ns.len() != m {
            return invalid(format!(
                "edge arrays differ in length: src {}, dst {}, bandwidth {}, latency {}",
                m,
                edge_dst.len(),
                edge_bw_gbps.len(),
                edge_latency_ns.len()
            ));
        }
        let node_kind: Vec<i32> = match node_kind {
            Some(k) if k.len() != num_nodes => {
                return invalid(format!("node kind array has {} entries for {num_nodes} nodes", k.len()))
            }
            Some(k) => k.to_vec(),
            None => vec![0; num_nodes],
        };
        let transit = node_kind.iter().map(|k| !no_transit_kinds.contains(k)).collect();
        // Per-link arrays on 2 MB pages (huge_pages): a million-GPU fabric has 16 M directed links,
        // and on 4 KB pages the kernel's page faults filling them cost more than the filling.
        use crate::huge_pages::{filled, with_capacity};
        let mut t = Topology {
            num_nodes,
            link_from: with_capacity(2 * m),
            link_to: with_capacity(2 * m),
            link_bw_bytes_per_ns: with_capacity(2 * m),
            link_latency_ns: with_capacity(2 * m),
            cut_through: vec![false; num_nodes],
            node_kind,
            transit,
            adj_start: filled(num_nodes + 1, 0),
            adj_links: filled(2 * m, 0),
            adj_nodes: Vec::new(),
        };
        for e in 0..m {
            let (s, d) = (edge_src[e], edge_dst[e]);
            if s as usize >= num_nodes || d as usize >= num_nodes {
                return invalid(format!("edge {e} references node {} but there are {num_nodes} nodes", s.max(d)));
            }
            if s == d {
                return invalid(format!("edge {e} connects node {s} to itself"));
            }
            let bw = edge_bw_gbps[e];
            if !(bw.is_nan() || bw > 0.0) {
                return invalid(format!("edge {e} has bandwidth {bw} Gbit/s; it must be positive"));
            }
            let lat = edge_latency_ns[e];
            if !(lat.is_nan() || lat >= 0.0) || lat.is_infinite() {
                return invalid(format!("edge {e} has latency {lat} ns; it must be finite and >= 0"));
            }
            let bw = if bw.is_nan() { UNSPECIFIED_BW } else { gbps_to_bytes_per_ns(bw) };
            let lat = if lat.is_nan() { 0.0 } else { lat };
            for (a, b) in [(s, d), (d, s)] {
                t.link_from.push(a);
                t.link_to.push(b);
                t.link_bw_bytes_per_ns.push(bw);
                t.link_latency_ns.push(lat);
            }
        }
        // CSR adjacency of outgoing links, links in id order per node (determinism).
        for &a in &t.link_from {
            t.adj_start[a as usize + 1] += 1;
        }
        for i in 0..num_nodes {
            t.adj_start[i + 1] += t.adj_start[i];
        }
        let mut fill = t.adj_start.clone();
        for (l, &a) in t.link_from.iter().enumerate() {
            t.adj_links[fill[a as usize] as usize] = l as u32;
            fill[a as usize] += 1;
        }
        t.adj_nodes = with_capacity(2 * m);
        t.adj_nodes.extend(t.adj_links.iter().map(|&l| t.link_to[l as usize]));
        Ok(t)
    }

    /// Forbids transit through the given nodes (on top of the no-transit kinds): GPUs that are not
    /// their fabric's routers, NIC ASICs that must not pass one server's traffic to another.
    pub fn forbid_transit(&mut self, nodes: &[u32]) -> SimResult<()> {
        for &n in nodes {
            if n as usize >= self.num_nodes {
                return invalid(format!("no-transit node {n} is outside the {}-node graph", self.num_nodes));
            }
            self.transit[n as usize] = false;
        }
        Ok(())
    }

    /// Marks every node of the given kinds as cut-through (see `cut_through`).
    pub fn set_cut_through_kinds(&mut self, kinds: &[i32]) {
        for (c, k) in self.cut_through.iter_mut().zip(&self.node_kind) {
            *c = kinds.contains(k);
        }
    }

    pub fn num_links(&self) -> usize {
        self.link_from.len()
    }

    /// Outgoing directed links of `node`.
    pub fn out_links(&self, node: u32) -> &[u32] {
        let n = node as usize;
        &self.adj_links[self.adj_start[n] as usize..self.adj_start[n + 1] as usize]
    }

    /// Heads of the outgoing links of `node`, in `out_links` order.
    pub fn out_neighbors(&self, node: u32) -> &[u32] {
        let n = node as usize;
        &self.adj_nodes[self.adj_start[n] as usize..self.adj_start[n + 1] as usize]
    }

    /// Convenience for tests and benchmarks: every edge with the same bandwidth and latency.
    pub fn uniform(num_nodes: usize, edges: &[(u32, u32)], bw_gbps: f64, latency_ns: f64) -> SimResult<Self> {
        let s: Vec<u32> = edges.iter().map(|e| e.0).collect();
        let d: Vec<u32> = edges.iter().map(|e| e.1).collect();
        Topology::new(num_nodes, &s, &d, &vec![bw_gbps; edges.len()], &vec![latency_ns; edges.len()], None, &[])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_come_in_direction_pairs() {
        let t = Topology::uniform(3, &[(0, 1), (1, 2)], 80.0, 5.0).unwrap();
        assert_eq!(t.num_links(), 4);
        assert_eq!((t.link_from[1], t.link_to[1]), (1, 0));
        assert_eq!(t.link_bw_bytes_per_ns[0], 10.0);
        assert_eq!(t.out_links(1), &[1, 2]);
    }

    #[test]
    fn rejects_bad_edges() {
        assert!(Topology::uniform(2, &[(0, 2)], 1.0, 1.0).is_err());
        assert!(Topology::uniform(2, &[(1, 1)], 1.0, 1.0).is_err());
        assert!(Topology::uniform(2, &[(0, 1)], 0.0, 1.0).is_err());
    }
}
