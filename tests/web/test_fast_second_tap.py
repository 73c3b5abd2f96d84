"""Seen at the table: without JavaScript, Bount then Missa 60 ms later
(another button) lost the Missa, said as "changed on another phone". The
second tap is sent from the page the first was made on (its answer had not
come back yet): the same one-time token, the version before the first tap.
The page's device id makes its records the scorer's own, however long ago:
the second tap is judged without them, and counts. A double tap on one
button is the same key and counts once; another phone's record since is
merged by the rule (a Missa for the same side in the same deal is that
Missa; for the other side, another one)."""

from html import unescape

from support.page_forms import find_button, submit
from support.pages import api_state, start_game
from support.pages import text as words

CHANGED = "Modifié sur un autre téléphone"
ALREADY = "Déjà enregistré sur un autre téléphone : compté une fois."


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


def test_another_phones_same_tap_since_is_that_tap(french):
    game, page = one_page(french)
    tap(french, page, "hit.0.1")
    french.post("/api" + game + "/events", json={"type": "missa", "side": 0})  # another phone
    answer = tap(french, page, "missa.0")
    state = api_state(french, game)
    assert state["version"] == 3 and state["scores"] == [2, 0]  # the Missa counted once
    assert ALREADY in shown(french, answer)


def test_another_phones_other_tap_since_does_not(french):
    game, page = one_page(french)
    tap(french, page, "hit.0.1")
    french.post("/api" + game + "/events", json={"type": "missa", "side": 1})  # another phone
    answer = tap(french, page, "missa.0")
    state = api_state(french, game)
    assert state["version"] == 3 and state["scores"] == [2, 1]
    assert CHANGED not in shown(french, answer) and ALREADY not in shown(french, answer)


def test_the_same_page_tapped_again_later_is_still_that_phones(french):
    """No clock: Back to the page after its Next deal, a while later, and a
    Missa tapped there is that phone's Missa of the deal it moved to."""
    game, page = one_page(french)
    tap(french, page, "next_deal")
    tap(french, page, "missa.0")
    state = api_state(french, game)
    assert state["version"] == 2 and state["deal"] == 2 and state["scores"] == [1, 0]


def test_the_same_button_waiting_twice_is_still_the_pages_own_tap(french):
    """The page's script gives the same button, waiting a second time while
    its board could not follow, a token of its own that begins with the
    page's ("<token>.<more>"): the server knows both taps as that page's, so
    another phone's tap between them does not make the second one stale."""
    game, page = one_page(french)
    form, button = find_button(page, "missa.0")
    token = dict(form.fields)["token"]
    submit(french, form, button)
    french.post("/api" + game + "/events", json={"type": "missa", "side": 1})  # another phone
    answer = submit(french, form, button, extra={"token": token + ".again"})
    state = api_state(french, game)
    assert state["version"] == 3 and state["scores"] == [2, 1]
    assert ALREADY not in shown(french, answer)
