#!/usr/bin/env bash
# Verifies the EVOL* of the paper-scale coevolution (configs/coevolve/paper.toml) as the EVOL*
# pipeline verifies its own (issue 10, acceptance 4): the coevolution's best evaluation with the
# pipeline's evolved search section (params/evolved/evol-star.toml: search-evolve ran on the
# pipeline's coevolved evaluation, and EVOL* and EVOL0 share the search, so the first match
# measures the coevolution alone), written to params/evolved/evol-star-paper.toml, then GAMES
# games (default 200) at TC (default 10+0.1) against EVOL0 (params/evolved/pipeline-evol-star/evol0.toml,
# the best evolve-only organism with the same search) and against Debian's Glaurung 2.2, with the
# pipeline's openings and adjudication. Timed: run it with nothing else heavy on the machine.
# Resumable: run it again with the same arguments. EVOCHESS names the engine (default the
# coevolution's, runs/bin/s28/evochess), TUNER the runner, COEVOLVED the coevolution's result
# (default: a fresh run's runs/coevolve/paper-scale/coevolved.toml if there is one, else the committed
# params/evolved/coevolve-paper/coevolved.toml).
#
#   bench/evol_star_paper.sh [GAMES] [OUTDIR]
set -euo pipefail
cd "$(dirname "$0")/.."
games="${1:-200}"
out="${2:-runs/evol-star-paper}"
tc="${TC:-10+0.1}"
engine="${EVOCHESS:-runs/bin/s28/evochess}"
tuner="${TUNER:-target/release/tuner}"
coevolved="${COEVOLVED:-runs/coevolve/paper-scale/coevolved.toml}"
if [ -z "${COEVOLVED:-}" ] && [ ! -f "$coevolved" ]; then
    coevolved=params/evolved/coevolve-paper/coevolved.toml
fi
star="${STAR:-params/evolved/evol-star-paper.toml}"
if [ ! -f "$coevolved" ]; then
    echo "$coevolved not found: finish \`tuner coevolve --config configs/coevolve/paper.toml\` first" >&2
    exit 2
fi
{
    echo "# EVOL* of the paper-scale coevolution (bench/evol_star_paper.sh): the evaluation of"
    echo "# $coevolved, the search section of params/evolved/evol-star.toml."
    sed '/^\[search\]/,$d' "$coevolved"
    sed -n '/^\[search\]/,$p' params/evolved/evol-star.toml
} >"$star"
mkdir -p "$out"
for opponent in evol0 glaurung; do
    case "$opponent" in
    evol0) spec=(name=EVOL0 cmd="$engine" params=params/evolved/pipeline-evol-star/evol0.toml) ;;
    glaurung) spec=(name=glaurung cmd=/usr/games/glaurung option.Threads=1 option.OwnBook=false) ;;
    esac
    resume=()
    [ -f "$out/$opponent.pgn.state.jsonl" ] && resume=(--resume)
    echo "EVOL* (paper-scale coevolution) vs $opponent: $games games at $tc" >&2
    "$tuner" match \
        --engine name=EVOL-star cmd="$engine" params="$star" \
        --engine "${spec[@]}" \
        --each tc="$tc" timemargin=100 \
        --openings file=openings/gnuchess-8ply.epd order=random \
        --srand 20261126 --games "$games" --concurrency "${CONCURRENCY:-2}" \
        --pgnout "$out/$opponent.pgn" --results "$out/$opponent.json" \
        --draw movenumber=40 movecount=8 score=10 --resign movecount=3 score=1000 \
        "${resume[@]}"
done
