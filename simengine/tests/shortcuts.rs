//! The exact shortcuts (aware: private links crossed without an event per hop; fair: one
//! constraint per run of pass-through links) against the plain event-by-event run, on seeded
//! random fabrics: symmetric ones, asymmetric ones (random extra cables and speeds) and ones
//! where routes show up late, so the aware shortcut must fall back and rerun.
mod common;
use _simengine::algorithms::{Algo, Op};
use _simengine::network::Model;
use _simengine::plan::{CollectiveSpec, Scheduling};
use _simengine::results::SimOutput;
use _simengine::routing::{Metric, Router};
use _simengine::topology::Topology;
use _simengine::{simulate, SimConfig};
use common::spec;

/// A small seeded generator (xorshift*), so the fabrics are the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick(&mut self, xs: &[f64]) -> f64 {
        xs[self.below(xs.len())]
    }
}

const NPU: i32 = 0;
const PORT: i32 = 1;
const SWITCH: i32 = 2;

/// A fabric under construction: every cable runs device -- port -- port -- device, as in the
/// graphs the Python side builds (ports are cut-through, and pass-through for the fair model).
struct Fabric {
    kind: Vec<i32>,
    edges: Vec<(u32, u32, f64, f64)>,
}

impl Fabric {
    fn node(&mut self, kind: i32) -> u32 {
        self.kind.push(kind);
        (self.kind.len() - 1) as u32
    }
    fn cable(&mut self, a: u32, b: u32, gbps: f64, ns: f64) {
        let (pa, pb) = (self.node(PORT), self.node(PORT));
        self.edges.push((a, pa, gbps, 0.0));
        self.edges.push((pa, pb, gbps, ns));
        self.edges.push((pb, b, gbps, 0.0));
    }
    fn topology(&self) -> Topology {
        let col = |f: fn(&(u32, u32, f64, f64)) -> f64| self.edges.iter().map(f).collect::<Vec<f64>>();
        let src: Vec<u32> = self.edges.iter().map(|e| e.0).collect();
        let dst: Vec<u32> = self.edges.iter().map(|e| e.1).collect();
        let mut t = Topology::new(self.kind.len(), &src, &dst, &col(|e| e.2), &col(|e| e.3), Some(&self.kind), &[]).unwrap();
        t.set_cut_through_kinds(&[PORT]);
        t
    }
}

/// `npus` NPUs under leaves of `per_leaf`, leaves under `spines` spines; `extra` random cables
/// between random switches and NPUs, and random link speeds when `asymmetric`.
fn clos(rng: &mut Rng, npus: usize, per_leaf: usize, spines: usize, extra: usize, asymmetric: bool) -> (Topology, Vec<u32>) {
    let (f, npu) = clos_fabric(rng, npus, per_leaf, spines, extra, asymmetric);
    (f.topology(), npu)
}

/// `clos`, before it becomes a topology (so tests can cut or slow a cable).
fn clos_fabric(rng: &mut Rng, npus: usize, per_leaf: usize, spines: usize, extra: usize, asymmetric: bool) -> (Fabric, Vec<u32>) {
    let mut f = Fabric { kind: vec![], edges: vec![] };
    let speeds = if asymmetric { vec![100.0, 200.0, 400.0, 800.0] } else { vec![400.0] };
    let lats = if asymmetric { vec![0.0, 100.0, 500.0, 1000.0] } else { vec![500.0] };
    let npu: Vec<u32> = (0..npus).map(|_| f.node(NPU)).collect();
    let leaves: Vec<u32> = (0..npus.div_ceil(per_leaf)).map(|_| f.node(SWITCH)).collect();
    let spine: Vec<u32> = (0..spines).map(|_| f.node(SWITCH)).collect();
    for (i, &n) in npu.iter().enumerate() {
        let (g, l) = (rng.pick(&speeds), rng.pick(&lats));
        f.cable(n, leaves[i / per_leaf], g, l);
    }
    for &l in &leaves {
        for &s in &spine {
            let (g, lat) = (rng.pick(&speeds), rng.pick(&lats));
            f.cable(l, s, g, lat);
        }
    }
    let switches: Vec<u32> = leaves.iter().chain(&spine).copied().collect();
    for _ in 0..extra {
        let a = switches[rng.below(switches.len())];
        let b = if rng.below(2) == 0 { npu[rng.below(npus)] } else { switches[rng.below(switches.len())] };
        if a != b {
            let (g, l) = (rng.pick(&speeds), rng.pick(&lats));
            f.cable(a, b, g, l);
        }
    }
    (f, npu)
}

