"""One scoring tap against the floor of any durable tap: how much the rules,
the hooks and the store add to the least a tap can cost.

The floor is a bare Flask app whose one route reads the JSON body, INSERTs
it and commits, on a connection kept open, in WAL with synchronous=FULL,
and answers a small JSON object: the least a durable tap can cost through
Flask here. The tap is the app as served, posting the same event. Both go
through Flask's test client (one each, same class), interleaved tap by tap
in alternating order so that both see the same machine, and the ratio is
of their medians.
"""

import sqlite3
import time

from flask import Flask, jsonify, request

from .common import Row, median, ms, ratio_row, scratch_dir
from .tap import long_game, post

WHAT = "one scoring tap against a bare durable Flask route"
HOW = ("the tap (POST an event, as served) and the floor (a bare Flask route: one INSERT + "
       "commit, WAL, synchronous=FULL) through the test client, interleaved, p50 of each")
TARGET = "tap p50 ≤ 1.3× the floor's p50"
SIZES = {
    "full": {"repeats": 5, "taps": 1000, "warmup": 50},
    "smoke": {"repeats": 2, "taps": 10, "warmup": 2},
}
# The rules' own work alone costs about 1.3× the floor (docs/PERFORMANCE.md's
# breakdown): the app's tap may add nearly nothing to it.
RATIO_LIMIT = 1.3


def floor_app(path: str) -> Flask:
    """The bare durable route: what any tap must at least cost."""
    conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("CREATE TABLE log (id INTEGER PRIMARY KEY, key TEXT, payload TEXT)")
    app = Flask("floor")

    @app.post("/floor")
    def floor():
        payload = request.get_data(as_text=True)
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("INSERT INTO log (key, payload) VALUES (?, ?)",
                     [request.headers.get("Idempotency-Key"), payload])
        conn.execute("COMMIT")
        return jsonify({"ok": True})

    app.extensions["floor.conn"] = conn
    return app


def one_repeat(repeat: int, taps: int, warmup: int) -> dict:
    with scratch_dir("tap-floor") as folder:
        client, path, stream = long_game(folder, 9000 + repeat)
        floor = floor_app(str(folder / "floor.sqlite3"))
        floor_client = floor.test_client()
        tap_times, floor_times = [], []
        try:
            for i in range(warmup + taps):
                event, _ = next(stream)
                key = f"tap-{repeat}-{i}"
                order = ("tap", "floor") if i % 2 else ("floor", "tap")
                for which in order:
                    started = time.perf_counter()
                    if which == "tap":
                        post(client, path, event, key)
                    else:
                        post(floor_client, "/floor", event, key)
                    elapsed = time.perf_counter() - started
                    if i >= warmup:
                        (tap_times if which == "tap" else floor_times).append(elapsed)
        finally:
            floor.extensions["floor.conn"].close()
    return {"tap_p50_ms": ms(median(tap_times)), "floor_p50_ms": ms(median(floor_times))}


def measure(repeats: int, taps: int, warmup: int) -> Row:
    runs = [one_repeat(r, taps, warmup) for r in range(repeats)]
    return ratio_row(runs, ("tap", "floor"), taps, RATIO_LIMIT, "tap p50 / floor p50")
