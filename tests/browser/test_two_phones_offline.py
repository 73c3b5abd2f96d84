"""Two real phones score one game, one of them set offline, and the server
merges their taps by the rule of two phones (docs/BOARD.md, "Two phones"):
as redundant scorers (both tap everything), split (each its side's events,
both the Next deal), the late Missa of a deal the other phone left, and an
Undo waiting on one phone while the other taps."""

import json
import re

from playwright.sync_api import expect

from support.table import expect_scores, go_offline, go_online, wait_past_double_tap


def _game(page, server) -> str:
    answer = page.request.post(f"{server.url}/api/games", data=json.dumps(
        {"sides": ["Nous", "Eux"], "players": 2}), headers={"Content-Type": "application/json"})
    return answer.json()["id"]


def _state(page, server, game) -> dict:
    return page.request.get(f"{server.url}/api/games/{game}").json()


def _tap(page, value):
    page.locator(".undo-button" if value == "undo" else f"button[value='{value}']").tap()
    wait_past_double_tap(page)  # the next tap on it is no double tap


def _phones(new_phone, server):
    first, second = new_phone(), new_phone()
    game = _game(first, server)
    for page in (first, second):
        page.goto(f"/games/{game}")
    return game, first, second


def _back(page):
    """The phone online again, every waiting tap sent."""
    go_online(page)
    expect(page.locator("html")).not_to_have_attribute("data-outbox", re.compile("."),
                                                        timeout=15000)


def test_two_redundant_scorers_one_offline_count_each_event_once(new_phone, server):
    game, online, offline = _phones(new_phone, server)
    go_offline(offline)
    for move in ("missa.0", "next_deal", "missa.1"):
        _tap(online, move)
        _tap(offline, move)
    expect(offline.locator("html")).to_have_attribute("data-outbox", "3")
    _back(offline)
    state = _state(online, server, game)
    assert (state["scores"], state["deal"]) == ([1, 1], 2), state
    expect_scores(offline, 1, 1)
    expect(offline.locator(".status-text")).to_contain_text("Donne 2/6")


def test_two_scorers_splitting_the_sides_count_both(new_phone, server):
    game, ours, theirs = _phones(new_phone, server)
    go_offline(ours)
    _tap(ours, "missa.0")
    _tap(theirs, "missa.1")
    _tap(theirs, "next_deal")
    _tap(ours, "next_deal")  # both tap the deal's moves: a phone away knows its deal
    _tap(ours, "missa.0")
    _tap(theirs, "missa.1")
    _back(ours)
    state = _state(theirs, server, game)
    assert (state["scores"], state["deal"]) == ([2, 2], 2), state
    expect_scores(ours, 2, 2)


def test_the_late_missa_of_a_deal_left_counts_in_that_deal(new_phone, server):
    """Offline, a Missa of deal 1; the other phone taps Next deal and a
    Missa of deal 2: back online, the first Missa counts in deal 1, and its
    board says so."""
    game, late, mover = _phones(new_phone, server)
    go_offline(late)
    _tap(late, "missa.0")
    _tap(mover, "next_deal")
    _tap(mover, "missa.0")
    _back(late)
    state = _state(mover, server, game)
    assert (state["scores"], state["deal"]) == ([2, 0], 2), state
    expect(late.locator(".refusal")).to_have_count(0)
    expect(late.locator("#notice")).to_contain_text("Compté dans la donne où il a été touché")


def test_a_deal_closed_offline_over_the_other_phones_missa_says_so_after_the_taps_since(
        new_phone, server):
    """Offline, a Next deal and a Missa of the next deal; meanwhile the
    other phone taps a Missa of deal 1. Back online, the Next deal closed
    deal 1 with that Missa in it, and the board still says so once the
    Missa sent after it is counted (its own answer says nothing), for a
    few seconds."""
    game, away, other = _phones(new_phone, server)
    go_offline(away)
    _tap(away, "next_deal")
    _tap(away, "missa.0")
    _tap(other, "missa.1")
    _back(away)
    state = _state(other, server, game)
    assert (state["scores"], state["deal"]) == ([1, 1], 2), state
    expect(away.locator("#notice")).to_contain_text("Donne close après les touches de l'autre téléphone")
    # Read, it fades, and the hand's and the dealer's lines under it show again.
    expect(away.locator("#notice")).to_be_hidden(timeout=10000)
    expect(away.locator("#board .status-text")).to_contain_text("Donne 2/6")


def test_an_undo_waiting_on_one_phone_takes_back_its_own_tap_while_the_other_taps(
        new_phone, server):
    """A wrong Missa for us, counted; offline, its Undo waits while the other
    phone taps a Bount: back online, the Missa is taken back, the Bount stands."""
    game, first, second = _phones(new_phone, server)
    _tap(first, "missa.0")
    expect_scores(first, 1, 0)
    go_offline(first)
    _tap(first, "undo")
    _tap(second, "hit.1.1")
    _back(first)
    state = _state(second, server, game)
    assert state["scores"] == [0, 0] and state["chain"] is not None, state
    expect_scores(first, 0, 0)
