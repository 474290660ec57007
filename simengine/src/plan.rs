//! From a collective request to per-group phase lists: chunking and multi-dimensional phases.
//!
//! A group's members are arranged over logical dimensions (dimension 0 varies fastest). Each
//! chunk walks the phase list of the design note (e.g. All-Reduce localBWAware: RS over the first
//! dimensions, AR on the last, AG back), and each phase runs one algorithm inside every
//! dimension group. Size-1 dimensions contribute no phase.
use std::sync::Arc;

use crate::algorithms::{Algo, Op, PhaseAlgo};
use crate::pair_gate::PairOrder;
use crate::schedule_program::Program;
use crate::dim_scheduling::{Greedy, InterScheduling, IntraScheduling};
use crate::error::{invalid, SimError, SimResult};
use crate::routing::coords;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Optimization {
    Baseline,
    LocalBwAware,
}

#[derive(Debug, Clone)]
pub struct CollectiveSpec {
    pub op: Op,
    /// Per-NPU buffer in bytes (All-Gather: each NPU's shard).
    pub size_bytes: f64,
    /// Process groups: each a list of NPU ranks; all run the collective concurrently.
    pub groups: Vec<Vec<u32>>,
    /// Logical dimensions of every group (empty: one dimension spanning the group).
    pub dims: Vec<usize>,
    /// One algorithm per dimension, or a single one used for every dimension.
    pub algorithms: Vec<Algo>,
    /// The schedules of each `Algo::Schedule` entry of `algorithms` (same index), one per
    /// collective its phases may run (an all-reduce schedule may come with its reduce-scatter
    /// and all-gather halves for localBWAware's phases); empty: none.
    pub programs: Vec<Vec<Arc<Program>>>,
    /// A schedule with per-chunk dependencies: process group g runs chunk g's transfers (the
    /// groups are copies of one group); empty: none.
    pub chunk_programs: Vec<Arc<Program>>,
    /// With `chunk_programs`: each (sender, receiver) pair's messages in step order, which the
    /// fair model sends one at a time (`pair_gate`); None: no such order.
    pub chunk_order: Option<Arc<PairOrder>>,
    /// The paths a schedule's transfers name (their `way`s, `schedule_program`): per way, the
    /// positions of its sender and receiver in the (one) process group and the directed links from
    /// the one's NPU to the other's, in order. Empty: every transfer routed by the engine.
    pub routes: Vec<(u32, u32, Vec<u32>)>,
    /// Root member index within the group (broadcast, reduce, point-to-point source).
    pub root: usize,
    /// `preferred-dataset-splits`.
    pub chunks: usize,
    pub active_chunks_per_dim: usize,
    pub endpoint_delay_ns: f64,
    /// Local memory bandwidth for reductions, GB/s with GB = 1e9 B (= bytes/ns); None: free.
    pub local_mem_bw_gb_per_s: Option<f64>,
    pub optimization: Optimization,
    /// Which waiting chunk a dimension admits next (see `engine::Sim::admit`).
    pub scheduling: Scheduling,
    /// ASTRA-sim's `intra-dimension-scheduling` (arrival and LIFO scheduling only).
    pub intra: IntraScheduling,
    /// ASTRA-sim's `inter-dimension-scheduling`.
    pub inter: InterScheduling,
    /// Bandwidth of each logical dimension (any unit; only ratios count): offlineGreedy's loads.
    pub dim_bandwidth: Vec<f64>,
    /// Per process group, when each member starts its part (ns, >= 0; a workload's members issue
    /// a collective at different times, and ASTRA-sim starts each member's part at its own issue).
    /// Messages that reach a member before it starts wait for it. Empty: every member at 0.
    pub starts: Vec<Vec<f64>>,
    /// ASTRA-sim mode: the group is a communicator group smaller than the system, whose logical
    /// ring ASTRA-sim builds as a `Local` RingTopology (CommunicatorGroup::get_collective_plan);
    /// its direct all-reduce reduces the second round's messages too.
    pub local_ring: bool,
    /// NCCL mode's broadcast / reduce over (GPUs per server, servers): NCCL's ring channels each
    /// cross servers on their own NIC, so every rail carries 1/ppn of the data instead of the
    /// root's rail all of it. A broadcast then moves its chunk's shard per GPU through the root's
    /// server, along every rail, and all-gathers it in every server; a reduce the reverse
    /// (reduce-scatter in every server, reduce along every rail, the shards to the root).
    pub rail_chains: bool,
}

