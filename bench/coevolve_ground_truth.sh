#!/usr/bin/env bash
# Ground truth for coevolution's selection (issue 45 item 1): can a selection scheme rank files
# whose strength is known? The nine files of bench/ground_truth.csv (Elo at 10+0.1 against the
# 2026-11-27 defaults, from 0 to -430, measured in BENCHMARKS.md) form generation 0 of
# `tuner coevolve --generations 1`; the generation's fitness (racing: the Bradley-Terry rating;
# round robin and reference: points) is ranked against the known Elo by Spearman's rank
# correlation (average ranks for ties). 1 is a true ranking, 0 no better than chance.
#
#   bench/coevolve_ground_truth.sh SCHEME GAMES LIMIT SEED [OUT]
#
#   SCHEME  racing | round-robin | reference (reference: against params/default-2026-11-27.toml)
#   GAMES   the generation's game budget: racing_games; round robin of n organisms:
#           openings_per_pair = GAMES / (n (n - 1)) (both colours); reference: pool games = GAMES / n
#   LIMIT   nodes=N or tc=MOVES+INC, per move (e.g. nodes=5000, tc=2+0.02)
#   SEED    the run's seed (openings, racing rounds); the files' order in the population is
#           shuffled by it too, so no scheme gains from the list's order
#   OUT     run directory (default ground-truth-out/SCHEME-LIMIT-GAMES-sSEED); resumable
#
# POPULATION=ladder ranks the node ladder of bench/ladder_steps.sh instead (params/default.toml
# at each budget of LADDER, default ground-truth-out/ladder/ladder.csv, as [[organisms]] with
# nodes of their own; LIMIT then only sets the pool's and the run's default limit).
# RACING_CONFIDENCE (default 0.9999: keep almost everyone racing, for a full ranking),
# CONCURRENCY (default 2) and DRAW (a draw adjudication rule, e.g. "movenumber=40 movecount=8
# score=10"; none by default) tune the run. Each result is one line appended to
# ground-truth-out/summary.csv: scheme,limit,games_budget,seed,games_played,spearman,ranking.
# Timed limits (tc=) need quiet cores; node limits do not.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 4 ] || { sed -n '2,22p' "$0"; exit 2; }
scheme="$1" games="$2" limit="$3" seed="$4"
out="${5:-ground-truth-out/$scheme-${limit//[=+]/-}-$games-s$seed}"
tuner="${TUNER:-target/release/tuner}"
engine="${EVOCHESS:-target/release/evochess}"
for f in "$tuner" "$engine"; do [ -x "$f" ] || { echo "$f: not built (cargo build --release --workspace)" >&2; exit 1; }; done
case "$limit" in
  nodes=*) limit_line="nodes = ${limit#nodes=}" ;;
  tc=*) limit_line="tc = \"${limit#tc=}\"" ;;
  *) echo "LIMIT $limit: nodes=N or tc=X" >&2; exit 2 ;;
esac
population="${POPULATION:-files}"
case "$population" in
  files) n=$(($(wc -l < bench/ground_truth.csv) - 1)) ;;
  ladder) ladder="${LADDER:-ground-truth-out/ladder/ladder.csv}"
    [ -f "$ladder" ] || { echo "$ladder: measure the ladder first (bench/ladder_steps.sh)" >&2; exit 1; }
    n=$(($(wc -l < "$ladder") - 1)) ;;
  *) echo "POPULATION=$population: files or ladder" >&2; exit 2 ;;
esac
case "$scheme" in
  racing) scheme_lines="selection = \"racing\"
racing_games = $games
racing_confidence = ${RACING_CONFIDENCE:-0.9999}" ;;
  round-robin) opp=$((games / (n * (n - 1)))); [ "$opp" -ge 1 ] || { echo "GAMES $games: a round robin of $n needs at least $((n * (n - 1)))" >&2; exit 2; }
    scheme_lines="openings_per_pair = $opp" ;;
  reference) per=$(( (games / n) / 2 * 2 )); [ "$per" -ge 2 ] || { echo "GAMES $games: at least $((2 * n))" >&2; exit 2; }
    scheme_lines="selection = \"reference\"" ;;
  *) echo "SCHEME $scheme: racing, round-robin or reference" >&2; exit 2 ;;
