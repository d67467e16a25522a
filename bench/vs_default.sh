#!/usr/bin/env bash
# A parameter file against params/default.toml with the same binary (issue 10, acceptance 5: an
# evolved evaluation against the hand-set one, same search): GAMES games (default 400) at TC
# (default 10+0.1), concurrency 2, colour-swapped pairs from the UHO book, fishtest-style
# adjudication, Syzygy adjudication. A fixed number of games (no SPRT stop), so the Elo and its
# interval are the report. Timed: run it with nothing else heavy on the machine. Resumable: run
# it again with the same arguments.
#
#   bench/vs_default.sh PARAMS [GAMES] [TC] [OUTDIR]
set -euo pipefail
cd "$(dirname "$0")/.."
params="$(realpath "$1")"
games="${2:-400}"
tc="${3:-10+0.1}"
out="${4:-runs/vs-default}"
data="${EVOCHESS_DATA:-../shared/data}"
tuner="${TUNER:-target/release/tuner}"
engine="${EVOCHESS:-target/release/evochess}"
mkdir -p "$out"
resume=()
[ -f "$out/games.pgn.state.jsonl" ] && resume=(--resume)
"$tuner" match \
    --engine name=evolved cmd="$engine" params="$params" \
    --engine name=default cmd="$engine" params="$(realpath params/default.toml)" \
    --each tc="$tc" option.Hash=16 timemargin=100 \
    --openings file="$data/openings/UHO_4060_v4.epd.xz" order=random \
    --srand 20261123 --games "$games" --concurrency 2 \
    --pgnout "$out/games.pgn" --results "$out/results.json" \
    --draw movenumber=40 movecount=8 score=10 --resign movecount=3 score=1000 twosided=true \
    --tb "$data/syzygy" --ratinginterval 20 "${resume[@]}"
