"""Announcements marked but not confirmed are never thrown
away unseen. Next deal and End of hand wait for Confirm or Clear (off, saying
why; refused by the server if posted all the same); every other tap keeps the
draft marked. Through the test client, as a phone without JavaScript."""

from html import unescape
from urllib.parse import urlsplit

import pytest

from support.page_forms import find_button, forms_of, submit
from support.pages import api_state, start_game
from support.pages import text as words


def text(html):
    return unescape(words(html))


WAIT = "Des annonces sont marquées mais pas validées : Valider ou Effacer (✕) d'abord."


def marked(client, board):
    """The board with a Tringa marked for the first side, not confirmed."""
    url = f"{board}?a=0-tringa"
    html = client.get(url).get_data(as_text=True)
    assert "Annonces : Nous Tringa" in text(html)
    return url, html


def test_next_deal_waits_for_the_draft_and_says_why(french):
    board = start_game(french)
    url, html = marked(french, board)
    form, button = find_button(html, "next_deal")
    assert button.disabled and button.attrs.get("aria-describedby")
    response = submit(french, form, button)  # a phone without JavaScript posts it anyway
    assert response.status_code == 303
    kept = french.get(response.headers["Location"]).get_data(as_text=True)
    assert "a=0-tringa" in response.headers["Location"]
    assert WAIT in text(kept) and "Annonces : Nous Tringa" in text(kept)
    state = api_state(french, board)
    assert state["deal"] == 1 and state["scores"] == [0, 0]
    # Confirmed, it counts; then the deal goes on.
    submit(french, *find_button(kept, "announce"))
    assert api_state(french, board)["scores"] == [5, 0]
    html = french.get(board).get_data(as_text=True)
    assert not find_button(html, "next_deal")[1].disabled


def test_end_of_hand_waits_for_the_draft(french):
    board = start_game(french)
    url, html = marked(french, board)
    assert 'why=end_hand' in html and "sheet=end" not in html
    said = french.get(f"{url}&why=end_hand").get_data(as_text=True)
    assert WAIT in text(said) and "Annonces : Nous Tringa" in text(said)
    assert "end-sheet" not in said
    # A count posted from a sheet opened with the draft in its address is refused too.
    sheet = french.get(f"{url}&sheet=end").get_data(as_text=True)
    form, button = find_button(sheet, "end_hand")
    response = submit(french, form, button, extra={"cards0": "25", "early": "1"})
    assert WAIT in text(french.get(response.headers["Location"]).get_data(as_text=True))
    assert api_state(french, board)["hand"] == 1


@pytest.mark.parametrize("move", ["hit.0.1", "missa.1"])
def test_a_tap_keeps_the_draft_marked(french, move):
    board = start_game(french)
    url, html = marked(french, board)
    response = submit(french, *find_button(html, move))
    location = response.headers["Location"]
    assert urlsplit(location).query == "a=0-tringa"
    assert "Annonces : Nous Tringa" in text(french.get(location).get_data(as_text=True))


def test_undo_keeps_the_draft_and_confirm_clears_it(french):
    board = start_game(french)
    url, html = marked(french, board)
    html = french.get(submit(french, *find_button(html, "missa.1")).headers["Location"]) \
        .get_data(as_text=True)
    undo = next(f for f in forms_of(html) if f.action.endswith("/undo"))
    location = submit(french, undo).headers["Location"]
    assert urlsplit(location).query == "a=0-tringa"
    html = french.get(location).get_data(as_text=True)
    confirmed = submit(french, *find_button(html, "announce")).headers["Location"]
    assert urlsplit(confirmed).query == ""
    assert api_state(french, board)["scores"] == [5, 0]