/// NPUs in a ring with a random chord or two (no switch at all: NPUs forward).
fn chordal_ring(rng: &mut Rng, npus: usize) -> (Topology, Vec<u32>) {
    let mut f = Fabric { kind: vec![], edges: vec![] };
    let npu: Vec<u32> = (0..npus).map(|_| f.node(NPU)).collect();
    for i in 0..npus {
        f.cable(npu[i], npu[(i + 1) % npus], rng.pick(&[100.0, 400.0]), rng.pick(&[10.0, 500.0]));
    }
    for _ in 0..2 {
        let (a, b) = (rng.below(npus), rng.below(npus));
        if a != b && (a + 1) % npus != b && (b + 1) % npus != a {
            f.cable(npu[a], npu[b], 200.0, 50.0);
        }
    }
    (f.topology(), npu)
}

fn run(t: &Topology, npus: &[u32], s: &CollectiveSpec, model: Model, no_shortcuts: bool, primed_steps: usize) -> SimOutput {
    let cfg = SimConfig { model, no_shortcuts, primed_steps, ..Default::default() };
    simulate(t, npus, s, &cfg).unwrap()
}

fn same(a: &SimOutput, b: &SimOutput, what: &str) {
    assert_eq!(a.collective_time_ns, b.collective_time_ns, "{what}: collective time");
    assert_eq!(a.rank_finish_ns, b.rank_finish_ns, "{what}: rank finish times");
    assert_eq!(a.link_bytes, b.link_bytes, "{what}: link bytes");
    assert_eq!((a.fct_min_ns, a.fct_max_ns, a.fct_sum_ns), (b.fct_min_ns, b.fct_max_ns, b.fct_sum_ns), "{what}: flows");
}

/// Collectives that exercise different peer patterns (ring, all peers, hypercube, trees).
fn cases(rng: &mut Rng, n: usize) -> Vec<CollectiveSpec> {
    let mut out = vec![];
    let mut add = |op, algo, chunks: usize| {
        let mut s = spec(op, algo, n as u32, 1_048_576.0);
        s.chunks = chunks;
        s.endpoint_delay_ns = 10.0;
        s.scheduling = Scheduling::Ordered;
        out.push(s);
    };
    add(Op::AllReduce, Algo::Ring, 1 + rng.below(3));
    add(Op::AllToAll, Algo::Direct, 1);
    add(Op::AllGather, Algo::RingBidirectional, 2);
    add(Op::AllReduce, Algo::DoubleBinaryTree, 2);
    if n.is_power_of_two() {
        add(Op::AllReduce, Algo::HalvingDoubling, 1);
    }
    // Two concurrent groups (even and odd ranks) sharing the fabric.
    let mut s = spec(Op::AllReduce, Algo::Ring, 2, 65536.0);
    s.groups = vec![(0..n as u32).step_by(2).collect(), (1..n as u32).step_by(2).collect()];
    out.push(s);
    out
}

