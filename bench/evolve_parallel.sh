#!/usr/bin/env bash
# Runs runs 1..RUNS of one `tuner evolve` configuration as RUNS parallel processes (one run
# each, `--only-run K`; run K's result is the same as in a sequential run), for many-core
# machines. Each process gets THREADS fitness threads (default 1). Extra arguments go to every
# `tuner evolve` (--pgn, --config, --space, --min-ply, --resume, ...). Logs: OUT/run-K.log.
#
#   bench/evolve_parallel.sh 10 runs/evol0 --pgn games.pgn.xz --config configs/evolve/default.toml
set -euo pipefail
if [ $# -lt 2 ]; then
    echo "usage: $0 RUNS OUT [tuner evolve arguments...]" >&2
    exit 2
fi
runs=$1 out=$2
shift 2
tuner=${TUNER:-target/release/tuner}
threads=${THREADS:-1}
mkdir -p "$out"
pids=()
for k in $(seq 1 "$runs"); do
    "$tuner" evolve "$@" --out "$out" --runs "$runs" --only-run "$k" --threads "$threads" >"$out/run-$k.log" 2>&1 &
    pids+=($!)
    if [ "$k" = 1 ]; then
        # Run 1 extracts and caches the positions; the others then read the cache.
        while [ ! -f "$out/positions.json" ] && kill -0 "${pids[0]}" 2>/dev/null; do sleep 0.2; done
    fi
done
status=0
for pid in "${pids[@]}"; do
    wait "$pid" || status=1
done
grep -h "^run " "$out"/run-*.log | sort -t' ' -k2,2n
exit $status
