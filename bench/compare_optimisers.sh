#!/usr/bin/env bash
# The optimisers compared on one parameter set and one budget (issue "Beyond the GA"): the whole
# evaluation (configs/spaces/evolve-full-integer.toml: every declared evaluation gene but pawn_mg;
# 239 in session 25, 1,071 at 0cc3578, 1,189 with the format-5 terms), each method
# starting from params/default.toml with about 2 core-hours on 2 cores, then each result against
# params/default.toml, GAMES games (default 200) at 10+0.1 through bench/vs_default.sh.
#
#   ga        tuner evolve, GM move matching            configs/evolve/compare-ga.toml
#   ga-co     tuner evolve x4, then tuner coevolve       configs/evolve/compare-ga-coevolve.toml,
#                                                        configs/coevolve/compare-ga-coevolve.toml
#   cmaes     tuner evolve, kind = "cmaes"               configs/evolve/compare-cmaes.toml
#   spsa-mm   tuner evolve, kind = "spsa"                configs/evolve/compare-spsa.toml
#   spsa      tuner spsa, game pairs at 5+0.05           configs/spsa/compare.toml
#
# ga, cmaes and spsa-mm are one objective (GM move matching, the same space, positions and start)
# with three optimisers: their configs differ only in `optimiser` and its keys, so their rows
# compare optimisers. spsa and texel bring their own objectives (games, the Texel loss).
#   texel     tuner texel, quiet GM positions            configs/texel/compare.toml
#
# Every step is resumable and skipped once done (its marker compare-out/STEP.done exists), so
# run the script again after an interruption. The matches are timed and so are the coevolution
# and SPSA games: run it with nothing else heavy on the machine. Wall times go to compare-out/times.txt, the
# table to compare-out/table.md. compare-out/ is not committed (.gitignore): copy the summary of a
# finished comparison to docs/runs/compare-out/ and the results to params/evolved/compare/.
#
#   bench/compare_optimisers.sh [GAMES] [METHOD ...]     (default: all six, in the order above)
#
# Where the answer is known, the optimisers themselves (GA, CMA-ES, SPSA, local search through the
# one ask/tell interface, tuner::optimise) are compared on a synthetic Texel loss, each within a
# stated tolerance of the true weights: cargo test -p tuner --lib optimise::compare -- --nocapture
#
# TUNE_ONLY=1 runs the untimed tuning steps only and plays nothing, so that they can go first and
# the timed games later, each with the machine to itself.
set -euo pipefail
cd "$(dirname "$0")/.."
games="${1:-200}"
shift || true
methods=("$@")
[ ${#methods[@]} -eq 0 ] && methods=(ga ga-co cmaes spsa-mm spsa texel)
tuner="${TUNER:-target/release/tuner}"
engine="${EVOCHESS:-target/release/evochess}"
tune_only="${TUNE_ONLY:-0}"
data="${EVOCHESS_DATA:-../shared/data}"
pgn=(--pgn "$data/games/gm2600_classical.pgn.xz" --pgn "$data/games/gm2600_fast.pgn.xz")
out=compare-out
mkdir -p "$out"

# Runs "$@" unless it has finished before, resuming a started run; appends its wall time. The
# result file cannot tell: SPSA and Texel rewrite theirs as they go. A step run elsewhere (say a
# lent machine) is marked finished by its marker file, $out/STEP.done, and its line in times.txt.
timed() {
    local method="$1" dir="$2"
    shift 2
    if [ -f "$out/$method.done" ]; then
        echo "$method: done" >&2
        return
    fi
    local resume=()
    [ -e "$dir" ] && resume=(--resume)
    local start
    start=$(date +%s)
    "$@" "${resume[@]}"
    echo "$method $(($(date +%s) - start))s $*" >>"$out/times.txt"
    touch "$out/$method.done"
}

result_of() {
    case "$1" in
    ga) echo "$out/ga/evolved/run-1.toml" ;;
    ga-co) echo "$out/ga-coevolve/coevolved.toml" ;;
    cmaes) echo "$out/cmaes/evolved/run-1.toml" ;;
    spsa-mm) echo "$out/spsa-mm/evolved/run-1.toml" ;;
    spsa) echo "$out/spsa/tuned.toml" ;;
    texel) echo "$out/texel/tuned.toml" ;;
    *)
        echo "unknown method $1 (ga, ga-co, cmaes, spsa-mm, spsa, texel)" >&2
        exit 2
        ;;
    esac
}

for m in "${methods[@]}"; do
    r="$(result_of "$m")"
    case "$m" in
    ga) timed ga "$out/ga" "$tuner" evolve --config configs/evolve/compare-ga.toml "${pgn[@]}" ;;
    cmaes) timed cmaes "$out/cmaes" "$tuner" evolve --config configs/evolve/compare-cmaes.toml "${pgn[@]}" ;;
    spsa-mm) timed spsa-mm "$out/spsa-mm" "$tuner" evolve --config configs/evolve/compare-spsa.toml "${pgn[@]}" ;;
    ga-co)
        timed ga-co+evolve "$out/ga-coevolve/evolve" \
            "$tuner" evolve --config configs/evolve/compare-ga-coevolve.toml "${pgn[@]}"
        # Self-play games on the clock: not a tuning-only step.
        [ "$tune_only" = 1 ] && continue
        timed ga-co+coevolve "$out/ga-coevolve/coevolve" \
            "$tuner" coevolve --config configs/coevolve/compare-ga-coevolve.toml --engine "$engine"
        ;;
    spsa)
        # Every evaluation term but the pawn's middlegame value (the unit), as OpenBench lines.
        "$engine" params --spsa | awk '/^null_move_use,/ { exit } !/^pawn_mg,/' >"$out/spsa-eval.txt"
        [ "$tune_only" = 1 ] && continue
        timed spsa "$out/spsa" "$tuner" spsa --config configs/spsa/compare.toml --engine "$engine"
        ;;
    texel) timed texel "$out/texel" "$tuner" texel --config configs/texel/compare.toml ;;
    esac
    [ "$tune_only" = 1 ] && continue
    # A timed gauntlet game needs the machine to itself: the match runs after the method.
    EVOCHESS="$engine" bench/vs_default.sh "$r" "$games" 10+0.1 "$out/vs-default-$m" |
        tee "$out/vs-default-$m.txt"
done

{
    # times.txt holds only runs that finished here: time spent in interrupted runs or on another
    # machine is not in this column (BENCHMARKS.md counts it by hand).
    echo "| method | result | wall time of the finishing tuning run | Elo vs params/default.toml (10+0.1) |"
    echo "|---|---|---|---|"
    for m in ga ga-co cmaes spsa-mm spsa texel; do
        [ -f "$out/vs-default-$m.txt" ] || continue
        secs=$(awk -v m="$m" '$1 == m || index($1, m "+") == 1 { sub("s", "", $2); t += $2 } END { print t }' "$out/times.txt")
        elo=$(grep -i "elo" "$out/vs-default-$m.txt" | tail -n 1)
        echo "| $m | $(result_of "$m") | ${secs}s | $elo |"
    done
} >"$out/table.md"
cat "$out/table.md"
