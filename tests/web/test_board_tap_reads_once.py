"""A board's tap is one write that reads its game once (docs/ARCHITECTURE.md,
"A tap, end to end"): the form is turned into its event inside that write,
and the board it answers is drawn from what the write read."""

import html

from scorekeeper.service import games
from support.page_forms import find_button, forms_of, submit
from support.pages import api_state, start_game


def _reads(monkeypatch) -> list:
    read = []
    real = games._game_from_row
    monkeypatch.setattr(games, "_game_from_row",
                        lambda db, row: read.append(row) or real(db, row))
    return read


def test_a_missa_tapped_on_the_board_reads_its_game_once(client, monkeypatch):
    board = start_game(client)
    page = client.get(board).get_data(as_text=True)
    read = _reads(monkeypatch)
    answer = submit(client, *find_button(page, "missa.0"), headers={"X-Board": "1"})
    assert answer.status_code == 200 and len(read) == 1
    monkeypatch.undo()
    assert api_state(client, board)["scores"] == [1, 0]


def test_a_tap_refused_inside_its_write_changes_nothing_and_says_why(english):
    """Next deal with announcements marked and not confirmed: refused inside
    the write, which writes nothing; the board it answers says why."""
    board = start_game(english)
    page = english.get(board + "?a=0-ronda").get_data(as_text=True)
    answer = submit(english, *find_button(page, "next_deal"), headers={"X-Board": "1"})
    assert answer.status_code == 400
    assert "Announcements are marked but not confirmed" in html.unescape(
        answer.get_data(as_text=True))
    assert api_state(english, board)["version"] == 0


def test_a_tap_on_a_game_that_does_not_exist_is_a_404(client):
    board = start_game(client)
    form = [f for f in forms_of(client.get(board).get_data(as_text=True))
            if f.action.endswith("/play")][0]
    form.action = form.action.replace(board.rsplit("/", 1)[1], "nosuchgame")
    assert submit(client, form, find_button(client.get(board).get_data(as_text=True),
                                            "missa.0")[1]).status_code == 404


def test_an_undo_on_the_board_reads_its_game_once(client, monkeypatch):
    board = start_game(client)
    submit(client, *find_button(client.get(board).get_data(as_text=True), "missa.0"))
    page = client.get(board).get_data(as_text=True)
    undo = [f for f in forms_of(page) if f.action.endswith("/undo")][0]
    read = _reads(monkeypatch)
    answer = submit(client, undo, headers={"X-Board": "1"})
    assert answer.status_code == 200 and len(read) == 1
    monkeypatch.undo()
    assert api_state(client, board)["scores"] == [0, 0]
