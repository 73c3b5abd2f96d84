"""The board against game length: the scoreboard page of a game of 10, 300
and 2,000 events, over real HTTP.

Three running games are written through the service; the served app
(waitress) is then asked for each one's board in turn (`GET /games/<id>`, in
French, on a keep-alive connection), the order rotated so that every game
meets the same machine. A board lists its last events with what each gave,
folded from the game's nearest snapshot, so the longest game's board costs
about what the shortest one's does.
"""

import time

from .common import Row
from .game_length import Client, interleaved, length_row, served_games

WHAT = "the board against game length"
HOW = ("the scoreboard page (`GET /games/<id>`, real HTTP, waitress) of games of 10, 300 and "
       "2,000 events, interleaved, p50 of each")
TARGET = "p50 at 2,000 events ≤ 1.5× p50 at 10 (a board must not replay the game)"
SIZES = {
    "full": {"lengths": (10, 300, 2000), "repeats": 5, "samples": 60, "warmup": 5},
    "smoke": {"lengths": (10, 40), "repeats": 1, "samples": 3, "warmup": 1},
}
RATIO_LIMIT = 1.5


def measure(lengths: tuple[int, ...], repeats: int, samples: int, warmup: int) -> Row:
    with served_games("board-length", lengths) as (server, games):
        client = Client(server)

        def board(length: int, _: int) -> float:
            started = time.perf_counter()
            status, _ = client.call("GET", f"/games/{games[length]}")
            elapsed = time.perf_counter() - started
            assert status == 200, status
            return elapsed

        try:
            return length_row("board", lengths, lengths[0], repeats,
                              lambda: interleaved(lengths, samples, warmup, board), RATIO_LIMIT)
        finally:
            client.close()
