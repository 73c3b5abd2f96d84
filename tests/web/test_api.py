"""The JSON API contract (../shared/contract/API.md): shapes, status codes,
the error order 404 > 415 > 413 > 400 > 409, idempotency, versions and undo.
Every refused request answers `{"error": "<sentence>"}` and changes nothing."""

import json
import tempfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper import create_app
from scorekeeper.web import api as api_module

pytestmark = pytest.mark.xdist_group("api")  # its module fixture, built once a run

MAX_BODY = 64 * 1024
CONTRACT_RULE_KEYS = {
    "preset", "target", "ronda", "double_ronda", "tringa", "missa", "tringa_contest", "stop",
    "card_threshold", "card_threshold_3",
}
CONTRACT_STATE_KEYS = {
    "id", "sides", "players", "rules", "scores", "finished", "winner", "hand", "deal", "chain",
    "awaiting_reveal", "version",
}


def assert_error(response, status):
    """A 4xx of the one error shape: a JSON object holding a non-empty sentence."""
    assert response.status_code == status, (response.status_code, response.data[:300])
    assert response.mimetype == "application/json"
    body = response.get_json()
    assert isinstance(body, dict) and set(body) == {"error"}, body
    assert isinstance(body["error"], str) and body["error"].strip(), body


@pytest.fixture
def refused(client, api):
    """refused(game_id, status, send) checks the answer and that the game did not change."""

    def check(game_id, status, send):
        before = api.state(game_id)
        response = send()
        assert_error(response, status)
        assert api.state(game_id) == before
        return response.get_json()["error"]

    return check


@pytest.fixture
def game_id(api):
    return api.new_game()["id"]


def events_path(game_id):
    return f"/api/games/{game_id}/events"


def raw(client, path, data, content_type="application/json", **headers):
    return client.post(path, data=data, content_type=content_type, headers=headers)


# -- the error shape, pinned ----------------------------------------------------------


def test_an_error_is_a_json_object_with_one_sentence_a_person_can_act_on(client):
    response = client.get("/api/games/no-such-game")
    assert response.status_code == 404
    assert response.mimetype == "application/json"
    body = response.get_json()
    assert list(body) == ["error"]
    assert isinstance(body["error"], str) and len(body["error"].split()) >= 3


@pytest.mark.parametrize("method, path", [
    ("get", "/api/games/nope"), ("post", "/api/games/nope/events"),
    ("post", "/api/games/nope/undo"),
])
def test_an_unknown_game_is_404_on_every_endpoint(client, method, path):
    response = getattr(client, method)(path, json={"type": "missa", "side": 0})
    assert_error(response, 404)


def test_a_wrong_method_is_a_json_error_too(client, game_id):
    assert_error(client.put(f"/api/games/{game_id}", json={}), 405)


# -- success shapes ------------------------------------------------------------------------


def test_a_new_game_answers_201_with_the_whole_state(api, client):
    response = client.post("/api/games", json={"sides": ["Nous", "Eux"], "players": 4,
                                                 "rules": {"preset": "appli", "target": 41}})
    assert response.status_code == 201
    state = response.get_json()
    assert CONTRACT_STATE_KEYS <= set(state)
    assert state["sides"] == ["Nous", "Eux"] and state["players"] == 4
    assert state["rules"]["target"] == 41 and state["rules"]["preset"] == "appli"
    assert (state["scores"], state["finished"], state["winner"]) == ([0, 0], False, None)
    assert (state["hand"], state["deal"], state["chain"]) == (1, 1, None)
    assert state["awaiting_reveal"] is False
    assert type(state["version"]) is int


def test_the_state_shows_every_effective_rule_of_the_contract(api):
    rules = api.new_game(rules={"preset": "classique"})["rules"]
    assert CONTRACT_RULE_KEYS <= set(rules)
    assert {k: rules[k] for k in CONTRACT_RULE_KEYS} == {
        "preset": "classique", "target": 41, "ronda": 1, "double_ronda": 2, "tringa": 3,
        "missa": 1, "tringa_contest": "lower", "stop": "immediate", "card_threshold": 20,
        "card_threshold_3": 13,
    }