/// Order in which a member's dimension queue admits waiting chunks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scheduling {
    /// (phase, chunk) order on every member: deadlock-free on any fabric.
    Ordered,
    /// Arrival order per member and dimension: ASTRA-sim's (`Sys::insert_stream` puts a chunk
    /// behind every waiting chunk of the same collective).
    Arrival,
    /// Newest arrival first.
    Newest,
}

#[derive(Debug, Clone)]
pub struct Phase {
    pub dim: usize,
    pub algo: PhaseAlgo,
    /// Member-index distance between consecutive positions of this dimension.
    pub stride: usize,
    /// Rooted hierarchical ops: the phase runs only in dimension groups whose coordinates in
    /// these dimensions equal the root's.
    pub match_root_dims: Vec<usize>,
}

#[derive(Debug, Clone, Default)]
pub struct JobPlan {
    pub ranks: Vec<u32>,
    pub dims: Vec<usize>,
    /// The phases every chunk walks (with a per-chunk order, chunk 0's).
    pub phases: Vec<Phase>,
    /// offlineGreedy: each chunk's own phases (same count, its own dimension order and sizes);
    /// empty when every chunk walks `phases`.
    pub chunk_phases: Vec<Vec<Phase>>,
    pub chunks: usize,
    pub chunk_bytes: f64,
    pub root: usize,
    pub root_coords: Vec<usize>,
}

impl JobPlan {
    /// Phase `p` of `chunk`.
    pub fn phase(&self, chunk: usize, p: usize) -> &Phase {
        if self.chunk_phases.is_empty() {
            &self.phases[p]
        } else {
            &self.chunk_phases[chunk][p]
        }
    }

    /// How many phases on phase `p`'s dimension the collective generated before this one, chunk
    /// after chunk (every chunk has as many phases on a dimension). ASTRA-sim's double binary tree
    /// takes tree `turn % 2`: its DoubleBinaryTreeTopology flips a counter each time a phase is
    /// generated on the dimension, so a chunk with two phases there (themis: reduce-scatter and
    /// all-gather) runs them on different trees.
    pub fn turn(&self, chunk: usize, p: usize) -> usize {
        if self.phase(chunk, p).algo.algo != Algo::DoubleBinaryTree {
            return chunk; // only the trees use it: keep the hot path cheap
        }
        let dim = self.phase(chunk, p).dim;
        let on_dim = |q: usize| self.phase(chunk, q).dim == dim;
        let per_chunk = (0..self.phases.len()).filter(|&q| on_dim(q)).count();
        chunk * per_chunk + (0..p).filter(|&q| on_dim(q)).count()
    }

    /// Whether `member` takes part in phase `p` (else it passes through instantly).
    pub fn participates(&self, p: usize, member: usize) -> bool {
        let ph = &self.phases[p];
        if ph.match_root_dims.is_empty() {
            return true;
        }
        let c = coords(member, &self.dims);
        ph.match_root_dims.iter().all(|&d| c[d] == self.root_coords[d])
    }

    /// Position of `member` inside its dimension group for phase `p` of `chunk`.
    pub fn position(&self, chunk: usize, p: usize, member: usize) -> usize {
        let ph = self.phase(chunk, p);
        (member / ph.stride) % self.dims[ph.dim]
    }
}