#[test]
fn shortcuts_give_the_event_by_event_answer_on_random_fabrics() {
    let mut rng = Rng(0x5EED_1234_ABCD_0001);
    let mut fabrics = vec![];
    for i in 0..16 {
        let asymmetric = i % 2 == 1;
        let npus = [8, 12, 16][i % 3];
        fabrics.push((format!("clos {i} asym={asymmetric}"), clos(&mut rng, npus, 4, 2 + i % 2, if asymmetric { 3 } else { 0 }, asymmetric)));
    }
    fabrics.push(("chordal ring".into(), chordal_ring(&mut rng, 9)));
    for (name, (t, npus)) in &fabrics {
        for s in cases(&mut rng, npus.len()) {
            for model in [Model::Aware, Model::Fair] {
                let what = format!("{name}, {:?} {:?} x{} groups, {model:?}", s.op, s.algorithms[0], s.groups.len());
                let fast = run(t, npus, &s, model, false, 64);
                same(&fast, &run(t, npus, &s, model, true, 64), &what);
                assert!(!fast.reran_event_by_event, "{what}: every route was primed");
            }
        }
    }
}

#[test]
fn late_routes_fall_back_to_the_exact_run() {
    // Without priming, routes appear as messages are sent; a late one sharing a link that an
    // earlier message crossed ahead of the clock must trigger the rerun, with the same answer.
    let mut rng = Rng(0x5EED_0000_0000_0042);
    let mut reran = 0;
    for i in 0..4 {
        let (t, npus) = clos(&mut rng, 16, 4, 2, 2 * i, i % 2 == 1);
        for s in cases(&mut rng, npus.len()) {
            let fast = run(&t, &npus, &s, Model::Aware, false, 0);
            same(&fast, &run(&t, &npus, &s, Model::Aware, true, 64), "unprimed");
            reran += fast.reran_event_by_event as usize;
        }
    }
    assert!(reran > 0, "some unprimed run met a late route");
}

#[test]
fn private_links_save_events() {
    let mut rng = Rng(7);
    let (t, npus) = clos(&mut rng, 16, 4, 2, 0, false);
    let s = spec(Op::AllReduce, Algo::Ring, 16, 1_048_576.0);
    let fast = run(&t, &npus, &s, Model::Aware, false, 64);
    let slow = run(&t, &npus, &s, Model::Aware, true, 64);
    // Every route here is private except the leaf -- spine ones: a hop event saved per message.
    assert!(fast.events * 3 < slow.events * 2, "{} vs {} events", fast.events, slow.events);
}

#[test]
fn fair_resumed_filling_gives_the_refilled_answer_on_larger_fabrics() {
    // 32 NPUs: hundreds of max-min rounds, so flows leaving and arriving resume the filling deep
    // inside it, on symmetric fabrics (ties everywhere) and asymmetric ones.
    let mut rng = Rng(0x5EED_FA1E_0000_0002);
    for i in 0..4 {
        let asymmetric = i % 2 == 1;
        let (t, npus) = clos(&mut rng, 32, 8, 2 + i, if asymmetric { 4 } else { 0 }, asymmetric);
        let mut cases = vec![spec(Op::AllToAll, Algo::Direct, 32, 1_048_576.0)];
        // Groups of 12 and 20 members: unequal messages, so flows end and start at unrelated times.
        let mut uneven = spec(Op::AllToAll, Algo::Direct, 32, 1_048_576.0);
        uneven.groups = vec![(0..12).collect(), (12..32).collect()];
        cases.push(uneven);
        let mut ring = spec(Op::AllReduce, Algo::Ring, 32, 4_194_304.0);
        (ring.chunks, ring.endpoint_delay_ns) = (4, 10.0);
        cases.push(ring);
        for s in &cases {
            let what = format!("clos {i} asym={asymmetric}, {:?} x{} groups", s.op, s.groups.len());
            same(&run(&t, &npus, s, Model::Fair, false, 64), &run(&t, &npus, s, Model::Fair, true, 64), &what);
        }
    }
}

const NIC: i32 = 3;