def test_a_game_id_is_a_short_string_that_is_not_a_counter(api):
    ids = [api.new_game()["id"] for _ in range(5)]
    assert len(set(ids)) == 5
    assert all(isinstance(i, str) and 6 <= len(i) <= 40 and not i.isdigit() for i in ids)


def test_side_names_are_trimmed_and_players_default_to_the_sides(api):
    state = api.new_game(sides=["  Nous ", "Eux", "Vous"])
    assert state["sides"] == ["Nous", "Eux", "Vous"]
    assert state["players"] == 3
    assert state["scores"] == [0, 0, 0]


def test_the_open_chain_is_shown_with_its_holder_and_value(api, game_id):
    api.event(game_id, type="hit", side=1, value=1)
    assert api.event(game_id, type="hit", side=0, value=5).get_json()["chain"] == {
        "side": 0, "value": 5}


def test_the_answer_is_the_games_view_as_json(app, api, client):
    """The answer is written from a cached text of the game's fixed fields
    (web/api.py): it must stay the view, whatever the game and its set-up."""
    from scorekeeper import engine
    from scorekeeper.service import games
    from scorekeeper.web.plumbing.db import get_db

    game_id = api.new_game(sides=["Nous", "Eux"], rules={"target": 11})["id"]
    for event in ({"type": "hit", "side": 0, "value": 1}, {"type": "hit", "side": 1, "value": 5},
                  {"type": "adjust", "side": 0, "points": 20}):
        answered = api.event(game_id, **event)
        with app.app_context():
            assert answered.get_json() == api_module.view(games.load(get_db(), game_id),
                                                     games.rematch_of(get_db(), game_id))
    assert answered.get_json()["finished"]
    # The same id with another set-up (another store, an import) is written anew.
    with app.app_context():
        game = games.load(get_db(), game_id)
    other = games.Game(game.id, 0, engine.new_game(engine.Setup(("Ali", "Omar"), 2)),
                       game.created_at, game.updated_at)
    assert json.loads(api_module.state_json(other)) == api_module.view(other)
    assert json.loads(api_module.state_json(game)) == api_module.view(game)


def test_a_get_answers_the_same_state_as_the_last_post(api, game_id):
    posted = api.event(game_id, type="missa", side=1).get_json()
    assert api.state(game_id) == posted


# -- malformed requests: 400 --------------------------------------------------------------------


@pytest.mark.parametrize("event", [
    {},
    {"type": "slam"},
    {"type": "missa"},
    {"type": "missa", "side": "0"},
    {"type": "missa", "side": 0.0},
    {"type": "missa", "side": True},
    {"type": "missa", "side": 2},
    {"type": "missa", "side": 0, "last_card": "yes"},
    {"type": "missa", "side": 0, "extra": 1},
    {"type": "hit", "side": 0},
    {"type": "hit", "side": 0, "value": 2},
    {"type": "hit", "side": 0, "value": 1.0},
    {"type": "announce"},
    {"type": "announce", "announcements": []},
    {"type": "announce", "announcements": [{"side": 0, "kind": "ronda", "rank": 9}]},
    {"type": "announce", "announcements": [{"side": 0, "kind": "ronda"}, {"side": 0, "kind": "ronda"}]},
    {"type": "announce", "announcements": [{"side": 0}]},
    {"type": "announce", "announcements": [[0, "ronda"]]},
    {"type": "reveal", "ranks": [3]},
    {"type": "end_hand", "cards": [20, 20]},
    {"type": "end_hand", "cards": ["20", None]},
    {"type": "end_hand", "cards": [None, 41]},
    {"type": "adjust", "side": 0, "points": 0},
    {"type": "adjust", "side": 0, "points": "5"},
    {"type": "adjust", "side": 0, "points": 5, "note": "x" * 201},
    {"type": "missa", "side": 0, "expected_version": "0"},
    {"type": "missa", "side": 0, "expected_version": 0.0},
    {"type": "missa", "side": 0, "expected_version": True},
    {"type": "missa", "side": 0, "expected_version": -1},
], ids=lambda e: json.dumps(e)[:60])
def test_a_malformed_event_is_400_and_changes_nothing(client, refused, game_id, event):
    refused(game_id, 400, lambda: client.post(events_path(game_id), json=event))


