"""A store made with the first schema upgrades with every game intact: nothing lost.

tests/data/schema_v1.sqlite3 was written once by the first schema (see
tests/data/make_schema_v1.py, frozen) and never changes; the app started on a
copy applies whatever migrations came later.
"""

import dataclasses
import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from sqlite_utils.migrations import Migrations

from scorekeeper import create_app
from scorekeeper.engine import tally
from scorekeeper.engine.names import name_key
from scorekeeper.service import games
from scorekeeper.storage import db, migrations
from scorekeeper.web import api

DATA = Path(__file__).parents[1] / "data"
FIXTURE = DATA / "schema_v1.sqlite3"
EXPECTED = json.loads((DATA / "schema_v1.expected.json").read_text())


@pytest.fixture
def upgraded(tmp_path):
    """(client, path) of an app started on a copy of the first-schema store."""
    path = tmp_path / "store.sqlite3"
    shutil.copyfile(FIXTURE, path)
    with sqlite3.connect(path) as conn:
        applied = [row[0] for row in conn.execute("SELECT name FROM _sqlite_migrations")]
    assert applied == EXPECTED["migrations"]  # the copy really is the first schema
    app = create_app({"TESTING": True, "DATABASE": str(path)})
    return app.test_client(), path


def stored_game_ids(path: Path) -> set[str]:
    with sqlite3.connect(path) as conn:
        return {row[0] for row in conn.execute("SELECT id FROM games")}


def test_the_upgrade_leaves_no_migration_pending(upgraded):
    _, path = upgraded
    store = db.connect(str(path))
    try:
        assert migrations.migrations.pending(store) == []
    finally:
        store.close()


def test_every_game_is_as_it_was_recorded(upgraded):
    client, path = upgraded
    assert stored_game_ids(path) == set(EXPECTED["games"])
    for game_id, recorded in EXPECTED["games"].items():
        state = client.get(f"/api/games/{game_id}").get_json()
        for key, value in recorded.items():
            if key == "rules":  # a later version may add rules, not change these
                assert {k: state["rules"][k] for k in value} == value, game_id
            else:
                assert state[key] == value, (game_id, key)


def test_every_game_is_the_replay_of_its_log(upgraded):
    client, path = upgraded
    store = db.connect(str(path))
    try:
        for game_id in stored_game_ids(path):
            game = games.load(store, game_id)
            replayed = dataclasses.replace(game, state=games.replay_log(store, game_id))
            assert client.get(f"/api/games/{game_id}").get_json() == api.view(replayed)
    finally:
        store.close()


def test_keys_used_before_the_upgrade_still_apply_nothing(upgraded):
    client, _ = upgraded
    for game_id, keys in EXPECTED["used_keys"].items():
        version = EXPECTED["games"][game_id]["version"]
        for key in keys:
            response = client.post(f"/api/games/{game_id}/events", json={"type": "chain_end"},
                                   headers={"Idempotency-Key": key})
            assert response.status_code == 200, (game_id, key, response.get_json())
            assert response.get_json()["version"] == version
    for key, game_id in EXPECTED["creation_keys"].items():
        response = client.post("/api/games", json={"sides": ["X", "Y"]},
                               headers={"Idempotency-Key": key})
        assert response.status_code == 200 and response.get_json()["id"] == game_id


def test_upgraded_games_go_on(upgraded):
    client, path = upgraded
    running = [g for g, s in EXPECTED["games"].items() if not s["finished"]]
    assert running
    for game_id in running:
        before = EXPECTED["games"][game_id]
        response = client.post(f"/api/games/{game_id}/events",
                               json={"type": "adjust", "side": 0, "points": -1})
        assert response.status_code == 200, response.get_json()
        after = response.get_json()
        assert after["version"] == before["version"] + 1
        assert after["scores"][0] == before["scores"][0] - 1
        assert client.post(f"/api/games/{game_id}/undo", json={}).get_json()["scores"] == \
            before["scores"]


def test_every_upgraded_side_is_seated_with_the_player_of_its_name(upgraded):
    """The people's migration: people linked to the stored sides, no game changed."""
    client, path = upgraded
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT g.id, g.sides, s.side, s.seat, p.name FROM games g"
                            " JOIN seats s ON s.game_id = g.id JOIN players p ON p.id = s.player_id"
                            " ORDER BY g.id, s.side").fetchall()
        players = dict(conn.execute("SELECT name_key, count(*) FROM players GROUP BY name_key"))
    seated = {(game_id, side): name for game_id, _, side, _, name in rows}
    for game_id, sides, *_ in rows:
        for side, name in enumerate(json.loads(sides)):
            assert seated[(game_id, side)] == name
    assert len(seated) == sum(len(json.loads(r[1])) for r in {r[0]: r for r in rows}.values())
    assert players["nous"] == 1  # "Nous" of two games is one player