/// `servers` servers of 8 NPUs on one scale-up switch and 2 NICs (4 NPUs each), `per_leaf`
/// servers per leaf (a leaf of 8 servers has 16 NIC cables: a hub), every leaf to every spine;
/// `extra` random cables between random switches, NICs and NPUs, random speeds when `asymmetric`.
fn servers(rng: &mut Rng, servers: usize, per_leaf: usize, spines: usize, extra: usize, asymmetric: bool) -> (Topology, Vec<u32>) {
    let mut f = Fabric { kind: vec![], edges: vec![] };
    let speeds = if asymmetric { vec![100.0, 200.0, 400.0, 800.0] } else { vec![400.0] };
    let leaves: Vec<u32> = (0..servers.div_ceil(per_leaf)).map(|_| f.node(SWITCH)).collect();
    let spine: Vec<u32> = (0..spines).map(|_| f.node(SWITCH)).collect();
    let (mut npu, mut nics, mut others) = (vec![], vec![], vec![]);
    for s in 0..servers {
        let gpus: Vec<u32> = (0..8).map(|_| f.node(NPU)).collect();
        let scaleup = f.node(SWITCH);
        for &g in &gpus {
            f.edges.push((g, scaleup, 3600.0, 0.0));
        }
        for half in gpus.chunks(4) {
            let nic = f.node(NIC);
            for &g in half {
                f.edges.push((g, nic, 512.0, 0.0));
            }
            f.cable(nic, leaves[s / per_leaf], rng.pick(&speeds), 500.0);
            nics.push(nic);
        }
        npu.extend(gpus);
        others.push(scaleup);
    }
    for &l in &leaves {
        for &s in &spine {
            f.cable(l, s, rng.pick(&speeds), 500.0);
        }
    }
    let switches: Vec<u32> = leaves.iter().chain(&spine).chain(&others).copied().collect();
    for _ in 0..extra {
        let a = switches[rng.below(switches.len())];
        let b = match rng.below(3) {
            0 => npu[rng.below(npu.len())],
            1 => nics[rng.below(nics.len())],
            _ => switches[rng.below(switches.len())],
        };
        if a != b {
            f.cable(a, b, rng.pick(&speeds), 500.0);
        }
    }
    (f.topology(), npu)
}

/// Routes walked over distances composed from shared switch trees (`hubs`) are the routes of the
/// per-source trees, on symmetric and asymmetric fabrics; sources whose region has no nearby hub
/// (a chordal ring) fall back to a tree of their own.
#[test]
fn shared_switch_trees_give_the_per_source_routes() {
    let mut rng = Rng(0x5EED_4B1C_0000_0013);
    let mut fabrics = vec![];
    for i in 0..8 {
        let asymmetric = i % 2 == 1;
        fabrics.push((format!("servers {i} asym={asymmetric}"), servers(&mut rng, 16 + 8 * (i % 3), 8, 2 + i % 3, if asymmetric { 6 } else { 0 }, asymmetric)));
    }
    // 10 leaves: more trees than the smallest cache holds.
    fabrics.push(("servers big asym=false".into(), servers(&mut rng, 80, 8, 2, 0, false)));
    fabrics.push(("chordal ring".into(), chordal_ring(&mut rng, 24)));
    for (k, (name, (t, npus))) in fabrics.iter().enumerate() {
        // Half the fabrics with the smallest tree cache (trees evicted and rebuilt), half with
        // half the sources announced (their trees built together, in parallel).
        let mut shared = Router::new(t, Metric::Hops, true, None).unwrap();
        if k % 2 == 0 {
            shared = shared.with_hub_tree_cache(0);
        } else {
            shared.expect_sources(&npus[..npus.len() / 2]);
        }
        let mut own = Router::new(t, Metric::Hops, true, None).unwrap().without_hub_trees();
        for i in 0..npus.len() {
            let a = npus[i * 37 % npus.len()]; // sources out of order: trees leave and come back
            for &b in npus.iter().skip(i % 5).step_by(if npus.len() > 300 { 23 } else { 5 }) {
                if a != b {
                    let (x, y) = (shared.route(a, b).unwrap(), own.route(a, b).unwrap());
                    assert_eq!(shared.links(x), own.links(y), "{name}: route {a} -> {b}");
                }
            }
        }
        let (per_source, per_switch) = shared.trees_built();
        if name.starts_with("servers") {
            if name.contains("big") {
                assert!(per_switch > 10, "{name}: trees evicted and rebuilt ({per_switch} built)");
            } else {
                assert!(per_switch > 0 && per_switch < own.trees_built().0 / 2, "{name}: {per_switch} switch trees");
            }
            if !name.ends_with("true") {
                assert_eq!(per_source, 0, "{name}: every symmetric server's region is small");
            }
        } else {
            assert_eq!((per_source, per_switch), (own.trees_built().0, 0), "{name}: no hub, no sharing");
        }
    }
}

