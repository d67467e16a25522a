#!/usr/bin/env bash
# evochess against Debian's engines through our own runner (`tuner gauntlet`): GAMES games per
# opponent (default 100) at TC (default 10+0.1), concurrency 2, colour-swapped pairs from the
# project's opening suite, fishtest-style draw/resign adjudication and Syzygy adjudication.
# Each opponent runs on one thread with its own book off (Glaurung's idle second thread spins),
# with 16 MB of hash (Crafty's `hash=16M`; UCI engines' Hash).
#
#   bench/gauntlet.sh [GAMES] [TC] [OUTDIR] [OPPONENT...]
#
#   OPPONENT: Debian's glaurung, toga2, ethereal-chess, or stockfish-classical (Debian's Stockfish
#   15.1 with `Use NNUE=false`, its classical evaluation); or the anchors bench/build_anchors.sh
#   builds into ANCHORS (default runs/anchors): stockfish-11, ethereal-popcnt (V12.00 with popcnt);
#   crafty (23.4, the paper's opponent, built by bench/build_crafty.sh; xboard).
#   The gap between two opponents is the difference of their Elo against evochess in one run.
#   START=N: begin at opening N of the suite (1-based), e.g. START=51 plays a second 100-game half
#   on new openings (a finished match cannot be extended to more games)
#   RESUME=1: continue from OUTDIR's journal; NO_PGN=1: the journal alone, no PGN (as sprt.sh)
#
# TUNER and EVOCHESS name the binaries to use (default: target/release, built first).
set -euo pipefail
cd "$(dirname "$0")/.."
games="${1:-100}"
tc="${2:-10+0.1}"
out="${3:-runs/gauntlet}"
shift $(($# < 3 ? $# : 3))
opponents=("$@")
[ ${#opponents[@]} -gt 0 ] || opponents=(glaurung toga2 ethereal-chess)
data="${EVOCHESS_DATA:-../shared/data}"
if [ -z "${TUNER:-}" ]; then
    cargo build --release --quiet --workspace
fi
tuner="${TUNER:-target/release/tuner}"
evochess="${EVOCHESS:-target/release/evochess}"
engines=(--engine name=evochess cmd="$evochess" option.Hash=16)
for o in "${opponents[@]}"; do
    path="$(command -v "$o" || echo "/usr/games/$o")"
    case "$o" in
        glaurung) engines+=(--engine name=glaurung cmd="$path" option.Threads=1 option.OwnBook=false option.Hash=16) ;;
        toga2) engines+=(--engine name=toga2 cmd="$path" "option.Number of Threads=1" option.OwnBook=false option.Hash=16) ;;
        ethereal-chess) engines+=(--engine name=ethereal cmd="$path" option.Threads=1 option.Hash=16) ;;
        stockfish-classical)
            path="$(command -v stockfish || echo /usr/games/stockfish)"
            engines+=(--engine name=stockfish-15.1-classical cmd="$path" option.Threads=1 "option.Use NNUE=false" option.Hash=16) ;;
        crafty)
            bin="${ANCHORS:-runs/anchors}/crafty-23.4"
            [ -x "$bin" ] || { echo "$bin not found: run bench/build_crafty.sh first" >&2; exit 2; }
            engines+=(--engine name=crafty-23.4 cmd="$bin" proto=xboard "arg=log off" "arg=ponder off" "arg=hash=16M") ;;
        stockfish-11 | ethereal-popcnt)
            bin="${ANCHORS:-runs/anchors}/$([ "$o" = stockfish-11 ] && echo stockfish-11 || echo ethereal-12.00-popcnt)"
            [ -x "$bin" ] || { echo "$bin not found: run bench/build_anchors.sh first" >&2; exit 2; }
            engines+=(--engine name="$o" cmd="$bin" option.Threads=1 option.Hash=16) ;;
        *) echo "unknown opponent: $o (glaurung, toga2, ethereal-chess, stockfish-classical, stockfish-11," \
               "ethereal-popcnt, crafty)" >&2; exit 2 ;;
    esac
done
mkdir -p "$out"
games_out=(--pgnout "$out/games.pgn")
[ "${NO_PGN:-0}" = 1 ] && games_out=(--state "$out/games.pgn.state.jsonl")
"$tuner" gauntlet "${engines[@]}" \
    --each tc="$tc" \
    --openings file=openings/gnuchess-8ply.epd order=sequential ${START:+start=$START} \
    --games "$games" --concurrency 2 \
    "${games_out[@]}" --results "$out/results.json" \
    --draw movenumber=40 movecount=8 score=10 --resign movecount=3 score=1000 twosided=true \
    --tb "$data/syzygy" --ratinginterval 20 ${RESUME:+--resume} | tail -n 30
