"""A game of 20,000 events: how long its review page takes and what it weighs
(1.9 s and 9.8 MB of HTML before the review was paged).

    .venv/bin/python -m bench.long_review            # 20,000 events
    .venv/bin/python -m bench.long_review --events 2000

The game is written straight into a new store, as games.py would have left
it (its log, its snapshot, its summary rows), then its review page is asked
for through the app (test client, no network), in French, five times.
"""

import argparse
import json
import tempfile
import time
from pathlib import Path

from scorekeeper import create_app, engine
from scorekeeper.service import summaries
from scorekeeper.storage import migrations, store
from scorekeeper.storage.db import connect

from .common import median, ms

CYCLE = [{"type": "adjust", "side": 0, "points": 1, "note": ""},
         {"type": "hit", "side": 1, "value": 1}, {"type": "chain_end"},
         {"type": "adjust", "side": 1, "points": -1, "note": ""},
         {"type": "adjust", "side": 0, "points": -1, "note": ""}, {"type": "next_deal"}]


def long_game(path: str, count: int) -> str:
    """A new store at `path` holding one running game of `count` events; its id."""
    db = connect(path)
    migrations.migrate(db)
    setup = engine.Setup(("Nous", "Eux"), 2, engine.BUILT_IN_PRESETS["appli"], 0)
    events, state = [], engine.new_game(setup)
    while len(events) < count:
        for data in CYCLE:
            event = engine.parse_event(data, setup)
            try:
                state = engine.apply(state, event)
            except engine.ScoringError:
                event = engine.parse_event({"type": "end_hand", "cards": [20, None]}, setup)
                state = engine.apply(state, event)
            events.append(event)
    events = events[:count]
    state = engine.replay(setup, events)
    game_id, now = "longgame01", "2025-01-03T20:00:00.000+00:00"
    with db.conn:
        store.insert_game(db, {
            "id": game_id, "created_at": now, "updated_at": now,
            "sides": store.dumps(list(setup.sides)), "players": 2, "first_dealer": 0,
            "rules": store.dumps(setup.rules.to_dict()), "version": count,
            "state": store.dumps(state.snapshot()), "creation_key": None})
        db.conn.executemany(
            "INSERT INTO events (game_id, seq, action, payload, created_at)"
            " VALUES (?, ?, 'event', ?, ?)",
            [(game_id, seq, store.dumps(engine.to_dict(e)), now)
             for seq, e in enumerate(events, 1)])
        summaries.create_sides(db, game_id, setup)
        summaries.rebuild(db, game_id, setup, events, now)
    db.close()
    return game_id


def measure(count: int, repeats: int = 5) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "long.sqlite3")
        game_id = long_game(path, count)
        client = create_app({"DATABASE": path, "SECRET_KEY": "bench-" * 6}).test_client()
        times, sizes, pages = [], [], None
        for _ in range(repeats):
            start = time.perf_counter()
            response = client.get(f"/games/{game_id}/review", headers={"Accept-Language": "fr"})
            times.append(time.perf_counter() - start)
            assert response.status_code == 200, response.status_code
            sizes.append(len(response.data))
            pages = response.get_data(as_text=True).count('class="entry ')
        return {"events": count, "median_ms": ms(median(times)), "max_ms": ms(max(times)),
                "html_bytes": sizes[0], "entries_on_the_page": pages}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=20_000)
    args = parser.parse_args()
    print(json.dumps(measure(args.events), indent=1))


if __name__ == "__main__":
    main()