/// The hierarchical all-reduce of the scale benchmark (ring in the server, halving-doubling or
/// ring across) with every shortcut on equals the reference run with all of them off.
#[test]
fn hierarchical_all_reduce_with_shared_trees_is_exact() {
    let mut rng = Rng(0x5EED_4B1C_0000_0014);
    for i in 0..4 {
        let (t, npus) = servers(&mut rng, 16, 8, 2, if i % 2 == 1 { 4 } else { 0 }, i % 2 == 1);
        for across in [Algo::HalvingDoubling, Algo::Ring] {
            let mut s = spec(Op::AllReduce, Algo::Ring, npus.len() as u32, 1_048_576.0);
            s.dims = vec![8, 16];
            s.algorithms = vec![Algo::Ring, across];
            s.scheduling = Scheduling::Ordered;
            let fast = run(&t, &npus, &s, Model::Aware, false, 64);
            same(&fast, &run(&t, &npus, &s, Model::Aware, true, 64), &format!("servers {i}, ring x {across:?}"));
        }
    }
}

fn run_folded(t: &Topology, npus: &[u32], s: &CollectiveSpec, model: Model, symmetry: bool) -> SimOutput {
    let cfg = SimConfig { model, symmetry, ..Default::default() };
    simulate(t, npus, s, &cfg).unwrap()
}

/// A folded run against the full one: every measurement equal bit for bit.
fn same_as_full(a: &SimOutput, b: &SimOutput, what: &str) {
    assert_eq!(a.collective_time_ns, b.collective_time_ns, "{what}: collective time");
    assert_eq!(a.rank_finish_ns, b.rank_finish_ns, "{what}: rank finish times");
    assert_eq!(a.bytes_sent_per_rank, b.bytes_sent_per_rank, "{what}: bytes sent");
    assert_eq!(a.bytes_received_per_rank, b.bytes_received_per_rank, "{what}: bytes received");
    assert_eq!(a.link_bytes, b.link_bytes, "{what}: link bytes");
    assert_eq!(a.link_busy_ns, b.link_busy_ns, "{what}: link busy");
    assert_eq!(a.link_routes, b.link_routes, "{what}: link routes");
    assert_eq!((a.messages, a.delivered), (b.messages, b.delivered), "{what}: messages");
    assert_eq!((a.fct_min_ns, a.fct_max_ns, a.fct_sum_ns), (b.fct_min_ns, b.fct_max_ns, b.fct_sum_ns), "{what}: flows");
}

