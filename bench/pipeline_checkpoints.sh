#!/usr/bin/env bash
# Commits a long pipeline run's checkpoints every INTERVAL seconds (default 600), so that a session
# cut off at any minute loses at most one interval: machines do not keep ignored files between
# sessions. Run outputs are ignored (.gitignore), so only the small resume state is forced in
# (checkpoints, game journals, CSV tables, evolved files, the log), never games (*.pgn), charts
# or position caches. When the run ends, `git rm -r --cached OUT_DIR` and keep only its parameter
# files (params/evolved/) and summary (docs/runs/NAME/). Only OUT_DIR's paths are committed (a
# pathspec commit), never what else is staged.
#
#   nohup bench/pipeline_checkpoints.sh [OUT_DIR] [INTERVAL] > /dev/null 2>&1 &
set -uo pipefail
cd "$(dirname "$0")/.."
out="${1:-runs/pipeline/evol-star}"
interval="${2:-600}"
while true; do
    sleep "$interval"
    mapfile -t files < <(find "$out" -type f \( -name checkpoint.json -o -name '*.state.jsonl' \
        -o -name '*.csv' -o -path "$out/evolved/*.toml" -o -path "$out/params/*.toml" \
        -o -name report.md -o -name pipeline.log \) 2>/dev/null)
    [ ${#files[@]} -gt 0 ] && git add -f -- "${files[@]}" 2>/dev/null
    if ! git diff --cached --quiet -- "$out"; then
        done_runs=$(ls "$out"/evolved/run-*.toml 2>/dev/null | wc -l)
        last=$(grep -v '^\s*$' "$out/pipeline.log" 2>/dev/null | tail -n 1 | cut -c 1-160)
        git commit -q -m "$out: checkpoint $(date -u +%H:%M) ($done_runs evolve runs done; last log: $last)" -- "$out" \
            || echo "checkpoint commit failed at $(date -u +%H:%M)" >&2
    fi
done