/// ASTRA-sim chunking (`Sys::determine_chunk_size`): integer chunk of `size / splits`, and every
/// chunk carries the full chunk size. Except for All-Gather, a chunk smaller than the group is
/// raised to one byte per NPU and the collective grows to `splits` such chunks. An All-Gather
/// chunk of 0 bytes is an error (ASTRA-sim never finishes). Otherwise: exact split.
pub fn chunking(op: Op, size: f64, splits: usize, group_size: usize, astra: bool) -> SimResult<(usize, f64)> {
    if !astra {
        return Ok((splits, size / splits as f64));
    }
    let size = size.floor() as u64;
    let chunk = size / splits as u64;
    if op != Op::AllGather && group_size as u64 > chunk {
        return Ok((splits, group_size as f64));
    }
    if chunk == 0 {
        return invalid(format!(
            "{size} B in {splits} chunks leaves 0 bytes per chunk (ASTRA-sim never finishes such a collective); \
             use at most {size} chunks"
        ));
    }
    Ok((size.div_ceil(chunk) as usize, chunk as f64))
}

pub fn plan(spec: &CollectiveSpec, group: &[u32], astra: bool) -> SimResult<JobPlan> {
    let n = group.len();
    if spec.op == Op::PointToPoint && n != 2 {
        return invalid(format!("point-to-point needs groups of exactly 2 ranks (source, destination), got {n}"));
    }
    if n < 2 {
        return invalid(format!("a process group needs at least 2 ranks, got {n}"));
    }
    let dims: Vec<usize> = if spec.dims.is_empty() || spec.op == Op::PointToPoint { vec![n] } else { spec.dims.clone() };
    if dims.iter().product::<usize>() != n || dims.contains(&0) {
        return invalid(format!("dims {:?} multiply to {} but the group has {n} ranks", dims, dims.iter().product::<usize>()));
    }
    if spec.algorithms.len() != 1 && spec.algorithms.len() != dims.len() {
        return invalid(format!("{} algorithms given for {} dimensions; give one, or one per dimension", spec.algorithms.len(), dims.len()));
    }
    if spec.chunks == 0 || spec.active_chunks_per_dim == 0 {
        return invalid("chunks and active chunks per dimension must be at least 1");
    }
    if spec.size_bytes.is_nan() || spec.size_bytes <= 0.0 || spec.size_bytes.is_infinite() {
        return invalid(format!("message size must be a positive number of bytes, got {}", spec.size_bytes));
    }
    if spec.root >= n {
        return invalid(format!("root member {} is outside the group of {n}", spec.root));
    }
    let (chunks, chunk_bytes) = chunking(spec.op, spec.size_bytes, spec.chunks, n, astra)?;
    let root_coords = coords(spec.root, &dims);
    let live: Vec<usize> = (0..dims.len()).filter(|&d| dims[d] > 1).collect();
    let ctx = PhaseContext { spec, dims: &dims, root_coords: &root_coords, astra };
    let phases = ctx.phases(&live, chunk_bytes, false)?;
    let greedy = matches!(spec.inter, InterScheduling::OfflineGreedy | InterScheduling::OfflineGreedyFlex);
    let chunk_phases = if greedy && !matches!(spec.op, Op::AllToAll) { ctx.greedy_phases(chunks, chunk_bytes)? } else { vec![] };
    let phases = chunk_phases.first().cloned().unwrap_or(phases);
    // offlineGreedyFlex sizes its own chunks: as many as it cut (`Sys::generate_collective` sets
    // the DataSet's stream count to the chunks it generated).
    let chunks = if chunk_phases.is_empty() { chunks } else { chunk_phases.len() };
    Ok(JobPlan { ranks: group.to_vec(), dims, phases, chunk_phases, chunks, chunk_bytes, root: spec.root, root_coords })
}

/// What building one chunk's phase list needs.
struct PhaseContext<'a> {
    spec: &'a CollectiveSpec,
    dims: &'a [usize],
    root_coords: &'a [usize],
    astra: bool,
}

