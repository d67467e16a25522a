#!/usr/bin/env bash
# SPRT of an engine change against the previous main, the field's way (fishtest/OpenBench): our
# own runner, colour-swapped pairs from the UHO book, Hash 16, concurrency 2, fishtest-style
# adjudication. Timed games are only valid with nothing else heavy on the machine; node limits
# (LIMIT=nodes=N) are not affected by load but miss any speed change.
#
#   bench/sprt.sh NEW_ENGINE OLD_ENGINE [LIMIT] [OUTDIR] [ELO0] [ELO1] [MAXGAMES]
#       LIMIT: tc=5+0.05 (default) or nodes=N; ELO0/ELO1: normalized Elo bounds (default 0 5);
#       ELO0=off: no SPRT, a fixed match of MAXGAMES games (the Elo and its interval are the report)
#   NEW_OPTS / OLD_OPTS: extra engine settings for one side, e.g. NEW_OPTS="option.singular_min_depth=0"
#   CONCURRENCY: games at once (default 2; 1 when an engine searches with more than one thread)
#   SRAND: the opening order's seed (default 20261123; another seed gives other openings)
#   START: the first opening of that order to play (default 1), e.g. a tuner run's held-back
#       openings: its last lines print `order=random start=1 --srand SEED`
#   NO_PGN=1: no PGN, the resume journal alone (OUTDIR/games.pgn.state.jsonl): resumes a match
#       whose journal was kept (committed while it spans sessions) and its games were not
#
# Prints the runner's rating and SPRT lines; the games and the resume journal go to OUTDIR.
set -euo pipefail
cd "$(dirname "$0")/.."
new="$1"
old="$2"
limit="${3:-tc=5+0.05}"
out="${4:-runs/sprt}"
elo0="${5:-0}"
elo1="${6:-5}"
games="${7:-20000}"
data="${EVOCHESS_DATA:-../shared/data}"
tuner="${TUNER:-target/release/tuner}"
mkdir -p "$out"
resume=()
[ -f "$out/games.pgn.state.jsonl" ] && resume=(--resume)
# model=: our runner reads bounds in a cutechess-style line as cutechess BayesElo otherwise.
sprt=(--sprt elo0="$elo0" elo1="$elo1" model=normalized)
[ "$elo0" = off ] && sprt=(--ratinginterval 20)
# Named only when set, so the matches begun before START keep their journal's fingerprint.
start=()
[ -n "${START:-}" ] && start=(start="$START")
games_out=(--pgnout "$out/games.pgn")
[ "${NO_PGN:-0}" = 1 ] && games_out=(--state "$out/games.pgn.state.jsonl")
"$tuner" match \
    --engine name=new cmd="$new" ${NEW_OPTS:-} \
    --engine name=old cmd="$old" ${OLD_OPTS:-} \
    --each "$limit" option.Hash=16 timemargin=100 \
    --openings file="$data/openings/UHO_4060_v4.epd.xz" order=random "${start[@]}" \
    --srand "${SRAND:-20261123}" --games "$games" --concurrency "${CONCURRENCY:-2}" \
    "${games_out[@]}" --results "$out/results.json" \
    --draw movenumber=40 movecount=8 score=10 --resign movecount=3 score=1000 twosided=true \
    --tb "$data/syzygy" \
    "${sprt[@]}" "${resume[@]}"
