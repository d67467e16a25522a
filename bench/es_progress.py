#!/usr/bin/env python3
"""The progress table of a `tuner coevolve` evolution-strategy run, in blocks of generations,
as BENCHMARKS.md shows it: games, the candidates' mean score against the champion, the mean's
distance from the start (RMS, in c_end) and the step sizes at the block's end; then every gate.

    python3 bench/es_progress.py runs/coevolve-search/generations.csv [--block 10]
"""
import argparse
import csv
import math
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("csv")
    ap.add_argument("--block", type=int, default=10)
    args = ap.parse_args()
    with open(args.csv, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit(f"{args.csv}: no generation yet")
    sigmas = [k for k in rows[0] if k.startswith("sigma_")]
    print("| generations | games | candidates' mean score vs the champion (± se) | champion | distance from the start (RMS, c_end) | steps at the end (" + " / ".join(s[6:] for s in sigmas) + ") |")
    print("|---|---:|---:|---|---:|---|")
    for i in range(0, len(rows), args.block):
        block = rows[i:i + args.block]
        scores = [float(r["mean_score"]) for r in block]
        mean = sum(scores) / len(scores)
        se = math.sqrt(sum((s - mean) ** 2 for s in scores) / (len(scores) - 1) / len(scores)) if len(scores) > 1 else float("nan")
        games = sum(int(r["games"]) for r in block)
        champions = sorted({r["champion"] for r in block})
        last = block[-1]
        steps = " / ".join(f"{float(last[s]):.2f}" for s in sigmas)
        score = f"{mean:.3f} ± {se:.3f}" if len(scores) > 1 else f"{mean:.3f}"
        print(f"| {block[0]['generation']}–{last['generation']} | {games:,} | {score} | {', '.join(champions)} | {float(last['distance']):.2f} | {steps} |")
    gates = [r for r in rows if r.get("gate")]
    total = sum(int(r["games"]) + int(r["gate_games"] or 0) for r in rows)
    print(f"\n{len(rows)} generations, {total:,} games (racing and gates)")
    for r in gates:
        print(f"- gate after generation {r['generation']}: {r['gate']}, {r['gate_games']} games; {r['gate_sprt']}")


if __name__ == "__main__":
    main()
