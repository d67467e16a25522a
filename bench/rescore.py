#!/usr/bin/env python3
"""Scores a list of positions with one UCI engine at a fixed time a position.

Usage: bench/rescore.py ENGINE MILLISECONDS POSITIONS.epd OUT.txt

Each line of POSITIONS.epd starts with a FEN (anything after ` ; ` is kept as it is). For each,
the engine gets `ucinewgame`, the position and `go movetime MILLISECONDS` (Hash 64, one thread),
and OUT.txt gets `score depth ; <the input line>`: the last exact score of the search (cp from
the side to move's view, mates as +/-10000) and its depth. Run two engines on the same file at
once (one core each) to compare their judgements of the same positions.
"""
import re
import subprocess
import sys

INFO = re.compile(r"depth (\d+) .*score (cp|mate) (-?\d+)")


def main(engine, ms, positions, out):
    p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    def until(token):
        lines = []
        while True:
            line = p.stdout.readline()
            if not line:
                sys.exit(f"{engine} exited before '{token}'")
            lines.append(line)
            if line.startswith(token):
                return lines

    send("uci")
    until("uciok")
    send("setoption name Hash value 64")
    send("isready")
    until("readyok")
    with open(out, "w") as o, open(positions) as f:
        for line in f:
            fen = line.split(" ; ")[0].strip()
            if not fen:
                continue
            send("ucinewgame")
            send("position fen " + fen)
            send(f"go movetime {ms}")
            score = depth = None
            for info in until("bestmove"):
                m = INFO.search(info)
                if m and "bound" not in info:
                    depth = int(m.group(1))
                    v = int(m.group(3))
                    score = v if m.group(2) == "cp" else (10000 if v > 0 else -10000)
            o.write(f"{score} {depth} ; {line if line.endswith(chr(10)) else line + chr(10)}")
            o.flush()
    send("quit")
    p.wait()


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4])
