"""An import is checked as strictly as the app's own writes: its times are
times every page can show, the creation keys the app makes for itself (a
rematch's) are the app's, and a tournament's matches are read again from
their games. And every page that shows a time survives any stored time."""

import json
import random
import sqlite3

import pytest

from scorekeeper import create_app, engine
from scorekeeper.service import games, night_transfer, nights, tournaments, transfer
from scorekeeper.storage.db import connect

NOW = "2026-12-04T20:00:00+00:00"
FAR = ["9999-12-31T23:59:59-14:00", "0001-01-01T00:00:00+14:00",
       "9999-12-31T23:59:59+00:00", "0001-01-01T00:00:00+00:00"]


@pytest.fixture
def store(app):
    connection = connect(app.config["DATABASE"])
    yield connection
    connection.close()


def finish(store, game_id, side):
    games.record(store, game_id, {"type": "adjust", "side": side, "points": 40}, None, NOW)


def exported(store) -> dict:
    return transfer.document(transfer.export_all(store), NOW, night_transfer.export_nights(store))


def fresh_client(tmp_path, name="fresh"):
    path = tmp_path / f"{name}.sqlite3"
    return create_app({"TESTING": True, "DATABASE": str(path)}).test_client(), path


def count(path, table) -> int:
    with sqlite3.connect(path) as conn:
        return conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]


# -- times ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("field", ["created_at", "updated_at", "deleted_at", "log"])
@pytest.mark.parametrize("value", FAR)
def test_a_time_no_page_can_show_is_refused_with_its_field_named(store, client, tmp_path,
                                                                  field, value):
    game, _ = games.create(store, {"sides": ["Samira", "Youssef"]}, None, NOW)
    finish(store, game.id, 0)
    document = exported(store)
    (found,) = document["games"]
    if field == "log":
        found["log"][0]["created_at"] = value
    else:
        found[field] = value
    other, path = fresh_client(tmp_path)
    refused = other.post("/api/games/import", json=document, headers={"Accept-Language": "en"})
    assert refused.status_code == 400
    error = refused.get_json()["error"]
    assert "created_at" in error or field in error
    assert "1970" in error and "9998" in error
    assert count(path, "games") == 0


def far_game(store, client, value) -> str:
    """A game stored with a far time (an older import let it in): every time of its rows."""
    game, _ = games.create(store, {"sides": ["Samira", "Youssef"]}, None, NOW)
    finish(store, game.id, 0)
    store.execute("UPDATE games SET created_at = ?, updated_at = ? WHERE id = ?",
                  [value, value, game.id])
    store.execute("UPDATE events SET created_at = ? WHERE game_id = ?", [value, game.id])
    store.conn.commit()
    return game.id


@pytest.mark.parametrize("value", FAR)
def test_every_page_that_shows_a_time_survives_any_stored_time(store, client, value,
                                                               monkeypatch):
    monkeypatch.setenv("TZ", "Africa/Casablanca")
    import time
    time.tzset()
    try:
        game_id = far_game(store, client, value)
        for path in ("/games", "/games?bin=1", f"/games/{game_id}/review",
                     f"/games/{game_id}/delete", f"/games/{game_id}", "/players", "/stats",
                     "/phones", "/"):
            assert client.get(path).status_code in (200, 303), path
        deleted = client.get(f"/games/{game_id}/delete").get_data(as_text=True)
        assert "Samira" in deleted
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()


# -- creation keys -------------------------------------------------------------------------------

def test_an_import_cannot_plant_the_rematch_of_a_game_the_table_is_playing(store, client):
    running, _ = games.create(store, {"sides": ["Karim", "Ali"]}, None, NOW)
    games.record(store, running.id, {"type": "missa", "side": 0}, None, NOW)
    guest, _ = games.create(store, {"sides": ["Karim", "Ali"]}, None, NOW)
    finish(store, guest.id, 1)
    document = transfer.document([transfer.export_game(store, guest.id)], NOW)
    planted = document["games"][0]
    planted["id"] = "plantedgame1"
    planted["creation_key"] = games.rematch_key(running.id)
    refused = client.post("/api/games/import", json=document, headers={"Accept-Language": "en"})
    assert refused.status_code == 409, refused.get_json()
    assert "rematch" in refused.get_json()["error"]
    assert games.rematch_of(store, running.id) is None
    # Nor through the API's own Idempotency-Key.
    made = client.post("/api/games", json={"sides": ["A", "B"]},
                       headers={"Idempotency-Key": games.rematch_key(running.id)})
    assert made.status_code == 400 and games.rematch_of(store, running.id) is None


