"""Double taps and several phones on one game, in the browser."""

import json
import time

import pytest
from playwright.sync_api import expect

from support.table import expect_scores, hold_polls, open_game, tap


@pytest.mark.real_time
def test_a_double_tap_scores_once(phone):
    open_game(phone)
    phone.get_by_role("button", name="Missa pour Nous").dblclick()
    phone.wait_for_timeout(500)
    expect_scores(phone, 1, 0)
    game = phone.locator("#board").get_attribute("data-game")
    state = json.loads(phone.request.get(f"/api/games/{game}").text())
    assert state["scores"] == [1, 0] and state["version"] == 1


def test_a_double_submit_without_javascript_scores_once(phone_without_js):
    page = phone_without_js
    open_game(page)
    form = page.locator("form.pads")
    # Submit the same page's form twice, as a browser's back-and-resubmit would.
    data = {i.get_attribute("name"): i.get_attribute("value")
            for i in form.locator("input[type=hidden]").all()}
    data["move"] = "missa.1"
    url = form.get_attribute("action")
    first = page.request.post(url, form=data, max_redirects=0)
    second = page.request.post(url, form=data, max_redirects=0)
    assert first.status == second.status == 303
    page.reload()
    expect_scores(page, 0, 1)


@pytest.mark.real_time  # a phone's poll
def test_another_phone_follows_within_two_seconds(phone, new_phone):
    open_game(phone)
    other = new_phone()
    other.goto(phone.url)
    expect_scores(other, 0, 0)
    tap(phone, "Missa pour Eux")
    started = time.monotonic()
    expect(other.locator("#score-1")).to_have_text("1", timeout=2500)
    assert time.monotonic() - started <= 2.5
    # A tap on a board that has followed counts; so does one made on a board
    # that had not yet seen the other phone's tap, when it still means what
    # it meant there (a Missa for the other side); both phones converge.
    game = phone.locator("#board").get_attribute("data-game")
    # The first phone has not yet looked again (its polls see the game as it was).
    release = hold_polls(phone, game)
    tap(other, "Missa pour Nous")
    tap(phone, "Missa pour Eux")
    release()
    expect_scores(phone, 1, 2)
    assert "autre téléphone" not in (phone.locator("#notice").text_content() or "")
    expect(other.locator("#score-1")).to_have_text("2", timeout=2500)


def test_an_undo_from_an_out_of_date_phone_takes_back_what_it_named(phone, new_phone):
    open_game(phone)
    tap(phone, "Missa pour Nous")
    other = new_phone(java_script_enabled=False)  # a screen that does not follow
    other.goto(phone.url)
    tap(phone, "Missa pour Eux")
    other.get_by_role("button", name="↶ Annuler : Missa · \u2068Nous\u2069").tap()
    expect_scores(other, 0, 1)  # that Missa, whatever the other phone tapped since
