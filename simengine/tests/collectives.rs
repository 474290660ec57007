//! Every collective x algorithm on small graphs against hand-computed times, byte conservation,
//! determinism, and the orderings a topology should produce.
//!
//! Unless stated: 80 Gbit/s links (10 B/ns), 100 ns latency, endpoint delay E = 10 ns.
mod common;
use _simengine::algorithms::{Algo, Op};
use _simengine::network::Model;
use _simengine::plan::{CollectiveSpec, Scheduling};
use _simengine::results::SimOutput;
use _simengine::topology::Topology;
use _simengine::{simulate, SimConfig};
use common::*;

const E: f64 = 10.0;

fn run(topo: &Topology, s: &CollectiveSpec, model: Model) -> SimOutput {
    let n = s.groups.iter().flatten().max().unwrap() + 1;
    let cfg = SimConfig { model, ..Default::default() };
    simulate(topo, &ranks(n.max(topo_npus(topo))), s, &cfg).unwrap()
}

/// NPUs are nodes 0..k; the switch topology adds one switch node at the end.
fn topo_npus(t: &Topology) -> u32 {
    t.num_nodes as u32
}

fn with(op: Op, algo: Algo, n: u32, size: f64, lmbw: Option<f64>) -> CollectiveSpec {
    let mut s = spec(op, algo, n, size);
    s.endpoint_delay_ns = E;
    s.local_mem_bw_gb_per_s = lmbw;
    s
}

fn time(topo: &Topology, op: Op, algo: Algo, n: u32, size: f64, lmbw: Option<f64>, model: Model) -> f64 {
    run(topo, &with(op, algo, n, size, lmbw), model).collective_time_ns
}

#[test]
fn ring_algorithms_on_a_ring() {
    let t = ring(4, 80.0, 100.0);
    // m = 4000/4 = 1000 B, T = 100 + 1000/10 = 200 ns.
    assert_eq!(time(&t, Op::AllReduce, Algo::Ring, 4, 4000.0, None, Model::Unaware), E + 6.0 * (200.0 + E));
    // Reduction: 3 * 1000 B / 10 B/ns = 300 ns per reduce-scatter step.
    assert_eq!(time(&t, Op::ReduceScatter, Algo::Ring, 4, 4000.0, Some(10.0), Model::Unaware), E + 3.0 * (200.0 + E + 300.0));
    assert_eq!(time(&t, Op::AllReduce, Algo::Ring, 4, 4000.0, Some(10.0), Model::Unaware), E + 6.0 * (200.0 + E) + 3.0 * 300.0);
    // All-gather of a 1000 B shard: each step forwards 1000 B.
    assert_eq!(time(&t, Op::AllGather, Algo::Ring, 4, 1000.0, None, Model::Unaware), E + 3.0 * (200.0 + E));
    // Ring all-to-all relays 3000, 2000, 1000 B.
    assert_eq!(time(&t, Op::AllToAll, Algo::Ring, 4, 4000.0, None, Model::Unaware), E + (400.0 + E) + (300.0 + E) + (200.0 + E));
    // Broadcast along the chain 0 -> 1 -> 2 -> 3 of 4000 B (T = 500): 3 hops, each + E.
    assert_eq!(time(&t, Op::Broadcast, Algo::Ring, 4, 4000.0, None, Model::Unaware), E + 3.0 * (500.0 + E));
    // Reduce chain 1 -> 2 -> 3 -> 0 with a 1200 ns reduction at each receiver.
    assert_eq!(time(&t, Op::Reduce, Algo::Ring, 4, 4000.0, Some(10.0), Model::Unaware), E + 3.0 * (500.0 + E + 1200.0));
    // Bidirectional ring: half the data each way, m = 500 B, T = 150.
    assert_eq!(time(&t, Op::AllReduce, Algo::RingBidirectional, 4, 4000.0, None, Model::Unaware), E + 6.0 * (150.0 + E));
    // ... and half of every shard each way for all-gather (500 B per step).
    assert_eq!(time(&t, Op::AllGather, Algo::RingBidirectional, 4, 1000.0, None, Model::Unaware), E + 3.0 * (150.0 + E));
}

