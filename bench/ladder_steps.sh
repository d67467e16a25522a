#!/usr/bin/env bash
# The node ladder of issue 45's ground truth, measured: the same engine and parameters
# (params/default.toml) at node budgets NODES..., each budget against the one below it in GAMES
# games (UHO pairs, bench/sprt.sh's match without the SPRT stop, node-limited so valid beside
# other work). Writes OUT/steps.csv (lower,upper,elo,error: the upper budget's Elo against the
# lower, pentanomial, 95%) and OUT/ladder.csv (nodes,elo: cumulative, the lowest budget at 0),
# which `POPULATION=ladder bench/coevolve_ground_truth.sh` ranks. Aim for neighbours 20-50 Elo
# apart (issue 45). Resumable: run it again with the same arguments.
#
#   bench/ladder_steps.sh GAMES NODES1 NODES2 [NODES3 ...]     (OUT: LADDER_OUT, default
#                                                               ground-truth-out/ladder)
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 3 ] || { sed -n '2,12p' "$0"; exit 2; }
games="$1"
shift
out="${LADDER_OUT:-ground-truth-out/ladder}"
engine="${EVOCHESS:-target/release/evochess}"
mkdir -p "$out"
echo "lower,upper,elo,error" > "$out/steps.csv"
echo "nodes,elo" > "$out/ladder.csv"
total=0
echo "$1,0" >> "$out/ladder.csv"
budgets=("$@")
for ((i = 1; i < ${#budgets[@]}; i++)); do
  lo="${budgets[i-1]}" hi="${budgets[i]}"
  dir="$out/$lo-$hi"
  NEW_OPTS="nodes=$hi params=$(realpath params/default.toml)" OLD_OPTS="params=$(realpath params/default.toml)" \
    bench/sprt.sh "$engine" "$engine" "nodes=$lo" "$dir" off off "$games" > "$dir.log" 2>&1 || { cat "$dir.log" >&2; exit 1; }
  # The pentanomial estimate of the first engine (the upper budget) in the runner's results.
  read -r elo err < <(awk '/"penta_elo"/ { p = 1 } p && /"elo":/ { gsub(/[",]/, ""); e = $2 } p && /"error":/ { gsub(/[",]/, ""); print e, $2; exit }' "$dir/results.json")
  echo "$lo,$hi,$elo,$err" >> "$out/steps.csv"
  total=$(awk -v t="$total" -v e="$elo" 'BEGIN { printf "%.1f", t + e }')
  echo "$hi,$total" >> "$out/ladder.csv"
  echo "nodes $hi vs $lo: $elo +/- $err Elo ($games games); ladder $total"
done