@pytest.mark.parametrize("body", [
    "", "{", "{'type': 'missa'}", '{"type": "missa", "side": 0,}', "nul",
    '{"type": "adjust", "side": 0, "points": NaN}',
    '{"type": "adjust", "side": 0, "points": Infinity}',
    '{"type": "adjust", "side": 0, "points": -Infinity}',
    '{"type": "adjust", "side": 0, "points": 1e400}',
    '{"type": "adjust", "side": 0, "points": ' + "9" * 5000 + "}",
    "[" * 20000 + "]" * 20000,
    '{"a":' * 5000 + "1" + "}" * 5000,
    "[]", '"missa"', "3", "null", "true",
    '[{"type": "missa", "side": 0}]',
], ids=lambda b: b[:30])
def test_a_body_that_is_not_a_json_object_is_400_and_changes_nothing(client, refused, game_id,
                                                                      body):
    refused(game_id, 400, lambda: raw(client, events_path(game_id), body))


def test_invalid_utf8_is_400(client, refused, game_id):
    refused(game_id, 400, lambda: raw(client, events_path(game_id), b'{"type": "\xff\xfe"}'))


@pytest.mark.parametrize("body", [
    '{"type": "adjust", "side": 0, "points": 1, "note": "\\ud800"}',
    '{"type": "adjust", "side": 0, "points": 1, "note": "a\\udfffb"}',
    '{"type": "missa", "side": 0, "\\ud83d": 1}',
])
def test_a_lone_surrogate_in_an_event_is_400_not_a_server_error(client, refused, game_id, body):
    refused(game_id, 400, lambda: raw(client, events_path(game_id), body))


def test_a_lone_surrogate_in_a_side_name_is_400_not_a_server_error(client):
    response = raw(client, "/api/games", '{"sides": ["\\udc00", "B"]}')
    assert_error(response, 400)


def test_a_surrogate_pair_is_an_ordinary_character(client, api, game_id):
    response = raw(client, events_path(game_id),
                   '{"type": "adjust", "side": 0, "points": 1, "note": "\\ud83c\\udccf"}')
    assert response.status_code == 200
    assert api.state(game_id)["scores"] == [1, 0]


@pytest.mark.parametrize("body", [{"expected_version": "1"}, {"x": 1}, {"type": "missa"}])
def test_an_undo_takes_nothing_but_expected_version(client, api, refused, game_id, body):
    api.event(game_id, type="missa", side=0)
    refused(game_id, 400, lambda: client.post(f"/api/games/{game_id}/undo", json=body))


@pytest.mark.parametrize("body", [
    {}, {"sides": "A,B"}, {"sides": ["A"]}, {"sides": ["A", "a"]}, {"sides": ["A", "B"], "x": 1},
    {"sides": ["A", "B"], "players": 2.0}, {"sides": ["A", "B"], "players": "2"},
    {"sides": ["A", "B"], "players": True}, {"sides": ["A", "B"], "rules": {"target": 102}},
    {"sides": ["A", "B"], "rules": {"target": 10}}, {"sides": ["A", "B"], "rules": {"target": 33.0}},
    {"sides": ["A", "B"], "rules": {"ronda": 21}}, {"sides": ["A", "B"], "rules": {"preset": "x"}},
    {"sides": ["A", "B"], "rules": {"stop": "later"}}, {"sides": ["A", "B"], "rules": "appli"},
    {"sides": ["A", "B"], "expected_version": 0},
], ids=lambda b: json.dumps(b)[:50])
def test_a_malformed_new_game_is_400_and_creates_nothing(client, body):
    assert_error(client.post("/api/games", json=body), 400)


