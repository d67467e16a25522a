#!/usr/bin/env bash
# The cost of `tuner datagen`'s harness (issue 44): nodes searched per second across all games
# at --concurrency CORES, against CORES x the single-thread `evochess bench` nps measured in the
# same run. The bound is datagen nodes/s >= 0.8 x CORES x bench nps; positions/s (kept
# positions) is printed beside it. Timed: run it on quiet cores (nothing else busy), and quote
# the card/CPU with the figures.
#
#   bench/datagen.sh [GAMES] [NODES] [CORES]     # defaults: 64 games, 5000 nodes, nproc
set -euo pipefail
cd "$(dirname "$0")/.."
games="${1:-64}"
nodes="${2:-5000}"
cores="${3:-$(nproc)}"

cargo build --release --quiet -p evochess -p tuner
bench_line="$(./target/release/evochess bench 2>/dev/null | tail -n 1)"
nps="$(grep -oE '[0-9]+ nps' <<<"$bench_line" | grep -oE '[0-9]+')"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
summary="$(./target/release/tuner datagen --games "$games" --nodes "$nodes" --seed 1 \
    --concurrency "$cores" --out "$out/run" 2>/dev/null)"
dg="$(grep -oE '[0-9]+ nodes/s' <<<"$summary" | grep -oE '[0-9]+')"
pps="$(grep -oE '[0-9.]+ positions/s' <<<"$summary" | grep -oE '[0-9.]+')"
echo "$(date -u +%Y-%m-%d) $(git rev-parse --short HEAD), $cores cores, $games games at $nodes nodes:"
echo "$summary"
echo "evochess bench: $bench_line"
awk -v dg="$dg" -v nps="$nps" -v c="$cores" -v pps="$pps" 'BEGIN {
    r = dg / (c * nps)
    printf "datagen %d nodes/s = %.2f x %d cores x bench %d nps (bound 0.80: %s); %s positions/s\n",
        dg, r, c, nps, (r >= 0.8 ? "met" : "NOT met"), pps
}'
