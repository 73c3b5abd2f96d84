"""Playtest 4, finding 6: without JavaScript, Bount then Missa 60 ms later
(another button) lost the Missa, said as "changed on another phone". The
second tap is sent from the page the first was made on (its answer had not
come back yet): the same one-time token, the version before the first tap.
When every record since was made from that very page a moment ago, the
second tap is of the game those taps left, and counts. A double tap on one
button is the same key and counts once; another phone's record since still
refuses it; so does that page's tap a moment later (Back to an old page)."""

from html import unescape

from scorekeeper.web import board

from support.page_forms import find_button, submit
from support.pages import api_state, start_game
from support.pages import text as words

CHANGED = "Modifié sur un autre téléphone : pas compté."


def one_page(client):
    """A 4-player board, its page read once (as a phone without JavaScript
    holds it while its first tap is on its way)."""
    game = start_game(client, players="4", names=("Rachid & Zineb", "Driss & Hiba", ""))
    return game, client.get(game).get_data(as_text=True)


def tap(client, page, move):
    form, button = find_button(page, move)
    return submit(client, form, button)


def shown(client, response):
    return unescape(words(client.get(response.headers["Location"]).get_data(as_text=True)))


def test_a_second_tap_on_another_button_of_the_same_page_counts(french):
    game, page = one_page(french)
    tap(french, page, "hit.0.1")
    answer = tap(french, page, "missa.0")  # before the Bount's page came back
    state = api_state(french, game)
    assert state["version"] == 2 and state["scores"] == [2, 0]  # Bount + Missa: 2
    assert CHANGED not in shown(french, answer)


def test_a_double_tap_on_one_button_still_counts_once(french):
    game, page = one_page(french)
    for move in ("hit.0.1", "missa.0", "hit.0.1", "missa.0"):
        tap(french, page, move)
    state = api_state(french, game)
    assert state["version"] == 2 and state["scores"] == [2, 0]


def test_another_phones_tap_since_still_refuses_it(french):
    game, page = one_page(french)
    tap(french, page, "hit.0.1")
    french.post("/api" + game + "/events", json={"type": "missa", "side": 1})  # another phone
    answer = tap(french, page, "missa.0")
    assert api_state(french, game)["version"] == 2
    assert CHANGED in shown(french, answer)


def test_the_same_page_tapped_again_later_is_refused(french, monkeypatch):
    game, page = one_page(french)
    tap(french, page, "hit.0.1")
    monkeypatch.setattr(board, "JUST_DONE_SECONDS", -1)  # as if tapped again later (Back)
    tap(french, page, "missa.0")
    assert api_state(french, game)["version"] == 1
