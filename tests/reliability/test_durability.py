"""What is stored stays: a game reads back identical from a new app instance,
and a write that fails half-way leaves neither the log nor the snapshot changed."""

import sqlite3

import pytest

from scorekeeper import create_app
from scorekeeper.engine import BUILT_IN_PRESETS, HouseRules
from scorekeeper.service import games
from scorekeeper.storage import store
from scorekeeper.storage.db import connect

EVENTS = [
    {"type": "announce", "announcements": [{"side": 0, "kind": "ronda"},
                                           {"side": 1, "kind": "ronda"}]},
    {"type": "hit", "side": 0, "value": 1},
    {"type": "reveal", "ranks": [3, 7]},
    {"type": "hit", "side": 1, "value": 5},
    {"type": "next_deal"},
    {"type": "missa", "side": 0},
    {"type": "adjust", "side": 1, "points": -2, "note": "miscount, fixed at the table"},
    {"type": "end_hand", "cards": [None, 24]},
]


def new_app(path):
    return create_app({"TESTING": True, "DATABASE": str(path)})


def post(client, path, body, key=None):
    headers = {} if key is None else {"Idempotency-Key": key}
    return client.post(path, json=body, headers=headers)


def a_played_game(client) -> str:
    game_id = client.post("/api/games", json={"sides": ["Nous", "Eux"], "players": 4,
                                               "rules": {"target": 41}}).get_json()["id"]
    for number, event in enumerate(EVENTS):
        response = post(client, f"/api/games/{game_id}/events", event, key=f"e{number}")
        assert response.status_code == 200, response.get_json()
    post(client, f"/api/games/{game_id}/undo", {}, key="u1")
    return game_id


def stored_log(path, game_id):
    db = connect(str(path))
    try:
        return list(store.log(db, game_id))
    finally:
        db.close()


def replayed_and_stored(path, game_id):
    db = connect(str(path))
    try:
        return games.replay_log(db, game_id), games.load(db, game_id).state
    finally:
        db.close()


# -- a second instance on the same file -----------------------------------------------------


def test_a_game_reads_back_identical_from_a_new_app_instance(tmp_path):
    path = tmp_path / "store.sqlite3"
    first = new_app(path).test_client()
    game_id = a_played_game(first)
    seen = first.get(f"/api/games/{game_id}").get_json()

    second = new_app(path).test_client()
    assert second.get(f"/api/games/{game_id}").get_json() == seen


def test_the_log_reads_back_identical_from_a_new_app_instance(tmp_path):
    path = tmp_path / "store.sqlite3"
    game_id = a_played_game(new_app(path).test_client())
    log = stored_log(path, game_id)
    new_app(path)  # start-up migrations must not touch what is stored
    assert stored_log(path, game_id) == log
    assert [r["action"] for r in log] == ["event"] * len(EVENTS) + ["undo"]
    assert log[-2]["undone_by"] == log[-1]["seq"]


def test_the_stored_snapshot_is_the_replay_of_the_stored_log(tmp_path):
    path = tmp_path / "store.sqlite3"
    game_id = a_played_game(new_app(path).test_client())
    replayed, stored = replayed_and_stored(path, game_id)
    assert replayed == stored


def test_a_new_instance_goes_on_where_the_first_stopped(tmp_path):
    path = tmp_path / "store.sqlite3"
    game_id = a_played_game(new_app(path).test_client())
    second = new_app(path).test_client()
    before = second.get(f"/api/games/{game_id}").get_json()

    # Keys are kept for the game's whole life, across restarts.
    again = post(second, f"/api/games/{game_id}/events", EVENTS[0], key="e0")
    assert again.get_json() == before
    # Undo reaches back to an event the first instance stored.
    undone = post(second, f"/api/games/{game_id}/undo", {}).get_json()
    assert undone["version"] > before["version"]
    assert undone["scores"] == [1, 7]  # the -2 adjust is taken back
    assert undone["deal"] == 2


