#!/usr/bin/env bash
# Time losses under a slow GUI (issue 92 acceptance 3): ENGINE plays itself at TC with no time
# margin (cutechess-cli's default: a move that oversteps the clock by a millisecond loses), every
# `go` of both sides delayed by LATENCY_MS ms (bench/latency_proxy.py), colour-swapped pairs from
# the UHO book. Prints the match report and the number of games lost on time.
#
#   bench/time_losses.sh ENGINE [GAMES] [TC] [LATENCY_MS] [OUTDIR]
#       defaults: 200 games, 5+0.05, 30 ms, runs/time-losses
#   ENGINE_OPTS: extra settings for both sides, e.g. ENGINE_OPTS="option.Move Overhead=30"
# Timed games: run it with nothing else heavy on the machine.
set -euo pipefail
cd "$(dirname "$0")/.."
engine="$(realpath "$1")"
games="${2:-200}"
tc="${3:-5+0.05}"
latency="${4:-30}"
out="${5:-runs/time-losses}"
data="${EVOCHESS_DATA:-../shared/data}"
tuner="${TUNER:-target/release/tuner}"
proxy="$(realpath bench/latency_proxy.py)"
mkdir -p "$out"
resume=()
[ -f "$out/games.pgn.state.jsonl" ] && resume=(--resume)
"$tuner" match \
    --engine name=a cmd="$proxy" arg="$latency" arg="$engine" ${ENGINE_OPTS:-} \
    --engine name=b cmd="$proxy" arg="$latency" arg="$engine" ${ENGINE_OPTS:-} \
    --each tc="$tc" option.Hash=16 timemargin=0 \
    --openings file="$data/openings/UHO_4060_v4.epd.xz" order=random \
    --srand "${SRAND:-9203}" --games "$games" --concurrency "${CONCURRENCY:-2}" \
    --pgnout "$out/games.pgn" --results "$out/results.json" \
    --draw movenumber=40 movecount=8 score=10 --resign movecount=3 score=1000 twosided=true \
    --ratinginterval 50 "${resume[@]}"
echo "games lost on time: $(grep -c '^\[Termination "time forfeit"\]' "$out/games.pgn" || true) of $(grep -c '^\[Result ' "$out/games.pgn")"
