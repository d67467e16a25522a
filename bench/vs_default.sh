#!/usr/bin/env bash
# A parameter file against params/default.toml with the same binary (issue 10, acceptance 5: an
# evolved evaluation against the hand-set one, same search): bench/sprt.sh's match (UHO pairs,
# Hash 16, concurrency 2, fishtest-style and Syzygy adjudication) without the SPRT stop, GAMES
# games (default 400) at TC (default 10+0.1), so the Elo and its interval are the report.
# Timed: run it with nothing else heavy on the machine. Resumable: run it again with the same
# arguments. EVOCHESS names the binary (TUNER the runner, as for bench/sprt.sh).
#
#   bench/vs_default.sh PARAMS [GAMES] [TC] [OUTDIR]
set -euo pipefail
cd "$(dirname "$0")/.."
params="$(realpath "$1")"
engine="${EVOCHESS:-target/release/evochess}"
NEW_OPTS="params=$params" OLD_OPTS="params=$(realpath params/default.toml)" \
    exec bench/sprt.sh "$engine" "$engine" "tc=${3:-10+0.1}" "${4:-runs/vs-default}" off off "${2:-400}"
