#!/usr/bin/env bash
# The match runner's own CPU per game (issue 47 acceptance 1: unchanged by the arena move): the
# same node-limited match (evochess against itself from colour-swapped openings, GAMES games at
# NODES nodes, 2 at once, the same openings and seed) played by each TUNER binary given, in turn,
# ROUNDS times; prints each run's "games in ... runner CPU" line and the runner's CPU
# milliseconds per game. Run it with nothing else heavy on the machine. (tuner/bench/overhead.sh
# measures one build's overhead on its own; this compares builds.)
#
#   bench/runner_cpu.sh GAMES NODES ROUNDS TUNER [TUNER ...]     (e.g. 200 5000 2 OLD NEW)
set -euo pipefail
cd "$(dirname "$0")/.."
usage="usage: bench/runner_cpu.sh GAMES NODES ROUNDS TUNER [TUNER ...]"
[ $# -ge 4 ] || { echo "$usage" >&2; exit 2; }
games="$1" nodes="$2" rounds="$3"
shift 3
engine="${EVOCHESS:-target/release/evochess}"
for t in "$@"; do
    [ -x "$t" ] || { echo "runner_cpu: $t is not an executable" >&2; exit 2; }
done
[ -x "$engine" ] || { echo "runner_cpu: engine $engine is not an executable (set EVOCHESS)" >&2; exit 2; }
out="$(mktemp -d /tmp/evochess-runner-cpu.XXXXXX)"
for round in $(seq "$rounds"); do
    for t in "$@"; do
        log="$out/round-$round-$(basename "$t").log"
        "$t" match -engine name=a "cmd=$engine" -engine name=b "cmd=$engine" \
            -each "nodes=$nodes" -games "$games" -srand 7 -maxmoves 100 -concurrency 2 \
            -openings file=openings/gnuchess-8ply.epd order=random -pgnout "$out/round-$round.pgn" min \
            > "$log" 2>&1 || { echo "runner_cpu: $t failed:" >&2; tail -3 "$log" >&2; exit 1; }
        line="$(grep -h "runner CPU" "$log" | tail -1)"
        cpu="$(sed -E 's/.*runner CPU ([0-9.]+) s.*/\1/' <<<"$line")"
        echo "round $round $t: $line"
        python3 -c "print(f'  runner CPU per game: {1000 * $cpu / $games:.2f} ms')"
        rm -f "$out/round-$round.pgn"
    done
done
rm -rf "$out"
