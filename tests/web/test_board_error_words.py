"""A board's refusals speak the page's words, not the API's field names
(playtest 1, #9: "points doit être un entier…" after a correction of 0)."""

import html

from support.page_forms import find_button, submit
from support.pages import start_game, text


def _words(response):
    return text(html.unescape(response.get_data(as_text=True)))


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
