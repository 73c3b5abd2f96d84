"""The board's own tap against drawing that board alone: what recording a
tap adds to the board's answer.

The tap is a form POST from the board's script (`X-Board: 1`: the answer is
the board drawn again), a Missa then the Undo that takes it back, so the
game stays the same size; the draw is a GET of the same board with
`X-Board: 1`. Both through the app as served (CSRF on), on one test client,
interleaved in alternating order, and the ratio is of their medians.
"""

import re
import time

from .common import Row, median, ms, ratio_row, scratch_app, scratch_dir

WHAT = "the board's tap against drawing that board alone"
HOW = ("a board tap (form POST with X-Board: 1, a Missa then its Undo) and a GET of the same "
       "board (X-Board: 1), one test client, interleaved, p50 of each")
TARGET = "board tap p50 ≤ 1.2× the board's draw p50"
SIZES = {
    "full": {"repeats": 5, "taps": 400, "warmup": 20},
    "smoke": {"repeats": 2, "taps": 10, "warmup": 2},
}
RATIO_LIMIT = 1.2
BOARD = {"X-Board": "1"}
CSRF = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')


def one_repeat(repeat: int, taps: int, warmup: int) -> dict:
    with scratch_dir("board-tap") as folder:
        client = scratch_app(folder / "app.sqlite3").test_client()
        body = {"sides": ["Nous", "Eux"], "rules": {"target": 101}}
        game = client.post("/api/games", json=body).get_json()["id"]
        board = f"/games/{game}"
        csrf = CSRF.search(client.get(board).get_data(as_text=True))[1]
        tap_times, draw_times = [], []
        version = 0
        for i in range(warmup + taps):
            undo = i % 2 == 1
            form = {"csrf_token": csrf, "token": f"bench{repeat}-{i}",
                    "expected_version": str(version), "device": "bench"}
            if not undo:
                form["move"] = "missa.0"
            order = ("tap", "draw") if i % 4 < 2 else ("draw", "tap")
            for which in order:
                started = time.perf_counter()
                if which == "tap":
                    answer = client.post(board + ("/undo" if undo else "/play"), data=form,
                                         headers=BOARD)
                else:
                    answer = client.get(board, headers=BOARD)
                elapsed = time.perf_counter() - started
                assert answer.status_code == 200, answer.status_code
                if i >= warmup:
                    (tap_times if which == "tap" else draw_times).append(elapsed)
            version += 1
    return {"tap_p50_ms": ms(median(tap_times)), "draw_p50_ms": ms(median(draw_times))}


def measure(repeats: int, taps: int, warmup: int) -> Row:
    runs = [one_repeat(r, taps, warmup) for r in range(repeats)]
    return ratio_row(runs, ("tap", "draw"), taps, RATIO_LIMIT, "board tap p50 / board draw p50")
