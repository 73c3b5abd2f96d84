"""Games stored when the dealer's last trick was taken on any deal keep
exactly the scores they had.

tests/data/legacy_last_trick.sqlite3 was written by the app of commit b3a63c7
(tests/data/make_legacy_last_trick.py, frozen): its games hold a
`dealer_last_trick` recorded before the hand's last deal, which scored at
once. Today a new one is refused there (the last trick is played on the
hand's last deal: API.md), and the stored ones are read with the meaning
they had: on replay, undo, correction, review, the board and export.
"""

import json
from pathlib import Path

import pytest

from scorekeeper import create_app
from scorekeeper.service import games
from scorekeeper.storage import db
from support.stores import app_on_a_copy

DATA = Path(__file__).parents[1] / "data"
EXPECTED = json.loads((DATA / "legacy_last_trick.expected.json").read_text())
TWO, THREE, WON = EXPECTED["two"], EXPECTED["three"], EXPECTED["won"]


@pytest.fixture
def legacy(tmp_path):
    """(client, path) of today's app on a copy of the old store."""
    return app_on_a_copy(DATA / "legacy_last_trick.sqlite3", tmp_path)


def post(client, path, body):
    return client.post(path, json=body, headers={"Accept-Language": "en"})


def state(client, game_id):
    return client.get(f"/api/games/{game_id}").get_json()


def correct(client, game_id, seq, event):
    return post(client, f"/api/games/{game_id}/corrections", {"seq": seq, "event": event})


def test_the_store_holds_last_tricks_recorded_before_the_last_deal(legacy):
    _, path = legacy
    connection = db.connect(str(path))
    try:
        events = [e for _, e in games.standing_events(connection, TWO["id"])]
        assert events[0] == {"type": "dealer_last_trick", "outcome": "twelve"}
        assert TWO["places"][0][:2] == [1, 1]  # recorded on hand 1, deal 1 of 6
    finally:
        connection.close()


def test_old_games_show_and_replay_to_exactly_the_scores_they_had(legacy):
    client, path = legacy
    connection = db.connect(str(path))
    try:
        for game in (TWO, THREE, WON):
            hand, deal, finished = game["places"][-1]
            shown = state(client, game["id"])
            assert shown["scores"] == game["scores"][-1]
            assert (shown["hand"], shown["deal"], shown["finished"]) == (hand, deal, finished)
            replayed = games.replay_log(connection, game["id"])
            assert list(replayed.scores) == game["scores"][-1]
    finally:
        connection.close()


def test_undo_steps_back_through_them_exactly(legacy):
    client, _ = legacy
    for game in (TWO, THREE, WON):
        for before in reversed([[0] * len(game["scores"][0])] + game["scores"][:-1]):
            response = post(client, f"/api/games/{game['id']}/undo", {})
            assert response.status_code == 200, response.get_json()
            assert response.get_json()["scores"] == before


def test_a_correction_of_another_event_keeps_their_old_meaning(legacy):
    client, _ = legacy
    # Event 3, Ali's Ronda, was Chama's: both last tricks still give 5 to the dealer's opponents.
    response = correct(client, THREE["id"], 3,
                       {"type": "announce", "announcements": [{"side": 2, "kind": "ronda"}]})
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["scores"] == [12, 5, 11]


def test_one_removed_then_put_back_as_it_was_gives_what_it_gave(legacy):
    client, _ = legacy
    assert correct(client, TWO["id"], 1, None).get_json()["scores"] == [1, 1]
    response = correct(client, TWO["id"], 1, {"type": "dealer_last_trick", "outcome": "twelve"})
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["scores"] == TWO["scores"][-1]


def test_one_corrected_is_held_to_todays_rule(legacy):
    client, _ = legacy
    changed = correct(client, TWO["id"], 1, {"type": "dealer_last_trick", "outcome": "missed"})
    assert changed.status_code == 409
    assert "last deal" in changed.get_json()["error"]
    assert state(client, TWO["id"])["scores"] == TWO["scores"][-1]


def test_a_new_one_before_the_last_deal_is_refused_and_changes_nothing(legacy):
    client, _ = legacy
    game_id = THREE["id"]  # hand 2, deal 1 of 4: its last trick is already recorded
    before = state(client, game_id)
    undone = post(client, f"/api/games/{game_id}/undo", {}).get_json()
    assert undone["scores"] == THREE["scores"][-2]
    again = post(client, f"/api/games/{game_id}/events",
                 {"type": "dealer_last_trick", "outcome": "missed"})
    assert again.status_code == 409 and "last deal" in again.get_json()["error"]
    for _ in range(3):
        post(client, f"/api/games/{game_id}/events", {"type": "next_deal"})
    taken = post(client, f"/api/games/{game_id}/events",
                 {"type": "dealer_last_trick", "outcome": "missed"})
    assert taken.get_json()["scores"] == before["scores"]


def test_the_board_and_the_review_show_them(legacy):
    client, _ = legacy
    board = client.get(f"/games/{TWO['id']}", headers={"Accept-Language": "en"})
    assert board.status_code == 200
    review = client.get(f"/games/{TWO['id']}/review", headers={"Accept-Language": "en"})
    assert review.status_code == 200
    assert "Dealer&#39;s last trick with a 12" in review.get_data(as_text=True)


def test_an_export_of_an_old_game_imports_with_the_same_scores(legacy, tmp_path):
    client, _ = legacy
    fresh = create_app({"TESTING": True, "DATABASE": str(tmp_path / "fresh.sqlite3")})
    other = fresh.test_client()
    for game in (TWO, THREE, WON):
        document = client.get(f"/games/{game['id']}/export.json").get_json()
        response = other.post("/api/games/import", json=document)
        assert response.status_code == 200, response.get_json()
        assert state(other, game["id"])["scores"] == game["scores"][-1]
