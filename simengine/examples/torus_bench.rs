//! Times the 4,096-NPU 16x16x16 torus all-reduce (hierarchical ring, congestion-unaware).
//! `cargo run --release --example torus_bench -- 4` (chunks).
#[path = "../tests/common.rs"]
mod common;
use _simengine::algorithms::{Algo, Op};
use _simengine::{simulate, SimConfig};

fn main() {
    let chunks: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(4);
    let dims = [16usize, 16, 16];
    let t0 = std::time::Instant::now();
    let topo = common::torus(&dims, common::ASTRA_50GB, 500.0);
    let mut s = common::spec(Op::AllReduce, Algo::Ring, 4096, 1048576.0);
    s.dims = dims.to_vec();
    s.chunks = chunks;
    s.endpoint_delay_ns = 10.0;
    s.local_mem_bw_gb_per_s = Some(1600.0);
    let out = simulate(&topo, &common::ranks(4096), &s, &SimConfig { astra: true, ..Default::default() }).unwrap();
    println!("chunks {chunks}: {} ns, {} events, {} msgs, engine {:.3} s, total {:.3} s",
        out.collective_time_ns, out.events, out.messages, out.wall_time_s, t0.elapsed().as_secs_f64());
}
