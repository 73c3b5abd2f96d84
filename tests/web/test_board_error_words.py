"""A board's refusals speak the page's words, not the API's field names
(a table read "points doit être un entier…" after a correction of 0)."""

import re

import pytest

from support.page_forms import find_button, press, submit
from support.pages import start_game
from support.pages import words as _words


def test_a_correction_of_zero_points_is_refused_in_the_pages_words(client):
    client.set_cookie("lang", "fr")
    board = start_game(client)
    form, button = find_button(client.get(board + "?sheet=more").get_data(as_text=True), "adjust")
    refused = submit(client, form, button, extra={"points": "0"}, follow_redirects=True)
    words = _words(refused)
    assert "Les points sont un nombre entier de -50 à 50, sauf 0 : tapez-les à nouveau." in words
    assert "points doit" not in words
    assert client.get("/api" + board).get_json()["version"] == 0


def test_a_hand_made_post_gets_no_field_name_either(client):
    client.set_cookie("lang", "en")
    board = start_game(client)
    form, button = find_button(client.get(board).get_data(as_text=True), "missa.0")
    for move in ("missa.7", "announce", "hidden_ronda.0.5"):
        button.value = move
        words = _words(submit(client, form, button, headers={"X-Board": "1"}))
        assert "side must" not in words and "announcements must" not in words, move
        assert "to is the side" not in words, move


def test_the_api_keeps_its_field_names(client):
    client.set_cookie("lang", "en")
    board = start_game(client)
    answer = client.post("/api" + board + "/events", json={"type": "adjust", "side": 0, "points": 0})
    assert answer.status_code == 400 and answer.get_json()["error"].startswith("points must")


WRONG_CORRECTIONS = {  # the event, the correction a scorer can make, the page's words
    "hidden ronda to its hider": (
        {"type": "hidden_ronda", "side": 1, "to": 0}, {"to": "1"},
        {"fr": "La pénalité va à un autre camp que celui qui a caché la Ronda : choisissez qui la reçoit.",
         "ar": "تذهب العقوبة إلى طرف غير الذي أخفى الروندا: اختر من يأخذها.",
         "en": "The penalty goes to another side than the one that hid the Ronda: pick who gets it."}),
    "count left empty": (
        {"type": "end_hand", "cards": [10, 12, None]}, {"cards0": "", "cards1": ""},
        {"fr": "Tapez les cartes ramassées par chaque camp demandé : le dernier camp a le reste.",
         "ar": "اكتب عدد الأوراق التي جمعها كل طرف مطلوب: يأخذ الطرف الأخير الباقي.",
         "en": "Type the cards taken by every side asked for: the last side gets the rest."}),
    "every announcement taken away": (
        {"type": "announce", "announcements": [{"side": 0, "kind": "ronda"}]}, {"a0_kind": ""},
        {"fr": "Gardez de 1 à 4 annonces ; pour les enlever toutes, retirez ce coup.",
         "ar": "أبقِ من 1 إلى 4 إعلانات؛ لحذفها كلها، احذف هذا الحدث.",
         "en": "Keep 1 to 4 announcements; to take them all away, remove this event."}),
}


@pytest.mark.parametrize("language", ["fr", "ar", "en"])
@pytest.mark.parametrize("case", WRONG_CORRECTIONS)
def test_a_refused_correction_speaks_the_forms_words(client, api, language, case):
    """Seen at the table: "to is the side that gets the penalty…", "…exactly one
    entry is null"."""
    event, edit, sentence = WRONG_CORRECTIONS[case]
    body = {"sides": ["Ali", "Badr", "Chama"], "players": 3, "rules": {"preset": "classique"}}
    game = api.post("/api/games", body).get_json()["id"]
    assert api.event(game, **event).status_code == 200
    client.set_cookie("lang", language)
    refused = press(client, f"/games/{game}/events/1/correct", "change", edit)
    words = _words(refused)
    assert refused.status_code == 400 and sentence[language] in words
    assert "null" not in words and not re.search(r"\bto (est|is|هو)\b", words)
    assert api.state(game)["version"] == 1


@pytest.mark.parametrize("seq", [2 ** 63 - 1, 2 ** 63, 101010101010101010101010])
def test_an_event_number_past_what_the_store_holds_is_not_found(client, api, seq):
    """The fuzzer's find: a number past SQLite's 64-bit INTEGER was a 500."""
    game = api.new_game()["id"]
    api.event(game, type="missa", side=0)
    for method in (client.get, client.post):
        assert method(f"/games/{game}/events/{seq}/correct").status_code in (400, 404)
    assert client.get(f"/games/{game}/events/1/correct").status_code == 200


def test_a_correction_that_would_reopen_a_finished_game_asks_first(client, api):
    """A newcomer removed the winning tap from the review and the game was
    running again, nothing asked: its next tap on the board would count. The
    page asks, the game stays over until the answer, and the API (a client
    that knows what it does) is asked nothing."""
    client.set_cookie("lang", "fr")
    game = api.new_game(sides=["Nadia", "Samir"])["id"]
    assert api.event(game, type="adjust", side=0, points=32).status_code == 200
    assert api.event(game, type="missa", side=0).status_code == 200
    assert api.state(game)["finished"]
    page = f"/games/{game}/events/2/correct"
    asked = press(client, page, "remove")
    words = _words(asked)
    assert asked.status_code == 409
    assert "Cette partie est terminée. Avec cette correction, elle ne l'est plus : son score " \
           "devient 32 – 0 et elle reprend." in words
    assert api.state(game)["finished"] and api.state(game)["version"] == 2  # nothing saved
    assert 'class="correct-form asked"' in asked.get_data(as_text=True)  # a moment untappable
    form, button = find_button(asked.get_data(as_text=True), "remove_and_reopen")
    assert "Rouvrir la partie avec cette correction" in button.label
    reopened = submit(client, form, button)
    assert reopened.status_code == 303
    state = api.state(game)
    assert not state["finished"] and state["scores"] == [32, 0]
    # The API corrects as its contract says, without a question.
    again = api.new_game(sides=["Nadia", "Samir"])["id"]
    api.event(again, type="adjust", side=0, points=32)
    api.event(again, type="missa", side=0)
    answer = client.post(f"/api/games/{again}/corrections", json={"seq": 2, "event": None})
    assert answer.status_code == 200 and not answer.get_json()["finished"]


def test_putting_back_an_event_that_would_reopen_a_finished_game_asks_too(client, api):
    """A penalty removed, the game won; putting the penalty back would leave
    the winner under the target: asked, with its own answer on that page."""
    client.set_cookie("lang", "en")
    game = api.new_game(sides=["Nadia", "Samir"])["id"]
    assert api.event(game, type="adjust", side=0, points=-5).status_code == 200
    client.post(f"/api/games/{game}/corrections", json={"seq": 1, "event": None})
    assert api.event(game, type="adjust", side=0, points=33).status_code == 200
    assert api.state(game)["finished"]
    asked = press(client, f"/games/{game}/events/1/correct", "restore")
    assert asked.status_code == 409 and "its score becomes 28 – 0" in _words(asked)
    assert api.state(game)["finished"]
    form, button = find_button(asked.get_data(as_text=True), "restore_and_reopen")
    assert submit(client, form, button).status_code == 303
    assert not api.state(game)["finished"] and api.state(game)["scores"] == [28, 0]
