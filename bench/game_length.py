"""Cost against game length: the same tap, and the game's state, on a game of
10 events and on one of 2,000.

Both games are played through the API first (realistic long-game streams).
Then, tap by tap and alternating between the two games so that both see the
same machine, a scoring tap is posted (timed) and undone (not timed), so
each timed tap meets its game at exactly its length, and the game's state
is read (timed). A tap reads the game's snapshot and appends one event: it
must not replay the game, so the ratio long / short stays near 1.

The rows against length over real HTTP (bench/board_length.py,
undo_length.py, review_length.py) share `served_games` and `interleaved`:
games of each length written through the service, then the served app
(waitress) asked for each in turn.
"""

import http.client
import random
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

from scorekeeper.service import games as game_service
from scorekeeper.storage import migrations
from scorekeeper.storage.db import connect

from . import table
from .common import Check, Row, median, ms, percentile, scratch_app, scratch_dir
from .live import Server
from .tap import post

WHAT = "cost against game length"
HOW = ("the same tap (test client), and the game's state (`GET /api/games/<id>`), on a game of "
       "10 events and of 2,000 events")
TARGET = "ratio ≤ 1.5 for both (neither replays the whole game)"
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


def timed_tap(client, game_id: str, tap: dict, key: str) -> tuple[float, float, float]:
    """The tap's time, the time of the undo that takes it back (its own row
    over HTTP: undo_length.py), and the time of reading the game's state."""
    started = time.perf_counter()
    post(client, f"/api/games/{game_id}/events", tap, key)
    tapped = time.perf_counter()
    post(client, f"/api/games/{game_id}/undo", {}, key + "-undo")
    undone = time.perf_counter()
    assert client.get(f"/api/games/{game_id}").status_code == 200
    return tapped - started, undone - tapped, time.perf_counter() - undone


def measure(short: int, long: int, repeats: int, taps: int, warmup: int) -> Row:
    runs = []
    with scratch_dir("length") as folder:
        client = scratch_app(folder / "app.sqlite3").test_client()
        games = {"short": prepared_game(client, short, 1), "long": prepared_game(client, long, 2)}
        for repeat in range(repeats):
            times: dict[str, list[float]] = {"short": [], "long": []}
            undos: dict[str, list[float]] = {"short": [], "long": []}
            reads: dict[str, list[float]] = {"short": [], "long": []}
            for i in range(warmup + taps):
                tap = table.ALWAYS_VALID_TAPS[i % len(table.ALWAYS_VALID_TAPS)]
                # Alternate which game goes first, so neither always follows an undo of the other.
                order = ("short", "long") if i % 2 == 0 else ("long", "short")
                for name in order:
                    elapsed, undo, read = timed_tap(client, games[name], tap,
                                                    f"len-{repeat}-{i}")
                    if i >= warmup:
                        times[name].append(elapsed)
                        undos[name].append(undo)
                        reads[name].append(read)
            run = {
                f"{name}_{stat}_ms": ms(percentile(times[name], q))
                for name in ("short", "long") for stat, q in (("p50", 0.5), ("p99", 0.99))
            }
            run.update({f"{name}_undo_p50_ms": ms(percentile(undos[name], 0.5))
                        for name in ("short", "long")})
            run.update({f"{name}_state_p50_ms": ms(percentile(reads[name], 0.5))
                        for name in ("short", "long")})
            run["p50_ratio"] = round(run["long_p50_ms"] / run["short_p50_ms"], 2)
            run["state_p50_ratio"] = round(run["long_state_p50_ms"] / run["short_state_p50_ms"], 2)
            run["p99_ratio"] = round(run["long_p99_ms"] / run["short_p99_ms"], 2)
            runs.append(run)
    figures = {key: median([run[key] for run in runs]) for key in runs[0]}
    figures.update(short_events=short, long_events=long, repeats=repeats, taps_per_repeat=taps)
    checks = [Check(f"tap p50 at {long} / at {short} events", figures["p50_ratio"], "<=",
                    RATIO_LIMIT, "×"),
              Check(f"state p50 at {long} / at {short} events", figures["state_p50_ratio"],
                    "<=", RATIO_LIMIT, "×")]
    measured = (
        f"tap: {short} events p50 {figures['short_p50_ms']:.2f} ms; {long:,} events p50 "
        f"{figures['long_p50_ms']:.2f} ms; ratio {figures['p50_ratio']:.2f}× "
        f"(p99 ratio {figures['p99_ratio']:.2f}×); state: {figures['short_state_p50_ms']:.2f} "
        f"and {figures['long_state_p50_ms']:.2f} ms, ratio {figures['state_p50_ratio']:.2f}×; "
        f"an undo (folded from the nearest snapshot): {figures['short_undo_p50_ms']:.2f} ms "
        f"and {figures['long_undo_p50_ms']:.2f} ms"
    )
    return Row(measured, checks, figures, runs)


