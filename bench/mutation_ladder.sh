#!/usr/bin/env bash
# Issue 89's mutation ladder: what a mutant costs in Elo against its parent, per step size.
# For each SCALE, COUNT mirrored mutants of START (bench/mutants.py: every gene of SPACE matching
# ONLY moved by N(0, SCALE x its SPSA c_end)) each play GAMES games (colour-swapped pairs) against
# START at NODES nodes a move; then bench/ladder_summary.py pools them: the mean Elo of a mutant
# per scale. Node-limited, so valid beside other node-limited work.
#
#   bench/mutation_ladder.sh SPACE START GAMES NODES OUT SCALE [SCALE ...]
#   COUNT: mutants per scale (even, default 8)   ONLY: globs of the genes moved (default *)
#   SEED: the mutants' seed (default 1)          SRAND: the opening permutation's seed (20261205)
#   OFFSET: first opening (1-based) of the permutation this ladder uses (default 1)
#
# Openings: one permutation of UHO_4060_v4 (241,670 positions); mutant m of scale s plays the
# GAMES/2 openings from OFFSET + (s * COUNT + m) * GAMES / 2, so no opening is played twice in a
# ladder; the last line says the range used (start the next ladder with the same SRAND past it).
# Resumable: run it again with the same arguments and the finished matches are kept.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 6 ] || { sed -n '2,17p' "$0"; exit 2; }
space="$1" start="$2" games="$3" nodes="$4" out="$5"
shift 5
count="${COUNT:-8}" only="${ONLY:-*}" seed="${SEED:-1}" srand="${SRAND:-20261205}" offset="${OFFSET:-1}"
data="${EVOCHESS_DATA:-../shared/data}"
tuner="${TUNER:-target/release/tuner}"
engine="${EVOCHESS:-target/release/evochess}"
(( games % 2 == 0 )) || { echo "mutation_ladder: GAMES $games must be even (pairs)" >&2; exit 2; }
for f in "$space" "$start" "$tuner" "$engine" "$data/openings/UHO_4060_v4.epd.xz"; do
  [ -e "$f" ] || { echo "mutation_ladder: $f not found" >&2; exit 2; }
done
mkdir -p "$out"
start_abs="$(realpath "$start")"
"$engine" bench 2>&1 | tail -1 | awk '{ print "engine bench signature " $1 }' | tee "$out/engine.txt"
s=0
for scale in "$@"; do
  dir="$out/scale-$scale"
  python3 bench/mutants.py "$space" "$start" --scale "$scale" --count "$count" --seed "$seed" \
    --only "$only" --out "$dir" > "$dir.moved.txt"
  for ((m = 0; m < count; m++)); do
    mutant="$(printf '%s/mutant-%02d.toml' "$dir" "$m")"
    res="$(printf '%s/match-%02d' "$dir" "$m")"
    first=$(( offset + (s * count + m) * games / 2 ))
    if [ -f "$res/results.json" ] && grep -q "\"games_played\": $games," "$res/results.json"; then
      continue
    fi
    mkdir -p "$res"
    resume=()
    [ -f "$res/games.pgn.state.jsonl" ] && resume=(--resume)
    "$tuner" match \
      --engine name=mutant cmd="$engine" params="$(realpath "$mutant")" \
      --engine name=parent cmd="$engine" params="$start_abs" \
      --each nodes="$nodes" option.Hash=16 \
      --openings file="$data/openings/UHO_4060_v4.epd.xz" order=random start="$first" \
      --srand "$srand" --games "$games" --concurrency "${CONCURRENCY:-2}" \
      --pgnout "$res/games.pgn" --results "$res/results.json" \
      --draw movenumber=40 movecount=8 score=10 --resign movecount=3 score=1000 twosided=true \
      --tb "$data/syzygy" "${resume[@]}" > "$res/log.txt" 2>&1 || { tail -5 "$res/log.txt" >&2; exit 1; }
    echo "scale $scale mutant $m: $(grep 'Score of' "$res/log.txt" | tail -1 | tr -s ' ')"
  done
  s=$((s + 1))
done
python3 bench/ladder_summary.py "$out" | tee "$out/summary.txt"
echo "openings used: $offset..$(( offset + s * count * games / 2 - 1 )) of the permutation --srand $srand"