esac
mkdir -p "$out/population" ground-truth-out
out="$(realpath "$out")"
# The population in an order shuffled by the seed (no scheme gains from the list's order):
# files.csv holds name,what,elo per organism, organism i on line i.
if [ ! -f "$out/files.csv" ]; then
  case "$population" in
    files) tail -n +2 bench/ground_truth.csv | cut -d, -f1,2 ;;
    ladder) tail -n +2 "$ladder" ;;
  esac | awk -v seed="$seed" 'BEGIN { srand(seed) } { print rand() "\t" $0 }' | sort -n | cut -f2 \
    | awk -F, '{ printf "f%d.toml,%s,%s\n", NR, $1, $2 }' > "$out/files.csv"
  if [ "$population" = files ]; then
    while IFS=, read -r name file elo; do cp "$file" "$out/population/$name"; done < "$out/files.csv"
  fi
fi
n=$(wc -l < "$out/files.csv")
{
  if [ "$population" = ladder ]; then
    echo "population_dir = \"$out/population\"  # not read: [[organisms]] below is the population"
  else
    echo "population_dir = \"$out/population\""
  fi
  echo "engine = \"$(realpath "$engine")\""
  echo "$limit_line"
  echo "concurrency = ${CONCURRENCY:-2}"
  echo "openings = \"$(realpath openings/gnuchess-8ply.epd)\""
  echo "resign = \"movecount=3 score=1000\""
  echo "maxmoves = \"200\""
  if [ -n "${DRAW:-}" ]; then echo "draw = \"$DRAW\""; fi
  echo "reference_games = 0"
  echo "seed = $seed"
  echo "out_dir = \"$out/run\""
  echo "$scheme_lines"
  echo "[ga]"
  echo "generations = 1"
  if [ "$scheme" = reference ]; then
    echo "[pool]"
    echo "files = [\"$(realpath params/default-2026-11-27.toml)\"]"
    echo "games = $per"
  fi
  if [ "$population" = ladder ]; then
    while IFS=, read -r name nodes elo; do
      printf '[[organisms]]\nfile = "%s"\nnodes = %s\n' "$(realpath params/default.toml)" "$nodes"
    done < "$out/files.csv"
  fi
} > "$out/coevolve.toml"
"$tuner" coevolve --config "$out/coevolve.toml" --resume-or-start > "$out/stdout.txt"
# Fitness per file from the cross table (racing: rating; otherwise points), then Spearman.
awk -F, -v scheme="$scheme" -v limit="$limit" -v budget="$games" -v seed="$seed" '
  FNR == NR { elo[FNR] = $3; next }
  FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
  {
    # Row i of the cross table is organism i, line i of files.csv.
    fit = (scheme == "racing") ? $col["rating"] : $col["points"]
    n++; x[n] = elo[n]; y[n] = fit; played += $col["games"]
  }
  function ranks(v, r,    i, j, less, same) {
    for (i = 1; i <= n; i++) {
      less = 0; same = 0
      for (j = 1; j <= n; j++) { if (v[j] < v[i]) less++; else if (v[j] == v[i]) same++ }
      r[i] = less + (same + 1) / 2
    }
  }
  END {
    ranks(x, rx); ranks(y, ry)
    for (i = 1; i <= n; i++) { mx += rx[i] / n; my += ry[i] / n }
    for (i = 1; i <= n; i++) { sxy += (rx[i] - mx) * (ry[i] - my); sxx += (rx[i] - mx)^2; syy += (ry[i] - my)^2 }
    rho = (sxx > 0 && syy > 0) ? sxy / sqrt(sxx * syy) : 0
    # The files best first by fitness, each with its known Elo.
    order = ""
    for (k = 1; k <= n; k++) { best = 0; for (i = 1; i <= n; i++) if (!(i in used) && (best == 0 || y[i] > y[best])) best = i; used[best] = 1; order = order (k > 1 ? " " : "") x[best] }
    printf "%s,%s,%s,%s,%d,%.3f,%s\n", scheme, limit, budget, seed, played / (scheme == "reference" ? 1 : 2), rho, order
  }' "$out/files.csv" "$out/run/gen-000/crosstable.csv" | tee -a ground-truth-out/summary.csv
