#!/usr/bin/env bash
# Lazy SMP speed: `evochess bench DEPTH T` for each thread count T (default 1 and 2), alternating
# ROUNDS times (default 3) so background load hits every count alike. For each count prints every
# sample, then the medians: the time to search all bench positions to DEPTH (time to depth), the
# nps of all threads together, and both relative to the first count. Also the CPU time of each
# run: nodes per CPU second (the speed of one thread, which sharing the table should not lower)
# and CPU / wall time (how many cores the run really had: on a loaded machine a 2-thread run may
# get fewer than 2, and then no wall-clock speedup can show; Linux's autogroup scheduling gives a
# session about the same CPU share whatever its thread count). From the CPU time to depth it
# estimates the speedup on N free cores as CPU(first count) / (CPU(N) / N): an estimate that
# assumes N threads run as fast each as one, labelled as such. Not a test: the figures depend on
# the machine and its load (printed at the start and the end).
#
#   bench/smp.sh [ROUNDS] [DEPTH] [THREADS...]      e.g. bench/smp.sh 5 13 1 2 4
#   EVOCHESS names a built binary (then nothing is built: for a lent machine without cargo).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-3}"
depth="${2:-13}"
shift $(($# < 2 ? $# : 2))
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(1 2)

engine="${EVOCHESS:-}"
if [ -z "$engine" ]; then
    cargo build --release --quiet --bin evochess
    engine=./target/release/evochess
fi
load_start="$(cut -d' ' -f1-3 /proc/loadavg)"
declare -A secs nps npc cores cpus
cpu_file="$(mktemp)"
trap 'rm -f "$cpu_file"' EXIT
for ((i = 1; i <= rounds; i++)); do
    for t in "${counts[@]}"; do
        out="$(/usr/bin/time -f '%U %S' -o "$cpu_file" "$engine" bench "$depth" "$t")"
        s="$(echo "$out" | awk '/ seconds$/ {print $1}')"
        n="$(echo "$out" | tail -n 1 | awk '{print $3}')"
        nodes="$(echo "$out" | tail -n 1 | awk '{print $1}')"
        cpu="$(awk '{print $1 + $2}' "$cpu_file")"
        per_cpu="$(awk -v n="$nodes" -v c="$cpu" 'BEGIN {printf "%d", n / (c > 0 ? c : 1e-9)}')"
        used="$(awk -v c="$cpu" -v s="$s" 'BEGIN {printf "%.2f", c / s}')"
        echo "round $i, threads $t: $s s, $nodes nodes, $n nps, $cpu CPU s ($per_cpu nodes per CPU s, $used cores)"
        secs[$t]+="$s "; nps[$t]+="$n "; npc[$t]+="$per_cpu "; cores[$t]+="$used "; cpus[$t]+="$cpu "
    done
done
median() { printf '%s\n' $1 | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
base="${counts[0]}"
t0="$(median "${secs[$base]}")"; n0="$(median "${nps[$base]}")"; c0="$(median "${npc[$base]}")"; u0="$(median "${cpus[$base]}")"
for t in "${counts[@]}"; do
    tt="$(median "${secs[$t]}")"; nn="$(median "${nps[$t]}")"; cc="$(median "${npc[$t]}")"; uu="$(median "${cores[$t]}")"
    pp="$(median "${cpus[$t]}")"
    awk -v t="$t" -v tt="$tt" -v nn="$nn" -v cc="$cc" -v uu="$uu" -v pp="$pp" -v t0="$t0" -v n0="$n0" -v c0="$c0" -v u0="$u0" -v b="$base" 'BEGIN {
        printf "threads %s: median %.3f s to depth, %d nps, %.2f CPU s, %d nodes per CPU s, %.2f cores; vs %s thread: time-to-depth speedup %.2fx, nps %.2fx, nodes per CPU s %.2fx, estimated speedup on %s free cores %.2fx\n",
            t, tt, nn, pp, cc, uu, b, t0 / tt, nn / n0, cc / c0, t, (u0 / b) / (pp / t) }'
done
echo "$(date -u +%Y-%m-%d) $(git rev-parse --short HEAD 2>/dev/null || echo no-git), depth $depth, $rounds rounds, load average $load_start at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end, $(nproc) cores"
