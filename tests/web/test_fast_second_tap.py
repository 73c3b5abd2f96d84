"""Seen at the table: without JavaScript, Bount then Missa 60 ms later
(another button) lost the Missa, said as "changed on another phone". The
second tap is sent from the page the first was made on (its answer had not
come back yet): the same one-time token, the version before the first tap.
The records since that were made from that very page a moment ago are the
scorer's own: the second tap is judged without them, and counts. A double
tap on one button is the same key and counts once; another phone's record
since is judged by what it changed (a Missa for the same side is the same
tap; for the other side, another one); so is that page's own tap of a
while ago (Back to an old page)."""

from html import unescape

from scorekeeper.service import scoreboard
from support.page_forms import find_button, submit
from support.pages import api_state, start_game
from support.pages import text as words

CHANGED = "Modifié sur un autre téléphone"
ALREADY = "Déjà enregistré sur un autre téléphone : pas compté deux fois."
DEAL_MOVED = "Un autre téléphone est passé à la donne suivante : pas compté."


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


def test_another_phones_same_tap_since_still_refuses_it(french):
    game, page = one_page(french)
    tap(french, page, "hit.0.1")
    french.post("/api" + game + "/events", json={"type": "missa", "side": 0})  # another phone
    answer = tap(french, page, "missa.0")
    assert api_state(french, game)["version"] == 2
    assert ALREADY in shown(french, answer)


def test_another_phones_other_tap_since_does_not(french):
    game, page = one_page(french)
    tap(french, page, "hit.0.1")
    french.post("/api" + game + "/events", json={"type": "missa", "side": 1})  # another phone
    answer = tap(french, page, "missa.0")
    state = api_state(french, game)
    assert state["version"] == 3 and state["scores"] == [2, 1]
    assert CHANGED not in shown(french, answer) and ALREADY not in shown(french, answer)


def test_the_same_page_tapped_again_later_is_judged_as_another_phones(french, monkeypatch):
    game, page = one_page(french)
    tap(french, page, "next_deal")
    monkeypatch.setattr(scoreboard, "OWN_SECONDS", -1)  # as if tapped again later (Back)
    answer = tap(french, page, "missa.0")
    assert api_state(french, game)["version"] == 1
    assert DEAL_MOVED in shown(french, answer)


def test_a_quick_second_tap_after_next_deal_on_the_same_page_counts(french):
    game, page = one_page(french)
    tap(french, page, "next_deal")
    tap(french, page, "missa.0")  # before Next deal's page came back
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