@pytest.mark.parametrize("body", ["[]", "null", "{", '"x"'])
def test_a_new_game_body_that_is_not_a_json_object_is_400(client, body):
    assert_error(raw(client, "/api/games", body), 400)


def test_a_whole_number_is_a_json_integer(client, api, refused, game_id):
    for points in (2.0, "2", True):
        refused(game_id, 400,
                lambda points=points: api.event(game_id, type="adjust", side=0, points=points))
    assert api.event(game_id, type="adjust", side=0, points=2).status_code == 200


def test_an_optional_field_given_as_null_is_absent(api, game_id):
    response = api.event(game_id, type="missa", side=0, last_card=None, expected_version=None)
    assert response.status_code == 200
    assert response.get_json()["scores"] == [1, 0]


# -- content type: 415 -------------------------------------------------------------------------


@pytest.mark.parametrize("content_type", [
    "text/plain", "application/x-www-form-urlencoded", "multipart/form-data", "",
    "application/jsonx", "text/json",
])
def test_a_post_that_is_not_json_is_415(client, refused, game_id, content_type):
    body = '{"type": "missa", "side": 0}'
    refused(game_id, 415, lambda: raw(client, events_path(game_id), body, content_type))


def test_a_new_game_that_is_not_json_is_415(client):
    assert_error(raw(client, "/api/games", '{"sides": ["A", "B"]}', "text/plain"), 415)


def test_an_undo_that_is_not_json_is_415(client, api, refused, game_id):
    api.event(game_id, type="missa", side=0)
    refused(game_id, 415, lambda: raw(client, f"/api/games/{game_id}/undo", "{}", "text/plain"))


def test_json_with_a_charset_is_json(client, game_id):
    response = raw(client, events_path(game_id), '{"type": "missa", "side": 0}',
                   "application/json; charset=utf-8")
    assert response.status_code == 200


# -- size: 413 --------------------------------------------------------------------------------


def padded(body: str, size: int) -> str:
    return body + " " * (size - len(body))


def test_a_body_of_exactly_64_kib_is_taken(client, game_id):
    body = padded('{"type": "missa", "side": 0}', MAX_BODY)
    assert raw(client, events_path(game_id), body).status_code == 200


def test_a_body_over_64_kib_is_413_and_changes_nothing(client, refused, game_id):
    body = padded('{"type": "missa", "side": 0}', MAX_BODY + 1)
    refused(game_id, 413, lambda: raw(client, events_path(game_id), body))


def test_a_huge_body_is_413(client, refused, game_id):
    body = '{"type": "adjust", "side": 0, "points": 1, "note": "' + "x" * 1_000_000 + '"}'
    refused(game_id, 413, lambda: raw(client, events_path(game_id), body))


def test_a_huge_new_game_is_413(client):
    body = '{"sides": ["A", "B"], "pad": "' + "x" * MAX_BODY + '"}'
    assert_error(raw(client, "/api/games", body), 413)


# -- the error order: 404 > 415 > 413 > 400 > 409 ---------------------------------------------

HUGE = '{"type": "slam", "pad": "' + "x" * MAX_BODY + '"}'


def test_404_comes_before_415(client):
    assert_error(raw(client, events_path("nope"), "type=missa", "text/plain"), 404)


def test_404_comes_before_413(client):
    assert_error(raw(client, events_path("nope"), HUGE), 404)


def test_404_comes_before_400(client):
    assert_error(raw(client, events_path("nope"), "{", **{"Idempotency-Key": ""}), 404)
    assert_error(raw(client, "/api/games/nope/undo", '{"x": 1}'), 404)


def test_415_comes_before_413(client, refused, game_id):
    refused(game_id, 415, lambda: raw(client, events_path(game_id), HUGE, "text/plain"))