impl PhaseContext<'_> {
    /// The phases of a chunk of `chunk_bytes` visiting the dimensions `order` (size > 1, in order;
    /// all-gather: reversed). `greedy`: offlineGreedy's all-reduce under localBWAware,
    /// reduce-scatter over every dimension and all-gather back (`Sys::generate_collective`).
    fn phases(&self, order: &[usize], chunk_bytes: f64, greedy: bool) -> SimResult<Vec<Phase>> {
        let (spec, dims) = (self.spec, self.dims);
        let astra = self.astra;
        let strides: Vec<usize> = (0..dims.len()).map(|d| dims[..d].iter().product()).collect();
        let algo_of = |d: usize| spec.algorithms[if spec.algorithms.len() == 1 { 0 } else { d }];
        let div = |x: f64, k: usize| if astra { (x / k as f64).floor() } else { x / k as f64 };
        let live = order;
        // A double-binary-tree dimension runs any reduce-scatter or all-gather phase as an
        // all-reduce of the whole input (ASTRA-sim's DoubleBinaryTreeAllReduce ignores the phase's
        // type and keeps the size).
        let tree = |d: usize| astra && algo_of(d) == Algo::DoubleBinaryTree;
        let rs = |d: usize, bytes: f64| if tree(d) { (Op::AllReduce, bytes) } else { (Op::ReduceScatter, div(bytes, dims[d])) };
        let ag = |d: usize, bytes: f64| if tree(d) { (Op::AllReduce, bytes) } else { (Op::AllGather, bytes * dims[d] as f64) };
        // (dim, op, input bytes, root-matching dims) per phase.
        let mut seq: Vec<(usize, Op, f64, Vec<usize>)> = Vec::new();
        let mut bytes = chunk_bytes;
        match spec.op {
            Op::AllReduce if spec.optimization == Optimization::LocalBwAware && greedy => {
                for &d in live {
                    let (op, out) = rs(d, bytes);
                    seq.push((d, op, bytes, vec![]));
                    bytes = out;
                }
                for &d in live.iter().rev() {
                    let (op, out) = ag(d, bytes);
                    seq.push((d, op, bytes, vec![]));
                    bytes = out;
                }
            }
            Op::AllReduce if spec.optimization == Optimization::LocalBwAware && !live.is_empty() => {
                let (last, first) = live.split_last().unwrap();
                for &d in first {
                    let (op, out) = rs(d, bytes);
                    seq.push((d, op, bytes, vec![]));
                    bytes = out;
                }
                seq.push((*last, Op::AllReduce, bytes, vec![]));
                for &d in first.iter().rev() {
                    let (op, out) = ag(d, bytes);
                    seq.push((d, op, bytes, vec![]));
                    bytes = out;
                }
            }
            Op::AllReduce | Op::AllToAll => {
                for &d in live {
                    seq.push((d, spec.op, bytes, vec![]));
                }
            }
            Op::ReduceScatter => {
                for &d in live {
                    let (op, out) = rs(d, bytes);
                    seq.push((d, op, bytes, vec![]));
                    bytes = out;
                }
            }
            Op::AllGather => {
                let visit: Vec<usize> = if greedy { live.to_vec() } else { live.iter().rev().copied().collect() };
                for d in visit {
                    let (op, out) = ag(d, bytes);
                    seq.push((d, op, bytes, vec![]));
                    bytes = out;
                }
            }
            Op::Reduce if spec.rail_chains && live.len() == 2 => {
                let (inner, outer) = (live[0], live[1]);
                let shard = div(bytes, dims[inner]);
                seq.push((inner, Op::ReduceScatter, bytes, vec![]));
                seq.push((outer, Op::Reduce, shard, vec![]));
                seq.push((inner, Op::Reduce, shard, vec![outer]));
            }
            Op::Broadcast if spec.rail_chains && live.len() == 2 => {
                let (inner, outer) = (live[0], live[1]);
                let shard = div(bytes, dims[inner]);
                seq.push((inner, Op::Broadcast, shard, vec![outer]));
                seq.push((outer, Op::Broadcast, shard, vec![]));
                seq.push((inner, Op::AllGather, shard, vec![]));
            }
            Op::Reduce => {
                for (i, &d) in live.iter().enumerate() {
                    seq.push((d, Op::Reduce, bytes, live[..i].to_vec()));
                }
            }
            Op::Broadcast => {
                for (i, &d) in live.iter().enumerate().rev() {
                    seq.push((d, Op::Broadcast, bytes, live[..i].to_vec()));
                }
            }
            Op::PointToPoint => seq.push((0, Op::PointToPoint, bytes, vec![])),
        }
        let mut phases = Vec::with_capacity(seq.len());
        for (dim, op, bytes_in, match_root_dims) in seq {
            let which = if spec.algorithms.len() == 1 { 0 } else { dim };
            let choices = spec.programs.get(which).map_or(&[][..], |v| &v[..]);
            let program = choices.iter().find(|p| p.op == op).or(choices.first()).cloned();
            let algo =
                PhaseAlgo { op, algo: algo_of(dim), n: dims[dim], bytes_in, root: self.root_coords[dim], integer: astra, program,
                            local_ring: astra && spec.local_ring,
                            anticlockwise: astra && spec.op == Op::AllReduce && op == Op::AllGather };
            algo.validate()?;
            if bytes_in <= 0.0 && astra {
                return Err(SimError::InvalidInput(format!(
                    "chunk of {chunk_bytes} B leaves {bytes_in} B for a {} phase on dimension {dim}",
                    op.name()
                )));
            }
            phases.push(Phase { dim, algo, stride: strides[dim], match_root_dims });
        }
        Ok(phases)
    }

    /// offlineGreedy: each chunk's dimension order from the running loads; every chunk carries
    /// the chunk size except the last, which carries what is left of the collective.
    /// offlineGreedyFlex: each chunk also takes its size from the loads (`Greedy::next_flex`)
    /// until the collective's bytes run out, in at most `chunks` chunks (each at least the
    /// recommended size).
    fn greedy_phases(&self, chunks: usize, chunk_bytes: f64) -> SimResult<Vec<Vec<Phase>>> {
        let spec = self.spec;
        let name = if spec.inter == InterScheduling::OfflineGreedyFlex { "offlineGreedyFlex" } else { "offlineGreedy" };
        if !matches!(spec.op, Op::AllReduce | Op::ReduceScatter | Op::AllGather) {
            return invalid(format!("inter-dimension scheduling {name} applies to all-reduce, reduce-scatter and \
                                    all-gather, not {}", spec.op.name()));
        }
        if spec.dim_bandwidth.len() != self.dims.len() || spec.dim_bandwidth.iter().any(|b| !(*b > 0.0 && b.is_finite())) {
            return invalid(format!("{name} needs a positive bandwidth per dimension; got {:?} for {} dimensions",
                                   spec.dim_bandwidth, self.dims.len()));
        }
        let mut greedy = Greedy::new(self.dims, &spec.dim_bandwidth);
        let shrinking = spec.op != Op::AllGather;
        // Raised to one byte per NPU (see `chunking`), every chunk is whole; otherwise the
        // collective's own bytes run out in the last chunk.
        let raised = spec.op != Op::AllGather && chunk_bytes > (spec.size_bytes.floor() / spec.chunks as f64).floor();
        let total = if raised { chunks as u64 * chunk_bytes as u64 } else { spec.size_bytes.floor() as u64 };
        let recommended = chunk_bytes as u64;
        let mut left = total;
        let mut out = Vec::with_capacity(chunks);
        while left > 0 {
            let (order, bytes) = if spec.inter == InterScheduling::OfflineGreedyFlex {
                greedy.next_flex(recommended, &mut left, shrinking)
            } else {
                let order = greedy.next_order(recommended, shrinking);
                let bytes = recommended.min(left);
                left -= bytes;
                (order, bytes)
            };
            let live: Vec<usize> = order.into_iter().filter(|&d| self.dims[d] > 1).collect();
            out.push(self.phases(&live, bytes as f64, true)?);
        }
        Ok(out)
    }
}


