#!/usr/bin/env bash
# evochess against Debian's glaurung through our own runner (`tuner match`): GAMES games
# (default 200) at TC (default 10+0.1), concurrency 2, colour-swapped pairs from the project's
# opening suite, fishtest-style draw/resign adjudication and Syzygy adjudication.
# Glaurung's default Threads=2 spins an idle helper thread, so it is given Threads=1.
#
#   bench/vs_glaurung.sh [GAMES] [TC] [OUTDIR]
set -euo pipefail
cd "$(dirname "$0")/.."
games="${1:-200}"
tc="${2:-10+0.1}"
out="${3:-runs/vs-glaurung}"
data="${EVOCHESS_DATA:-../shared/data}"
glaurung="$(command -v glaurung || echo /usr/games/glaurung)"
cargo build --release --quiet --workspace
mkdir -p "$out"
./target/release/tuner match \
    --engine name=evochess cmd=target/release/evochess \
    --engine name=glaurung cmd="$glaurung" option.Threads=1 option.OwnBook=false \
    --each tc="$tc" option.Hash=16 \
    --openings file=openings/gnuchess-8ply.epd order=sequential \
    --games "$games" --concurrency 2 \
    --pgnout "$out/games.pgn" --results "$out/results.json" \
    --draw movenumber=40 movecount=8 score=10 --resign movecount=3 score=1000 twosided=true \
    --tb "$data/syzygy" --ratinginterval 20 | tail -n 8
