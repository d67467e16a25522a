#!/usr/bin/env bash
# Commits a long pipeline run's checkpoints every INTERVAL seconds (default 600), so that a session
# cut off at any minute loses at most one interval: machines do not keep ignored files between
# sessions, and the pipeline's checkpoints (state, CSV, SVG, evolved files) are small and committed.
# Only OUT_DIR's paths are committed (a pathspec commit), never what else is staged.
#
#   nohup bench/pipeline_checkpoints.sh [OUT_DIR] [INTERVAL] > /dev/null 2>&1 &
set -uo pipefail
cd "$(dirname "$0")/.."
out="${1:-pipeline-evol-star}"
interval="${2:-600}"
while true; do
    sleep "$interval"
    git add -A -- "$out" 2>/dev/null
    git add -f -- "$out/pipeline.log" 2>/dev/null
    if ! git diff --cached --quiet -- "$out"; then
        done_runs=$(ls "$out"/evolved/run-*.toml 2>/dev/null | wc -l)
        last=$(grep -v '^\s*$' "$out/pipeline.log" 2>/dev/null | tail -n 1 | cut -c 1-160)
        git commit -q -m "$out: checkpoint $(date -u +%H:%M) ($done_runs evolve runs done; last log: $last)" -- "$out" \
            || echo "checkpoint commit failed at $(date -u +%H:%M)" >&2
    fi
done
