#!/usr/bin/env bash
# Lazy SMP in games (issue "Engine strength", acceptance 3): the same binary with `Threads N`
# against `Threads 1`, bench/sprt.sh's match (UHO pairs, Hash 16, fishtest-style and Syzygy
# adjudication) one game at a time, so that the N-thread side has the cores to itself while it
# thinks (CONCURRENCY games at once on a machine with cores to spare, at most (cores - 1) / N),
# GAMES games (default 200) at TC (default 10+0.1) without an SPRT stop: the Elo and its
# interval are the report. Timed: run it with nothing else heavy on the machine (N + 1 cores are
# busy at most per game). Resumable: run it again with the same arguments. EVOCHESS names the
# binary; TUNER and EVOCHESS_DATA as in bench/sprt.sh.
#
#   bench/threads.sh [THREADS] [GAMES] [TC] [OUTDIR]
set -euo pipefail
cd "$(dirname "$0")/.."
engine="${EVOCHESS:-target/release/evochess}"
threads="${1:-2}"
NEW_OPTS="option.Threads=$threads" OLD_OPTS="option.Threads=1" CONCURRENCY="${CONCURRENCY:-1}" \
    exec bench/sprt.sh "$engine" "$engine" "tc=${3:-10+0.1}" "${4:-runs/threads}" off off "${2:-200}"
