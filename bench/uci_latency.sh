#!/usr/bin/env bash
# UCI responsiveness of the release engine: how long `isready` takes to answer while a search
# runs, and how long `stop` takes to produce `bestmove`. Both must stay far below a GUI's
# ping timeout (cutechess: 15 s). Usage: bench/uci_latency.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-20}"
cargo build --release --quiet --bin evochess

python3 - "$rounds" <<'PY'
import subprocess, sys, time, statistics
rounds = int(sys.argv[1])
p = subprocess.Popen(["./target/release/evochess"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(s): p.stdin.write(s + "\n"); p.stdin.flush()
def wait(prefix):
    while True:
        line = p.stdout.readline()
        if not line: raise SystemExit("engine exited")
        if line.startswith(prefix): return line
send("uci"); wait("uciok")
ready, stop = [], []
for _ in range(rounds):
    send("position startpos moves e2e4 e7e5"); send("go infinite"); time.sleep(0.1)
    t = time.perf_counter(); send("isready"); wait("readyok"); ready.append(time.perf_counter() - t)
    t = time.perf_counter(); send("stop"); wait("bestmove"); stop.append(time.perf_counter() - t)
send("quit"); p.wait(timeout=10)
ms = lambda xs: f"median {statistics.median(xs)*1000:.2f} ms, max {max(xs)*1000:.2f} ms"
print(f"isready during search: {ms(ready)} ({rounds} rounds)")
print(f"stop -> bestmove:      {ms(stop)} ({rounds} rounds)")
PY