def test_a_rematch_key_must_name_a_finished_game_of_the_same_document(store, tmp_path):
    first, _ = games.create(store, {"sides": ["Karim", "Ali"]}, None, NOW)
    finish(store, first.id, 0)
    rematch, _ = games.rematch(store, first.id, NOW)
    document = exported(store)
    document["games"].sort(key=lambda g: g["creation_key"] is not None)  # the first game first
    assert document["games"][1]["creation_key"] == games.rematch_key(first.id)
    other, _ = fresh_client(tmp_path)
    assert other.post("/api/games/import", json=document).status_code == 200  # the honest one
    # The "rematch" of a game that is not over: refused.
    running = json.loads(json.dumps(document))
    running["games"][0].update(log=[], version=0, result={
        "scores": [0, 0], "finished": False, "winner": None, "hand": 1, "deal": 1})
    # A game that is no rematch of it (another first dealer than the rematch's): refused.
    dealer = json.loads(json.dumps(document))
    dealer["games"][1]["first_dealer"] = 1 - document["games"][1]["first_dealer"]
    for broken, name in ((running, "running"), (dealer, "dealer")):
        client, path = fresh_client(tmp_path, name)
        refused = client.post("/api/games/import", json=broken,
                              headers={"Accept-Language": "en"})
        assert refused.status_code == 400, (name, refused.get_json())
        assert "rematch" in refused.get_json()["error"], refused.get_json()
        assert count(path, "games") == 0


# -- a tournament read again from its games ----------------------------------------------------

def knockout(store, entrants, match_games=1):
    data = {"name": "Tournoi", "date": "2026-12-04", "preset": "appli", "players": 2,
            "format": "knockout", "entrants": [[n] for n in entrants],
            "match_games": match_games}
    return nights.create(store, data, NOW, engine.BUILT_IN_PRESETS, draw=random.Random(4))


def play(store, night, round_, slot, winner):
    game = tournaments.start_match(store, night, round_, slot, f"k{random.random()}", NOW,
                                   engine.BUILT_IN_PRESETS)
    finish(store, game.id, list(game.setup.sides).index(winner))
    return game


def refused_import(tmp_path, document) -> str:
    other, path = fresh_client(tmp_path)
    response = other.post("/api/games/import", json=document, headers={"Accept-Language": "en"})
    assert response.status_code == 400, response.get_json()
    assert count(path, "nights") == 0 and count(path, "games") == 0
    return response.get_json()["error"]


def test_a_match_whose_entrants_are_not_its_games_sides_is_refused(store, tmp_path):
    night = knockout(store, ["Ali", "Driss", "Karim", "Omar"])
    game = play(store, night, 1, 1, night.entrants[0][0])
    document = exported(store)
    (match,) = document["nights"][0]["tournament"]["matches"]
    # A game Ali won counted as his opponent's: the entrants swapped.
    swapped = json.loads(json.dumps(document))
    swapped["nights"][0]["tournament"]["matches"][0]["entrants"] = match["entrants"][::-1]
    assert "entrants" in refused_import(tmp_path, swapped)
    # Strangers' game deciding the slot: the match names two other entrants.
    strangers = json.loads(json.dumps(document))
    others = [e for e in range(4) if e not in match["entrants"]]
    strangers["nights"][0]["tournament"]["matches"][0]["entrants"] = others
    assert game.id in refused_import(tmp_path, strangers)


def test_a_best_of_three_holding_five_games_is_refused(store, tmp_path):
    night = knockout(store, ["Ali", "Driss"], match_games=3)
    first = play(store, night, 1, 1, "Ali")
    document = exported(store)
    table = document["nights"][0]["tables"][0]
    (match,) = document["nights"][0]["tournament"]["matches"]
    original = next(g for g in document["games"] if g["id"] == first.id)
    for number in range(2, 6):  # four more copies of the first game, each its own table
        copy = dict(json.loads(json.dumps(original)), id=f"copiedgame{number}", creation_key=None)
        document["games"].append(copy)
        document["nights"][0]["tables"].append(dict(table, game=copy["id"], number=number))
        document["nights"][0]["tournament"]["matches"].append(dict(match, game=copy["id"]))
    error = refused_import(tmp_path, document)
    assert "best of 3" in error and "copiedgame4" in error
    # Three games are what a best of three may hold.
    del document["games"][-2:], document["nights"][0]["tables"][-2:]
    del document["nights"][0]["tournament"]["matches"][-2:]
    other, _ = fresh_client(tmp_path, "three")
    assert other.post("/api/games/import", json=document).status_code == 200
