"""A double tap on the tap that wins the game. The game-over
page comes under the finger; its second tap, 60 ms to 1.5 s later, must start
no rematch, undo nothing and leave nothing: the winner is seen. With and
without JavaScript. A deliberate tap a moment later does start the rematch."""

import time

import pytest
from playwright.sync_api import expect

from support.table import centre, post, wait_settled

WIN = {"target": 11}


def near_the_end(page, server, chain=True):
    """A game at 10–0 to 11: an open chain of Us +1 (its Over wins), or a
    Tringa to mark and confirm."""
    game = post(page, server, "/api/games", {"sides": ["Nous", "Eux"], "rules": WIN})
    events = [{"type": "adjust", "side": 0, "points": 10}]
    if chain:
        events.append({"type": "hit", "side": 0, "value": 1})
    for event in events:
        post(page, server, f"/api/games/{game['id']}/events", event)
    return game["id"]


def double_tap(page, selector, gap_ms):
    """Two taps at one place, `gap_ms` apart, as a hurried finger does, on a
    page that has settled: the board drawn just after the set-up's last
    event takes no tap for a moment, as after any tap (docs/BOARD.md)."""
    wait_settled(page)
    x, y = centre(page, selector)
    page.touchscreen.tap(x, y)
    time.sleep(gap_ms / 1000)
    page.touchscreen.tap(x, y)
    return x, y


def still_the_result(page, server, game_id, scores=(11, 0)):
    page.wait_for_timeout(800)  # whatever the second tap started has arrived
    expect(page.locator(".over #winner")).to_contain_text("Nous")
    assert page.url.endswith(f"/games/{game_id}")
    state = page.request.get(f"{server.url}/api/games/{game_id}").json()
    assert state["finished"] and state["rematch"] is None and state["scores"] == list(scores)


@pytest.mark.real_time
@pytest.mark.parametrize("javascript, gaps", [(True, (60, 700, 1500)),
                                              (False, (150, 1500))])
def test_a_double_tap_on_the_winning_over_starts_no_rematch(new_phone, server, screenshot,
                                                            javascript, gaps):
    page = new_phone(java_script_enabled=javascript)
    for gap in gaps:
        game_id = near_the_end(page, server)
        page.goto(f"/games/{game_id}")
        double_tap(page, "button[value=chain_end]", gap)
        still_the_result(page, server, game_id)
    screenshot(page, f"win-double-tap-{'js' if javascript else 'nojs'}")
    # The rematch is there all the same, for a deliberate tap.
    x, y = centre(page, "button[value=rematch]")
    page.touchscreen.tap(x, y)
    expect(page).not_to_have_url(f"{server.url}/games/{game_id}")
    expect(page.locator("#board[data-live='1']")).to_be_visible()


@pytest.mark.real_time
@pytest.mark.parametrize("javascript", [True, False])
def test_a_double_tap_on_the_winning_confirm_leaves_the_result(new_phone, server, javascript):
    page = new_phone(java_script_enabled=javascript)
    game_id = near_the_end(page, server, chain=False)
    page.goto(f"/games/{game_id}?a=0-tringa")
    double_tap(page, "button[value=announce]", 150)
    still_the_result(page, server, game_id, (15, 0))


@pytest.mark.real_time
def test_the_result_s_controls_take_no_tap_at_first_then_do(new_phone, server):
    """What the fix is: for a moment after the result appears, a tap on its
    controls goes through to the page (nothing under it acts); then they take it."""
    page = new_phone()
    game_id = near_the_end(page, server)
    page.goto(f"/games/{game_id}")
    page.locator("button[value=chain_end]").tap()
    expect(page.locator(".over")).to_be_visible()
    hit = """() => { const b = document.querySelector('.over button[value=rematch]');
        const r = b.getBoundingClientRect();
        return document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2) === b; }"""
    assert page.evaluate(hit) is False
    page.wait_for_timeout(1500)
    assert page.evaluate(hit) is False  # a finger unsure its tap was taken, again
    page.wait_for_timeout(600)
    assert page.evaluate(hit) is True


def test_the_rematch_s_first_tap_counts_at_once(new_phone, server):
    """Found on the way: a page that had sent a tap kept the turn to send
    (the outbox's, shared by the pages of one phone) for ten seconds, so the
    first tap on the next page, the rematch's, waited that long unseen."""
    page = new_phone()
    game_id = near_the_end(page, server)
    page.goto(f"/games/{game_id}")
    page.locator("button[value=chain_end]").tap()
    page.locator("button[value=rematch]").tap()  # waits until it takes taps
    expect(page).not_to_have_url(f"{server.url}/games/{game_id}")
    rematch = page.locator("#board").get_attribute("data-game")
    page.locator("button[value='missa.0']").tap()
    # The score shows at once either way (predicted): the server must have it.
    deadline = time.monotonic() + 2.5
    while page.request.get(f"{server.url}/api/games/{rematch}").json()["scores"][0] != 1:
        assert time.monotonic() < deadline, "the first tap waited"
        page.wait_for_timeout(100)
