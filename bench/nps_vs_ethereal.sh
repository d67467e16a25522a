#!/usr/bin/env bash
# `evochess bench` nps against Debian's Ethereal (`ethereal-chess bench`), measured in the same
# run: the two benches alternate ROUNDS times (default 3) so background load hits both alike.
# Prints every sample and the ratio of the medians (target: >= 1.0).
#
#   bench/nps_vs_ethereal.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-3}"
ethereal="$(command -v ethereal-chess || echo /usr/games/ethereal-chess)"
[ -x "$ethereal" ] || { echo "ethereal-chess not found (apt-get install ethereal-chess)" >&2; exit 2; }

cargo build --release --quiet --bin evochess
ours=(); theirs=()
for ((i = 1; i <= rounds; i++)); do
    o="$(./target/release/evochess bench | tail -n 1 | awk '{print $3}')"
    t="$("$ethereal" bench 2>/dev/null | awk '/^NPS/ {print $3}')"
    echo "round $i: evochess $o nps, ethereal $t nps"
    ours+=("$o"); theirs+=("$t")
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
mo="$(median "${ours[@]}")"; mt="$(median "${theirs[@]}")"
echo "$(date -u +%Y-%m-%d) $(git rev-parse --short HEAD): median evochess $mo nps, ethereal $mt nps, ratio $(awk -v a="$mo" -v b="$mt" 'BEGIN {printf "%.2f", a / b}')x (load average $(cut -d' ' -f1 /proc/loadavg))"
