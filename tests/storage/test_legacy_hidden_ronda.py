"""Games stored before a hidden Ronda's penalty had a receiver keep exactly
the scores they had: a new rule never rewrites an old game.

tests/data/legacy_hidden_ronda.sqlite3 was written by the app of commit
03e48bb (tests/data/make_legacy_hidden_ronda.py, frozen): with three sides its
`hidden_ronda` events carry no `to` and gave the penalty to each opponent.
Today a new one must name its receiver (API.md), and the stored ones are
read with the meaning they had: on replay, undo, correction, review, export.
"""

import json
from pathlib import Path

import pytest

from scorekeeper import create_app
from scorekeeper.service import games
from scorekeeper.storage import db
from support.stores import app_on_a_copy

DATA = Path(__file__).parents[1] / "data"
EXPECTED = json.loads((DATA / "legacy_hidden_ronda.expected.json").read_text())
THREE, TWO = EXPECTED["three"], EXPECTED["two"]


@pytest.fixture
def legacy(tmp_path):
    """(client, path) of today's app on a copy of the old store."""
    return app_on_a_copy(DATA / "legacy_hidden_ronda.sqlite3", tmp_path)


def post(client, path, body, **kwargs):
    return client.post(path, json=body, **kwargs)


def scores(client, game_id):
    return client.get(f"/api/games/{game_id}").get_json()["scores"]


def correct(client, game_id, seq, event):
    return post(client, f"/api/games/{game_id}/corrections", {"seq": seq, "event": event},
                headers={"Accept-Language": "en"})


def test_the_stored_events_are_as_the_old_app_wrote_them(legacy):
    _, path = legacy
    connection = db.connect(str(path))
    try:
        for game in (THREE, TWO):
            assert [e for _, e in games.standing_events(connection, game["id"])] == [
                {**e, "last_card": False} if e["type"] == "missa" else
                {**e, "note": ""} if e["type"] == "adjust" else
                {"type": "announce", "announcements": [{**a, "rank": None} for a in
                                                       e["announcements"]]}
                if e["type"] == "announce" else e
                for e in game["events"]]
    finally:
        connection.close()


def test_old_games_show_and_replay_to_exactly_the_scores_they_had(legacy):
    client, path = legacy
    connection = db.connect(str(path))
    try:
        for game in (THREE, TWO):
            assert scores(client, game["id"]) == game["scores"][-1]
            assert list(games.replay_log(connection, game["id"]).scores) == game["scores"][-1]
    finally:
        connection.close()


def test_undo_steps_back_through_them_exactly(legacy):
    client, _ = legacy
    for game in (THREE, TWO):
        for before in reversed([[0] * len(game["scores"][0])] + game["scores"][:-1]):
            response = post(client, f"/api/games/{game['id']}/undo", {})
            assert response.status_code == 200, response.get_json()
            assert response.get_json()["scores"] == before


def test_a_correction_of_another_event_keeps_their_old_meaning(legacy):
    client, _ = legacy
    # Event 3, Chama's 1, was Badr's: the two hidden Rondas still give 5 to each opponent.
    response = correct(client, THREE["id"], 3, {"type": "hit", "side": 1, "value": 1})
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["scores"] == [7, 8, 10]


def test_one_removed_then_put_back_as_it_was_gives_what_it_gave(legacy):
    client, _ = legacy
    assert correct(client, THREE["id"], 2, None).get_json()["scores"] == [2, 7, 6]
    response = correct(client, THREE["id"], 2, {"type": "hidden_ronda", "side": 1})
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["scores"] == THREE["scores"][-1]


def test_one_corrected_must_now_name_its_receiver(legacy):
    client, _ = legacy
    game_id = THREE["id"]
    same = correct(client, game_id, 2, {"type": "hidden_ronda", "side": 1})
    assert same.status_code == 409  # as it stands: a change of nothing
    unnamed = correct(client, game_id, 2, {"type": "hidden_ronda", "side": 2})
    assert unnamed.status_code == 400 and "to" in unnamed.get_json()["error"]
    assert scores(client, game_id) == THREE["scores"][-1]
    # Chama hid it, Ali holds the biggest Ronda: 5 to Ali alone.
    named = correct(client, game_id, 2, {"type": "hidden_ronda", "side": 2, "to": 0})
    assert named.get_json()["scores"] == [7, 7, 6]


def test_a_new_one_without_its_receiver_is_refused_and_changes_nothing(legacy):
    client, _ = legacy
    game_id = THREE["id"]
    before = client.get(f"/api/games/{game_id}").get_json()
    response = post(client, f"/api/games/{game_id}/events", {"type": "hidden_ronda", "side": 1})
    assert response.status_code == 400 and response.get_json()["error"]
    assert client.get(f"/api/games/{game_id}").get_json() == before
    named = post(client, f"/api/games/{game_id}/events",
                 {"type": "hidden_ronda", "side": 1, "to": 2})
    assert named.get_json()["scores"] == [7, 7, 16]


def test_with_two_sides_the_old_form_and_the_new_one_mean_the_same(legacy):
    client, _ = legacy
    game_id = TWO["id"]
    unnamed = post(client, f"/api/games/{game_id}/events", {"type": "hidden_ronda", "side": 1})
    assert unnamed.get_json()["scores"] == [11, 5]
    named = post(client, f"/api/games/{game_id}/events",
                 {"type": "hidden_ronda", "side": 1, "to": 0})
    assert named.get_json()["scores"] == [16, 5]


def test_the_review_says_the_penalty_went_to_each_opponent(legacy):
    client, _ = legacy
    page = client.get(f"/games/{THREE['id']}/review", headers={"Accept-Language": "en"})
    assert "Hidden Ronda found out · <bdi>Badr</bdi> (penalty to each opponent)" in page.get_data(
        as_text=True)


def test_an_export_of_an_old_game_imports_with_the_same_scores(legacy, tmp_path):
    client, _ = legacy
    document = client.get(f"/games/{THREE['id']}/export.json").get_json()
    fresh = create_app({"TESTING": True, "DATABASE": str(tmp_path / "fresh.sqlite3")})
    other = fresh.test_client()
    response = other.post("/api/games/import", json=document)
    assert response.status_code == 200, response.get_json()
    assert scores(other, THREE["id"]) == THREE["scores"][-1]
