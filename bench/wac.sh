#!/usr/bin/env bash
# Tactical sanity: solves WAC (or another EPD suite) with the release engine at a fixed time per
# position and prints `solved X/Y positions` (issue target: >= 270/300 at 1 s).
#
#   bench/wac.sh [MOVETIME_MS] [SUITE]
set -euo pipefail
cd "$(dirname "$0")/.."
movetime="${1:-1000}"
suite="${2:-${EVOCHESS_DATA:-../shared/data}/tests/wac.epd}"
cargo build --release --quiet --bin evochess
./target/release/evochess epd "$suite" --movetime "$movetime" | tail -n 1 | sed "s/^/$(date -u +%Y-%m-%d) $(git rev-parse --short HEAD) movetime ${movetime} ms: /"