#[cfg(test)]
mod tests {
    use super::*;

    pub fn spec(op: Op) -> CollectiveSpec {
        CollectiveSpec {
            op,
            size_bytes: 1048576.0,
            groups: vec![(0..8).collect()],
            dims: vec![],
            algorithms: vec![Algo::Ring],
            programs: vec![],
            chunk_programs: vec![],
            chunk_order: None,
            routes: vec![],
            root: 0,
            chunks: 4,
            active_chunks_per_dim: 1,
            endpoint_delay_ns: 10.0,
            local_mem_bw_gb_per_s: Some(50.0),
            optimization: Optimization::LocalBwAware,
            scheduling: Scheduling::Arrival,
            intra: IntraScheduling::Fifo,
            inter: InterScheduling::Ascending,
            dim_bandwidth: vec![],
            starts: vec![],
            local_ring: false,
            rail_chains: false,
        }
    }

    #[test]
    fn astra_chunking_rules() {
        assert_eq!(chunking(Op::AllReduce, 1_000_001.0, 4, 8, true).unwrap(), (5, 250_000.0));
        // Too small for one byte per NPU: `splits` chunks of one byte per NPU.
        assert_eq!(chunking(Op::AllReduce, 16.0, 4, 8, true).unwrap(), (4, 8.0));
        assert_eq!(chunking(Op::ReduceScatter, 2.0, 5, 8, true).unwrap(), (5, 8.0));
        assert_eq!(chunking(Op::AllGather, 16.0, 4, 8, true).unwrap(), (4, 4.0));
        assert!(chunking(Op::AllGather, 3.0, 4, 8, true).is_err());
        assert_eq!(chunking(Op::AllReduce, 10.0, 4, 8, false).unwrap(), (4, 2.5));
    }

