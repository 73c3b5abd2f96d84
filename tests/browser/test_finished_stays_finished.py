"""A finished game stays finished unless asked: the history's Review opens
the review; Undo on a game won earlier asks first (a page of its own, which
the second tap of a double tap on Undo does not answer) and right after the
winning tap takes it back in one tap. Either way the reopened board sits
where every board sits: before, the result page's Undo put it back under
that page's top bar, 40 px lower."""

from datetime import datetime, timedelta, timezone

import pytest
from playwright.sync_api import expect

from scorekeeper.service import games
from scorekeeper.storage.db import connect
from support.board_boxes import CONTROLS, MEASURE
from support.table import post, wait_settled

SMALL = {"width": 360, "height": 640}
SIDES = ["Ali", "Karim"]


def boxes(page):
    expect(page.locator("#board[data-live='1'] .pads")).to_be_visible()
    return page.evaluate(MEASURE, CONTROLS)["boxes"]


def normal_board(page, server):
    """The places of a running board's controls, for a game of the same sides."""
    game = post(page, server, "/api/games", {"sides": SIDES, "rules": {"target": 11}})
    post(page, server, f"/api/games/{game['id']}/events",
         {"type": "adjust", "side": 1, "points": 10})
    page.goto(f"/games/{game['id']}")
    return game["id"], boxes(page)


def in_the_history(page, game_id: str):
    """The game's line in the history, newest first: a game of three days ago
    is on a later page when the other tests' games came since."""
    for number in range(1, 100):
        page.goto(f"/games?page={number}")
        line = page.locator(".game-line", has=page.locator(f"a[href='/games/{game_id}']"))
        if line.count():
            return line
    raise AssertionError(f"{game_id} is on no page of the history")


def won_days_ago(server) -> str:
    """A game Karim won three days ago, written in the live server's store."""
    then = datetime.now(timezone.utc) - timedelta(days=3)
    db = connect(server.env["FLASK_DATABASE"])
    try:
        def at(minutes):
            return (then + timedelta(minutes=minutes)).isoformat(timespec="milliseconds")
        game, _ = games.create(db, {"sides": SIDES, "rules": {"target": 11}}, None, at(0))
        games.record(db, game.id, {"type": "adjust", "side": 1, "points": 10}, None, at(5))
        games.record(db, game.id, {"type": "missa", "side": 1}, None, at(9))
        return game.id
    finally:
        db.close()


@pytest.mark.parametrize("javascript", [True, False])
def test_a_game_won_earlier_reopens_after_the_question_where_boards_sit(
        new_phone, server, screenshot, javascript):
    page = new_phone(viewport=SMALL, java_script_enabled=javascript)
    _, normal = normal_board(page, server)
    game_id = won_days_ago(server)
    line = in_the_history(page, game_id)
    line.get_by_role("link", name="Récapitulatif").tap()
    expect(page).to_have_url(f"{server.url}/games/{game_id}/review")
    expect(page.get_by_role("button", name="Revanche")).to_have_count(0)
    page.goto(f"/games/{game_id}")
    wait_settled(page)
    undo = page.locator(".over a.undo-button")  # a link to the question, not the undo
    expect(undo).to_contain_text("Missa")
    undo.tap()
    expect(page).to_have_url(f"{server.url}/games/{game_id}/reopen")
    expect(page.get_by_text("Le niveau des joueurs est recalculé sans elle.")).to_be_visible()
    screenshot(page, f"reopen-question-{'js' if javascript else 'nojs'}")
    state = page.request.get(f"{server.url}/api/games/{game_id}").json()
    assert state["finished"]  # asked, not yet done
    page.get_by_role("button", name="Annuler et rouvrir la partie").tap()
    expect(page).to_have_url(f"{server.url}/games/{game_id}")
    assert boxes(page) == normal
    state = page.request.get(f"{server.url}/api/games/{game_id}").json()
    assert not state["finished"] and state["scores"] == [0, 10]