# -- against length over real HTTP: the board, the undo, the review ------------------------------

NOW = "2026-12-02T20:00:00.000+00:00"


def write_games(path: Path, lengths: tuple[int, ...]) -> dict[int, str]:
    """A new store at `path` holding one running long game of each length,
    written through the service as taps write them; {length: game id}."""
    db = connect(str(path))
    try:
        migrations.migrate(db)
        made = {}
        for seed, length in enumerate(lengths, 1):
            body = table.new_game_body(long=True)
            game, _ = game_service.create(db, body, None, NOW)
            for event in table.game(random.Random(seed), table.setup_of(body), limit=length,
                                    long=True):
                game_service.record(db, game.id, event, None, NOW)
            made[length] = game.id
        return made
    finally:
        db.close()


@contextmanager
def served_games(prefix: str, lengths: tuple[int, ...]) -> Iterator[tuple[Server, dict]]:
    """The served app (waitress, as `make run`) on a store of games of these
    lengths: (the server, {length: game id})."""
    with scratch_dir(prefix) as folder:
        made = write_games(folder / f"{prefix}.sqlite3", lengths)
        server = Server(folder, prefix)
        try:
            yield server, made
        finally:
            server.stop()


class Client:
    """One keep-alive connection to the server, as a phone's browser keeps."""

    def __init__(self, server: Server):
        self.connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)

    def call(self, method: str, path: str, body: bytes | None = None,
             headers: dict | None = None) -> tuple[int, bytes]:
        self.connection.request(method, path, body=body, headers={
            "Accept-Language": "fr", "Content-Type": "application/json", **(headers or {})})
        response = self.connection.getresponse()
        return response.status, response.read()

    def close(self) -> None:
        self.connection.close()


def interleaved(lengths: tuple[int, ...], samples: int, warmup: int,
                timed: Callable[[int, int], float]) -> dict[int, list[float]]:
    """`timed(length, i)`'s seconds for each length, `samples` each after
    `warmup` untimed rounds, the lengths taken in turn and their order
    rotated round by round, so that every length meets the same machine."""
    times: dict[int, list[float]] = {length: [] for length in lengths}
    for i in range(warmup + samples):
        shift = i % len(lengths)
        for length in lengths[shift:] + lengths[:shift]:
            elapsed = timed(length, i)
            if i >= warmup:
                times[length].append(elapsed)
    return times


def length_row(name: str, lengths: tuple[int, ...], base: int, repeats: int,
               timed_runs: Callable[[], dict[int, list[float]]], limit: float,
               note: str = "") -> Row:
    """A row of p50 per length over `repeats` runs of `timed_runs`, checked:
    the longest game's p50 / the `base` length's ≤ `limit`."""
    runs = []
    for _ in range(repeats):
        times = timed_runs()
        run = {f"p50_ms_{length}": ms(percentile(times[length], 0.5)) for length in lengths}
        run["ratio"] = round(run[f"p50_ms_{lengths[-1]}"] / run[f"p50_ms_{base}"], 2)
        runs.append(run)
    figures = {key: median([run[key] for run in runs]) for key in runs[0]}
    figures.update(lengths=list(lengths), repeats=repeats)
    checks = [Check(f"{name} p50 at {lengths[-1]} / at {base} events", figures["ratio"], "<=",
                    limit, "×")]
    measured = "; ".join(f"{length:,} events: p50 {figures[f'p50_ms_{length}']:.1f} ms"
                         for length in lengths)
    measured += f"; ratio {lengths[-1]:,} / {base:,}: {figures['ratio']:.2f}×{note}"
    return Row(measured, checks, figures, runs)
