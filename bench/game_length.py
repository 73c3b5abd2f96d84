"""Cost against game length: the same tap on a game of 10 events and on one of 2,000.

Both games are played through the API first (realistic long-game streams).
Then, tap by tap and alternating between the two games so that both see the
same machine, a scoring tap is posted (timed) and undone (not timed), so
each timed tap meets its game at exactly its length. A tap reads the game's
snapshot and appends one event: it must not replay the game, so the ratio
long / short stays near 1.
"""

import random
import time

from . import table
from .common import Check, Row, median, ms, percentile, scratch_app, scratch_dir
from .tap import post

WHAT = "cost against game length"
HOW = "the same tap on a game of 10 events and of 2,000 events"
TARGET = "ratio ≤ 1.5 (a tap must not replay the whole game)"
SIZES = {
    "full": {"short": 10, "long": 2000, "repeats": 5, "taps": 100, "warmup": 10},
    "smoke": {"short": 10, "long": 40, "repeats": 2, "taps": 6, "warmup": 1},
}
RATIO_LIMIT = 1.5


def prepared_game(client, length: int, seed: int) -> str:
    body = table.new_game_body(long=True)
    game_id = client.post("/api/games", json=body).get_json()["id"]
    events = table.game(random.Random(seed), table.setup_of(body), limit=length, long=True)
    for i, event in enumerate(events):
        post(client, f"/api/games/{game_id}/events", event, f"prep-{i}")
    state = client.get(f"/api/games/{game_id}").get_json()
    assert state["version"] == length and not state["finished"], state
    return game_id


def timed_tap(client, game_id: str, tap: dict, key: str) -> tuple[float, float]:
    """The tap's time, and the time of the undo that takes it back (an undo
    replays the game's standing events: reported, not checked)."""
    started = time.perf_counter()
    post(client, f"/api/games/{game_id}/events", tap, key)
    tapped = time.perf_counter()
    post(client, f"/api/games/{game_id}/undo", {}, key + "-undo")
    return tapped - started, time.perf_counter() - tapped


def measure(short: int, long: int, repeats: int, taps: int, warmup: int) -> Row:
    runs = []
    with scratch_dir("length") as folder:
        client = scratch_app(folder / "app.sqlite3").test_client()
        games = {"short": prepared_game(client, short, 1), "long": prepared_game(client, long, 2)}
        for repeat in range(repeats):
            times: dict[str, list[float]] = {"short": [], "long": []}
            undos: dict[str, list[float]] = {"short": [], "long": []}
            for i in range(warmup + taps):
                tap = table.ALWAYS_VALID_TAPS[i % len(table.ALWAYS_VALID_TAPS)]
                # Alternate which game goes first, so neither always follows an undo of the other.
                order = ("short", "long") if i % 2 == 0 else ("long", "short")
                for name in order:
                    elapsed, undo = timed_tap(client, games[name], tap, f"len-{repeat}-{i}")
                    if i >= warmup:
                        times[name].append(elapsed)
                        undos[name].append(undo)
            run = {
                f"{name}_{stat}_ms": ms(percentile(times[name], q))
                for name in ("short", "long") for stat, q in (("p50", 0.5), ("p99", 0.99))
            }
            run.update({f"{name}_undo_p50_ms": ms(percentile(undos[name], 0.5))
                        for name in ("short", "long")})
            run["p50_ratio"] = round(run["long_p50_ms"] / run["short_p50_ms"], 2)
            run["p99_ratio"] = round(run["long_p99_ms"] / run["short_p99_ms"], 2)
            runs.append(run)
    figures = {key: median([run[key] for run in runs]) for key in runs[0]}
    figures.update(short_events=short, long_events=long, repeats=repeats, taps_per_repeat=taps)
    checks = [Check(f"tap p50 at {long} / at {short} events", figures["p50_ratio"], "<=",
                    RATIO_LIMIT, "×")]
    measured = (
        f"{short} events: p50 {figures['short_p50_ms']:.2f} ms; {long:,} events: p50 "
        f"{figures['long_p50_ms']:.2f} ms; ratio {figures['p50_ratio']:.2f}× "
        f"(p99 ratio {figures['p99_ratio']:.2f}×); an undo, which replays: "
        f"{figures['short_undo_p50_ms']:.2f} ms and {figures['long_undo_p50_ms']:.2f} ms"
    )
    return Row(measured, checks, figures, runs)
