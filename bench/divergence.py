#!/usr/bin/env python3
"""Where a gauntlet's games are lost: our scores against the opponent's, from a `tuner match` PGN.

Usage: bench/divergence.py GAMES.pgn [ENGINE]   (ENGINE: our engine's name, default evochess)

Reads the `{score/depth seconds}` comments (each engine's own point of view) and prints:
- for each game ENGINE lost, the first move at which the opponent's score reached +1.00, and
  our score then and 2, 5, 10 and 20 of our moves later: a sudden drop is a tactical miss, a
  slow slide a positional one;
- over all positions where both scores are under 4 pawns, the two engines' scores from our side
  of the board: their means (our optimism against theirs), spreads and correlation.
"""
import re
import sys

from pgn_games import pgn_games

SCORE = re.compile(r"\{([+-]?[\d.]+|[+-]?M\d+)/(\d+)\s([\d.]+)s\}")


def games(path, ours):
    for white, _black, result, white_first, body in pgn_games(path):
        we_are_white = white == ours
        plies = []
        for i, (score, _depth, _secs) in enumerate(SCORE.findall(body)):
            mover_white = (i % 2 == 0) == white_first
            try:
                value = float(score)
            except ValueError:  # a mate score
                value = -99.0 if score.startswith("-") else 99.0
            plies.append((mover_white == we_are_white, value))
        lost = (result == "0-1" and we_are_white) or (result == "1-0" and not we_are_white)
        yield plies, lost


def main(path, ours):
    xs, ys = [], []
    print("lost games: opponent first at +1.00 | our score then, +2, +5, +10, +20 of our moves")
    for plies, lost in games(path, ours):
        last_ours = None
        for i, (mine, v) in enumerate(plies):
            if mine:
                last_ours = v
            elif last_ours is not None and abs(v) < 4 and abs(last_ours) < 4:
                xs.append(last_ours)
                ys.append(-v)
        if not lost:
            continue
        us = [v for mine, v in plies if mine]
        them = [v for mine, v in plies if not mine]
        cross = next((k for k, v in enumerate(them) if v >= 1.0), None)
        if cross is None:
            print("  never at +1.00")
            continue
        at = lambda k: f"{us[k]:+6.2f}" if k < len(us) else "   end"
        print(f"  their move {cross + 1:3d}: {them[cross]:+6.2f} | {at(cross)} {at(cross + 2)} "
              f"{at(cross + 5)} {at(cross + 10)} {at(cross + 20)}")
    n = len(xs)
    if n < 2:
        sys.exit("no scored positions")
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((a - mx) ** 2 for a in xs)
    syy = sum((b - my) ** 2 for b in ys)
    sxy = sum((a - mx) * (b - my) for a, b in zip(xs, ys))
    print(f"{n} positions, from our side: mean ours {mx:+.3f}, theirs {my:+.3f}; "
          f"sd ours {(sxx / n) ** 0.5:.3f}, theirs {(syy / n) ** 0.5:.3f}; "
          f"correlation {sxy / (sxx * syy) ** 0.5:.3f}")


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: bench/divergence.py GAMES.pgn [ENGINE]")
    main(sys.argv[1], sys.argv[2] if len(sys.argv) == 3 else "evochess")
