#!/usr/bin/env bash
# Does a gated coevolution ever cost strength? (issue 45 acceptance 2). Generation 0 is
# params/default.toml and 9 mutants of it (every gene moved by N(0, 5 % of its range)); racing
# ranks each generation at the ground-truth budget (bench/coevolve_ground_truth.sh: nodes=5000);
# every EVERY-th generation's best challenges the champion (at first params/default.toml) in an
# SPRT [0, 10] at GATE_NODES per move, and the run's output is the champion: the start file value
# for value, or a file that passed the gate. Then, if the output is not the start file, the check
# that matters is timed: 400 games at 10+0.1 of the output vs params/default.toml on quiet cores
# (`bench/sprt.sh NEW OLD tc=10+0.1 OUTDIR off off 400` with NEW_OPTS="params=OUTPUT").
#
#   bench/coevolve_gated.sh [OUT]        (default ground-truth-out/gated-default; resumable)
#
# Environment: GENERATIONS (20), RACING_GAMES per generation (600), NODES (5000), GATE_NODES
# (25000), EVERY (5), GATE_MAX_GAMES (1000), CONCURRENCY (0 = every core), SEED (1),
# TUNER / EVOCHESS (the release builds).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-ground-truth-out/gated-default}"
tuner="${TUNER:-target/release/tuner}"
engine="${EVOCHESS:-target/release/evochess}"
for f in "$tuner" "$engine"; do [ -x "$f" ] || { echo "$f: not built (cargo build --release --workspace)" >&2; exit 1; }; done
mkdir -p "$out/start"
out="$(realpath "$out")"
# The population directory holds the start file alone; `mutants` adds its nine neighbours.
[ -f "$out/start/default.toml" ] || cp params/default.toml "$out/start/default.toml"
cat > "$out/coevolve.toml" <<EOF
population_dir = "$out/start"
mutants = 9
mutant_sigma = 0.05
engine = "$(realpath "$engine")"
nodes = ${NODES:-5000}
concurrency = ${CONCURRENCY:-0}
openings = "$(realpath openings/gnuchess-8ply.epd)"
resign = "movecount=3 score=1000"
draw = "movenumber=40 movecount=8 score=10"
maxmoves = "200"
selection = "racing"
racing_games = ${RACING_GAMES:-600}
racing_confidence = 0.95
reference_games = 8
seed = ${SEED:-1}
out_dir = "$out/run"
output = "$out/coevolved.toml"

[ga]
generations = ${GENERATIONS:-20}
elitism = 1

# One mutant of generation 0 among each bred generation's children, so that the population
# does not collapse onto one organism.
[ga.immigrants]
count = 1
kind = "mutant"
sigma = 0.05

[champion]
gate = "sprt"
start = "$out/start/default.toml"
every = ${EVERY:-5}
elo0 = 0.0
elo1 = 10.0
max_games = ${GATE_MAX_GAMES:-1000}
nodes = ${GATE_NODES:-25000}
EOF
"$tuner" coevolve --config "$out/coevolve.toml" --resume-or-start
echo "champions: $out/run/champions.csv"
cat "$out/run/champions.csv"
