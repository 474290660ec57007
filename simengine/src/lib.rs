//! InfraGraph collective simulation engine.
//!
//! The engine core is plain Rust (no Python types) so `cargo test` runs without a
//! Python interpreter; `python` is the only module that touches PyO3.

pub mod python;
