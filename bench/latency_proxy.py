#!/usr/bin/env python3
"""A slow GUI between a runner and a UCI engine: every `go` reaches the engine LATENCY_MS late,
while the runner's clock already runs (as with a busy GUI, a remote engine or a loaded machine).
Everything else passes at once; the engine's output goes straight to the runner.

    bench/latency_proxy.py LATENCY_MS ENGINE [ARG]...
"""
import subprocess
import sys
import time

latency = float(sys.argv[1]) / 1000.0
engine = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, text=True, bufsize=1)
for line in sys.stdin:
    if line.startswith("go"):
        time.sleep(latency)
    engine.stdin.write(line)
    engine.stdin.flush()
engine.stdin.close()
sys.exit(engine.wait())