/// Collectives a fold may cover (rank-shift partners) and some it must refuse.
fn symmetric_cases(rng: &mut Rng, n: usize) -> Vec<CollectiveSpec> {
    let mut out = vec![];
    let mut add = |op, algo, chunks: usize, active: usize, dims: Vec<usize>| {
        let mut s = spec(op, algo, n as u32, 1_048_576.0);
        (s.chunks, s.active_chunks_per_dim, s.endpoint_delay_ns) = (chunks, active, 10.0);
        s.local_mem_bw_gb_per_s = Some(1600.0);
        s.scheduling = Scheduling::Ordered;
        if !dims.is_empty() {
            s.algorithms = vec![algo; dims.len()];
        }
        s.dims = dims;
        out.push(s);
    };
    add(Op::AllReduce, Algo::Ring, 1, 1, vec![]);
    add(Op::AllReduce, Algo::Ring, 1 + rng.below(4), 1 + rng.below(2), vec![]);
    add(Op::ReduceScatter, Algo::Ring, 2, 1, vec![]);
    add(Op::AllGather, Algo::RingBidirectional, 2, 2, vec![]);
    add(Op::AllToAll, Algo::Ring, 1, 1, vec![]);
    add(Op::AllReduce, Algo::Ring, 2, 1, vec![4, n / 4]);
    add(Op::AllReduce, Algo::HalvingDoubling, 1, 1, if n.is_power_of_two() { vec![] } else { vec![4, n / 4] });
    add(Op::AllToAll, Algo::Direct, 1, 1, vec![]);
    let mut s = spec(Op::AllReduce, Algo::Ring, 2, 65536.0);
    s.groups = vec![(0..n as u32).step_by(2).collect(), (1..n as u32).step_by(2).collect()];
    out.push(s);
    out
}

/// Symmetric collectives folded onto representative members give the full run's answer bit for
/// bit, on symmetric fabrics (where the fold is taken) and on fabrics whose symmetry is broken
/// by random cables and speeds, a cut cable or a slowed one (where the check must refuse it, or
/// may take it where the broken part is not on any route).
#[test]
fn folded_runs_equal_the_full_run_on_random_fabrics() {
    let mut rng = Rng(0x5EED_5E77_0000_0023);
    let (mut folded, mut refused) = (0, 0);
    for i in 0..24 {
        let npus = [8, 12, 16, 24][i % 4];
        let kind = i % 6;
        let (mut f, npu) = clos_fabric(&mut rng, npus, 4, 1 + i % 3, if kind == 1 { 2 } else { 0 }, kind == 2);
        let name = match kind {
            3 => {
                // A cable (its middle, port to port) cut: leaf to spine, or NPU to leaf.
                let cables: Vec<usize> = (0..f.edges.len()).filter(|&e| f.edges[e].3 > 0.0).collect();
                let e = cables[rng.below(cables.len())];
                f.edges.remove(e);
                format!("clos {i} cut {e}")
            }
            4 => {
                let e = rng.below(f.edges.len());
                f.edges[e].2 /= 2.0;
                format!("clos {i} slowed {e}")
            }
            _ => format!("clos {i} kind {kind}"),
        };
        let t = f.topology();
        for s in symmetric_cases(&mut rng, npus) {
            for model in [Model::Aware, Model::Unaware] {
                let what = format!("{name}, {:?} {:?} dims {:?} x{} chunks {}/{} groups {}, {model:?}", s.op, s.algorithms[0], s.dims, s.chunks, s.active_chunks_per_dim, s.chunks, s.groups.len());
                let Ok(full) = simulate(&t, &npu, &s, &SimConfig { model, ..Default::default() }) else {
                    continue; // a cut cable split the group
                };
                let fast = run_folded(&t, &npu, &s, model, true);
                same_as_full(&fast, &full, &what);
                assert!(fast.symmetry.tried && !full.symmetry.tried, "{what}");
                if fast.symmetry.simulated < fast.symmetry.members {
                    folded += 1;
                    assert!(fast.symmetry.reason.is_none(), "{what}");
                    assert!(fast.events < full.events, "{what}: {} vs {} events", fast.events, full.events);
                } else {
                    refused += 1;
                    assert!(fast.symmetry.reason.is_some(), "{what}: a full run says why");
                }
                if kind == 0 && s.groups.len() == 1 && s.dims.is_empty() && s.algorithms[0] == Algo::Ring {
                    assert_eq!(fast.symmetry.simulated, 4, "{what}: one leaf of 4 NPUs stands for all");
                }
            }
        }
    }
    assert!(folded > 50 && refused > 50, "{folded} folded, {refused} refused");
}

