//! InfraGraph collective simulation engine.
//!
//! The engine core is plain Rust (no Python types) so `cargo test` runs without a Python
//! interpreter; `python` is the only module that touches PyO3.
//!
//! Layers: `topology` (directed links from the graph arrays) → `routing` (static shortest-path /
//! ECMP / DOR routes) → `algorithms` (per-member step programs of one collective phase) → `plan`
//! (chunking and multi-dimensional phase lists) → `network` (unaware / aware / fair models, `fair` for max-min rates) →
//! `engine` (discrete-event loop) → `results`.

pub mod algorithms;
pub mod chakra_reader;
pub mod conn_fifo;
mod csr_runs;
pub mod astra_algorithms;
pub mod custom_reductions;
pub mod direct_packets;
pub mod engine;
pub mod dim_scheduling;
pub mod error;
pub mod events;
pub mod fair;
mod fxhash;
mod huge_pages;
pub mod hubs;
mod le_arrays;
pub mod monitor;
pub mod network;
pub mod pair_gate;
pub mod plan;
mod prefetch;
pub mod results;
pub mod routing;
pub mod symmetry;
pub mod symmetry_proof;
pub mod sys_events;
pub mod schedule_columns;
pub mod schedule_program;
pub mod schedule_proof;
pub mod synth;
pub mod synth_columns;
pub mod synth_list;
mod synth_python;
pub mod workload_replay;
pub mod workload_session;
pub mod workload_timing;
mod workload_python;
pub mod topology;

pub mod python;

pub use engine::{simulate, simulate_watched, SimConfig};