    #[test]
    fn local_bw_aware_all_reduce_phases() {
        let mut s = spec(Op::AllReduce);
        s.groups = vec![(0..32).collect()];
        s.dims = vec![4, 1, 8];
        let p = plan(&s, &s.groups[0], true).unwrap();
        let kinds: Vec<(usize, Op, f64)> = p.phases.iter().map(|ph| (ph.dim, ph.algo.op, ph.algo.bytes_in)).collect();
        assert_eq!(
            kinds,
            vec![(0, Op::ReduceScatter, 262144.0), (2, Op::AllReduce, 65536.0), (0, Op::AllGather, 65536.0)]
        );
        assert_eq!(p.position(0, 1, 4 * 3 + 2), 3);
        // ASTRA-sim runs an all-reduce's all-gather phases the other way round; an all-gather's not.
        assert_eq!(p.phases.iter().map(|ph| ph.algo.anticlockwise).collect::<Vec<_>>(), vec![false, false, true]);
        assert!(!plan(&s, &s.groups[0], false).unwrap().phases[2].algo.anticlockwise);
        s.op = Op::AllGather;
        assert!(plan(&s, &s.groups[0], true).unwrap().phases.iter().all(|ph| !ph.algo.anticlockwise));
    }

    #[test]
    fn themis_gives_each_chunk_its_order_and_trees_flip_per_phase() {
        let mut s = spec(Op::AllReduce);
        s.groups = vec![(0..8).collect()];
        s.dims = vec![2, 4];
        s.inter = InterScheduling::OfflineGreedy;
        s.dim_bandwidth = vec![100.0, 100.0];
        let p = plan(&s, &s.groups[0], true).unwrap();
        assert_eq!((p.chunks, p.chunk_phases.len()), (4, 4));
        // RS over both dims, AG back: four phases per chunk, no all-reduce phase.
        let ops: Vec<Op> = p.chunk_phases[0].iter().map(|ph| ph.algo.op).collect();
        assert_eq!(ops, vec![Op::ReduceScatter, Op::ReduceScatter, Op::AllGather, Op::AllGather]);
        // A last chunk of 3 B cannot be split over 8 NPUs (ASTRA-sim aborts): an error.
        s.size_bytes = 1_048_579.0;
        assert!(plan(&s, &s.groups[0], true).is_err());
        // Chunk 1 starts on the dimension chunk 0 loaded less (dim 1: 1/8 of the chunk vs 1/2).
        assert_eq!(p.chunk_phases[1][0].dim, 1);
        let mut t = spec(Op::AllReduce);
        t.algorithms = vec![Algo::DoubleBinaryTree];
        t.inter = InterScheduling::OfflineGreedy;
        t.dim_bandwidth = vec![100.0];
        let p = plan(&t, &t.groups[0], true).unwrap();
        assert!(p.chunk_phases[0].iter().all(|ph| ph.algo.op == Op::AllReduce && ph.algo.bytes_in == 262144.0));
        assert_eq!((p.turn(0, 0), p.turn(0, 1), p.turn(1, 0), p.turn(1, 1)), (0, 1, 2, 3));
    }

