"""The games of a `tuner match` PGN, for the read-only analysis scripts beside it."""
import re


def pgn_games(path):
    """Yields (white, black, result, white_first, movetext) for each game of the PGN at `path`;
    white_first is whether White makes the first move after the FEN (or the standard start)."""
    text = open(path, encoding="utf-8").read()
    for game in text.split("[Event ")[1:]:
        white = re.search(r'\[White "([^"]+)"', game).group(1)
        black = re.search(r'\[Black "([^"]+)"', game).group(1)
        result = re.search(r'\[Result "([^"]+)"', game).group(1)
        fen = re.search(r'\[FEN "([^"]+)"', game)
        white_first = fen is None or fen.group(1).split()[1] == "w"
        movetext = game.split("\n\n", 1)[1] if "\n\n" in game else ""
        yield white, black, result, white_first, movetext