#[test]
fn direct_algorithms_on_a_full_mesh() {
    let t = fully_connected(4, 80.0, 100.0);
    let rd = 300.0; // 3 * 1000 B / 10 B/ns
    assert_eq!(time(&t, Op::AllReduce, Algo::Direct, 4, 4000.0, Some(10.0), Model::Unaware), 2.0 * 200.0 + 3.0 * E + rd);
    assert_eq!(time(&t, Op::ReduceScatter, Algo::Direct, 4, 4000.0, Some(10.0), Model::Unaware), 200.0 + 2.0 * E + rd);
    assert_eq!(time(&t, Op::AllGather, Algo::Direct, 4, 1000.0, None, Model::Unaware), 200.0 + 2.0 * E);
    assert_eq!(time(&t, Op::AllToAll, Algo::Direct, 4, 4000.0, None, Model::Unaware), 200.0 + 2.0 * E);
    // Reduce to root: everyone sends 4000 B (T = 500), root reduces 4000 B (1200 ns).
    assert_eq!(time(&t, Op::Reduce, Algo::Direct, 4, 4000.0, Some(10.0), Model::Unaware), E + 500.0 + E + 1200.0);
    assert_eq!(time(&t, Op::Broadcast, Algo::Direct, 4, 4000.0, None, Model::Unaware), E + 500.0 + E);
}

#[test]
fn halving_doubling_on_a_full_mesh() {
    let t = fully_connected(4, 80.0, 100.0);
    // Messages 2000, 1000, 1000, 2000 B (T = 300, 200, 200, 300); ASTRA charges Rd(D/4) only.
    let want = E + (300.0 + E) + (200.0 + E) + (200.0 + E) + (300.0 + E) + 300.0;
    assert_eq!(time(&t, Op::AllReduce, Algo::HalvingDoubling, 4, 4000.0, Some(10.0), Model::Unaware), want);
    // All-gather of 1000 B shards: 1000 B at distance 2, then 2000 B at distance 1.
    assert_eq!(time(&t, Op::AllGather, Algo::HalvingDoubling, 4, 1000.0, None, Model::Unaware), E + (200.0 + E) + (300.0 + E));
    // Binomial broadcast: root -> 2, then 2 -> 3 (and root -> 1 concurrently); T = 500.
    assert_eq!(time(&t, Op::Broadcast, Algo::HalvingDoubling, 4, 4000.0, None, Model::Unaware), E + 2.0 * (500.0 + E));
    // Reduce-scatter = the halving half: 2000 B then 1000 B, Rd(1000) = 300.
    assert_eq!(time(&t, Op::ReduceScatter, Algo::HalvingDoubling, 4, 4000.0, Some(10.0), Model::Unaware), E + (300.0 + E) + (200.0 + E) + 300.0);
    // Binomial reduce to rank 0: 3 -> 2 (reduce 1200 ns), then 1 and 2 -> 0 (reduce 1200 ns).
    assert_eq!(time(&t, Op::Reduce, Algo::HalvingDoubling, 4, 4000.0, Some(10.0), Model::Unaware), 3.0 * E + 2.0 * 500.0 + 2.0 * 1200.0);
}

#[test]
fn double_binary_tree_on_three_npus() {
    let t = fully_connected(3, 80.0, 100.0);
    // Each tree carries 2000 B (T = 300): leaves -> root, reduce (600 ns), root -> leaves.
    assert_eq!(time(&t, Op::AllReduce, Algo::DoubleBinaryTree, 3, 4000.0, Some(10.0), Model::Unaware), E + 300.0 + E + 600.0 + 300.0 + E);
    assert_eq!(time(&t, Op::Broadcast, Algo::DoubleBinaryTree, 3, 4000.0, None, Model::Unaware), E + 300.0 + E);
    // Reduce to rank 0: in both trees the two leaves send 2000 B up, the root reduces 2000 B.
    assert_eq!(time(&t, Op::Reduce, Algo::DoubleBinaryTree, 3, 4000.0, Some(10.0), Model::Unaware), E + 300.0 + E + 600.0);
    // Two dimensions with baseline optimization: a full all-reduce per dimension.
    let t4 = fully_connected(4, 80.0, 100.0);
    let mut s = with(Op::AllReduce, Algo::DoubleBinaryTree, 4, 4000.0, None);
    s.dims = vec![2, 2];
    s.optimization = _simengine::plan::Optimization::Baseline;
    // n = 2 per dimension: one leaf, one root per tree; T = 100 + 2000/10 = 300 per direction.
    assert_eq!(run(&t4, &s, Model::Unaware).collective_time_ns, 2.0 * (E + 300.0 + E + 300.0 + E));
}