def test_413_comes_before_400(client, refused, game_id):
    refused(game_id, 413, lambda: raw(client, events_path(game_id), HUGE))
    refused(game_id, 413, lambda: raw(client, events_path(game_id), "{" + " " * MAX_BODY))


def test_400_comes_before_409_in_a_finished_game(client, api, refused, game_id):
    api.event(game_id, type="adjust", side=0, points=33)
    refused(game_id, 400, lambda: api.event(game_id, type="missa", side=5))
    refused(game_id, 409, lambda: api.event(game_id, type="missa", side=0))


def test_400_comes_before_a_stale_version(client, api, refused, game_id):
    api.event(game_id, type="missa", side=0)
    refused(game_id, 400, lambda: api.event(game_id, type="hit", side=0, value=3,
                                            expected_version=0))


def test_a_bad_idempotency_key_is_400_before_a_refusal(client, api, refused, game_id):
    refused(game_id, 400, lambda: client.post(events_path(game_id), json={"type": "chain_end"},
                                              headers={"Idempotency-Key": "x" * 101}))


def test_a_reveal_missing_a_rank_is_400_even_with_a_stale_version(api, refused, game_id):
    api.event(game_id, type="announce", announcements=[{"side": 0, "kind": "ronda"},
                                                        {"side": 1, "kind": "ronda"}])
    refused(game_id, 400, lambda: api.event(game_id, type="reveal", ranks=[3, None],
                                            expected_version=0))


# -- the state refuses: 409 ---------------------------------------------------------------------


@pytest.mark.parametrize("event", [
    {"type": "chain_end"},
    {"type": "hit", "side": 0, "value": 5},
    {"type": "reveal", "ranks": [3, 4]},
    {"type": "announce", "announcements": [{"side": 0, "kind": "double_ronda"}]},
    {"type": "hidden_ronda", "side": 0},
    {"type": "dealer_last_trick", "outcome": "twelve"},
], ids=lambda e: e["type"])
def test_an_event_the_state_refuses_is_409_and_changes_nothing(api, refused, game_id, event):
    refused(game_id, 409, lambda: api.event(game_id, **event))


def test_every_event_is_409_once_the_game_is_over(api, refused, game_id):
    api.event(game_id, type="adjust", side=1, points=40)
    for event in ({"type": "missa", "side": 0}, {"type": "adjust", "side": 0, "points": 1},
                  {"type": "end_hand", "cards": [20, None]}, {"type": "next_deal"}):
        refused(game_id, 409, lambda event=event: api.event(game_id, **event))


def test_nothing_to_undo_is_409(api, refused, game_id):
    refused(game_id, 409, lambda: api.undo(game_id))


# -- expected_version ---------------------------------------------------------------------------


def test_the_current_version_is_accepted(api, game_id):
    version = api.state(game_id)["version"]
    response = api.event(game_id, type="missa", side=0, expected_version=version)
    assert response.status_code == 200


def test_a_stale_version_is_409_and_changes_nothing(api, refused, game_id):
    old = api.state(game_id)["version"]
    api.event(game_id, type="missa", side=0)
    refused(game_id, 409, lambda: api.event(game_id, type="missa", side=1, expected_version=old))
    refused(game_id, 409, lambda: api.undo(game_id, {"expected_version": old}))


def test_a_version_from_the_future_is_409(api, refused, game_id):
    refused(game_id, 409, lambda: api.event(game_id, type="missa", side=0, expected_version=99))


def test_an_undo_with_the_current_version_is_taken(api, game_id):
    state = api.event(game_id, type="missa", side=0).get_json()
    response = api.undo(game_id, {"expected_version": state["version"]})
    assert response.status_code == 200
    assert response.get_json()["scores"] == [0, 0]


# -- Idempotency-Key ------------------------------------------------------------------------------


