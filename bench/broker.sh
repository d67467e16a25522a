#!/usr/bin/env bash
# Throughput of distributed matches (issue 15): the same node-limited match played locally and
# through a Redis broker by 1 and 2 `tuner worker` processes, and the broker's overhead per
# task (a match of near-instant games, local against one worker: the difference per game pair).
# Needs redis-server (Debian `redis-server`); starts its own on a free loopback port. Run it with
# nothing else heavy on the machine.
#
#   bench/broker.sh [GAMES] [NODES] [TINY_GAMES]
set -euo pipefail
cd "$(dirname "$0")/.."
games="${1:-80}"
nodes="${2:-5000}"
tiny="${3:-400}"
tuner="${TUNER:-target/release/tuner}"
engine="${EVOCHESS:-target/release/evochess}"
out="$(mktemp -d /tmp/evochess-broker-bench.XXXXXX)"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
redis-server --port "$port" --bind 127.0.0.1 --save "" --appendonly no > "$out/redis.log" 2>&1 &
redis_pid=$!
workers=()
cleanup() {
    for w in "${workers[@]}"; do kill "$w" 2>/dev/null || true; done
    kill "$redis_pid" 2>/dev/null || true
}
trap cleanup EXIT
url="redis://127.0.0.1:$port/0"
for _ in $(seq 100); do redis-cli -p "$port" ping > /dev/null 2>&1 && break; sleep 0.05; done
printf '[engines.evochess]\ncmd = "%s"\n' "$(realpath "$engine")" > "$out/engines.toml"

# One match: $1 label, $2 games, $3 engine limit, then extra runner options. Prints seconds.
play() {
    local label="$1" n="$2" limit="$3"
    shift 3
    local start end
    start=$(date +%s.%N)
    "$tuner" match -engine name=a "cmd=$engine" -engine name=b "cmd=$engine" params=params/hand-set.toml \
        -each "$limit" -games "$n" -srand 7 \
        -openings file=openings/gnuchess-8ply.epd order=random -pgnout "$out/$label.pgn" min "$@" > /dev/null 2>> "$out/$label.log"
    end=$(date +%s.%N)
    python3 -c "print(f'{$end - $start:.2f}')"
}

start_workers() {
    for i in $(seq "$1"); do
        RUST_LOG=warn "$tuner" worker --broker "$url" --engines "$out/engines.toml" --name "w$i" 2>> "$out/worker-$i.log" &
        workers+=($!)
    done
}
stop_workers() {
    for w in "${workers[@]}"; do kill "$w" 2>/dev/null || true; done
    for w in "${workers[@]}"; do wait "$w" 2>/dev/null || true; done
    workers=()
}
rate() { python3 -c "print(f'{$1 * 60 / $2:.1f}')"; }

echo "match: $games games at nodes=$nodes (evochess default v hand-set)"
t=$(play local1 "$games" "nodes=$nodes" -maxmoves 100 -concurrency 1)
echo "local, concurrency 1: ${t} s, $(rate "$games" "$t") games/min"
t=$(play local2 "$games" "nodes=$nodes" -maxmoves 100 -concurrency 2)
echo "local, concurrency 2: ${t} s, $(rate "$games" "$t") games/min"
start_workers 1
t=$(play broker1 "$games" "nodes=$nodes" -maxmoves 100 -broker "$url")
echo "broker, 1 worker process: ${t} s, $(rate "$games" "$t") games/min"
stop_workers
start_workers 2
t=$(play broker2 "$games" "nodes=$nodes" -maxmoves 100 -broker "$url")
echo "broker, 2 worker processes: ${t} s, $(rate "$games" "$t") games/min"
stop_workers
for f in local1 broker1 broker2; do cmp -s <(grep -v '^\[' "$out/local2.pgn" | sort) <(grep -v '^\[' "$out/$f.pgn" | sort) \
    && echo "$f: same games as local2" || echo "$f: GAMES DIFFER from local2"; done

# Each coordinator start and each worker's first task of a program run one bench (the build
# signature): timed apart, so that the per-task figure is the broker's alone.
start=$(date +%s.%N); "$engine" bench > /dev/null 2>&1; end=$(date +%s.%N)
t_bench=$(python3 -c "print(f'{$end - $start:.2f}')")
echo "one evochess bench (the signature, once per coordinator and per worker): ${t_bench} s"
echo "overhead: $tiny games at depth=1, 10 moves at most"
t_local=$(play tiny-local "$tiny" depth=1 -concurrency 1 -maxmoves 10)
start_workers 1
play tiny-warm 2 depth=1 -broker "$url" -maxmoves 10 > /dev/null  # the worker's signature
t_broker=$(play tiny-broker "$tiny" depth=1 -broker "$url" -maxmoves 10)
stop_workers
python3 -c "
pairs = $tiny / 2
per = ($t_broker - $t_bench - $t_local) / pairs * 1000
print(f'local {$t_local} s, broker with 1 warm worker {$t_broker} s (one bench of it the coordinator\'s): {per:.1f} ms per task (game pair)')"
echo "files in $out"
