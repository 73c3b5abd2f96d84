"""Undo against game length: an undo on a game of 10, 300 and 2,000 events,
over real HTTP.

Three running games are written through the service; then, game after game
in turn, a scoring tap is posted (not timed) and undone (timed), both
through the served app's JSON API (waitress, keep-alive), so every undo
meets its game at exactly its length. An undo folds the events after the
game's nearest snapshot, not the whole game.
"""

import json
import time

from . import table
from .common import Row
from .game_length import Client, interleaved, length_row, served_games

WHAT = "undo against game length"
HOW = ("a tap then its undo (`POST /api/games/<id>/undo`, timed; real HTTP, waitress) on games "
       "of 10, 300 and 2,000 events, interleaved, p50 of each")
TARGET = "p50 at 2,000 events ≤ 1.5× p50 at 10 (an undo must not replay the game)"
SIZES = {
    "full": {"lengths": (10, 300, 2000), "repeats": 5, "samples": 80, "warmup": 5},
    "smoke": {"lengths": (10, 40), "repeats": 1, "samples": 3, "warmup": 1},
}
RATIO_LIMIT = 1.5


def measure(lengths: tuple[int, ...], repeats: int, samples: int, warmup: int) -> Row:
    with served_games("undo-length", lengths) as (server, games):
        client = Client(server)

        def undo(length: int, i: int) -> float:
            tap = json.dumps(table.ALWAYS_VALID_TAPS[i % len(table.ALWAYS_VALID_TAPS)]).encode()
            status, _ = client.call("POST", f"/api/games/{games[length]}/events", tap)
            assert status == 200, status
            started = time.perf_counter()
            status, _ = client.call("POST", f"/api/games/{games[length]}/undo", b"{}")
            elapsed = time.perf_counter() - started
            assert status == 200, status
            return elapsed

        try:
            return length_row("undo", lengths, lengths[0], repeats,
                              lambda: interleaved(lengths, samples, warmup, undo), RATIO_LIMIT)
        finally:
            client.close()
