#!/usr/bin/env bash
# Issue 89 item 5's gate-budget check: does Elo at the gate's node budget predict Elo at the
# clock? Each PAIR (a candidate and its base, two parameter files) plays GAMES games at NODES
# nodes a move and GAMES games at TC, on the same openings; the summary lists both Elo figures
# per pair, their difference, and over all pairs the correlation and the least-squares slope
# of clock Elo on node Elo (1 and 1: the node budget predicts the clock).
#
#   bench/gate_budget.sh OUT GAMES PAIR [PAIR ...]      PAIR: NAME=CANDIDATE.toml:BASE.toml
#   NODES (default 10000), TC (default 10+0.1), SRAND (default 20261206: one permutation of
#   UHO_4060_v4; pair p plays the GAMES/2 openings from OFFSET + p * GAMES/2), OFFSET (default 1).
#
# The clock games are only valid with nothing else heavy on the machine: the load average is
# printed at the start and the end of each clock match. Resumable: finished matches are kept.
# TUNER and EVOCHESS name the binaries (default target/release, built first).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 3 ] || { sed -n '2,14p' "$0"; exit 2; }
out="$1" games="$2"
shift 2
nodes="${NODES:-10000}" tc="${TC:-10+0.1}" srand="${SRAND:-20261206}" offset="${OFFSET:-1}"
data="${EVOCHESS_DATA:-../shared/data}"
book="$data/openings/UHO_4060_v4.epd.xz"
(( games % 2 == 0 )) || { echo "gate_budget: GAMES $games must be even (pairs)" >&2; exit 2; }
[ -f "$book" ] || { echo "gate_budget: $book not found" >&2; exit 2; }
if [ -z "${TUNER:-}" ]; then
    cargo build --release --quiet --workspace
fi
tuner="${TUNER:-target/release/tuner}"
engine="${EVOCHESS:-target/release/evochess}"
mkdir -p "$out"
"$engine" bench 2>&1 | tail -1 | awk '{ print "engine bench signature " $1 }' | tee "$out/engine.txt"

# Plays one match of GAMES games between CANDIDATE and BASE at LIMIT into DIR; prints its Elo line.
play() {
    local dir="$1" limit="$2" candidate="$3" base="$4" first="$5"
    if ! { [ -f "$dir/results.json" ] && grep -q "\"games_played\": $games," "$dir/results.json"; }; then
        mkdir -p "$dir"
        local resume=()
        [ -f "$dir/games.pgn.state.jsonl" ] && resume=(--resume)
        echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)" > "$dir/load.txt"
        "$tuner" match \
            --engine name=candidate cmd="$engine" params="$(realpath "$candidate")" \
            --engine name=base cmd="$engine" params="$(realpath "$base")" \
            --each "$limit" option.Hash=16 \
            --openings file="$book" order=random start="$first" \
            --srand "$srand" --games "$games" --concurrency "${CONCURRENCY:-2}" \
            --pgnout "$dir/games.pgn" --results "$dir/results.json" \
            --draw movenumber=40 movecount=8 score=10 --resign movecount=3 score=1000 twosided=true \
            --tb "$data/syzygy" "${resume[@]}" > "$dir/log.txt" 2>&1 || { tail -5 "$dir/log.txt" >&2; exit 1; }
        echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$dir/load.txt"
    fi
    # `Elo difference: E +/- C, ...`, or `-inf (every game lost)` in a one-sided match.
    grep '^Elo difference' "$dir/log.txt" | tail -1 | awk '{ c = $5; sub(",", "", c); print $3, ($4 == "+/-") ? c : "nan" }'
}

summary="$out/summary.csv"
echo "pair,elo_nodes,ci_nodes,elo_tc,ci_tc" > "$summary"
p=0
for pair in "$@"; do
    name="${pair%%=*}" files="${pair#*=}"
    candidate="${files%%:*}" base="${files#*:}"
    for f in "$candidate" "$base"; do
        [ -f "$f" ] || { echo "gate_budget: $f (pair $name) not found" >&2; exit 2; }
    done
    first=$(( offset + p * games / 2 ))
    read -r elo_n ci_n < <(play "$out/$name/nodes" "nodes=$nodes" "$candidate" "$base" "$first")
    read -r elo_t ci_t < <(play "$out/$name/tc" "tc=$tc" "$candidate" "$base" "$first")
    echo "$name: $elo_n +/- $ci_n at $nodes nodes, $elo_t +/- $ci_t at $tc"
    echo "$name,$elo_n,${ci_n%,},$elo_t,${ci_t%,}" >> "$summary"
    p=$((p + 1))
done
python3 - "$summary" <<'EOF'
import csv, sys
import math
rows = [r for r in csv.DictReader(open(sys.argv[1]))
        if math.isfinite(float(r["elo_nodes"])) and math.isfinite(float(r["elo_tc"]))]
x = [float(r["elo_nodes"]) for r in rows]
y = [float(r["elo_tc"]) for r in rows]
n = len(rows)
if n >= 2:
    mx, my = sum(x) / n, sum(y) / n
    sxx = sum((a - mx) ** 2 for a in x)
    syy = sum((b - my) ** 2 for b in y)
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    r = sxy / (sxx * syy) ** 0.5 if sxx > 0 and syy > 0 else float("nan")
    slope = sxy / sxx if sxx > 0 else float("nan")
    print(f"{n} pairs with finite Elo: correlation {r:.2f}, slope of clock Elo on node Elo {slope:.2f}")
EOF
echo "openings used: $offset .. $(( offset + p * games / 2 - 1 )) of the SRAND $srand permutation"