def keyed(client, game_id, key, event, path="events"):
    return client.post(f"/api/games/{game_id}/{path}", json=event,
                       headers={"Idempotency-Key": key})


def test_a_repeated_key_scores_once_and_answers_the_current_state(client, api, game_id):
    first = keyed(client, game_id, "tap-1", {"type": "missa", "side": 0})
    again = keyed(client, game_id, "tap-1", {"type": "missa", "side": 0})
    assert again.status_code == 200
    assert again.get_json() == first.get_json() == api.state(game_id)
    assert api.state(game_id)["scores"] == [1, 0]


def test_a_repeated_key_answers_the_state_as_it_is_now(client, api, game_id):
    keyed(client, game_id, "k", {"type": "missa", "side": 0})
    api.event(game_id, type="missa", side=1)
    again = keyed(client, game_id, "k", {"type": "missa", "side": 0})
    assert again.status_code == 200
    assert again.get_json()["scores"] == [1, 1]


def test_a_repeated_key_is_checked_before_expected_version(client, api, game_id):
    keyed(client, game_id, "k", {"type": "missa", "side": 0, "expected_version": 0})
    again = keyed(client, game_id, "k", {"type": "missa", "side": 0, "expected_version": 0})
    assert again.status_code == 200
    assert again.get_json()["scores"] == [1, 0]


def test_a_repeated_key_is_not_refused_when_the_event_would_now_be(client, api, game_id):
    keyed(client, game_id, "win", {"type": "adjust", "side": 0, "points": 33})
    again = keyed(client, game_id, "win", {"type": "adjust", "side": 0, "points": 33})
    assert again.status_code == 200
    assert again.get_json()["scores"] == [33, 0]


def test_a_key_is_kept_after_its_event_is_undone(client, api, game_id):
    keyed(client, game_id, "k", {"type": "missa", "side": 0})
    api.undo(game_id)
    again = keyed(client, game_id, "k", {"type": "missa", "side": 0})
    assert again.status_code == 200
    assert again.get_json()["scores"] == [0, 0]


def test_an_undo_uses_its_key_too(client, api, game_id):
    api.event(game_id, type="missa", side=0)
    api.event(game_id, type="missa", side=0)
    keyed(client, game_id, "u", {}, path="undo")
    again = keyed(client, game_id, "u", {}, path="undo")
    assert again.status_code == 200
    assert api.state(game_id)["scores"] == [1, 0]


def test_events_and_undos_share_one_set_of_keys(client, api, game_id):
    keyed(client, game_id, "k", {"type": "missa", "side": 0})
    assert keyed(client, game_id, "k", {}, path="undo").status_code == 200
    assert api.state(game_id)["scores"] == [1, 0]


def test_a_refused_request_does_not_use_up_its_key(client, api, game_id):
    assert keyed(client, game_id, "k", {"type": "chain_end"}).status_code == 409
    assert keyed(client, game_id, "k", {"type": "missa", "side": 0}).status_code == 200
    assert api.state(game_id)["scores"] == [1, 0]


def test_a_key_belongs_to_one_game(client, api, game_id):
    other = api.new_game()["id"]
    keyed(client, game_id, "k", {"type": "missa", "side": 0})
    assert keyed(client, other, "k", {"type": "missa", "side": 0}).status_code == 200
    assert api.state(other)["scores"] == [1, 0]


def test_a_repeated_key_on_a_new_game_answers_200_with_the_first_game(client):
    first = client.post("/api/games", json={"sides": ["A", "B"]}, headers={"Idempotency-Key": "g"})
    again = client.post("/api/games", json={"sides": ["A", "B"]}, headers={"Idempotency-Key": "g"})
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.get_json()["id"] == first.get_json()["id"]


@pytest.mark.parametrize("key", ["", "x" * 101, "é", "tab\there", "nul\x7f"])
def test_a_bad_idempotency_key_is_400_and_changes_nothing(client, refused, game_id, key):
    refused(game_id, 400, lambda: keyed(client, game_id, key, {"type": "missa", "side": 0}))


