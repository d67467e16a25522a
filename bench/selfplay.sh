#!/usr/bin/env bash
# Self-play games for Texel-style tuning (`[mentor] target = "result"`): the engine against
# itself at a node limit, every game on a fresh 2-move opening (no colour-swapped repeats, which
# would replay the same game), fishtest-style draw/resign and Syzygy adjudication. GM games
# rarely hold the material imbalances that decide games; low-node self-play holds many.
#
#   bench/selfplay.sh [GAMES] [NODES] [OUTDIR] [PARAMS.toml]
#       defaults: 4000 games, 8000 nodes a move, runs/selfplay, the engine's own defaults
#
# Then: tuner evolve --pgn OUTDIR/games.pgn --config <a config with [mentor] target = "result">.
# Resumable: run it again with the same arguments. TUNER and EVOCHESS name the binaries.
set -euo pipefail
cd "$(dirname "$0")/.."
games="${1:-4000}"
nodes="${2:-8000}"
out="${3:-runs/selfplay}"
params="${4:-}"
data="${EVOCHESS_DATA:-../shared/data}"
if [ -z "${TUNER:-}" ]; then
    cargo build --release --quiet --workspace
fi
tuner="${TUNER:-target/release/tuner}"
evochess="${EVOCHESS:-target/release/evochess}"
each=(nodes="$nodes" option.Hash=16)
[ -n "$params" ] && each+=(params="$params")
mkdir -p "$out"
resume=()
[ -f "$out/games.pgn.state.jsonl" ] && resume=(--resume)
"$tuner" match \
    --engine name=a cmd="$evochess" --engine name=b cmd="$evochess" \
    --each "${each[@]}" \
    --openings file="$data/openings/2moves_v1.epd" order=random --norepeat \
    --srand 20261123 --games "$games" --concurrency 2 \
    --pgnout "$out/games.pgn" --results "$out/results.json" \
    --draw movenumber=40 movecount=8 score=10 --resign movecount=3 score=1000 twosided=true \
    --tb "$data/syzygy" "${resume[@]}"
