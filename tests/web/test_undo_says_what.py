"""Without the page's script an Undo is a whole page: the score changed and
the Undo's label moved on to the event before, so the page names what was
taken back. With the script the board changes in place and says nothing."""

import html

from support.page_forms import find_button, forms_of, submit
from support.pages import notice, start_game


def _undo(client, board, **kwargs):
    page = client.get(board).get_data(as_text=True)
    return submit(client, [f for f in forms_of(page) if f.action.endswith("/undo")][0], **kwargs)


def test_an_undo_without_the_script_names_what_it_took_back(french):
    board = start_game(french)
    submit(french, *find_button(french.get(board).get_data(as_text=True), "missa.1"))
    undone = _undo(french, board)
    assert undone.status_code == 303
    assert notice(french.get(undone.headers["Location"])) == "Annulé : Missa · Eux"


def test_an_undo_of_a_count_names_the_count(english):
    board = start_game(english)
    page = english.get(board + "?sheet=end&cards0=24&hand=1&ask=early").get_data(as_text=True)
    submit(english, *find_button(page, "end_hand"), {"cards0": "24", "early": "1"})
    undone = _undo(english, board)
    said = notice(english.get(undone.headers["Location"]))
    assert said.startswith("Undone: ") and "24" in said, said


def test_an_undo_with_the_script_says_nothing_more(french):
    board = start_game(french)
    submit(french, *find_button(french.get(board).get_data(as_text=True), "missa.1"))
    answer = _undo(french, board, headers={"X-Board": "1"})
    assert answer.status_code == 200
    assert "Annulé :" not in html.unescape(answer.get_data(as_text=True))
