#!/usr/bin/env bash
# Run every test: the Rust engine's unit tests, then the Python suite (pytest).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --quiet --manifest-path simengine/Cargo.toml
python3 -m pytest "$@"