@pytest.mark.parametrize("key", ["x", "x" * 100, "~ !{}", "550e8400-e29b-41d4-a716-446655440000"])
def test_a_key_of_1_to_100_printable_ascii_characters_is_taken(client, api, game_id, key):
    assert keyed(client, game_id, key, {"type": "missa", "side": 0}).status_code == 200


def test_a_bad_idempotency_key_on_a_new_game_is_400(client):
    response = client.post("/api/games", json={"sides": ["A", "B"]},
                           headers={"Idempotency-Key": "x" * 101})
    assert_error(response, 400)


# -- version and undo ---------------------------------------------------------------------------


def test_the_version_grows_with_every_accepted_event_and_undo(api, game_id):
    versions = [api.state(game_id)["version"]]
    for send in (lambda: api.event(game_id, type="missa", side=0),
                 lambda: api.event(game_id, type="hit", side=1, value=1),
                 lambda: api.undo(game_id), lambda: api.undo(game_id),
                 lambda: api.event(game_id, type="missa", side=1)):
        versions.append(send().get_json()["version"])
    assert versions == sorted(set(versions))


def test_a_refused_request_does_not_change_the_version(api, game_id):
    before = api.state(game_id)["version"]
    api.event(game_id, type="chain_end")
    assert api.state(game_id)["version"] == before


def test_undo_takes_back_the_last_event_whole(api, game_id):
    api.event(game_id, type="hit", side=1, value=1)
    before = api.state(game_id)
    api.event(game_id, type="missa", side=0)  # scores B's chain, then A's missa
    after = api.undo(game_id).get_json()
    assert {k: after[k] for k in ("scores", "chain", "hand", "deal")} == {
        k: before[k] for k in ("scores", "chain", "hand", "deal")}


def test_undo_steps_back_one_event_at_a_time(api, game_id):
    api.event(game_id, type="missa", side=0)
    api.event(game_id, type="missa", side=1)
    assert api.undo(game_id).get_json()["scores"] == [1, 0]
    assert api.undo(game_id).get_json()["scores"] == [0, 0]
    assert api.undo(game_id).status_code == 409


def test_undo_reopens_a_finished_game(api, game_id):
    api.event(game_id, type="adjust", side=0, points=32)
    assert api.event(game_id, type="missa", side=0).get_json()["finished"]
    reopened = api.undo(game_id).get_json()
    assert (reopened["finished"], reopened["winner"], reopened["scores"]) == (False, None, [32, 0])
    assert api.event(game_id, type="missa", side=1).status_code == 200


def test_undo_of_an_end_hand_brings_back_the_hand_and_deal(api, game_id):
    api.event(game_id, type="next_deal")
    api.event(game_id, type="end_hand", cards=[25, None])
    state = api.undo(game_id).get_json()
    assert (state["hand"], state["deal"], state["scores"]) == (1, 2, [0, 0])


def test_undo_brings_back_a_pending_reveal(api, game_id):
    api.event(game_id, type="announce", announcements=[{"side": 0, "kind": "ronda"},
                                                       {"side": 1, "kind": "ronda"}])
    api.event(game_id, type="reveal", ranks=[4, 5])
    state = api.undo(game_id).get_json()
    assert state["awaiting_reveal"] is True and state["scores"] == [0, 0]


def test_an_announcement_can_be_corrected_by_undoing_it(api, game_id):
    api.event(game_id, type="announce", announcements=[{"side": 0, "kind": "ronda"}])
    api.undo(game_id)
    response = api.event(game_id, type="announce", announcements=[{"side": 1, "kind": "tringa"}])
    assert response.get_json()["scores"] == [0, 5]


# -- no input ever produces a 5xx ------------------------------------------------------------------


