#!/usr/bin/env python3
"""Seconds a move per engine from a `tuner match` PGN, by the engine's own move number.

Usage: bench/movetime.py GAMES.pgn

Reads the `{score/depth seconds}` comments the runner writes after each move (comments may wrap
over lines) and prints, for each engine, the mean seconds a move over its own moves 1-20, 21-40,
41-60, 61+ and all moves, with the number of moves counted. Time management changes are judged
by games; this says where the clock went.
"""
import collections
import re
import sys

from pgn_games import pgn_games


def main(path):
    acc = collections.defaultdict(lambda: [0.0, 0])
    for white, black, _result, white_first, body in pgn_games(path):
        times = re.findall(r"\{[^}/]*/\d+\s([\d.]+)s\}", body)
        for i, t in enumerate(times):
            engine = white if (i % 2 == 0) == white_first else black
            own = i // 2
            band = "1-20" if own < 20 else "21-40" if own < 40 else "41-60" if own < 60 else "61+"
            for key in (band, "all"):
                a = acc[(engine, key)]
                a[0] += float(t)
                a[1] += 1
    order = {"1-20": 0, "21-40": 1, "41-60": 2, "61+": 3, "all": 4}
    for engine, band in sorted(acc, key=lambda k: (k[0], order[k[1]])):
        total, n = acc[(engine, band)]
        print(f"{engine:<16} {band:>6} {total / n:7.3f} s  ({n} moves)")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: bench/movetime.py GAMES.pgn")
    main(sys.argv[1])