    #[test]
    fn rooted_hierarchy_restricts_first_phases() {
        let mut s = spec(Op::Broadcast);
        s.dims = vec![4, 2];
        s.root = 5; // coords (1, 1)
        let p = plan(&s, &s.groups[0], false).unwrap();
        // Broadcast: dim 1 first among members with coord0 == 1, then dim 0 everywhere.
        assert_eq!(p.phases[0].dim, 1);
        assert!(p.participates(0, 1) && p.participates(0, 5) && !p.participates(0, 0));
        assert!(p.participates(1, 0));
    }

    /// NCCL mode's rail chains (4 GPUs per server, 2 servers, root GPU 1 of server 1): the chunk's
    /// quarter along the root's server, then along every rail, then all-gathered in every server;
    /// a reduce the reverse.
    #[test]
    fn rail_chains_move_a_shard_along_every_rail() {
        let mut s = spec(Op::Broadcast);
        s.dims = vec![4, 2];
        s.root = 5;
        s.rail_chains = true;
        let p = plan(&s, &s.groups[0], false).unwrap();
        let shard = s.size_bytes / 4.0 / 4.0; // 4 chunks, a quarter each
        let seq: Vec<(usize, Op, f64)> = p.phases.iter().map(|ph| (ph.dim, ph.algo.op, ph.algo.bytes_in)).collect();
        assert_eq!(seq, vec![(0, Op::Broadcast, shard), (1, Op::Broadcast, shard), (0, Op::AllGather, shard)]);
        assert!(p.participates(0, 4) && !p.participates(0, 0)); // the root's server only
        assert!((0..8).all(|m| p.participates(1, m) && p.participates(2, m))); // every rail, every server
        s.op = Op::Reduce;
        let p = plan(&s, &s.groups[0], false).unwrap();
        let seq: Vec<(usize, Op, f64)> = p.phases.iter().map(|ph| (ph.dim, ph.algo.op, ph.algo.bytes_in)).collect();
        assert_eq!(seq, vec![(0, Op::ReduceScatter, 4.0 * shard), (1, Op::Reduce, shard), (0, Op::Reduce, shard)]);
        assert!(p.participates(2, 4) && !p.participates(2, 0));
    }

    #[test]
    fn bad_requests_are_errors() {
        let mut s = spec(Op::AllReduce);
        s.dims = vec![3, 3];
        assert!(plan(&s, &s.groups[0], false).is_err());
        let mut s = spec(Op::PointToPoint);
        s.groups = vec![vec![0, 1, 2]];
        assert!(plan(&s, &s.groups[0], false).is_err());
    }
}
