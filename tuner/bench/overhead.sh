#!/usr/bin/env bash
# Runner overhead benchmark: N games between two engines at a fixed node count, concurrency 2.
# Prints games/minute, time forfeits and the runner's share of all CPU time (target < 5 %).
# Usage: tuner/bench/overhead.sh [GAMES] [ENGINE] [LIMIT]
#   defaults: 100 games, /usr/games/stockfish, nodes=2000
#   e.g. tuner/bench/overhead.sh 500 target/release/evochess tc=1+0.01
set -euo pipefail
cd "$(dirname "$0")/../.."
games=${1:-100}
engine=${2:-/usr/games/stockfish}
limit=${3:-nodes=2000}
out=$(mktemp -d)
cargo build --release -p tuner >/dev/null 2>&1
./target/release/tuner match \
  -engine name=A cmd="$engine" -engine name=B cmd="$engine" \
  -each "$limit" timemargin=100 \
  -openings file=openings/gnuchess-8ply.epd order=random -srand 1 \
  -games 2 -rounds $((games / 2)) -concurrency 2 -ratinginterval 0 -quiet \
  -pgnout "$out/games.pgn" -results "$out/results.json" | tail -6
echo "PGN and results in $out"