@pytest.mark.parametrize("reload", [False, True])
def test_right_after_the_winning_tap_one_undo_reopens_where_boards_sit(
        new_phone, server, reload):
    """The winning Missa, then (the result drawn in place, or the page
    reloaded: the result's own page) one tap on Undo."""
    page = new_phone(viewport=SMALL)
    game_id, normal = normal_board(page, server)
    wait_settled(page)
    page.get_by_role("button", name="Missa pour Karim").tap()
    expect(page.locator("#winner")).to_contain_text("Karim")
    if reload:
        page.reload()
    wait_settled(page)
    undo = page.locator(".over button.undo-button")
    expect(undo).to_contain_text("Missa")
    undo.tap()
    expect(page.locator("#board[data-live='1']")).to_be_visible()
    assert page.url == f"{server.url}/games/{game_id}"
    assert boxes(page) == normal


@pytest.mark.real_time
@pytest.mark.parametrize("javascript", [True, False], ids=["js", "nojs"])
@pytest.mark.parametrize("gap_ms", [150, 450])
def test_a_double_tap_on_the_undo_of_a_game_won_earlier_only_asks(
        new_phone, server, javascript, gap_ms):
    """The second tap of a double tap on Undo lands on the question's page,
    whose answers take no tap for a moment, and must answer nothing."""
    page = new_phone(viewport=SMALL, java_script_enabled=javascript)
    game_id = won_days_ago(server)
    page.goto(f"/games/{game_id}")
    wait_settled(page)
    box = page.locator(".over a.undo-button").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.touchscreen.tap(x, y)
    page.wait_for_timeout(gap_ms)  # the gap between the two taps is the subject
    page.touchscreen.tap(x, y)
    expect(page).to_have_url(f"{server.url}/games/{game_id}/reopen")
    page.wait_for_timeout(1200)  # whatever the second tap started has arrived
    expect(page).to_have_url(f"{server.url}/games/{game_id}/reopen")
    state = page.request.get(f"{server.url}/api/games/{game_id}").json()
    assert state["finished"] and state["scores"] == [0, 11]
    # A deliberate tap, once the question has been read, answers it.
    page.get_by_role("button", name="Annuler et rouvrir la partie").tap()
    expect(page).to_have_url(f"{server.url}/games/{game_id}")
    assert not page.request.get(f"{server.url}/api/games/{game_id}").json()["finished"]


@pytest.mark.real_time
@pytest.mark.parametrize("javascript", [True, False], ids=["js", "nojs"])
@pytest.mark.parametrize("language, viewport", [("fr", SMALL), ("ar", {"width": 390, "height": 844}),
                                                ("en", {"width": 360, "height": 740})])
def test_a_second_tap_where_the_undo_was_keeps_the_game_finished(
        new_phone, server, javascript, language, viewport):
    """Tapped again once the question is there (past the moment its answers
    take no tap), the finger that tapped Undo finds no answer under it: the
    answers are above, under the question."""
    page = new_phone(viewport=viewport, java_script_enabled=javascript)
    page.context.add_cookies([{"name": "lang", "value": language, "url": server.url}])
    game_id = won_days_ago(server)
    page.goto(f"/games/{game_id}")
    wait_settled(page)
    box = page.locator(".over a.undo-button").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.touchscreen.tap(x, y)
    expect(page).to_have_url(f"{server.url}/games/{game_id}/reopen")
    page.wait_for_timeout(1200)  # past the answers' moment without taps (style.css, .asked)
    answers = page.locator(".asked").bounding_box()
    assert answers["y"] + answers["height"] < box["y"], (answers, box)
    page.touchscreen.tap(x, y)
    page.wait_for_timeout(500)  # whatever the tap started has arrived
    expect(page).to_have_url(f"{server.url}/games/{game_id}/reopen")
    state = page.request.get(f"{server.url}/api/games/{game_id}").json()
    assert state["finished"] and state["scores"] == [0, 11]