/// Servers of 8 GPUs sharing 2 NICs: connections across servers share the NIC cables, so a ring
/// across servers must not be folded, and the hierarchical run stays exact.
#[test]
fn shared_links_refuse_the_fold() {
    let mut rng = Rng(0x5EED_5E77_0000_0024);
    let (t, npus) = servers(&mut rng, 8, 4, 2, 0, false);
    let mut s = spec(Op::AllReduce, Algo::Ring, npus.len() as u32, 1_048_576.0);
    (s.dims, s.algorithms, s.scheduling) = (vec![8, 8], vec![Algo::Ring, Algo::Ring], Scheduling::Ordered);
    let fast = run_folded(&t, &npus, &s, Model::Aware, true);
    same_as_full(&fast, &run_folded(&t, &npus, &s, Model::Aware, false), "servers ring x ring");
    assert_eq!(fast.symmetry.simulated, fast.symmetry.members);
    assert!(fast.symmetry.reason.as_deref().unwrap_or("").contains("carries two connections"), "{:?}", fast.symmetry);
}

/// Sprayed connections: in the aware model their parts tie at shared links (ordered by message
/// slot, which a folded run does not reproduce), so the fold is refused; unaware parts never
/// queue, so the fold is taken and exact.
#[test]
fn sprayed_connections_fold_only_where_parts_cannot_tie() {
    use _simengine::routing::Policy;
    let mut rng = Rng(0x5EED_5E77_0000_0025);
    let (f, npus) = clos_fabric(&mut rng, 16, 4, 2, 0, false);
    let t = f.topology();
    let mut s = spec(Op::AllToAll, Algo::Ring, 16, 1_048_576.0);
    (s.chunks, s.active_chunks_per_dim, s.endpoint_delay_ns, s.scheduling) = (2, 2, 10.0, Scheduling::Ordered);
    for model in [Model::Aware, Model::Unaware] {
        let cfg = |symmetry| SimConfig { model, symmetry, policies: vec![(Policy::Spray, false); f.edges.len()], ..Default::default() };
        let fast = simulate(&t, &npus, &s, &cfg(true)).unwrap();
        same_as_full(&fast, &simulate(&t, &npus, &s, &cfg(false)).unwrap(), &format!("spray, {model:?}"));
        if model == Model::Aware {
            assert!(fast.symmetry.reason.as_deref().unwrap_or("").contains("sprayed"), "{:?}", fast.symmetry);
        } else {
            assert_eq!(fast.symmetry.simulated, 4, "{:?}", fast.symmetry);
        }
    }
}