#[test]
fn point_to_point_unaware_vs_store_and_forward() {
    let t = Topology::uniform(3, &[(0, 1), (1, 2)], 80.0, 100.0).unwrap();
    let mut s = with(Op::PointToPoint, Algo::Direct, 3, 4000.0, None);
    s.groups = vec![vec![0, 2]];
    assert_eq!(run(&t, &s, Model::Unaware).collective_time_ns, E + 200.0 + 400.0 + E);
    assert_eq!(run(&t, &s, Model::Aware).collective_time_ns, E + 2.0 * (100.0 + 400.0) + E);
    assert_eq!(run(&t, &s, Model::Fair).collective_time_ns, E + 200.0 + 400.0 + E);
}

#[test]
fn aware_broadcast_through_a_switch_queues_at_the_root_uplink() {
    let t = switch(4, 80.0, 100.0);
    // Three 4000 B messages share the root's uplink (400 ns each), then one hop each (500 ns).
    assert_eq!(time(&t, Op::Broadcast, Algo::Direct, 4, 4000.0, None, Model::Aware), E + 800.0 + 500.0 + 500.0 + E);
    assert_eq!(time(&t, Op::Broadcast, Algo::Direct, 4, 4000.0, None, Model::Unaware), E + 600.0 + E);
}

#[test]
fn fair_sharing_splits_a_link_evenly() {
    let t = Topology::uniform(2, &[(0, 1)], ASTRA_50GB, 500.0).unwrap();
    let mut s = spec(Op::PointToPoint, Algo::Direct, 2, 1048576.0);
    s.groups = vec![vec![0, 1], vec![0, 1]];
    let out = simulate(&t, &ranks(2), &s, &SimConfig { model: Model::Fair, trace: true, ..Default::default() }).unwrap();
    for f in &out.trace {
        assert!((f.end_ns - (2.0 * 19531.25 + 500.0)).abs() < 1e-6, "{f:?}");
    }
}

#[test]
fn bytes_are_conserved_for_every_combination() {
    let t = fully_connected(8, 80.0, 100.0);
    let ops = [Op::AllReduce, Op::ReduceScatter, Op::AllGather, Op::AllToAll, Op::Broadcast, Op::Reduce];
    let algos = [Algo::Ring, Algo::RingBidirectional, Algo::Direct, Algo::HalvingDoubling, Algo::DoubleBinaryTree];
    let mut ran = 0;
    for model in [Model::Unaware, Model::Aware, Model::Fair] {
        for op in ops {
            for algo in algos {
                let mut s = with(op, algo, 8, 65536.0, Some(100.0));
                s.chunks = 2;
                s.dims = vec![4, 2];
                let cfg = SimConfig { model, ..Default::default() };
                let out = match simulate(&t, &ranks(8), &s, &cfg) {
                    Ok(o) => o,
                    Err(_) => continue, // unsupported combination (checked in algorithms tests)
                };
                assert_eq!(out.messages, out.delivered, "{op:?} {algo:?} {model:?}");
                let sent: f64 = out.bytes_sent_per_rank.iter().sum();
                let recv: f64 = out.bytes_received_per_rank.iter().sum();
                assert!((sent - recv).abs() < 1e-6 && sent > 0.0, "{op:?} {algo:?}");
                let on_links: f64 = out.link_bytes.iter().sum();
                assert!((on_links - sent).abs() < 1e-6, "one hop per message on a full mesh");
                assert!(out.rank_finish_ns.iter().all(|f| f.is_some()));
                ran += 1;
            }
        }
    }
    // 6 ops x 5 algorithms minus the unsupported (HD all-to-all, DBT RS/AG/A2A and the
    // localBWAware all-reduce, which needs DBT reduce-scatter), per model.
    assert_eq!(ran, 3 * (30 - 5));
}

#[test]
fn ring_all_reduce_moves_the_textbook_volume() {
    let t = ring(8, 80.0, 100.0);
    let out = run(&t, &with(Op::AllReduce, Algo::Ring, 8, 8000.0, None), Model::Aware);
    for &b in &out.bytes_sent_per_rank {
        assert_eq!(b, 2.0 * 7.0 / 8.0 * 8000.0);
    }
}

#[test]
fn topology_orderings() {
    // Ring on a ring beats direct on a ring (direct's far messages cross and queue on links).
    let r = ring(8, 80.0, 100.0);
    let ring_on_ring = time(&r, Op::AllReduce, Algo::Ring, 8, 1048576.0, None, Model::Aware);
    let direct_on_ring = time(&r, Op::AllReduce, Algo::Direct, 8, 1048576.0, None, Model::Aware);
    assert!(ring_on_ring < direct_on_ring, "{ring_on_ring} vs {direct_on_ring}");
    // Direct on a full mesh beats ring (it uses all n-1 links of each NPU at once).
    let fc = fully_connected(8, 80.0, 100.0);
    let direct_on_fc = time(&fc, Op::AllReduce, Algo::Direct, 8, 1048576.0, None, Model::Aware);
    let ring_on_fc = time(&fc, Op::AllReduce, Algo::Ring, 8, 1048576.0, None, Model::Aware);
    assert!(direct_on_fc < ring_on_fc, "{direct_on_fc} vs {ring_on_fc}");
    // Congestion can only slow things down.
    let unaware = time(&r, Op::AllReduce, Algo::Direct, 8, 1048576.0, None, Model::Unaware);
    assert!(unaware < direct_on_ring);
}

