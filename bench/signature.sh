#!/usr/bin/env bash
# The bench signature (Stockfish tests/signature.sh): builds the release engine, runs
# `evochess bench [DEPTH]` and compares its node count with the last `Bench: N` line in the
# commit messages. Prints the figure with the date and commit, ready for BENCHMARKS.md.
#
#   bench/signature.sh           # compare with the last `Bench:` in `git log`
#   bench/signature.sh 12345     # compare with an explicit signature
# Exit status: 0 match (or nothing to compare with), 1 mismatch.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --release --quiet --bin evochess
line="$(./target/release/evochess bench | tail -n 1)"
nodes="${line%% nodes*}"
echo "$(date -u +%Y-%m-%d) $(git rev-parse --short HEAD): $line"

expected="${1:-$(git log --format=%B | grep -m1 -oE '^Bench: [0-9]+' | grep -oE '[0-9]+' || true)}"
if [ -z "$expected" ]; then
    echo "no Bench: line in the history to compare with; the signature is $nodes"
elif [ "$nodes" = "$expected" ]; then
    echo "signature OK: $nodes"
else
    echo "signature MISMATCH: got $nodes, expected $expected (a search change needs 'Bench: $nodes' in its commit message)" >&2
    exit 1
fi
