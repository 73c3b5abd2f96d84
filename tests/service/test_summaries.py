"""The per-game summaries (games' summary columns, game_sides) are kept at
write time: whatever path a game took (taps, undos, corrections), they equal
what a replay of its standing events gives; the migration fills them for
games stored before it; a tap does not replay the game."""

import json
import random
import shutil
import sqlite3
from pathlib import Path

import pytest

from scorekeeper import create_app, engine
from scorekeeper.engine import tally
from scorekeeper.service import games
from scorekeeper.storage import store
from scorekeeper.storage.db import connect
from scorekeeper.testing.sample_history import _candidates
from support.summaries import replayed_summary, stored_summary

DATA = Path(__file__).parents[1] / "data"


def test_a_new_game_has_one_row_per_side_with_nothing_scored(api, db):
    game_id = api.new_game(sides=["Ali", "Karim", "Omar"], players=3)["id"]
    assert stored_summary(db, game_id) == replayed_summary(db, game_id)
    _, sides = stored_summary(db, game_id)
    assert [s[:2] for s in sides] == [("Ali", "ali"), ("Karim", "karim"), ("Omar", "omar")]


def test_gains_are_counted_by_kind_and_by_hit_step(api, db):
    game_id = api.new_game(sides=["Nous", "Eux"])["id"]
    for event in [
        {"type": "announce", "announcements": [{"side": 0, "kind": "tringa"}]},
        {"type": "hit", "side": 0, "value": 1},
        {"type": "hit", "side": 1, "value": 5},
        {"type": "missa", "side": 1},  # the chain's last hit clears the table: 6, a Khamsa and a Missa
        {"type": "hit", "side": 0, "value": 1},
        {"type": "hit", "side": 1, "value": 5},
        {"type": "hit", "side": 0, "value": 10},
        {"type": "missa", "side": 1},
        {"type": "adjust", "side": 1, "points": -2},
    ]:
        assert api.event(game_id, **event).status_code == 200
    _, (nous, eux) = stored_summary(db, game_id)
    count = dict(zip(tally.COUNTS, nous[6:]))
    assert (count["tringa"], count["aachra"], count["missa"], count["bount"]) == (1, 1, 0, 0)
    count = dict(zip(tally.COUNTS, eux[6:]))
    assert (count["khamsa"], count["missa"], count["adjust"], count["ronda"]) == (1, 2, 1, 0)
    assert (nous[2], eux[2]) == (15, 5) and (nous[4], eux[4]) == (10, -10)


def test_a_finished_game_records_its_winner_margin_and_counts_in_the_statistics(api, db):
    game_id = api.new_game(sides=["Nous", "Eux"])["id"]
    api.event(game_id, type="adjust", side=1, points=20)
    api.event(game_id, type="adjust", side=1, points=14)
    head, (nous, eux) = stored_summary(db, game_id)
    assert head[:3] == (1, 1, 1)
    assert (nous[3], nous[4], nous[5]) == (0, -34, 1) and (eux[3], eux[4], eux[5]) == (1, 34, 1)
    api.undo(game_id)
    head, (nous, eux) = stored_summary(db, game_id)
    assert head[:2] == (0, None) and (eux[3], eux[5]) == (0, 0)
    assert stored_summary(db, game_id) == replayed_summary(db, game_id)


def random_body(rng, state_json, setup, standing):
    """A random request of a scorer: mostly events, sometimes an undo or a correction."""
    roll = rng.random()
    if roll < 0.08:
        return "undo", {}
    if roll < 0.16 and standing:
        seq, event = rng.choice(standing)
        if rng.random() < 0.3:
            return "corrections", {"seq": seq, "event": None}
        changed = dict(event)
        if "side" in changed:
            changed["side"] = rng.randrange(setup.side_count)
        return "corrections", {"seq": seq, "event": changed}
    state = engine.State.from_snapshot(state_json, setup)
    return "events", rng.choice(_candidates(state, rng))


@pytest.mark.parametrize("seed", range(12))
def test_summaries_equal_a_replay_whatever_the_game_went_through(api, db, seed):
    rng = random.Random(seed)
    players = (2, 3, 4)[seed % 3]
    names = ["Nous", "Eux", "Vous"][: 3 if players == 3 else 2]
    game_id = api.new_game(sides=names, players=players,
                           rules={"preset": ("appli", "classique")[seed % 2]})["id"]
    accepted = 0
    for _ in range(160):
        game = games.load(db, game_id)
        kind, body = random_body(rng, game.state.snapshot(), game.setup,
                                 games.standing_events(db, game_id))
        response = api.post(f"/api/games/{game_id}/{kind}", body)
        assert response.status_code in (200, 400, 409), response.get_json()
        accepted += response.status_code == 200
        assert stored_summary(db, game_id) == replayed_summary(db, game_id), (kind, body)
    assert accepted > 40


def test_a_tap_reads_no_log_and_replays_nothing(api, db, monkeypatch):
    """A tap costs the same on a long game: no replay, no read of the log."""
    game_id = api.new_game(sides=["Nous", "Eux"])["id"]
    for _ in range(30):
        api.event(game_id, type="hit", side=0, value=1)
    calls = []
    monkeypatch.setattr(engine, "replay", lambda *a, **k: calls.append("replay"))
    monkeypatch.setattr(tally, "replay_counts", lambda *a, **k: calls.append("replay_counts"))
    monkeypatch.setattr(store, "standing_records", lambda *a, **k: calls.append("log"))
    assert api.event(game_id, type="missa", side=1).status_code == 200
    assert calls == []
    _, (nous, eux) = stored_summary(db, game_id)
    assert (nous[2], eux[2]) == (30, 1)  # the open chain's 1 for Nous, then the missa


def test_the_migration_fills_the_summaries_of_games_stored_before_it(tmp_path):
    path = tmp_path / "store.sqlite3"
    shutil.copyfile(DATA / "schema_v1.sqlite3", path)
    with sqlite3.connect(path) as conn:
        ids = [row[0] for row in conn.execute("SELECT id FROM games")]
    assert ids
    create_app({"TESTING": True, "DATABASE": str(path)})
    db = connect(str(path))
    try:
        for game_id in ids:
            stored = stored_summary(db, game_id)
            assert stored == replayed_summary(db, game_id)
            assert len(stored[1]) == len(json.loads(
                db.execute("SELECT sides FROM games WHERE id = ?", [game_id]).fetchone()[0]))
    finally:
        db.close()
