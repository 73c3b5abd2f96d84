"""The board drawn just after a tap: the button just recorded (and after a
sheet's move, the whole board) takes no tap for half a second (`settling`,
`settles`: docs/BOARD.md "Taps"), so that the second tap of a double tap,
without JavaScript landing on a new page with new tokens, counts nothing.
A board drawn later takes every tap at once."""

import re

from scorekeeper.web.pages import board as board_page
from support.page_forms import find_button, forms_of, press, submit
from support.pages import start_game


def button_class(html, value):
    return find_button(html, value)[1].attrs.get("class", "")


def board_classes(html):
    return re.search(r'<div id="board" class="([^"]*)"', html).group(1).split()


def test_the_button_just_recorded_settles_and_only_it(french):
    game = start_game(french)
    french.post("/api" + game + "/events", json={"type": "missa", "side": 0})
    html = french.get(game).get_data(as_text=True)
    assert "settling" in button_class(html, "missa.0").split()
    assert "settling" not in button_class(html, "missa.1").split()
    assert "settles" not in board_classes(html)  # a Missa is no sheet's move


def test_after_a_sheets_move_the_whole_board_settles(french):
    game = start_game(french)
    french.post("/api" + game + "/events", json={"type": "adjust", "side": 0, "points": 3})
    assert "settles" in board_classes(french.get(game).get_data(as_text=True))


def test_a_board_drawn_later_takes_every_tap(french, monkeypatch):
    game = start_game(french)
    french.post("/api" + game + "/events", json={"type": "adjust", "side": 0, "points": 3})
    french.post("/api" + game + "/events", json={"type": "missa", "side": 0})
    monkeypatch.setattr(board_page, "JUST_DONE_SECONDS", -1)  # as if drawn later
    html = french.get(game).get_data(as_text=True)
    assert "settling" not in html and "settles" not in board_classes(html)


def test_a_last_record_whose_time_cannot_be_read_settles_nothing(french, db):
    """An imported game's time may have no time zone, or be no time at all."""
    game = start_game(french)
    french.post("/api" + game + "/events", json={"type": "missa", "side": 0})
    for stamp in ("2026-12-01T10:00:00", "yesterday"):
        db.execute("UPDATE events SET created_at = ?", [stamp])
        db.conn.commit()
        response = french.get(game)
        assert response.status_code == 200 and "settling" not in response.get_data(as_text=True)


def test_a_whole_page_after_a_tap_holds_the_button_longer_than_a_board_the_script_draws(french):
    """Without JavaScript the page after a tap comes late on a slow phone,
    and the second tap of a double tap later after it: a newcomer's Next
    deal tapped twice a second apart skipped a deal, a Missa counted twice."""
    game = start_game(french)
    press(french, game, "missa.0")
    press(french, game, "next_deal")
    whole = french.get(game).get_data(as_text=True)
    assert {"settling", "long"} <= set(button_class(whole, "next_deal").split())
    drawn = french.get(game, headers={"X-Board": "1"}).get_data(as_text=True)
    classes = button_class(drawn, "next_deal").split()
    assert "settling" in classes and "long" not in classes
    html = french.get(game).get_data(as_text=True)
    submit(french, [f for f in forms_of(html) if f.action.endswith("/undo")][0])
    undo = re.search(r'<button class="undo-button([^"]*)"', french.get(game).get_data(as_text=True))
    assert undo.group(1).split() == ["settling", "long"]
