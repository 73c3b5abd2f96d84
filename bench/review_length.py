"""The review against game length: the first page of the review of a game of
10, 300 and 2,000 events, over real HTTP.

Three running games are written through the service; the served app
(waitress) is then asked for each one's review (`GET /games/<id>/review`, in
French, keep-alive) in turn. A page shows 300 entries (every event of the
300-event game, the first 300 of the 2,000-event one): it folds its own
events from the nearest snapshot and draws the chart from the snapshots'
trails, so the page at 2,000 events costs what the one at 300 does.
"""

import time

from .common import Row
from .game_length import Client, interleaved, length_row, served_games

WHAT = "the review against game length"
HOW = ("the review's first page (`GET /games/<id>/review`, real HTTP, waitress, 300 entries a "
       "page) of games of 10, 300 and 2,000 events, interleaved, p50 of each")
TARGET = "p50 at 2,000 events ≤ 1.5× p50 at 300 (a page costs what its entries cost)"
SIZES = {
    "full": {"lengths": (10, 300, 2000), "repeats": 5, "samples": 30, "warmup": 3},
    "smoke": {"lengths": (10, 40), "repeats": 1, "samples": 2, "warmup": 1},
}
RATIO_LIMIT = 1.5


def measure(lengths: tuple[int, ...], repeats: int, samples: int, warmup: int) -> Row:
    with served_games("review-length", lengths) as (server, games):
        client = Client(server)

        def review(length: int, _: int) -> float:
            started = time.perf_counter()
            status, _ = client.call("GET", f"/games/{games[length]}/review")
            elapsed = time.perf_counter() - started
            assert status == 200, status
            return elapsed

        try:
            # The smoke sizes have no 300-event game: their base is the shortest.
            base = 300 if 300 in lengths else lengths[0]
            return length_row("review", lengths, base, repeats,
                              lambda: interleaved(lengths, samples, warmup, review), RATIO_LIMIT)
        finally:
            client.close()