/// The hierarchical collectives of the scale benchmarks (inside the server: ring, bidirectional
/// ring, direct or halving-doubling; across servers: halving-doubling) on random server fabrics
/// routed by d-mod-k: folded over the orbits of the servers' XORs, the run gives the full run's
/// answer bit for bit. Symmetric fabrics (powers of two everywhere) must fold onto one server;
/// ECMP hashing, a spine count that is not a power of two (the digits then do not follow the
/// XORs), random extra cables or speeds, and a cut cable must be refused with a reason, or, where
/// the check finds the broken part off every route, still fold exactly.
#[test]
fn halving_doubling_across_servers_folds_over_link_orbits() {
    use _simengine::routing::Policy;
    let mut rng = Rng(0x5EED_0D0D_0000_0023);
    let (mut folded, mut refused) = (0, 0);
    for i in 0..16 {
        let kind = i % 4; // 0 symmetric, 1 three spines, 2 extra cables and speeds, 3 a cable cut
        let servers_n = [4, 8, 16][i % 3];
        let per_leaf = [2, 4][(i / 3) % 2];
        // Full bisection (as many spines as NIC cables per leaf) for the symmetric ones.
        let spines = if kind == 1 { 3 } else if kind == 0 { 2 * per_leaf } else { [2, 4][i % 2] };
        let (t, npus) = servers(&mut rng, servers_n, per_leaf, spines, if kind == 2 { 3 } else { 0 }, kind == 2);
        let t = if kind == 3 { servers_fabric_without(&t, rng.below(t.num_links() / 2)) } else { t };
        let edges = t.num_links() / 2;
        // NIC affinity, as the benchmark's servers have it: GPU i of server s leaves through NIC
        // 2s + i / 4 (d-mod-k then routes by the NIC's index).
        let affinity: Vec<(u32, u32)> = npus
            .iter()
            .enumerate()
            .map(|(r, &g)| {
                let nic = t.out_links(g).iter().map(|&l| t.link_to[l as usize]).find(|&v| t.node_kind[v as usize] == NIC);
                (nic.expect("every GPU has a NIC"), (r / 8) as u32)
            })
            .collect();
        for (c, (op, inside)) in [
            (Op::AllReduce, Algo::Ring),
            (Op::AllReduce, Algo::RingBidirectional),
            (Op::ReduceScatter, Algo::HalvingDoubling),
            (Op::AllGather, Algo::Direct),
        ]
        .into_iter()
        .enumerate()
        {
            let mut s = spec(op, Algo::Ring, npus.len() as u32, 1_048_576.0);
            (s.dims, s.algorithms, s.scheduling) = (vec![8, servers_n], vec![inside, Algo::HalvingDoubling], Scheduling::Ordered);
            (s.chunks, s.active_chunks_per_dim, s.endpoint_delay_ns) = (1 + (i + c) % 2, 1, 10.0);
            for policy in [Policy::DModK, Policy::Ecmp] {
                let what = format!("servers {i} kind {kind} ({servers_n} servers, {per_leaf} per leaf, {spines} spines), {op:?} {inside:?} x hd, {policy:?}");
                let cfg = |symmetry| SimConfig {
                    model: Model::Aware,
                    symmetry,
                    policies: vec![(policy, false); edges],
                    affinity: affinity.clone(),
                    ..Default::default()
                };
                let Ok(full) = simulate(&t, &npus, &s, &cfg(false)) else {
                    continue; // the cut cable split the fabric
                };
                let fast = simulate(&t, &npus, &s, &cfg(true)).unwrap();
                same_as_full(&fast, &full, &what);
                if fast.symmetry.simulated < fast.symmetry.members {
                    folded += 1;
                    assert_eq!(fast.symmetry.simulated, 8, "{what}: one server stands for all");
                    assert!(fast.events < full.events, "{what}");
                    // Symmetric fabrics are proved from their structure (symmetry_proof); broken
                    // ones can only be folded by the check over every member's routes.
                    let proof = fast.symmetry.proof.as_deref().unwrap_or("");
                    if kind == 0 {
                        assert_eq!(proof, "structure", "{what}");
                    } else {
                        assert!(proof.starts_with("routes (the structure did not prove it: "), "{what}: {proof}");
                    }
                } else {
                    refused += 1;
                    assert!(fast.symmetry.reason.is_some(), "{what}");
                    assert!(kind != 0 || policy == Policy::Ecmp, "{what}: symmetric fabric refused: {:?}", fast.symmetry.reason);
                }
            }
        }
    }
    assert!(folded >= 16 && refused >= 32, "{folded} folded, {refused} refused");
}

/// `t` without physical edge `e` (both directions).
fn servers_fabric_without(t: &Topology, e: usize) -> Topology {
    let keep: Vec<usize> = (0..t.num_links() / 2).filter(|&k| k != e).collect();
    let src: Vec<u32> = keep.iter().map(|&k| t.link_from[2 * k]).collect();
    let dst: Vec<u32> = keep.iter().map(|&k| t.link_to[2 * k]).collect();
    let bw: Vec<f64> = keep.iter().map(|&k| t.link_bw_bytes_per_ns[2 * k] * 8.0).collect();
    let lat: Vec<f64> = keep.iter().map(|&k| t.link_latency_ns[2 * k]).collect();
    let mut out = Topology::new(t.num_nodes, &src, &dst, &bw, &lat, Some(&t.node_kind), &[]).unwrap();
    out.set_cut_through_kinds(&[PORT]);
    out
}