def test_a_repeated_new_game_key_finds_the_game_after_a_restart(tmp_path):
    path = tmp_path / "store.sqlite3"
    first = post(new_app(path).test_client(), "/api/games", {"sides": ["A", "B"]}, key="g1")
    again = post(new_app(path).test_client(), "/api/games", {"sides": ["A", "B"]}, key="g1")
    assert again.status_code == 200
    assert again.get_json()["id"] == first.get_json()["id"]


def test_a_game_keeps_the_rules_it_was_started_with(tmp_path, monkeypatch):
    path = tmp_path / "store.sqlite3"
    client = new_app(path).test_client()
    game_id = client.post("/api/games", json={"sides": ["A", "B"]}).get_json()["id"]
    # The settings change later: the default preset now plays to 21.
    monkeypatch.setitem(BUILT_IN_PRESETS, "appli", HouseRules(target=21))
    state = new_app(path).test_client().get(f"/api/games/{game_id}").get_json()
    assert state["rules"]["target"] == 33
    response = post(client, f"/api/games/{game_id}/events",
                    {"type": "adjust", "side": 0, "points": 21})
    assert response.get_json()["finished"] is False


# -- a write that fails half-way ------------------------------------------------------------------


def fail(*args, **kwargs):
    raise sqlite3.OperationalError("disk I/O error")


def boom(*args, **kwargs):
    raise RuntimeError("the store broke")


@pytest.mark.parametrize("failure, status", [(fail, 503), (boom, 500)])
def test_a_failed_event_write_leaves_nothing_half_written(tmp_path, monkeypatch, failure,
                                                          status):
    path = tmp_path / "store.sqlite3"
    client = new_app(path).test_client()
    game_id = a_played_game(client)
    before = client.get(f"/api/games/{game_id}").get_json()
    log = stored_log(path, game_id)

    # The log record is inserted, then the snapshot update fails.
    appended = []
    real_append = store.append

    def append(*args):
        real_append(*args)
        appended.append(args)

    monkeypatch.setattr(store, "append", append)
    monkeypatch.setattr(store, "save_state", failure)
    response = post(client, f"/api/games/{game_id}/events", {"type": "missa", "side": 0},
                    key="retry-me")
    assert response.status_code == status
    assert len(appended) == 1
    assert response.get_json()["error"].strip()
    monkeypatch.undo()

    assert client.get(f"/api/games/{game_id}").get_json() == before
    assert stored_log(path, game_id) == log
    replayed, stored = replayed_and_stored(path, game_id)
    assert replayed == stored

    # Nothing was kept, the key included: the retry is applied once.
    retried = post(client, f"/api/games/{game_id}/events", {"type": "missa", "side": 0},
                   key="retry-me").get_json()
    assert retried["scores"][0] == before["scores"][0] + 1
    assert retried["version"] == before["version"] + 1


def test_a_failed_undo_write_leaves_the_event_standing(tmp_path, monkeypatch):
    path = tmp_path / "store.sqlite3"
    client = new_app(path).test_client()
    game_id = a_played_game(client)
    before = client.get(f"/api/games/{game_id}").get_json()
    log = stored_log(path, game_id)

    # The undo record is inserted and the event marked, then the snapshot fails.
    monkeypatch.setattr(store, "save_state", fail)
    assert post(client, f"/api/games/{game_id}/undo", {}).status_code == 503
    monkeypatch.undo()

    assert client.get(f"/api/games/{game_id}").get_json() == before
    assert stored_log(path, game_id) == log


def test_a_failed_new_game_write_creates_nothing(tmp_path, monkeypatch):
    path = tmp_path / "store.sqlite3"
    client = new_app(path).test_client()

    real_insert = store.insert_game

    def insert_then_fail(db, row):
        real_insert(db, row)
        fail()

    monkeypatch.setattr(store, "insert_game", insert_then_fail)
    response = post(client, "/api/games", {"sides": ["A", "B"]}, key="g")
    assert response.status_code == 503
    monkeypatch.undo()

    db = connect(str(path))
    try:
        assert db.execute("SELECT count(*) FROM games").fetchone()[0] == 0
    finally:
        db.close()
    assert post(client, "/api/games", {"sides": ["A", "B"]}, key="g").status_code == 201
