#!/usr/bin/env bash
# One epoch of gradient Texel over 5M traced positions: the training positions of
# configs/texel/gradient.toml (GM games) traced, repeated to POSITIONS (default 5,000,000), one
# Adam epoch (batch 16384) timed on THREADS threads (default 2), and the memory the traces hold.
# Usage: bench/texel_epoch.sh [POSITIONS] [THREADS]. Needs ../shared/data (the GM games).
set -euo pipefail
cd "$(dirname "$0")/.."
positions=${1:-5000000}
threads=${2:-2}
cargo build --release -p tuner >&2
target/release/tuner texel --config configs/texel/gradient.toml --out runs/texel/bench-epoch \
    --threads "$threads" --bench-epoch "$positions"