def test_a_failed_event_still_answers_json_for_every_endpoint(client, game_id):
    for path in (events_path(game_id), f"/api/games/{game_id}/undo", "/api/games"):
        for body in ("{", "[]", '{"x": NaN}'):
            response = raw(client, path, body)
            assert 400 <= response.status_code < 500
            assert_error(response, response.status_code)


TEXT = st.one_of(st.text(max_size=8),
                 st.sampled_from(["\ud800", "a\udfffb", "\U0001f0cf", "\x00", "  "]))
ANY_JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), TEXT),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(TEXT, inner, max_size=4)),
    max_leaves=12,
)
# Each event type with its own fields, mostly well formed, so that odd values
# get past the first check and reach the engine and the store.
SIDE = st.one_of(st.integers(0, 1), ANY_JSON)
VERSION = {"expected_version": st.one_of(st.integers(-1, 3), ANY_JSON)}


def event_like(kind, **fields):
    return st.fixed_dictionaries({"type": st.just(kind), **fields}, optional=VERSION)


EVENT_LIKE = st.one_of(
    event_like("hit", side=SIDE, value=st.one_of(st.sampled_from([1, 5, 10]), ANY_JSON)),
    event_like("missa", side=SIDE, last_card=st.one_of(st.booleans(), ANY_JSON)),
    event_like("adjust", side=SIDE, points=st.one_of(st.integers(-60, 60), ANY_JSON),
               note=st.one_of(TEXT, st.sampled_from(["\ud800", "x\udc00"]))),
    event_like("announce", announcements=st.lists(st.fixed_dictionaries(
        {"side": SIDE, "kind": st.one_of(st.sampled_from(["ronda", "tringa"]), ANY_JSON)},
        optional={"rank": st.one_of(st.integers(0, 13), ANY_JSON)}), max_size=5)),
    event_like("reveal", ranks=st.lists(st.one_of(st.none(), st.integers(0, 13), ANY_JSON),
                                        max_size=3)),
    event_like("end_hand", cards=st.lists(st.one_of(st.none(), st.integers(-1, 41), ANY_JSON),
                                          max_size=3)),
    event_like("next_deal"), event_like("chain_end"),
)
NEW_GAME_LIKE = st.fixed_dictionaries(
    {"sides": st.one_of(st.lists(TEXT, min_size=2, max_size=3), ANY_JSON)},
    optional={"players": st.one_of(st.integers(1, 5), ANY_JSON),
              "rules": st.one_of(st.dictionaries(st.sampled_from(["preset", "target", "stop"]),
                                                 ANY_JSON), ANY_JSON)},
)


@pytest.fixture(scope="module")
def fuzzed_app():
    # Module scope: hypothesis sends many bodies; each test makes its own game.
    with tempfile.TemporaryDirectory() as folder:
        yield create_app({"TESTING": True, "DATABASE": f"{folder}/fuzz.sqlite3"})


@settings(max_examples=150, deadline=None)
@given(body=st.one_of(ANY_JSON, EVENT_LIKE, EVENT_LIKE))
def test_no_event_body_gets_a_server_error(fuzzed_app, body):
    client = fuzzed_app.test_client()
    game_id = client.post("/api/games", json={"sides": ["A", "B"]}).get_json()["id"]
    before = client.get(f"/api/games/{game_id}").get_json()
    data = json.dumps(body)  # NaN and Infinity come out as such: not JSON
    response = raw(client, events_path(game_id), data)
    assert response.status_code in (200, 400, 409), (body, response.get_json())
    if response.status_code != 200:
        assert_error(response, response.status_code)
        assert client.get(f"/api/games/{game_id}").get_json() == before


@settings(max_examples=100, deadline=None)
@given(body=st.one_of(ANY_JSON, NEW_GAME_LIKE, NEW_GAME_LIKE))
def test_no_new_game_body_gets_a_server_error(fuzzed_app, body):
    response = raw(fuzzed_app.test_client(), "/api/games", json.dumps(body))
    assert response.status_code in (201, 400), (body, response.get_json())
    if response.status_code == 400:
        assert_error(response, 400)