#[test]
fn hierarchical_torus_matches_the_design_note_phase_formulas() {
    // 4x2 torus (ASTRA units), 1 chunk: RS(d0) + AR(d1) + AG(d0) in ASTRA-sim mode.
    let t = torus(&[4, 2], ASTRA_50GB, 500.0);
    let mut s = with(Op::AllReduce, Algo::Ring, 8, 1048576.0, Some(50.0));
    s.dims = vec![4, 2];
    let out = simulate(&t, &ranks(8), &s, &SimConfig { astra: true, ..Default::default() }).unwrap();
    let bpns = 50.0 * 1073741824.0 / 1e9;
    let tm = |m: f64| (500.0 + m / bpns).floor();
    let rd = |m: f64| 3.0 * (m / 50.0).floor();
    let d = 1048576.0;
    let rs0 = E + 3.0 * (tm(d / 4.0) + E + rd(d / 4.0));
    let ar1 = E + 2.0 * (tm(d / 8.0) + E) + rd(d / 8.0);
    let ag0 = E + 3.0 * (tm(d / 4.0) + E);
    assert_eq!(out.collective_time_ns, rs0 + ar1 + ag0);
}

#[test]
fn chunks_pipeline_across_dimensions() {
    let t = torus(&[4, 4], 80.0, 100.0);
    let mut s = with(Op::AllReduce, Algo::Ring, 16, 1048576.0, None);
    s.dims = vec![4, 4];
    let one = run(&t, &s, Model::Unaware).collective_time_ns;
    s.chunks = 4;
    let four = run(&t, &s, Model::Unaware).collective_time_ns;
    // Pipelining hides part of the per-chunk latency of the other dimensions, but the data volume
    // is the same, so more chunks cannot be 4x slower nor faster than the bandwidth bound.
    assert!(four > 0.0 && four < 4.0 * one);
    s.active_chunks_per_dim = 4;
    let wide = run(&t, &s, Model::Unaware).collective_time_ns;
    assert!(wide <= four);
}

#[test]
fn concurrent_groups_share_links_in_the_aware_model() {
    // Groups {0,1,2,3} and {4,5,6,7} on one switch do not share links; two copies of one group do.
    let t = switch(8, 80.0, 100.0);
    let mut s = with(Op::AllReduce, Algo::Ring, 8, 65536.0, None);
    s.groups = vec![vec![0, 1, 2, 3], vec![4, 5, 6, 7]];
    let apart = run(&t, &s, Model::Aware);
    s.groups = vec![vec![0, 1, 2, 3]];
    let alone = run(&t, &s, Model::Aware).collective_time_ns;
    assert_eq!(apart.collective_time_ns, alone);
    s.groups = vec![vec![0, 1, 2, 3], vec![0, 1, 2, 3]];
    assert!(run(&t, &s, Model::Aware).collective_time_ns > alone);
    assert!(apart.rank_finish_ns[7].is_some());
}

#[test]
fn runs_are_deterministic() {
    let t = switch(8, 80.0, 100.0);
    let mut s = with(Op::AllToAll, Algo::Direct, 8, 1048576.0, Some(100.0));
    s.chunks = 3;
    let a = run(&t, &s, Model::Fair);
    let b = run(&t, &s, Model::Fair);
    assert_eq!(a.collective_time_ns, b.collective_time_ns);
    assert_eq!(a.link_bytes, b.link_bytes);
    assert_eq!(a.rank_finish_ns, b.rank_finish_ns);
    assert_eq!(a.events, b.events);
}

#[test]
fn time_is_flat_in_event_count_over_message_size() {
    let t = torus(&[4, 4], 80.0, 100.0);
    let mut s = with(Op::AllReduce, Algo::Ring, 16, 1024.0, None);
    s.dims = vec![4, 4];
    s.chunks = 4;
    let small = run(&t, &s, Model::Unaware).events;
    s.size_bytes = 1073741824.0;
    assert_eq!(run(&t, &s, Model::Unaware).events, small);
}