def test_a_first_schema_store_upgrades_after_a_later_version_counts_a_new_gain(tmp_path,
                                                                              monkeypatch):
    """Migrations are frozen code (a step that imported today's code would
    change with it): a later version that counts a new kind of gain
    (tally.COUNTS grows) adds its column in a migration of its own, and a
    store of the first schema still upgrades through every step before it,
    0003's summaries included, to the scores it had."""
    later = Migrations("scorekeeper")
    for step in migrations.migrations._migrations:
        later(name=step.name, transactional=step.transactional)(step.fn)

    @later(name="9999_a_later_gain")
    def a_later_gain(store):
        store["game_sides"].add_column("later_gain", int, not_null_default=0)

    monkeypatch.setattr(tally, "COUNTS", tally.COUNTS + ("later_gain",))
    path = tmp_path / "store.sqlite3"
    shutil.copyfile(FIXTURE, path)
    store = db.connect(str(path))
    try:
        later.apply(store)
        assert later.pending(store) == []
        for game_id, recorded in EXPECTED["games"].items():
            rows = store.execute("SELECT score, later_gain FROM game_sides WHERE game_id = ?"
                                 " ORDER BY side", [game_id]).fetchall()
            assert [score for score, _ in rows] == recorded["scores"], game_id
            assert {later_gain for _, later_gain in rows} == {0}
    finally:
        store.close()


def test_every_migration_after_the_presets_is_numbered_in_order():
    names = [step.name for step in migrations.migrations._migrations]
    # table_presets went out unnumbered; a store knows a step by its name, so it stays.
    later = names[names.index("table_presets") + 1:]
    numbers = [int(name[:4]) for name in later if name[:4].isdigit() and name[4] == "_"]
    assert len(numbers) == len(later) and numbers == sorted(set(numbers)), later
    assert numbers[0] == 3


def test_the_sides_name_keys_become_the_one_name_key(tmp_path):
    """Before one key was the rule, a side's key was only trimmed and
    casefolded: migration 0008 gives every stored side the key the roster
    and the filters use (engine/names.py), so its one-space spelling finds it."""
    path = tmp_path / "before.sqlite3"
    store = db.connect(str(path))
    migrations.migrations.apply(store, stop_before="0008_snapshots_and_one_name_key")
    with store.conn:
        store.execute("INSERT INTO games (id, created_at, updated_at, sides, players, rules,"
                      " version, state) VALUES ('g1', 't', 't', '[]', 2, '{}', 0, '{}')")
        store.execute("INSERT INTO game_sides (game_id, side, name, name_key, score, won,"
                      " margin, counted) VALUES ('g1', 0, 'Karim  Benali', 'karim  benali',"
                      " 0, 0, 0, 0)")
    migrations.migrate(store)
    key = store.execute("SELECT name_key FROM game_sides WHERE game_id = 'g1'").fetchone()[0]
    store.close()
    assert key == name_key("Karim Benali") == "karim benali"


def test_records_stored_before_the_phones_step_are_one_unknown_device(upgraded):
    """Each record knows its phone from the taps_know_their_phone step on;
    those stored before know none (one unknown device), placed nowhere, and a
    board's tap on an upgraded game is merged with them by the rule."""
    client, path = upgraded
    with sqlite3.connect(path) as conn:
        old = conn.execute("SELECT count(*), count(device), count(seen), count(place)"
                           " FROM events").fetchone()
    assert old[0] > 0 and old[1:] == (0, 0, 0)
    game_id = next(g for g, s in EXPECTED["games"].items() if not s["finished"])
    version = EXPECTED["games"][game_id]["version"]
    tapped = client.post(f"/api/games/{game_id}/events",
                         json={"type": "adjust", "side": 0, "points": 1,
                               "expected_version": version, "device": "phone-a"},
                         headers={"Idempotency-Key": "after-the-upgrade"})
    assert tapped.status_code == 200, tapped.get_json()
    with sqlite3.connect(path) as conn:
        device, seen = conn.execute("SELECT device, seen FROM events WHERE game_id = ?"
                                    " ORDER BY seq DESC LIMIT 1", [game_id]).fetchone()
    assert (device, seen) == ("phone-a", version)