#[test]
fn fair_sharing_is_max_min_across_unequal_bottlenecks() {
    // 0 -(10 B/ns)- 1 -(4 B/ns)- 2, no latency. Flows A: 0->2, B: 0->1, C: 1->2, 4000 B each.
    // Link 1->2 splits 4 B/ns between A and C (2 each); B takes what A leaves on 0->1 (8).
    // B drains at 500 ns; A and C keep 2 B/ns (their bottleneck is unchanged) and drain at 2000.
    let t = Topology::new(3, &[0, 1], &[1, 2], &[80.0, 32.0], &[0.0, 0.0], None, &[]).unwrap();
    let mut s = spec(Op::PointToPoint, Algo::Direct, 3, 4000.0);
    s.groups = vec![vec![0, 2], vec![0, 1], vec![1, 2]];
    let out = simulate(&t, &ranks(3), &s, &SimConfig { model: Model::Fair, trace: true, ..Default::default() }).unwrap();
    let end = |a: u32, b: u32| out.trace.iter().find(|f| f.src_rank == a && f.dst_rank == b).unwrap().end_ns;
    assert!((end(0, 1) - 500.0).abs() < 1e-6);
    assert!((end(0, 2) - 2000.0).abs() < 1e-6);
    assert!((end(1, 2) - 2000.0).abs() < 1e-6);
}

#[test]
fn fifo_never_deadlocks_on_asymmetric_fabrics_and_lifo_deadlock_is_reported() {
    // Random link speeds and latencies on a 4x4 torus make members of a dimension finish phases
    // at different times; 3 logical dimensions, 8 chunks, one active chunk per dimension.
    let base = torus(&[4, 4], 100.0, 100.0);
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut rnd = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut lifo_deadlocks = 0;
    for trial in 0..12 {
        let m = base.num_links() / 2;
        let src: Vec<u32> = (0..m).map(|e| base.link_from[2 * e]).collect();
        let dst: Vec<u32> = (0..m).map(|e| base.link_to[2 * e]).collect();
        let bw: Vec<f64> = (0..m).map(|_| 50.0 + (rnd() % 400) as f64).collect();
        let lat: Vec<f64> = (0..m).map(|_| (rnd() % 1000) as f64).collect();
        let t = Topology::new(16, &src, &dst, &bw, &lat, None, &[]).unwrap();
        let mut s = with(Op::AllReduce, Algo::Ring, 16, 1048576.0, None);
        s.dims = vec![2, 2, 4];
        s.chunks = 8;
        let model = if trial % 2 == 0 { Model::Aware } else { Model::Unaware };
        let cfg = SimConfig { model, ..Default::default() };
        s.scheduling = Scheduling::Ordered;
        let out = simulate(&t, &ranks(16), &s, &cfg).expect("FIFO must not deadlock");
        assert_eq!(out.messages, out.delivered);
        s.scheduling = Scheduling::Newest;
        match simulate(&t, &ranks(16), &s, &cfg) {
            Err(_simengine::error::SimError::About { field: "scheduling", error }) => {
                assert!(matches!(*error, _simengine::error::SimError::Deadlock(ref msg) if msg.contains("FIFO")));
                lifo_deadlocks += 1;
            }
            Err(e) => panic!("unexpected error {e}"),
            Ok(_) => {}
        }
    }
    // Greedy LIFO does deadlock here (that is why FIFO is the default); it is an error, not a hang.
    assert!(lifo_deadlocks > 0);
}

/// ASTRA-sim's direct all-reduce on a communicator group's (`Local`) ring reduces the second
/// round's messages too: one more reduction of D/n = 1000 B (3 x 100 ns at 10 B/ns) per member
/// once the last one arrives; with 2 members the rings behave alike.
#[test]
fn a_communicator_groups_direct_all_reduce_reduces_its_second_round() {
    let t = fully_connected(4, 80.0, 100.0);
    let cfg = SimConfig { model: Model::Unaware, astra: true, ..Default::default() };
    for (n, extra) in [(4u32, 300.0), (3, 3.0 * (4000.0f64 / 3.0).floor().div_euclid(10.0)), (2, 0.0)] {
        let mut s = with(Op::AllReduce, Algo::Direct, n, 4000.0, Some(10.0));
        let whole = simulate(&t, &ranks(4), &s, &cfg).unwrap().collective_time_ns;
        s.local_ring = true;
        let local = simulate(&t, &ranks(4), &s, &cfg).unwrap().collective_time_ns;
        assert_eq!(local - whole, extra, "{n} members");
    }
}
